#!/usr/bin/env bash
# The plotting script on a small summary.csv in the run's format: both
# figures must appear and be non-empty PNG files, and the speedup figure must
# draw every baseline and -max figure the CSV has measured rows of (the list
# the script); its kernel-only panel draws every baseline with a
# speedup_kernel.  Then `report --plots` on a result folder: every figure
# (where the speedup comes from among them) as PNG and SVG, its axis fitted
# to the data.  Without gnuplot (CI installs it: scripts/install_deps.sh)
# there is nothing to draw with: skipped.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
command -v gnuplot >/dev/null || { echo "plot_smoke: skipped (gnuplot not installed)"; exit 0; }
run=$(mktemp -d)
trap 'rm -rf "$run"' EXIT
# the sample with kernel-only speedups appended (its harness had no call
# monitor): torch's kernel slower than the candidate's, as make demo's 64^3
awk -F, 'BEGIN { OFS = "," }
         NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print $0, "speedup_kernel"; next }
         { v = $c["role"] ~ /^baseline/ && $c["speedup_geomean"] != "" ? ($c["participant"] == "torch" ? -0.31 : 0.2) : ""
           print $0, v }' "$here/data/summary_sample.csv" > "$run/summary.csv"
said=$("$here/../plots/plot_run.sh" "$run")
for f in speedup.png tflops.png; do
    [ -s "$run/$f" ] || { echo "plot_smoke: $f missing"; exit 1; }
    head -c 8 "$run/$f" | od -An -tx1 | grep -q "89 50 4e 47" || { echo "plot_smoke: $f is not a PNG"; exit 1; }
done
drawn=$(printf '%s\n' "$said" | sed -n 's/.*(baselines drawn: \(.*\))$/\1/p' | tr ' ' '\n' | sort)
measured=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
                    $c["role"] ~ /^baseline/ && $c["speedup_geomean"] != "" { print $c["participant"] }' \
                "$run/summary.csv" | sort -u)
[ -n "$measured" ] && [ "$drawn" = "$measured" ] ||
    { echo "plot_smoke: drew '$(echo $drawn)', the CSV measured '$(echo $measured)'"; exit 1; }
kernel=$(printf '%s\n' "$said" | sed -n 's/.*(kernel-only drawn: \([^)]*\)).*/\1/p' | tr ' ' '\n' | sort)
[ "$kernel" = "$measured" ] ||
    { echo "plot_smoke: kernel-only panel drew '$(echo $kernel)', the CSV has '$(echo $measured)'"; exit 1; }
# without speedup_kernel the panel says so and draws nothing
cp "$here/data/summary_sample.csv" "$run/summary.csv"
drawn=$("$here/../plots/plot_run.sh" "$run")
grep -q '(kernel-only drawn: none)' <<<"$drawn" ||
    { echo "plot_smoke: a summary.csv without speedup_kernel drew kernel-only points"; exit 1; }

# A run folder from elsewhere is data: a name that would close gnuplot's
# quotes and run a backquoted command, and a size field of a drawn row that
# would be gnuplot code in the x tics (a string closed early, system(), a
# backquote) run nothing; the row is left out, the rest drawn.
hostile="$run/r'\`touch CANARY\`\"@x"
mkdir "$hostile"
awk -F, -v canary="$run/CANARY2" 'BEGIN { OFS = "," }
     NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
     NR > 1 && !done && $c["role"] ~ /^baseline/ && $c["speedup_geomean"] != "" {
         $c["m"] = "64\") ; system(\"touch " canary "\") ; (\"`touch " canary "`"; done = 1 }
     { print }' "$here/data/summary_sample.csv" > "$hostile/summary.csv"
grep -q 'system("touch' "$hostile/summary.csv" || { echo "plot_smoke: the hostile row was not written"; exit 1; }
(cd "$run" && "$here/../plots/plot_run.sh" "$hostile" > /dev/null) ||
    { echo "plot_smoke: plot_run.sh failed on a folder with a hostile name and size field"; exit 1; }
for canary in "$run/CANARY" "$run/CANARY2" "$hostile/CANARY"; do
    [ ! -e "$canary" ] || { echo "plot_smoke: plot_run.sh ran a command from the folder ($canary)"; exit 1; }
done
[ -s "$hostile/speedup.png" ] || { echo "plot_smoke: plot_run.sh drew no speedup.png for the hostile folder"; exit 1; }

# report --plots on a result folder made of the same sample (hgemm-report reads a run's folder)
report=${HB_REPORT:-$here/../build/hgemm-report}
out="$run/report"
"$report" report "$run" --out "$out" --plots > /dev/null
for mode in offline; do
    for f in report_speedup_vs_size_$mode report_ecdf_$mode report_speedup_source_$mode; do
        [ -s "$out/$f.png" ] && [ -s "$out/$f.svg" ] || { echo "plot_smoke: report drew no $f.png/.svg"; exit 1; }
    done
done
# its ratio axis holds every point drawn, and is not the old fixed 0.1..10
range=$(sed -n 's/^set yrange \[\(.*\):\(.*\)\]$/\1 \2/p' "$out/report_figures.gp" | head -n 1)
awk -v range="$range" 'BEGIN { split(range, r, " ") }
     $1 !~ /^#/ && NF == 2 && $2 != "NaN" { if ($2 < r[1] || $2 > r[2]) bad++; n++ }
     END { if (!n || bad || (r[1] <= 0.1 && r[2] >= 10)) exit 1 }' "$out/report_size_offline.dat" ||
    { echo "plot_smoke: report's y range [$range] does not fit its data"; exit 1; }
echo "plot_smoke: ok ($(echo "$measured" | wc -l) baselines and -max figures drawn, kernel-only beside; report's figures fitted)"
