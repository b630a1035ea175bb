#!/usr/bin/env bash
# What --target-ci costs on this CPU (docs/methodology.md, "Adaptive
# stopping"): builds build/bench-target-ci (scripts/bench_target_ci.c against
# the harness's own objects) and runs it on windows of 1e5 and 1e6 rounds of a
# candidate and 7 baselines.  It prints, per size, the timing thread's cost
# per round (add_round plus a poll) with the worker idle and busy, the cost of
# a poll that posts a request, the worker's time per evaluation, and the
# synchronous check it replaced.  A benchmark, not a test: `make test` never
# runs it and it asserts nothing.
# usage: scripts/bench_target_ci.sh [ROUNDS...]   environment: BUILD (build)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${BUILD:-build}
make -C "$here/.." --no-print-directory BUILD="$build" "$build/bench-target-ci" >&2 \
    || { echo "bench_target_ci.sh: building $build/bench-target-ci failed (see above)" >&2; exit 1; }
cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
echo "CPU: ${cpu:-unknown} ($(nproc) cores online)"
exec "$here/../$build/bench-target-ci" "$@"
