#!/usr/bin/env bash
# What the always-on call monitor costs a timed call on this GPU
# (docs/trace.md, "What it costs"): builds build/bench-call-monitor
# (scripts/bench_call_monitor.c, on the harness's own timed call and monitor)
# and runs it on GPU 0 at 64^3, 4096^3 and 16384^3: torch's cublasGemmEx in
# blocks that alternate between the monitor on and off, medians and p10/p90
# of the event and wall times in each state, and their difference.  A
# benchmark, not a test: `make test` never runs it and it asserts nothing.
# usage: scripts/bench_call_monitor.sh [BLOCKS]   (default 8 of each state)
# environment: BUILD (build), CUDA_VISIBLE_DEVICES to pick the GPU
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${BUILD:-build}
make -C "$here/.." --no-print-directory BUILD="$build" "$build/bench-call-monitor" >&2 \
    || { echo "bench_call_monitor.sh: building $build/bench-call-monitor failed (see above)" >&2; exit 1; }
if command -v nvidia-smi >/dev/null 2>&1; then
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>/dev/null | head -n 1 \
        | sed 's/^/nvidia-smi: /' || true
fi
exec "$here/../$build/bench-call-monitor" "$@"
