#!/bin/bash
# The call monitor's kernel time against Nsight Compute's, for the same call:
# cuBLAS NN (the cublas-nn baseline) at the sizes given (default 64, 1024,
# 4096, 8192, cubed).  For each size, `check` runs with the call monitor
# (--trace-calls 8) and the trace file gives cublas-nn's kernel, its span per
# later call (kernel_us is their median); then ncu profiles that kernel in the
# same `check` without the trace (--no-trace: ncu and CUPTI's activity API
# cannot both hold the GPU) and reports gpu__time_duration.sum.  ncu runs with
# --clock-control none and --cache-control none, so both see the clocks and
# the L2 the harness's calls see; its defaults (base clocks, L2 flushed) are
# reported too.  A validation script, not a test: it needs a GPU, ncu
# (CUDA Toolkit) and python3.
#
#   scripts/kernel_time_vs_ncu.sh [SIZE ...]        e.g. 1024 4096
# Environment: HB_BENCH (default build/hgemm-bench), HB_CANDIDATE (default
# build/candidates/sample_mma), NCU (default ncu), OUT_DIR (kept files).
set -u
bench=${HB_BENCH:-build/hgemm-bench}
candidate=${HB_CANDIDATE:-build/candidates/sample_mma}
ncu=${NCU:-ncu}
out=${OUT_DIR:-$(mktemp -d)}
sizes=${*:-64 1024 4096 8192}
mkdir -p "$out"
cache="$out/autotune.tsv"
common=(--candidate "$candidate" --exact-reps 1 --no-progress --autotune-cache "$cache")

summarize_trace() { # trace.json -> "kernel-name median_us mean_us n"
python3 - "$1" <<'PY'
import json, statistics, sys
doc = json.load(open(sys.argv[1]))
p = next(p for p in doc["participants"] if p["name"] == "cublas-nn")
spans = [c["kernel_span_us"] for c in p["calls"][1:]]
names = {k["name"] for c in p["calls"][1:] for k in c["kernels"]}
print(sorted(names)[0], statistics.median(spans), statistics.mean(spans), len(spans), p["kernel_time"]["span_us"])
PY
}

summarize_ncu() { # ncu csv -> "median_us mean_us n"
python3 - "$1" <<'PY'
import csv, statistics, sys
scale = {"nsecond": 1e-3, "ns": 1e-3, "usecond": 1.0, "us": 1.0, "msecond": 1e3, "ms": 1e3}
rows = [r for r in csv.DictReader(l for l in open(sys.argv[1]) if l.startswith('"'))
        if r.get("Metric Name") == "gpu__time_duration.sum"]
us = [float(r["Metric Value"].replace(",", "")) * scale[r["Metric Unit"]] for r in rows]
print(statistics.median(us), statistics.mean(us), len(us)) if us else print("nan nan 0")
PY
}

printf '%-6s %-48s %12s %12s %12s %12s %10s\n' size kernel trace_median trace_mean ncu_median ncu_mean diff_median
for s in $sizes; do
    run="$out/check-$s"
    "$bench" check "${common[@]}" --mnk "$s,$s,$s" --trace-calls 8 --out "$run" > "$run.log" 2>&1 || { echo "check failed at $s: $run.log"; continue; }
    trace=$(ls "$run"/*/trace/*.json | head -n 1)
    read -r kernel t_med t_mean t_n kernel_us < <(summarize_trace "$trace")
    "$ncu" --target-processes all --clock-control none --cache-control none --metrics gpu__time_duration.sum \
        --csv -k "regex:^${kernel}\$" --kernel-name-base mangled -c 20 \
        "$bench" check "${common[@]}" --mnk "$s,$s,$s" --no-trace --out "$out/ncu-$s" > "$out/ncu-$s.csv" 2> "$out/ncu-$s.err"
    read -r n_med n_mean n_n < <(summarize_ncu "$out/ncu-$s.csv")
    "$ncu" --target-processes all --metrics gpu__time_duration.sum --csv -k "regex:^${kernel}\$" \
        --kernel-name-base mangled -c 20 \
        "$bench" check "${common[@]}" --mnk "$s,$s,$s" --no-trace --out "$out/ncu-base-$s" > "$out/ncu-base-$s.csv" 2>> "$out/ncu-$s.err"
    read -r b_med b_mean b_n < <(summarize_ncu "$out/ncu-base-$s.csv")
    diff=$(python3 -c "print(f'{($t_med/$n_med-1)*100:+.2f}%')" 2>/dev/null || echo nan)
    printf '%-6s %-48.48s %12.3f %12.3f %12.3f %12.3f %10s  (kernel_us %.3f; %d trace calls, %d ncu kernels; ncu defaults: median %.3f us)\n' \
        "$s" "$kernel" "$t_med" "$t_mean" "$n_med" "$n_mean" "$diff" "$kernel_us" "$t_n" "$n_n" "$b_med"
done
echo "files: $out"
