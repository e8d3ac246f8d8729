# SPDX-License-Identifier: GPL-2.0
# Slab memory against guest CPUs, from the census, a line per allocator
# (variant): left, what is held beyond live object bytes; right, Slab +
# Percpu. Each point is the median over boots, its bar the boots' min to
# max. Blocks of "cpus overhead min max slab+percpu min max" (MiB),
# separated by two blank lines, each headed by its line's title; "?"
# where a figure is absent (SLOB: its live bytes are unknown).
# Set by slabbench plot: datafile, outfile, termtype, charttitle, nblocks,
# xlo and xhi (the fewest and most CPUs drawn).
if (termtype eq "svg") {
	set terminal svg size 1100,560 dynamic enhanced font "sans,12" background "white"
} else {
	set terminal pngcairo size 1100,560 enhanced font "sans,11" background "white"
}
set output outfile
set datafile missing "?"
set grid
set logscale x 2
set format x "%g"
# Room beside the first and last CPU counts for their error bars; one
# count alone gets an octave either side (autoscale would have no range).
if (xlo == xhi) {
	set xrange [xlo / 2.0:xhi * 2.0]
} else {
	set offsets graph 0.05, graph 0.05, 0, 0
}
set xlabel "guest CPUs"
set ylabel "MiB"
set yrange [0:*]
set key inside left top noenhanced
set multiplot layout 1,2 title charttitle noenhanced
set title "held beyond live object bytes"
plot for [i=0:nblocks-1] datafile index i using 1:2:3:4 with yerrorlines \
	linewidth 2 pointtype 7 linecolor i+1 title columnheader(1)
set title "Slab + Percpu"
plot for [i=0:nblocks-1] datafile index i using 1:5:6:7 with yerrorlines \
	linewidth 2 pointtype 7 linecolor i+1 title columnheader(1)
unset multiplot
