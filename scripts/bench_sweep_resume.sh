#!/usr/bin/env bash
# What resuming a sweep costs before it runs anything (docs/sweeps.md,
# "Resume"): builds build/bench-sweep-resume, which writes a finished sweep
# of the paper's 1000 configurations in two modes (2000 items, 22,000 rows
# of summary.csv) with synthetic figures, then times `hgemm-bench sweep
# --resume` on it five times: reading plan.json, parsing the settings,
# reading and checking the journal and summary.csv, the checks before the
# GPU, and writing verdict.json (nothing is left to run, so no GPU is
# needed).  Note: the generator fsyncs every item, as the sweep does; on a
# slow disk it takes a while.  A benchmark, not a test.
# usage: scripts/bench_sweep_resume.sh     environment: BUILD (build)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-build}
make -C "$here" --no-print-directory BUILD="$build" "$build/bench-sweep-resume" "$build/hgemm-bench" candidates >&2
dir=$(mktemp -d "${TMPDIR:-/tmp}/hb-resume-bench.XXXXXX")
trap 'rm -rf "$dir"' EXIT
"$here/$build/bench-sweep-resume" "$dir/sweep" "$here/$build/candidates/sample_mma/manifest.json" 2>/dev/null \
    || { mkdir -p "$dir/sweep" && "$here/$build/bench-sweep-resume" "$dir/sweep" "$here/$build/candidates/sample_mma/manifest.json"; }
cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
echo "CPU: ${cpu:-unknown}; journal $(wc -l < "$dir/sweep/journal.jsonl") lines, summary.csv $(wc -l < "$dir/sweep/summary.csv") lines ($(du -h "$dir/sweep/summary.csv" | cut -f1))"
for i in 1 2 3 4 5; do
    start=$(date +%s%N)
    HGEMM_BENCH_CACHE_DIR="$dir" "$here/$build/hgemm-bench" sweep --resume "$dir/sweep" --no-progress 2>/dev/null
    end=$(date +%s%N)
    echo "resume $i: $(( (end - start) / 1000000 )) ms"
done
