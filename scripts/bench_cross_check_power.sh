#!/usr/bin/env bash
# The timed window's cross-check on this GPU (docs/methodology.md, "Timers
# out of the candidate's reach"): its honest spread and its power, then what
# it costs.
#
# Power: `hgemm-bench run` on the honest sample candidate
# (candidates/sample_simple, built by make) at 64^3, 1024^3 and 4096^3 with
# --cross-check-rounds $PCT (default 20: many honest readings in a short
# window) and --raw, then build/cross-check-power (scripts/cross_check_power.c)
# on each configuration's summary row and <run>/raw/*.cross.csv: the spread of
# the candidate's event - CUPTI difference d and of its paired difference c
# (d minus the baselines' median d of the round), the share of honest rounds
# below the paired tolerance, the rounds a default run (3 % of a 30 s window)
# cross-checks at this rate, and for a shave of 1 us, 3 us and 10 % the share
# of rounds it puts below the tolerance, the sign test's power over those
# rounds and the fewest checked rounds that see it 9 times in 10, at the
# harness's false-alarm bound (1e-4).
#
# Cost (COST=1, the default): `run --aa cublas-nn` at the same sizes with
# --cross-check-rounds 0 and 3: the A/A headline and cublas-nn's event median
# of each, and the rounds kept and cross-checked.  The cross-checked rounds'
# CUPTI cost is left out of the statistics, so the two should agree within
# noise (no bias); the rounds left out are the time the cross-check costs.
#
# A benchmark, not a test: `make test` never runs it and it asserts nothing.
# usage: scripts/bench_cross_check_power.sh [OUT]   (default: a fresh folder in $TMPDIR)
# environment: BUILD (build), WARMUP_S (1), TIME_S (10), PCT (20), DEVICE (0),
#              SIZES ("64 1024 4096"), COST (1; 0: the power part alone)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
build=${BUILD:-build}
warmup_s=${WARMUP_S:-1}
time_s=${TIME_S:-10}
pct=${PCT:-20}
device=${DEVICE:-0}
sizes=${SIZES:-64 1024 4096}
cost=${COST:-1}
out=${1:-$(mktemp -d "${TMPDIR:-/tmp}/hb-cross-check-power.XXXXXX")}
bench="$root/$build/hgemm-bench"
tool="$root/$build/cross-check-power"

make -C "$root" --no-print-directory BUILD="$build" all "$build/cross-check-power" >&2 \
    || { echo "bench_cross_check_power.sh: building failed (see above)" >&2; exit 1; }
if command -v nvidia-smi >/dev/null 2>&1; then
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1 \
        | sed 's/^/nvidia-smi: /' || true
fi
mkdir -p "$out"
echo "runs in $out; --warmup-s $warmup_s --time-s $time_s, device $device"

# The newest run folder of `hgemm-bench run --out $1`.
run_dir() { ls -dt "$1"/2*/ | head -n 1 | sed 's:/$::'; }

# The value of column $3 in the row of participant $2 of summary.csv $1,
# read with the harness's own CSV reader (a text cell may hold commas).
column() { "$tool" --cell "$1" "$2" "$3"; }

echo
echo "== power: the honest sample candidate, --cross-check-rounds $pct"
for s in $sizes; do
    folder="$out/power-$s"
    "$bench" run --candidate "$root/$build/candidates/sample_simple" --mnk "$s,$s,$s" --device "$device" \
        --warmup-s "$warmup_s" --time-s "$time_s" --cross-check-rounds "$pct" --raw --out "$folder" \
        --no-progress >"$folder.log" 2>&1 \
        || { echo "run at $s^3 failed (exit $?): see $folder.log" >&2; exit 1; }
    run=$(run_dir "$folder")
    echo "verdict $(column "$run/summary.csv" candidate verdict)," \
        "sign test p $(column "$run/summary.csv" candidate cross_check_sign_p)," \
        "median d $(column "$run/summary.csv" candidate cross_check_median_diff_us) us," \
        "median c $(column "$run/summary.csv" candidate cross_check_paired_median_us) us"
    "$tool" "$run/summary.csv" "$run/raw/0000_${s}x${s}x${s}.cross.csv" 3 30
done

[ "$cost" = 1 ] || exit 0
echo
echo "== cost: A/A cublas-nn, --cross-check-rounds 0 against 3"
printf '%-8s %-6s %14s %16s %8s %10s\n' size pct "A/A headline" "cublas-nn event" kept crossed
for s in $sizes; do
    for p in 0 3; do
        folder="$out/cost-$s-$p"
        "$bench" run --aa cublas-nn --mnk "$s,$s,$s" --device "$device" --warmup-s "$warmup_s" --time-s "$time_s" \
            --cross-check-rounds "$p" --out "$folder" --no-progress >"$folder.log" 2>&1 \
            || { echo "A/A at $s^3, $p %, failed (exit $?): see $folder.log" >&2; exit 1; }
        csv="$(run_dir "$folder")/summary.csv"
        printf '%-8s %-6s %13.3f%% %13.2f us %8s %10s\n' "$s^3" "$p %" \
            "$(awk "BEGIN { print 100 * $(column "$csv" cublas-nn speedup_geomean) }")" \
            "$(column "$csv" cublas-nn event_median_us)" "$(column "$csv" aa:cublas-nn samples)" \
            "$(column "$csv" aa:cublas-nn cross_checked_rounds)"
    done
done
