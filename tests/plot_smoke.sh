#!/usr/bin/env bash
# The plotting script on a small summary.csv in the run's format: both
# figures must appear and be non-empty PNG files, and the speedup figure must
# draw every baseline and -max figure the CSV has measured rows of (the list
# comes from the baseline registry through `hgemm-bench baselines`, not from
# the script).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
run=$(mktemp -d)
trap 'rm -rf "$run"' EXIT
cp "$here/data/summary_sample.csv" "$run/summary.csv"
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
echo "plot_smoke: ok ($(echo "$measured" | wc -l) baselines and -max figures drawn)"
