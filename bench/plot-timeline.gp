# Running tasks per job over time (the papers' figure style), in stacked
# panels that share the time axis.
# Variables: infile (one data block per job: time, then one column per
# panel), outfile, fmt (png or svg), njobs, names (job names,
# space-separated), title.
# Optional: panels (default 2: maps and reduces of infile's columns 2 and
# 3), files (one data file per panel, default infile for each), cols (the
# column each panel plots, default "2 3"), ylabels and ptitles (one quoted
# word per panel), deadlines (job deadlines on the time axis, one per job,
# or one per job and panel, panel by panel: dashed lines in the job's
# colour), xmax (the time axis' end; default: the data's, which may
# hide a later deadline), cancels (triples "panel job time": a cross on
# the time axis where Slurm cancelled the job's unstarted tasks), xlabel.
if (!exists("panels")) panels = 2
if (!exists("files")) files = ''
if (!exists("cols")) cols = '2 3'
if (!exists("ylabels")) ylabels = '"running map tasks" "running reduce tasks"'
if (!exists("ptitles")) ptitles = ''
if (!exists("deadlines")) deadlines = ''
if (!exists("cancels")) cancels = ''
if (!exists("xlabel")) xlabel = 'time (s)'
if (fmt eq 'svg') set terminal svg size 1000,350*panels dynamic background '#ffffff'; else set terminal pngcairo size 1000,350*panels font ',11'
set output outfile
set multiplot layout panels,1 title title font ',13'
set key outside right top
set grid
set yrange [0:*]
if (exists("xmax")) set xrange [0:xmax]
set offsets 0, 0, graph 0.08, 0
do for [p=1:panels] {
	f = (words(files) >= p) ? word(files, p) : infile
	c = int(word(cols, p))
	set ylabel word(ylabels, p)
	if (words(ptitles) >= p) { set title word(ptitles, p) } else { unset title }
	if (p == panels) { set xlabel xlabel } else { unset xlabel }
	unset arrow
	unset label
	unset object
	do for [m=1:words(cancels)/3] {
		if (int(word(cancels, 3*m-2)) == p) {
			ci = int(word(cancels, 3*m-1))
			cx = real(word(cancels, 3*m))
			set label sprintf('%s cancelled by Slurm', word(names, ci)) at cx, graph 0.04 point pt 2 ps 2 lw 2 lc rgb 'red' offset 1, 0.6 textcolor rgb 'red'
		}
	}
	do for [i=1:njobs] {
		k = (words(deadlines) >= panels * njobs) ? (p - 1) * njobs + i : i
		if (words(deadlines) >= k) {
			set arrow from real(word(deadlines, k)), graph 0 to real(word(deadlines, k)), graph 1 nohead dt 2 lw 2 lt i
			set label sprintf('%s deadline', word(names, i)) at real(word(deadlines, k)), graph 0.97 right offset -0.5, 0 textcolor lt i
		}
	}
	plot for [i=0:njobs-1] f index i using 1:c with steps lw 2 lt i+1 title word(names, i+1)
}
unset multiplot
