# Figures of one run; called by plot_run.sh as `gnuplot -c run_figures.gp WORK
# OUT`: WORK holds the prepared .dat files and the commands it wrote (the x
# tics, and the plots from `hgemm-bench baselines`), OUT is the run folder
# (an argument, so its name is a string here, never gnuplot code; and no
# line here holds a dollar and a digit, which a gnuplot with the old `call`
# syntax would replace by an argument's text).  Which baselines are drawn,
# and how, comes from the baseline registry
# (bench/result/baseline_registry.c), not from this file.
work = ARG1
out = ARG2
set terminal pngcairo size 1800,650 noenhanced font ",11"
set datafile separator whitespace
set key outside right top
set grid ytics
set xtics rotate by -30
set offsets 0.5, 0.5, 0, 0

load work."/xtics.gp" # set xtics ("64x64x64" 0, ...): each configuration's label

set output out."/speedup.png"
set ylabel "speedup over baseline (%)"
set xlabel "M x N x K"
set xzeroaxis lt -1
set yrange [*<0:0<*] # both panels hold 0: the sign is the finding
set multiplot layout 1,2 title "Candidate speedup per configuration over each baseline"
set title "headline timer (CUDA events; wall clock where summary.csv's headline_timer says)\ngeometric mean of paired per-round ratios, 95% CI"
load work."/speedup_plot.gp"
set title "kernel time only (CUPTI: baseline's kernel median / candidate's, speedup_kernel)\nhost overhead (launch, synchronization) left out"
load work."/kernel_plot.gp"
unset multiplot
unset label 1
set autoscale y

set terminal pngcairo size 1200,650 noenhanced font ",11"
set output out."/tflops.png"
set title "Throughput per configuration (CUDA-event median time)"
set ylabel "TFLOP/s"
set logscale y
load work."/tflops_plot.gp"
