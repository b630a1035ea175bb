#!/usr/bin/env bash
# Plots one --raw samples file (format: bench/report/raw_samples.h, docs/results.md):
# the CUDA-event time of every timed call (µs, log scale) against when the
# call started in the timed window (s), one colour per participant; drift,
# warm-up tails, throttling and outliers show up here, not in the medians.
# usage: plots/plot_raw.sh FILE.bin [OUT.png]   (OUT defaults to FILE.png beside FILE.bin)
set -euo pipefail
bin=${1:?usage: plots/plot_raw.sh FILE.bin [OUT.png]}
out=${2:-${bin%.bin}.png}
[ -f "$bin" ] || { echo "plot_raw.sh: $bin not found" >&2; exit 3; }
command -v gnuplot >/dev/null || { echo "plot_raw.sh: gnuplot not installed (scripts/install_deps.sh installs it)" >&2; exit 4; }
[ "$(head -c 7 "$bin")" = "HBRAW01" ] || { echo "plot_raw.sh: $bin is not an hgemm-bench raw samples file (no HBRAW01 magic)" >&2; exit 5; }
here=$(cd "$(dirname "$0")" && pwd)

# The header's key=value text (bytes 64..4095, NUL-padded).
header=$(head -c 4096 "$bin" | tr -d '\0')
value() { printf '%s\n' "$header" | sed -n "s/^$1=//p" | head -n 1; }
# participant<i>= lines come in index order; gnuplot splits the list on
# spaces, so anything but name characters becomes '_'.
names=$(printf '%s\n' "$header" | sed -n 's/^participant[0-9][0-9]*=//p' | tr -c 'A-Za-z0-9._+\n-' '_' | tr '\n' ' ')
[ -n "$names" ] || { echo "plot_raw.sh: $bin names no participants" >&2; exit 5; }
heading="$(value m)x$(value n)x$(value k), $(value mode), gap $(value gap), L2 $(value l2_policy): CUDA-event time of every timed call"

# The file's name and header are data: they reach gnuplot as the script's
# arguments (ARG1...), string values it never reads as commands.
gnuplot -c "$here/raw_times.gp" "$bin" "$out" "$names" "$heading"
echo "plot: $out"
