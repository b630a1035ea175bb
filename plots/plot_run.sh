#!/usr/bin/env bash
# Makes the figures of one run from its summary.csv:
#   <run>/speedup.png  candidate speedup over each baseline per configuration:
#                      left on the headline timer (geometric mean of paired
#                      ratios, 95 % CI as error bars), right on kernel time
#                      alone (speedup_kernel: CUPTI's kernel medians), so a
#                      call whose host overhead decides the event figure shows
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
bench=${HB_BENCH:-$here/../build/hgemm-bench}
[ -x "$bench" ] || { echo "plot_run.sh: $bench not found (run make, or set HB_BENCH)" >&2; exit 4; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Column numbers by name, so the plots follow the CSV header, not positions.
col() { head -n 1 "$csv" | tr ',' '\n' | grep -nx "$1" | cut -d: -f1; }
c_m=$(col m); c_n=$(col n); c_k=$(col k); c_p=$(col participant); c_v=$(col verdict); c_mode=$(col mode)
c_g=$(col speedup_geomean); c_lo=$(col speedup_ci95_low); c_hi=$(col speedup_ci95_high)
c_t=$(col tflops_event_median)
c_ks=$(col speedup_kernel || true) # absent in a summary.csv from before the call monitor

# summary.csv quotes only reasons, which sit in candidate rows; speedups and
# TFLOP/s are read from measured rows, whose reason field is empty.
# A configuration's label: its size, and its mode when that is server (a
# sweep's folder holds both modes of each size).  The labels become gnuplot
# code (`set xtics ("64x64x64" 0, ...)`) and participants name files, so a
# row is drawn only when its m, n and k are whole numbers and its
# participant a plain name: a summary.csv from elsewhere is data.
awk -F, -v m="$c_m" -v n="$c_n" -v k="$c_k" -v p="$c_p" -v v="$c_v" -v g="$c_g" -v lo="$c_lo" -v hi="$c_hi" \
    -v mode="${c_mode:-0}" \
    'NR > 1 && ($v == "ok" || $v == "pass" || $v == "too-slow" || $v == "undecided") &&
    $m ~ /^[0-9]+$/ && $n ~ /^[0-9]+$/ && $k ~ /^[0-9]+$/ && $p ~ /^[A-Za-z0-9._+-]+$/ && $g != "" {
        label = $m "x" $n "x" $k (mode && $mode == "server" ? "-server" : "")
        if (!(label in index_of)) { index_of[label] = count++; print count - 1, label > "'"$work"'/labels.dat" }
        print index_of[label], 100 * $g, 100 * $lo, 100 * $hi > "'"$work"'/speedup_" $p ".dat"
     }' "$csv"
awk -F, -v m="$c_m" -v n="$c_n" -v k="$c_k" -v p="$c_p" -v v="$c_v" -v t="$c_t" -v mode="${c_mode:-0}" \
    'NR > 1 && ($v == "ok" || $v == "pass" || $v == "too-slow" || $v == "undecided") &&
    $m ~ /^[0-9]+$/ && $n ~ /^[0-9]+$/ && $k ~ /^[0-9]+$/ && $p ~ /^[A-Za-z0-9._+-]+$/ && $t != "" {
        label = $m "x" $n "x" $k (mode && $mode == "server" ? "-server" : "")
        if (!(label in index_of)) index_of[label] = count++
        print index_of[label], $t > "'"$work"'/tflops_" $p ".dat"
     }' "$csv"
if [ -n "$c_ks" ]; then
    awk -F, -v m="$c_m" -v n="$c_n" -v k="$c_k" -v p="$c_p" -v v="$c_v" -v g="$c_g" -v ks="$c_ks" \
        -v mode="${c_mode:-0}" \
        'NR > 1 && ($v == "ok" || $v == "pass" || $v == "too-slow" || $v == "undecided") &&
        $m ~ /^[0-9]+$/ && $n ~ /^[0-9]+$/ && $k ~ /^[0-9]+$/ && $p ~ /^[A-Za-z0-9._+-]+$/ && $g != "" {
            label = $m "x" $n "x" $k (mode && $mode == "server" ? "-server" : "")
            if (!(label in index_of)) index_of[label] = count++
            if ($ks != "") print index_of[label], 100 * $ks > "'"$work"'/kernel_" $p ".dat"
         }' "$csv"
fi
[ -s "$work/labels.dat" ] || { echo "plot_run.sh: no measured configuration in $csv" >&2; exit 5; }
# the x tics: each configuration's label (digits, x and -server alone) at its index
awk '{ printf "%s\"%s\" %s", (NR > 1 ? ", " : "set xtics ("), $2, $1 } END { print ")" }' "$work/labels.dat" \
    > "$work/xtics.gp"

# One curve per baseline of the registry that has data, in its style, and
# per -max figure (the faster of NN and TN), in its NN row's style drawn
# thicker; TFLOP/s also for the candidate.  (hgemm-bench baselines: name,
# b_layout, max_row, sets_bound, plot_style, about.)
"$bench" baselines | awk -F'\t' 'NR > 1 { print $1 "\t" $5 }
    NR > 1 && $3 != "-" && $2 == "row" { print $3 "\t" $5 " lw 3" }' > "$work/baselines.tsv"
printf 'candidate\tlc rgb "#d62728" dt 1 pt 13 lw 2\n' | cat - "$work/baselines.tsv" > "$work/participants.tsv"
plot_command() { # plot_command PREFIX LIST USING STYLE: a gnuplot plot of every PREFIX_<name>.dat there is
    awk -F'\t' -v work="$work" -v prefix="$1" -v using="$3" -v with="$4" '
        { file = work "/" prefix "_" $1 ".dat"
          if ((getline line < file) > 0) { names[n] = $1; styles[n] = $2; n++ }
          close(file) }
        END { if (n == 0) exit 1
              printf "plot"
              for (i = 0; i < n; i++) {
                  u = using; gsub(/OFFSET/, sprintf("%.3f", (i - (n - 1) / 2) * 0.08), u)
                  printf "%s \"%s/%s_%s.dat\" using %s with %s %s title \"%s\"", i ? ", \\\n    " : " ",
                         work, prefix, names[i], u, with, styles[i], names[i]
              }
              print "" }' n=0 "$2"
}
plot_command speedup "$work/baselines.tsv" '($1 + OFFSET):2:3:4' yerrorbars > "$work/speedup_plot.gp"
plot_command tflops "$work/participants.tsv" '1:2' linespoints > "$work/tflops_plot.gp"
# the kernel-only panel: a note in place of the points where no call monitor ran
plot_command kernel "$work/baselines.tsv" '($1 + OFFSET):2' points > "$work/kernel_plot.gp" ||
    printf '%s\n' 'set label 1 "no kernel-only times: no call monitor ran (--no-trace, --no-isolate or no CUPTI)" at graph 0.5, graph 0.5 center' \
        'set yrange [-1:1]' 'plot 0 with lines lt -1 notitle' > "$work/kernel_plot.gp"
gnuplot -c "$here/run_figures.gp" "$work" "$run_dir"
drawn=$(grep -o 'title "[^"]*"' "$work/speedup_plot.gp" | cut -d'"' -f2 | paste -sd' ' -)
kernel_drawn=$(grep -o 'title "[^"]*"' "$work/kernel_plot.gp" | cut -d'"' -f2 | paste -sd' ' - || true)
echo "plots: $run_dir/speedup.png $run_dir/tflops.png (kernel-only drawn: ${kernel_drawn:-none}) (baselines drawn: $drawn)"

# --raw runs: each configuration's samples file gets its own figure beside it.
if [ -d "$run_dir/raw" ]; then
    for bin in "$run_dir"/raw/*.bin; do
        [ -e "$bin" ] || continue # the glob matched nothing
        "$here/plot_raw.sh" "$bin"
    done
fi
