# Event time of every timed call in one --raw file (bench/report/raw_samples.h);
# called by plot_raw.sh with `bin` (the raw file), `out` (the png), `names`
# (participant names in index order, space-separated, no spaces inside) and
# `heading` (the title) set.
set terminal pngcairo size 1200,650 noenhanced font ",11"
set encoding utf8
set output out
set title heading
set xlabel "start of the call in the timed window (s)"
set ylabel "CUDA-event time per call (µs, log scale)"
set logscale y
set grid xtics ytics
set key outside right top

# Records after the 4096-byte header, 24 bytes each, little-endian:
# round, participant, slot, start_s, event_us, wall_us, gap_us.
# Participant i's points: the other participants' rows become NaN and are
# left out, so each participant gets its own colour and key entry.
plot for [i=1:words(names)] bin binary skip=4096 endian=little \
     format="%uint32%uint16%uint16%float32%float32%float32%float32" \
     using 4:($2 == i - 1 ? $5 : NaN) with points pointtype 7 pointsize 0.4 title word(names, i)
