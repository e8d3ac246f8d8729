# SPDX-License-Identifier: GPL-2.0
# A line per run with error bars (one standard deviation over boots), from blocks of
# "x mean stddev" separated by two blank lines, each headed by its title.
# Set by slabbench plot: datafile, outfile, termtype (png or svg),
# charttitle, xlabel, ylabel, logx (0 or 1), nblocks, xlo and xhi (the
# smallest and largest x drawn).
if (termtype eq "svg") {
	set terminal svg size 900,560 dynamic enhanced font "sans,12" background "white"
} else {
	set terminal pngcairo size 900,560 enhanced font "sans,11" background "white"
}
set output outfile
set title charttitle noenhanced
set xlabel xlabel noenhanced
set ylabel ylabel noenhanced
set grid
set key outside right top noenhanced
if (logx) {
	set logscale x 2
	set format x "%g"
} else {
	set xtics 1
}
# One x alone: a range around it (autoscale would have none).
if (xlo == xhi) {
	if (logx) {
		set xrange [xlo / 2.0:xhi * 2.0]
	} else {
		set xrange [xlo - 1:xhi + 1]
	}
}
set yrange [0:*]
plot for [i=0:nblocks-1] datafile index i using 1:2:3 with yerrorlines \
	linewidth 2 pointtype 7 title columnheader(1)
