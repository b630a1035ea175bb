#!/usr/bin/env bash
# Benchmark (asserts nothing; never run by make test): how long `import cuda-l2` takes to build N files of a
# CUDA-L2 set, the importer's old behaviour against its defaults, on one host (docs/performance.md, "Import").
#
# usage: scripts/bench_import.sh REPO CUTLASS [SET] [N] [OUT] [again]
#   REPO     a CUDA-L2 clone (or its unpacked tarball): REPO/kernels/<set folder>/M_N_K.cu
#   CUTLASS  a CUTLASS v4.2.1 checkout (or unpacked tarball): CUTLASS/include/cutlass/version.h
#   SET      h100 (default), a100-fp32, a100-fp16 or 3090
#   N        how many of the set's files (default 200): every (files/N)-th of the set in M, N, K order, so the
#            sample spans the set's sizes and kinds
#   OUT      where the runs go (default: a new folder under /tmp); each run imports into a fresh cache there
#   again    a third run: the defaults once more with --rebuild into the second run's cache, so its builds are
#            ordered by the build history the second run wrote rather than by the model
#
# The runs, one after another on the same host (nothing else should build meanwhile):
#   before  --order given -j <cores online>  the importer's old behaviour: the set's order, one build per core
#   after   the defaults: costliest first, -j from the cores and the memory available
# Both take the same --build-timeout (the default, 1800 s), so a file past it counts alike in both.
# HGEMM_BENCH (default build/hgemm-bench) and NVCC (default: the importer's own choice) may be set.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
repo=${1:?usage: scripts/bench_import.sh REPO CUTLASS [SET] [N] [OUT] [again]}
cutlass=${2:?usage: scripts/bench_import.sh REPO CUTLASS [SET] [N] [OUT] [again]}
set_name=${3:-h100}
count=${4:-200}
out=${5:-$(mktemp -d /tmp/bench_import.XXXXXX)}
again=${6:-}
bench=${HGEMM_BENCH:-$root/build/hgemm-bench}

case $set_name in
h100) folder=h100_F32F16F16F32 arch=sm_90a ;;
a100-fp32) folder=a100_F32F16F16F32 arch=sm_80 ;;
a100-fp16) folder=a100_F16F16F16F16 arch=sm_80 ;;
3090) folder=3090_F32F16F16F32 arch=sm_86 ;;
*) echo "bench_import: unknown set '$set_name' (h100, a100-fp32, a100-fp16, 3090)" >&2; exit 2 ;;
esac
kernels=$repo/kernels/$folder
[ -d "$kernels" ] || { echo "bench_import: no $kernels (give a CUDA-L2 clone)" >&2; exit 2; }
[ -f "$cutlass/include/cutlass/version.h" ] || { echo "bench_import: no CUTLASS at $cutlass" >&2; exit 2; }
[ -x "$bench" ] || { echo "bench_import: no $bench (run make, or set HGEMM_BENCH)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "bench_import: python3 is needed to read import.csv" >&2; exit 2; }
mkdir -p "$out"
nvcc_flag=()
[ -n "${NVCC:-}" ] && nvcc_flag=(--nvcc "$NVCC")

# The sample: every (files/N)-th file of the set in M, N, K order, as M,N,K lines.
plan=$out/plan.txt
find "$kernels" -maxdepth 1 -name '[0-9]*_[0-9]*_[0-9]*.cu' -printf '%f\n' | sed 's/\.cu$//' |
    sort -t_ -k1,1n -k2,2n -k3,3n | awk -v n="$count" '{ f[NR] = $0 }
        END { if (n > NR) n = NR; for (i = 0; i < n; i++) { j = int(i * NR / n) + 1; gsub("_", ",", f[j]); print f[j] } }' \
    >"$plan"
files=$(wc -l <"$plan")

cores=$(nproc --all 2>/dev/null || getconf _NPROCESSORS_ONLN)
affinity=$(nproc)
mem_gib=$(awk '/^MemAvailable:/ { printf "%.0f", $2 / 1048576 }' /proc/meminfo)
echo "bench_import: $files files of $folder, $(uname -n): $cores cores online ($affinity usable), ${mem_gib} GiB" \
     "available, $("$bench" --version 2>/dev/null | head -1 || echo hgemm-bench)"
echo "bench_import: load before: $(cut -d' ' -f1-3 /proc/loadavg)"

# run NAME FLAGS...: one import into OUT/NAME (a fresh cache unless the flags name one), timed.
run() {
    local name=$1
    shift
    rm -rf "${out:?}/$name"
    local start end status=0
    start=$(date +%s.%N)
    "$bench" import cuda-l2 --kernels "$kernels" --cutlass "$cutlass" --arch "$arch" --mnk-file "$plan" \
        --out "$out/$name" "${nvcc_flag[@]}" "$@" >"$out/$name.out" 2>"$out/$name.err" || status=$?
    end=$(date +%s.%N)
    echo "$start $end $status" >"$out/$name.time"
}

# summary NAME LABEL FLAGS: the figures of one run, from its time, its stderr and its import.csv.
summary() {
    python3 - "$out/$1" "$2" "$3" <<'EOF'
import csv, re, statistics, sys
base, label, flags = sys.argv[1], sys.argv[2], sys.argv[3]
start, end, status = open(base + ".time").read().split()
wall = float(end) - float(start)
err = open(base + ".err").read()
width = re.findall(r"import: (\d+) builds at once", err)
rows = list(csv.DictReader(open(base + "/import.csv")))
ran = [r for r in rows if r["state"] in ("built", "failed") and r.get("predicted_seconds")]
built = sum(r["state"] in ("built", "cached") for r in rows)
failed = [r for r in rows if r["state"] == "failed"]
timeouts = sum(r["failure_class"] == "timeout" for r in failed)
secs = [float(r["build_seconds"]) for r in ran if r["build_seconds"]]
stages = ["front_end", "cicc", "ptxas", "host_compile", "other", "link", "record"]
sums = {s: sum(float(r[s + "_seconds"] or 0) for r in ran) for s in stages}
total = sum(sums.values()) or 1
slow = max(ran, key=lambda r: float(r["build_seconds"] or 0)) if ran else None
peak = max((float(r["peak_rss_mib"] or 0) for r in ran), default=0)
print(f"== {label} ({flags}) ==")
print(f"  wall time            {wall:.0f} s ({wall / 60:.1f} min); exit {status}")
print(f"  builds at once       {width[-1] if width else '?'}")
print(f"  files                {len(rows)}: {built} built, {len(failed)} failed ({timeouts} past --build-timeout), "
      f"{sum(r['state'] == 'skipped' for r in rows)} skipped")
if secs:
    print(f"  build time           median {statistics.median(secs):.0f} s, max {max(secs):.0f} s, "
          f"sum {sum(secs):.0f} s over {len(secs)} builds")
print("  stage split          " + ", ".join(f"{s} {100 * sums[s] / total:.0f} %" for s in stages))
if slow:
    print(f"  slowest file         {slow['m']}_{slow['n']}_{slow['k']} ({slow['kind']}): {float(slow['build_seconds']):.0f} s,"
          f" predicted {float(slow['predicted_seconds'] or 0):.0f} s, dominant stage {slow['dominant_stage']}")
print(f"  largest build        {peak / 1024:.1f} GiB resident")
failed_names = ", ".join(f"{r['m']}_{r['n']}_{r['k']} [{r['failure_class']}]" for r in failed[:12])
if failed_names:
    print(f"  failed               {failed_names}{', ...' if len(failed) > 12 else ''}")
row = (f"| {label} | `{flags}` | {width[-1] if width else '?'} | {wall / 60:.1f} min | {built} / {len(failed)} | "
       f"{statistics.median(secs) if secs else 0:.0f} s / {max(secs) if secs else 0:.0f} s | "
       f"{', '.join(f'{s} {100 * sums[s] / total:.0f} %' for s in ('front_end', 'cicc', 'ptxas', 'host_compile'))} | "
       f"{(slow['m'] + '_' + slow['n'] + '_' + slow['k']) if slow else ''} {float(slow['build_seconds']) if slow else 0:.0f} s |")
open(base + ".row", "w").write(row + "\n")
EOF
}

before_flags="--order given -j $cores"
run before --order given -j "$cores"
summary before before "$before_flags"
run after
summary after after "defaults"
if [ "$again" = again ]; then
    # the second run's cache and history; --rebuild builds every file again, ordered by what the history says
    run again --cache "$out/after/.cache" --rebuild
    summary again "after, again" "defaults, --rebuild, the history of 'after'"
fi
echo "bench_import: load after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "docs/performance.md rows (run | flags | -j | wall | built / failed | median / max build | stage split | slowest):"
cat "$out"/before.row "$out"/after.row
[ -f "$out/again.row" ] && cat "$out/again.row"
echo "bench_import: the runs are in $out"
