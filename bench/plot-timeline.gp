# Running map and reduce tasks per job over time (the papers' figure style).
# Variables: infile (one data block per job: time, maps, reduces), outfile,
# fmt (png or svg), njobs, names (job names, space-separated), title.
if (fmt eq 'svg') set terminal svg size 1000,700 dynamic background '#ffffff'; else set terminal pngcairo size 1000,700
set output outfile
set multiplot layout 2,1 title title
set key outside right top
set grid
set ylabel 'running map tasks'
unset xlabel
plot for [i=0:njobs-1] infile index i using 1:2 with steps lw 2 title word(names, i+1)
set ylabel 'running reduce tasks'
set xlabel 'time (s)'
plot for [i=0:njobs-1] infile index i using 1:3 with steps lw 2 title word(names, i+1)
unset multiplot
