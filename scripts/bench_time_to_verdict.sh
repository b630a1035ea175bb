#!/usr/bin/env bash
# gate --decide on a GPU (docs/gate.md, "A verdict in seconds"), in two parts:
#  (a) time to verdict: build/candidates/sample_mma against cublas-max at 64^3, 1024^3 and 4096^3, thresholds
#      -50 %, 0 and +5 %, --decide, 1 s warm-up, cap --time-s 30: a markdown table of the verdict, the decision,
#      the rounds and timed seconds it took, and the whole gate call's wall seconds;
#  (b) the A/A false-pass rate: R configurations of `gate --aa cublas-nn --vs cublas-nn --min-speedup 0 --decide`
#      at 64^3 and at 1024^3 (one gate call per size, the configuration repeated R times: each is its own child
#      with its own seed), printing passes / R with a Wilson 95 % interval beside the stated rate alpha / 2.
#      A pass rate above alpha / 2 beyond its interval means the pair is not identical (two instances of one
#      call can differ by a few tenths of a percent offline: docs/validation.md) or the rounds are correlated
#      over longer than the first looks' batches (docs/methodology.md, "Sequential testing").
# Expected wall time with the defaults on an H100: (a) about 1 to 2 minutes (pairs far from their threshold are
# decided in well under a second; a pair near it runs to the 30 s cap; all nine at the cap would take about
# 5.5 minutes), (b) about 2 minutes (30 x 2 configurations of ~1.5 s set-up and checks, 0.2 s warm-up, 1 s window).
# Part (b) stops starting configurations once the whole script has run HB_TTV_BUDGET_S seconds (default 560), so
# it fits one 600 s call; it then reports the R it reached.
# usage: scripts/bench_time_to_verdict.sh [BUILD]        (BUILD: the build folder, default build)
# environment: HB_TTV_OUT (results/time-to-verdict), HB_TTV_R (30), HB_TTV_T (1: the A/A window, seconds),
#   HB_TTV_ALPHA (0.05), HB_TTV_SIZES ("64 1024 4096"), HB_TTV_THRESHOLDS ("-0.5 0 0.05"), HB_TTV_CAP_S (30),
#   HB_TTV_BUDGET_S (560)
set -euo pipefail
build=${1:-build}
bench=$build/hgemm-bench
candidate=$build/candidates/sample_mma
out=${HB_TTV_OUT:-results/time-to-verdict}
repeats=${HB_TTV_R:-30}
aa_window=${HB_TTV_T:-1}
alpha=${HB_TTV_ALPHA:-0.05}
sizes=${HB_TTV_SIZES:-"64 1024 4096"}
thresholds=${HB_TTV_THRESHOLDS:-"-0.5 0 0.05"}
cap=${HB_TTV_CAP_S:-30}
budget=${HB_TTV_BUDGET_S:-560}
command -v python3 >/dev/null || { echo "bench_time_to_verdict.sh: python3 is needed to read verdict.json" >&2; exit 2; }
[ -x "$bench" ] || { echo "bench_time_to_verdict.sh: $bench is missing: run make first" >&2; exit 2; }
[ -f "$candidate/manifest.json" ] || { echo "bench_time_to_verdict.sh: $candidate is missing: run make first" >&2; exit 2; }
mkdir -p "$out"
cache="$out/autotune-cache.tsv"
start=$(date +%s.%N)
elapsed() { python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$1" "$(date +%s.%N)"; }

# One gate call into $out/$1, its verdict file $out/$1.json and its log $out/$1.log.  The harness's own
# failures (exit 1, 2, 5, 7) stop the script: no verdict of the pair can be read from them.
gate() {
    local name=$1; shift
    local status=0
    "$bench" gate --out "$out/$name" --verdict "$out/$name.json" --autotune-cache "$cache" --no-progress "$@" \
        > "$out/$name.log" 2>&1 || status=$?
    case $status in
    1 | 2 | 5 | 7) echo "bench_time_to_verdict.sh: gate failed (exit $status), see $out/$name.log" >&2; exit 1 ;;
    esac
}

echo "## (a) time to verdict: sample_mma vs cublas-max, --decide (alpha $alpha), warm-up 1 s, cap $cap s"
echo
echo "| M=N=K | threshold | verdict | decision | rounds | timed s | gate wall s |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
for size in $sizes; do
    for threshold in $thresholds; do
        name="ttv-$size-$threshold"
        call_start=$(date +%s.%N)
        gate "$name" --candidate "$candidate" --mnk "$size,$size,$size" --vs cublas-max --min-speedup "$threshold" \
            --decide --decide-alpha "$alpha" --warmup-s 1 --time-s "$cap"
        wall=$(elapsed "$call_start")
        python3 - "$out/$name.json" "$size" "$threshold" "$wall" <<'PY'
import json, sys
path, size, threshold, wall = sys.argv[1:]
c = json.load(open(path))["configs"][0]
d = c.get("decision") or {}
state = d.get("state", "-")
if d:
    state += f" ({d['timer']}, look {d['look']}, [{d['low'] * 100:+.2f}%, {d['high'] * 100:+.2f}%])"
print(f"| {size} | {float(threshold) * 100:+.0f}% | {c['verdict']} | {state} | {d.get('rounds', '-')} | "
      f"{d.get('seconds', float('nan')):.3f} | {wall} |")
PY
    done
done

echo
echo "## (b) A/A false-pass rate: gate --aa cublas-nn --vs cublas-nn --min-speedup 0 --decide (alpha $alpha)"
echo "each configuration: warm-up 0.2 s, window $aa_window s, --exact-reps 1, --no-trace; stated rate alpha/2 = $(python3 -c "print($alpha / 2)")"
echo
echo "| M=N=K | configurations | passes | below | undecided | pass rate (Wilson 95 %) | stated |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
sizes_left=2
for size in 64 1024; do
    # What the budget still affords this size: its share of the time left, at ~1.5 s of set-up and checks,
    # 0.2 s of warm-up and the window per configuration.
    left=$(python3 -c "import sys; t, share, w = map(float, sys.argv[1:]); print(int(max(0, $budget - t) / share // (1.7 + w)))" \
           "$(elapsed "$start")" "$sizes_left" "$aa_window")
    sizes_left=$((sizes_left - 1))
    count=$(( repeats < left ? repeats : left ))
    if [ "$count" -lt 1 ]; then
        echo "| $size | 0 (no time left in the ${budget} s budget) | | | | | |"
        continue
    fi
    mnk=()
    for _ in $(seq "$count"); do mnk+=(--mnk "$size,$size,$size"); done
    name="aa-$size"
    gate "$name" --aa cublas-nn --vs cublas-nn --min-speedup 0 --decide --decide-alpha "$alpha" "${mnk[@]}" \
        --warmup-s 0.2 --time-s "$aa_window" --exact-reps 1 --no-trace
    python3 - "$out/$name.json" "$size" "$alpha" <<'PY'
import json, math, sys
path, size, alpha = sys.argv[1], sys.argv[2], float(sys.argv[3])
configs = json.load(open(path))["configs"]
states = [(c.get("decision") or {}).get("state", "none") for c in configs]
n, passes = len(states), states.count("above")
z = 1.959963984540054
centre = (passes + z * z / 2) / (n + z * z)
half = z * math.sqrt(passes * (n - passes) / n + z * z / 4) / (n + z * z)
print(f"| {size} | {n} | {passes} | {states.count('below')} | {states.count('undecided')} | "
      f"{passes / n * 100:.1f}% ({max(0, centre - half) * 100:.1f}% to {min(1, centre + half) * 100:.1f}%) | "
      f"{alpha / 2 * 100:.1f}% |")
PY
done
echo
echo "whole script: $(elapsed "$start") s; verdict files and logs in $out"
