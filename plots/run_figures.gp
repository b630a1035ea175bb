# Figures of one run; called by plot_run.sh with `work` (prepared .dat
# files) and `out` (the run folder) set.
set terminal pngcairo size 1200,650 noenhanced font ",11"
set datafile separator whitespace
set key outside right top
set grid ytics
set xtics rotate by -30
set offsets 0.5, 0.5, 0, 0

# x tick labels from labels.dat: "index label"
labels = system("awk '{printf \"%s\\\"%s\\\" %s\", (NR>1?\", \":\"\"), $2, $1}' ".work."/labels.dat")
eval "set xtics (".labels.")"

baselines = "torch cublas-nn cublas-tn"

set output out."/speedup.png"
set title "Candidate speedup per configuration (geometric mean of paired per-round ratios, 95% CI)"
set ylabel "speedup over baseline (%)"
set xlabel "M x N x K"
set xzeroaxis lt -1
plot for [i=1:words(baselines)] work."/speedup_".word(baselines,i).".dat" \
     using ($1 + (i - 2) * 0.15):2:3:4 with yerrorbars pointtype 7 title word(baselines,i)

set output out."/tflops.png"
set title "Throughput per configuration (CUDA-event median time)"
set ylabel "TFLOP/s"
set logscale y
participants = "candidate torch cublas-nn cublas-tn"
plot for [i=1:words(participants)] work."/tflops_".word(participants,i).".dat" \
     using 1:2 with linespoints pointtype 7 title word(participants,i)
