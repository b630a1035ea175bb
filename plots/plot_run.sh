#!/usr/bin/env bash
# Makes the figures of one run from its summary.csv:
#   <run>/speedup.png  candidate speedup over each baseline per configuration
#                      (geometric mean of paired ratios, 95 % CI as error bars)
#   <run>/tflops.png   TFLOP/s of every participant per configuration (event median)
#   <run>/raw/*.png    with --raw: one figure per <run>/raw/*.bin beside it, every
#                      timed call's event time over the window (plots/plot_raw.sh)
# usage: plots/plot_run.sh results/<run-id>
set -euo pipefail
run_dir=${1:?usage: plots/plot_run.sh results/<run-id>}
run_dir=${run_dir%/}
csv="$run_dir/summary.csv"
[ -f "$csv" ] || { echo "plot_run.sh: $csv not found" >&2; exit 3; }
command -v gnuplot >/dev/null || { echo "plot_run.sh: gnuplot not installed (scripts/install_deps.sh installs it)" >&2; exit 4; }
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Column numbers by name, so the plots follow the CSV header, not positions.
col() { head -n 1 "$csv" | tr ',' '\n' | grep -nx "$1" | cut -d: -f1; }
c_m=$(col m); c_n=$(col n); c_k=$(col k); c_p=$(col participant); c_v=$(col verdict)
c_g=$(col speedup_geomean); c_lo=$(col speedup_ci95_low); c_hi=$(col speedup_ci95_high)
c_t=$(col tflops_event_median)

# summary.csv quotes only reasons, which sit in candidate rows; speedups and
# TFLOP/s are read from measured rows, whose reason field is empty.
awk -F, -v m="$c_m" -v n="$c_n" -v k="$c_k" -v p="$c_p" -v v="$c_v" -v g="$c_g" -v lo="$c_lo" -v hi="$c_hi" \
    'NR > 1 && ($v == "ok" || $v == "pass" || $v == "too-slow") && $g != "" {
        label = $m "x" $n "x" $k
        if (!(label in index_of)) { index_of[label] = count++; print count - 1, label > "'"$work"'/labels.dat" }
        print index_of[label], 100 * $g, 100 * $lo, 100 * $hi > "'"$work"'/speedup_" $p ".dat"
     }' "$csv"
awk -F, -v m="$c_m" -v n="$c_n" -v k="$c_k" -v p="$c_p" -v v="$c_v" -v t="$c_t" \
    'NR > 1 && ($v == "ok" || $v == "pass" || $v == "too-slow") && $t != "" {
        label = $m "x" $n "x" $k
        if (!(label in index_of)) index_of[label] = count++
        print index_of[label], $t > "'"$work"'/tflops_" $p ".dat"
     }' "$csv"
[ -s "$work/labels.dat" ] || { echo "plot_run.sh: no measured configuration in $csv" >&2; exit 5; }

gnuplot -e "work='$work'; out='$run_dir'" "$here/run_figures.gp"
echo "plots: $run_dir/speedup.png $run_dir/tflops.png"

# --raw runs: each configuration's samples file gets its own figure beside it.
if [ -d "$run_dir/raw" ]; then
    for bin in "$run_dir"/raw/*.bin; do
        [ -e "$bin" ] || continue # the glob matched nothing
        "$here/plot_raw.sh" "$bin"
    done
fi
