# One metric of the reproductions against x (load, k), one panel per value
# of a key (deadline-factor range, variant), one line per policy, the
# oracle dashed in black.  Variables (all strings): infile (an aggregated
# TSV of sim-lib.sh, its rows sorted by panel, policy and x), outfile, fmt
# (png or svg), panels (space-separated values of the panel column),
# panelcol, paneltitle (a format with one %s), policycol, xcol, ycol,
# errcol ('0': no error bars), policies (space-separated), title, xlabel,
# ylabel, logy ('1': logarithmic y).
np = words(panels)
width = 440 * np + 100
if (width < 760) { width = 760 }
if (fmt eq 'svg') {
	set terminal svg size width,560 dynamic background '#ffffff' font 'sans,13'
} else {
	set terminal pngcairo size width,560 font 'sans,11'
}
set output outfile
set datafile separator '\t'
set datafile missing '-'
# the panels above, one key for all of them below
set multiplot layout 1,np title title margins 0.08,0.98,0.24,0.88 spacing 0.07,0
set grid
set xlabel xlabel
set ylabel ylabel
if (logy eq '1') { set logscale y } else { set yrange [0:*] }
set offsets graph 0.03, graph 0.03, 0, 0
colors = '#1b9e77 #d95f02 #7570b3 #e7298a #66a61e #e6ab02 #a6761d #1f78b4 #e31a1c #b15928 #6a3d9a #999999'
kc = int(panelcol); pc = int(policycol); xc = int(xcol); yc = int(ycol); ec = int(errcol)
do for [k=1:np] {
	f = word(panels, k)
	set title sprintf(paneltitle, f)
	if (k == 1) { set key at screen 0.5,0.02 center bottom horizontal maxrows 2 box samplen 2 width 2 Left reverse } else { unset key }
	if (ec > 0) {
		plot for [i=1:words(policies)] infile using \
			(strcol(kc) eq f && strcol(pc) eq word(policies, i) ? column(xc) : 1/0):yc:ec \
			with yerrorlines lw 2 pt (i % 7 + 1) ps 0.8 lc rgb word(colors, (i - 1) % 12 + 1) title word(policies, i), \
			infile using (strcol(kc) eq f && strcol(pc) eq 'oracle' ? column(xc) : 1/0):yc \
			with lines dt 2 lw 2 lc rgb 'black' title 'oracle bound'
	} else {
		plot for [i=1:words(policies)] infile using \
			(strcol(kc) eq f && strcol(pc) eq word(policies, i) ? column(xc) : 1/0):yc \
			with linespoints lw 2 pt (i % 7 + 1) ps 0.8 lc rgb word(colors, (i - 1) % 12 + 1) title word(policies, i)
	}
}
unset multiplot
