#!/usr/bin/env bash
# The layering rule of docs/architecture.md, checked on every #include of the
# harness's C and CUDA sources:
#   - a file belongs to the layer whose folder holds it, at any depth (an
#     import format's bench/import/<format>/ is the import layer; bench/
#     itself holds no code: every source file under it is in a layer folder);
#   - it includes project headers written from the repository root
#     ("bench/core/stats.h"), and only from its own layer or the layers the
#     table lets it include;
#   - a layer marked "no" for CUDA headers includes none (<cuda*.h>, <cublas*.h>,
#     <nvml.h>, <cupti*.h>, ...).
# The table between the layers:begin and layers:end markers is the rule; this
# script holds no layer names of its own.  Usage: check_layers.sh [ROOT]
# (default: this repository).  Exit 0 when every include is allowed, 1 with a
# line per violation otherwise.
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"
doc=docs/architecture.md
[ -f "$doc" ] || { echo "check_layers: $root/$doc is missing" >&2; exit 1; }

# "layer<TAB>folder<TAB>allowed layers, comma-separated<TAB>yes|no", one per row.
rules=$(awk -F'|' '
    /<!-- layers:begin/ { on = 1; next }
    /<!-- layers:end/   { on = 0 }
    on && /^\|/ && $2 !~ /^ *-+ *$/ && $2 !~ /^ *layer *$/ {
        for (i = 2; i <= 5; i++) { gsub(/^ +| +$|`/, "", $i) }
        gsub(/ /, "", $4)
        printf "%s\t%s\t%s\t%s\n", $2, $3, $4, $5
    }' "$doc")
[ -n "$rules" ] || { echo "check_layers: no layer table between the markers in $doc" >&2; exit 1; }

folders=$(printf '%s\n' "$rules" | cut -f2)
sources=$(for f in $folders; do [ -d "$f" ] && find "$f" -type f \( -name '*.c' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh' \); done
          find bench -maxdepth 1 -type f \( -name '*.c' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh' \) 2>/dev/null || true)
existing=$(find . -path ./.git -prune -o -path ./build -prune -o -type f -print | sed 's|^\./||')

status=0
# Every layer folder exists, and every folder under bench/ is a layer.
for f in $folders; do
    [ -d "$f" ] || { echo "$doc: layer folder $f does not exist"; status=1; }
done
for d in bench/*/; do
    # a here-string, not a pipe: grep -q stops at the first match, and under pipefail the
    # writer's SIGPIPE would fail the pipeline at random (seen in `make -j2 test`)
    grep -qxF -- "$d" <<<"$folders" || { echo "$d: a folder under bench/ that $doc does not list as a layer"; status=1; }
done

awk -v rules="$rules" -v existing="$existing" '
    function layer_of(path,    l, best, len) {
        best = ""; len = 0
        for (l in folder)
            if (index(path, folder[l]) == 1 && length(folder[l]) > len) { best = l; len = length(folder[l]) }
        return best
    }
    function fail(message) { print FILENAME ":" FNR ": " message; bad = 1 }
    BEGIN {
        n = split(rules, row, "\n")
        for (i = 1; i <= n; i++) {
            split(row[i], f, "\t")
            folder[f[1]] = f[2]; cuda[f[1]] = f[4]
            m = split(f[3], a, ","); for (j = 1; j <= m; j++) allowed[f[1], a[j]] = 1
        }
        m = split(existing, e, "\n"); for (j = 1; j <= m; j++) exists[e[j]] = 1
    }
    FNR == 1 {
        layer = layer_of(FILENAME)
        if (layer == "") print FILENAME ": source file outside every layer folder (bench/ itself holds no code)", bad = 1
    }
    /^[ \t]*#[ \t]*include[ \t]*"/ {
        path = $0; sub(/^[^"]*"/, "", path); sub(/".*$/, "", path)
        if (path ~ /^gen\//) next  # generated into the build folder (Makefile)
        if (!(path in exists)) { fail("#include \"" path "\": not a file named from the repository root"); next }
        target = layer_of(path)
        if (target == "") { fail("#include \"" path "\": outside every layer"); next }
        if (target != layer && !((layer, target) in allowed))
            fail("#include \"" path "\": layer " layer " may not include layer " target " (docs/architecture.md)")
        next
    }
    /^[ \t]*#[ \t]*include[ \t]*</ && cuda[layer] == "no" {
        header = $0; sub(/^[^<]*</, "", header); sub(/>.*$/, "", header)
        if (header ~ /^(cuda|cublas|cupti|nvml|nvrtc|curand|cufft|cusparse|cusolver|driver_types|vector_types|library_types)/)
            fail("#include <" header ">: layer " layer " is CUDA-free (docs/architecture.md)")
    }
    END { exit bad }
' $sources || status=1

[ $status -eq 0 ] && echo "check_layers: ok ($(printf '%s\n' "$sources" | wc -l) files, $(printf '%s\n' "$rules" | wc -l) layers)"
exit $status
