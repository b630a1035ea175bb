#!/usr/bin/env bash
# The plotting script on a small summary.csv in the run's format: both
# figures must appear and be non-empty PNG files.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
run=$(mktemp -d)
trap 'rm -rf "$run"' EXIT
cp "$here/data/summary_sample.csv" "$run/summary.csv"
"$here/../plots/plot_run.sh" "$run" >/dev/null
for f in speedup.png tflops.png; do
    [ -s "$run/$f" ] || { echo "plot_smoke: $f missing"; exit 1; }
    head -c 8 "$run/$f" | od -An -tx1 | grep -q "89 50 4e 47" || { echo "plot_smoke: $f is not a PNG"; exit 1; }
done
echo "plot_smoke: ok"
