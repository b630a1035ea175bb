#!/usr/bin/env bash
# What a sweep item costs beyond its windows (docs/performance.md, "Where an
# item's time goes"): sweeps the same plan with each hgemm-bench binary given
# (a build before a change and one after, say) at each pair of windows, and
# prints per binary and windows: items a minute, the mean item, its windows
# and what lies beyond them (mean, median and 90th percentile over the
# items), then the sweep's own sums of every part of the items' cost
# (journal.jsonl's "cost" and "ahead").  With AA=1 it then runs an offline
# A/A sweep (the baseline AA_BASELINE timed as the candidate) with each
# binary and prints the A/A speedups side by side: a faster harness must not
# move them.  A benchmark, not a test: `make test` never runs it and it
# asserts nothing.  Every pass writes a folder of its own under OUT.
#
# usage: scripts/bench_sweep_overhead.sh OUT CANDIDATE MNK_FILE [NAME=BINARY ...]
#   (no binary: now=build/hgemm-bench)
# environment: WINDOWS ("0.3:0.7 1:2": warm-up:timed seconds), MODES
#   (offline,server), DEVICES (0; "all" for every GPU: items a minute then
#   covers the host), AA (0), AA_BASELINE (cublas-nn), AA_MNK ("64,64,64
#   256,256,256 1024,1024,1024 4096,4096,4096"), AA_WINDOWS (1:2), EXTRA
#   (more flags for every sweep, e.g. "--form launcher")
set -euo pipefail
out=${1:?usage: scripts/bench_sweep_overhead.sh OUT CANDIDATE MNK_FILE [NAME=BINARY ...]}
candidate=${2:?the candidate folder}
mnk_file=${3:?the mnk file (one M_N_K per line)}
shift 3
benches=("$@")
[ ${#benches[@]} -gt 0 ] || benches=("now=build/hgemm-bench")
windows=${WINDOWS:-"0.3:0.7 1:2"}
modes=${MODES:-offline,server}
devices=${DEVICES:-0}
read -r -a extra <<< "${EXTRA:-}"
mkdir -p "$out"
cache="$out/autotune.tsv" # shared: every binary runs the algorithms one search chose

# A sweep; its stderr kept in $out/$name.log.  Returns the sweep's status (a failing item is a verdict, not an error
# of the benchmark, so exit 0 and the codes of failed items are both fine).
sweep() {
    local bin=$1 name=$2
    shift 2
    "$bin" sweep "$@" --autotune-cache "$cache" --devices "$devices" --no-progress --out "$out/$name" \
        "${extra[@]}" > "$out/$name.log" 2>&1 || true
    [ -f "$out/$name/journal.jsonl" ] || { echo "bench_sweep_overhead.sh: $name wrote no journal (see $out/$name.log)" >&2; exit 1; }
}

# Mean, median and p90 of wall - windows (the item's and its reference's) over the journal's items, and their count; "-" where no line has a cost.
beyond_windows() {
    awk '
    function field(name,   r) {
        if (!match($0, "\"cost\":\\{[^}]*")) return 0
        r = substr($0, RSTART, RLENGTH)
        if (!match(r, "\"" name "\":[-0-9.eE+]+")) return 0
        return substr(r, RSTART + length(name) + 3, RLENGTH - length(name) - 3) + 0
    }
    /"cost":/ { over[n++] = field("wall") - field("warmup") - field("timed") - field("reference_windows"); sum += over[n - 1] }
    END {
        if (n == 0) { print "- - - 0"; exit }
        for (i = 1; i < n; i++) for (j = i; j > 0 && over[j - 1] > over[j]; j--) { t = over[j]; over[j] = over[j - 1]; over[j - 1] = t }
        printf "%.3f %.3f %.3f %d\n", sum / n, over[int((n - 1) / 2)], over[int(0.9 * (n - 1) + 0.5)], n
    }' "$1"
}

command -v nvidia-smi > /dev/null 2>&1 &&
    nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | head -n 1 | sed 's/^/GPU: /'
echo "host: $(nproc) cores; candidate $candidate; $(grep -c . "$mnk_file") configurations, modes $modes, devices $devices"

# One warm pass per binary: the autotune searches and the replays' first recordings are paid once per
# configuration in any sweep; the passes below measure the steady state.
first=${windows%% *}
for entry in "${benches[@]}"; do
    name=${entry%%=*} bin=${entry#*=}
    sweep "$bin" "warm-$name" --candidate "$candidate" --mnk-file "$mnk_file" --modes "$modes" \
        --warmup-s "${first%%:*}" --time-s "${first##*:}"
done

printf "\n%-8s %-9s %6s %9s %8s %8s %8s %8s %8s\n" binary windows items items/min s/item windows beyond median p90
for w in $windows; do
    for entry in "${benches[@]}"; do
        name=${entry%%=*} bin=${entry#*=}
        run="sweep-$name-${w/:/+}"
        # fresh references: a new set's sweep measures each configuration's, where its form needs one
        sweep "$bin" "$run" --candidate "$candidate" --mnk-file "$mnk_file" --modes "$modes" \
            --warmup-s "${w%%:*}" --time-s "${w##*:}" --baseline-reference fresh
        line=$(grep -E "items a minute" "$out/$run.log" | tail -n 1 || true)
        rate=$(sed -E 's/.*: ([0-9.]+) items a minute.*/\1/' <<< "$line")
        per=$(sed -E 's/.*, ([0-9.]+) s an item: windows ([0-9.]+) s.*/\1 \2/' <<< "$line")
        read -r mean median p90 count <<< "$(beyond_windows "$out/$run/journal.jsonl")"
        printf "%-8s %-9s %6s %9s %8s %8s %8s %8s %8s\n" "$name" "${w/:/+}" "$count" "${rate:--}" \
            "${per%% *}" "${per##* }" "$mean" "$median" "$p90"
        echo "         ${line#*s); }" | cut -c1-2000
    done
done

[ "${AA:-0}" = 1 ] || exit 0
aa=${AA_BASELINE:-cublas-nn}
aa_windows=${AA_WINDOWS:-1:2}
aa_mnk="$out/aa-mnk.txt"
for c in ${AA_MNK:-64,64,64 256,256,256 1024,1024,1024 4096,4096,4096}; do echo "${c//,/_}"; done > "$aa_mnk"
echo
echo "A/A offline: $aa timed as the candidate, ${aa_windows/:/ s + } s windows; the headline speedup over $aa, %"
for entry in "${benches[@]}"; do
    name=${entry%%=*} bin=${entry#*=}
    sweep "$bin" "aa-$name" --aa "$aa" --mnk-file "$aa_mnk" --modes offline \
        --warmup-s "${aa_windows%%:*}" --time-s "${aa_windows##*:}"
    echo "== $name"
    "$(dirname "$0")/speedup_table.sh" "$out/aa-$name/summary.csv" "$aa" | cut -c1-60
done
