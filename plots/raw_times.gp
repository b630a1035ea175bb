# Event time of every timed call in one --raw file (bench/report/raw_samples.h);
# called by plot_raw.sh as `gnuplot -c raw_times.gp BIN OUT NAMES HEADING`:
# the raw file, the png, the participant names in index order (space-separated,
# no spaces inside) and the title.  Arguments, not -e commands: a file name or
# header text of a result folder is a string here, never gnuplot code (and no
# line here holds a dollar and a digit, which a gnuplot with the old `call`
# syntax would replace by an argument's text: columns are column(N)).
bin = ARG1
out = ARG2
names = ARG3
heading = ARG4
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
     using 4:(column(2) == i - 1 ? column(5) : NaN) with points pointtype 7 pointsize 0.4 title word(names, i)
