#!/usr/bin/env bash
# How fast `report` is (docs/reports.md, "Speed"): builds build/make-results
# (scripts/make_results.c on tests/result_fixture.c, the run's own
# summary.csv writer) and build/hgemm-report, makes a result folder of COUNT
# configurations of the paper's grid in both modes (11 rows each: about
# 22,000 rows for 1,000), and times `hgemm-report report` on it, pinned to
# one CPU core, RUNS times: tables only, then with --out (every file), then
# with --plots (gnuplot, if installed).  Target: under 2 s for 1,000
# configurations x 2 modes on one core.  A benchmark, not a test: `make test`
# never runs it and it asserts nothing.
# usage: scripts/bench_report.sh [COUNT [RUNS]]   environment: BUILD (build)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${BUILD:-build}
count=${1:-1000}
runs=${2:-5}
make -C "$here/.." --no-print-directory BUILD="$build" "$build/make-results" "$build/hgemm-report" >&2 \
    || { echo "bench_report.sh: building failed (see above)" >&2; exit 1; }
report="$here/../$build/hgemm-report"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$here/../$build/make-results" "$work/results" "$count" 1
rows=$(($(wc -l < "$work/results/summary.csv") - 1))
cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
echo "CPU: ${cpu:-unknown} ($(nproc) cores online); pinned to core 0"
echo "input: $count configurations x 2 modes, $rows rows, $(du -h "$work/results/summary.csv" | cut -f1) of summary.csv"

# best and median wall seconds of RUNS runs of the command
time_runs() {
    local times=()
    for _ in $(seq "$runs"); do
        local start end
        start=$(date +%s.%N)
        taskset -c 0 "$@" > /dev/null
        end=$(date +%s.%N)
        times+=("$(awk -v s="$start" -v e="$end" 'BEGIN { print e - s }')")
    done
    printf '%s\n' "${times[@]}" | sort -n | awk '{ t[NR] = $1 } END { printf "best %.3f s, median %.3f s (%d runs)\n", t[1], t[int((NR + 1) / 2)], NR }'
}
echo "report (markdown on stdout):       $(time_runs "$report" report "$work/results")"
echo "report --out (every table, files): $(time_runs "$report" report "$work/results" --out "$work/out")"
if command -v gnuplot > /dev/null; then
    echo "report --out --plots (gnuplot):    $(time_runs "$report" report "$work/results" --out "$work/out" --plots)"
fi
