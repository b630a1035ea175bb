#!/usr/bin/env bash
# What the sandbox costs (docs/methodology.md, "The sandbox").  A benchmark,
# not a test: `make test` never runs it and it asserts nothing.
#
# On the CPU (the default): builds build/bench-sandbox (scripts/bench_sandbox.c
# against the harness's own objects) and runs it: fresh child processes,
# sandboxed or not in turn, each timing CALLS getppid() system calls (every
# filter reads and passes them: what any system call on the timed path pays)
# and CALLS clock_gettime(CLOCK_MONOTONIC) reads (the vDSO, no system call:
# the wall timer's clock), and the time to apply the sandbox; medians over
# TRIALS, ns per call.
#
# On a GPU (`gpu`): a timed call's cost.  A/A offline at MNK (cublas-nn timed
# against a second instance of itself), REPEATS runs with --sandbox on and as
# many with --sandbox off, alternating; per run the candidate row's (aa:cublas-nn)
# event and wall medians and the A/A speedup, then each side's median of them.
# The sandbox binds the whole evaluating process, both participants alike: the
# A/A speedup stays near 0 either way, and the difference of the medians
# between the sides is the sandbox's cost on a timed call.
#
# usage: scripts/bench_sandbox.sh [CALLS [TRIALS]]
#        scripts/bench_sandbox.sh gpu [REPEATS]       (default 3)
# environment: BUILD (build); gpu: HB_SANDBOX_OUT (results/sandbox-cost),
#   HB_SANDBOX_MNK (64,64,64), WARMUP_S (2), TIME_S (10), CUDA_VISIBLE_DEVICES
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${BUILD:-build}
if [ "${1:-}" != gpu ]; then
    make -C "$here/.." --no-print-directory BUILD="$build" "$build/bench-sandbox" >&2 \
        || { echo "bench_sandbox.sh: building $build/bench-sandbox failed (see above)" >&2; exit 1; }
    cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
    echo "CPU: ${cpu:-unknown} ($(nproc) cores online); kernel $(uname -r)"
    exec "$here/../$build/bench-sandbox" "$@"
fi
repeats=${2:-3}
bench=$here/../$build/hgemm-bench
out=${HB_SANDBOX_OUT:-results/sandbox-cost}
mnk=${HB_SANDBOX_MNK:-64,64,64}
command -v python3 >/dev/null || { echo "bench_sandbox.sh: python3 is needed to read summary.csv" >&2; exit 2; }
[ -x "$bench" ] || { echo "bench_sandbox.sh: $bench is missing: run make first" >&2; exit 2; }
if command -v nvidia-smi >/dev/null 2>&1; then
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1 | sed 's/^/nvidia-smi: /' || true
fi
echo "kernel $(uname -r); A/A cublas-nn offline at $mnk, ${WARMUP_S:-2} s warm-up, ${TIME_S:-10} s timed, $repeats runs a side"
csvs=()
for i in $(seq "$repeats"); do
    for side in on off; do
        dir=$out/$side-$i
        mkdir -p "$dir"
        "$bench" run --aa cublas-nn --mnk "$mnk" --warmup-s "${WARMUP_S:-2}" --time-s "${TIME_S:-10}" \
            --sandbox "$side" --out "$dir" --no-progress > "$dir/run.log" 2>&1 \
            || { echo "bench_sandbox.sh: the run with --sandbox $side failed, see $dir/run.log" >&2; exit 1; }
        csvs+=("$side" "$(ls -td "$dir"/*/ | head -n 1)summary.csv")
    done
done
python3 - "${csvs[@]}" <<'PY'
import csv, statistics, sys
args = sys.argv[1:]
sides = {"on": [], "off": []}
print("| sandbox | event_median_us | wall_median_us | A/A speedup (event) | sandbox column |")
print("| --- | --- | --- | --- | --- |")
for side, path in zip(args[::2], args[1::2]):
    rows = list(csv.DictReader(open(path, newline="")))
    cand = next(r for r in rows if r["role"] == "candidate")
    base = next(r for r in rows if r["participant"] == "cublas-nn")
    figures = (float(cand["event_median_us"]), float(cand["wall_median_us"]), float(base["speedup_geomean_event"]))
    sides[side].append(figures)
    print(f"| {side} | {figures[0]:.3f} | {figures[1]:.3f} | {figures[2]:+.4f} | {cand['sandbox']} |")
for side, runs in sides.items():
    med = [statistics.median(f[i] for f in runs) for i in range(3)]
    print(f"median, --sandbox {side}: event {med[0]:.3f} us, wall {med[1]:.3f} us, A/A {med[2]:+.4f}")
on, off = ([statistics.median(f[i] for f in sides[s]) for i in range(2)] for s in ("on", "off"))
print(f"sandbox's cost on a timed call: event {on[0] - off[0]:+.3f} us, wall {on[1] - off[1]:+.3f} us")
PY
