#!/usr/bin/env bash
# What the per-call output scan costs on this GPU (docs/methodology.md,
# "Every call's output scanned"): builds build/bench-output-scan
# (scripts/bench_output_scan.c against the harness's own scan kernel) and
# runs it on GPU 0 at output sizes 64 x 64, 4096 x 4096 and 16384 x 16384.
# Per size: the scan kernel alone (CUDA events; a clean output and a wholly
# poisoned one), the host's cost of enqueuing it, and the poison fill of the
# same output for comparison; then the per-round read-back of the counters
# (wall clock).  Median, p10 and p90 in microseconds.  A benchmark, not a
# test: `make test` never runs it and it asserts nothing.
# usage: scripts/bench_output_scan.sh [WARMUP REPEATS]   (default 20 200)
# environment: BUILD (build), CUDA_VISIBLE_DEVICES to pick the GPU
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${BUILD:-build}
make -C "$here/.." --no-print-directory BUILD="$build" "$build/bench-output-scan" >&2 \
    || { echo "bench_output_scan.sh: building $build/bench-output-scan failed (see above)" >&2; exit 1; }
if command -v nvidia-smi >/dev/null 2>&1; then
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>/dev/null | head -n 1 \
        | sed 's/^/nvidia-smi: /' || true
fi
exec "$here/../$build/bench-output-scan" "$@"
