# Missed deadlines (%) vs load, one panel per deadline-factor range, one
# line per policy and the oracle bound dashed.  Variables: infile (the
# missed.tsv of reproduce-reverse.sh), outfile, fmt (png or svg), factors
# and policies (space-separated), title.
nf = words(factors)
if (fmt eq 'svg') set terminal svg size 420*nf+200,460 dynamic background '#ffffff'; else set terminal pngcairo size 420*nf+200,460
set output outfile
set datafile separator '\t'
set multiplot layout 1,nf title title
set grid
set xlabel 'load'
set ylabel 'missed deadlines (%)'
set yrange [0:*]
set key top left
do for [k=1:nf] {
	f = word(factors, k)
	set title sprintf('deadline factor 1.5-%sx', f)
	plot for [p in policies] infile using (strcol(1) eq f && strcol(3) eq p ? $2 : 1/0):4:5 \
		with yerrorlines lw 2 title p, \
		infile using (strcol(1) eq f && strcol(3) eq 'oracle' ? $2 : 1/0):4 \
		with lines dt 2 lw 2 lc rgb 'black' title 'oracle bound'
}
unset multiplot
