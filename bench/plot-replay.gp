# Missed deadlines (%) on real Slurm and in deadline-sim (a priori and
# calibrated model of Slurm, each the median of several overhead draws),
# one group of bars per scheduler and seed.
# Variables: infile (label, real %, simulated %, calibrated %;
# tab-separated, written by bench/replay-swim.sh), outfile (PNG).
set terminal pngcairo size 1000,500
set output outfile
set datafile separator '\t'
set title 'SWIM FB-2009 replayed on 16 nodes x 2 CPUs: missed deadlines'
set ylabel 'missed deadlines (%)'
set yrange [0:*]
set grid ytics
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics rotate by -20 scale 0
set key top right
plot infile using 2:xtic(1) title 'real Slurm' lc rgb '#1f77b4', \
	'' using 3 title 'deadline-sim, a priori (median of draws)' lc rgb '#ff7f0e', \
	'' using 4 title 'deadline-sim, calibrated (median of draws)' lc rgb '#2ca02c', \
	'' using ($0 - 0.25):2:(sprintf('%.1f', $2)) with labels offset 0,0.7 notitle, \
	'' using ($0):3:(sprintf('%.1f', $3)) with labels offset 0,0.7 notitle, \
	'' using ($0 + 0.25):4:(sprintf('%.1f', $4)) with labels offset 0,0.7 notitle
