# SPDX-License-Identifier: GPL-2.0
# Allocator generations against guest CPUs, from the census: Slab +
# Percpu of each SLUB variant relative to SLAB's of the same config and
# guest shape, a line per variant titled with its kernel release and
# per-CPU design. Each point is the ratio of the means over boots, its
# bar the 95% interval (delta method, as the report's); "?" where a side
# has too few boots for one. Blocks of "cpus ratio lo hi", separated by
# two blank lines, each headed by its line's title.
# Set by slabbench plot: datafile, outfile, termtype, charttitle, nblocks,
# ciblocks (the blocks with an interval somewhere, "0 2": gnuplot warns
# of a plot with no valid point), xlo and xhi (the fewest and most CPUs
# drawn), bars (what the bars are).
if (termtype eq "svg") {
	set terminal svg size 1000,650 dynamic enhanced font "sans,12" background "white"
} else {
	set terminal pngcairo size 1000,650 enhanced font "sans,11" background "white"
}
set output outfile
set title charttitle noenhanced
set datafile missing "?"
set grid
set logscale x 2
set format x "%g"
set xrange [xlo / 1.5:xhi * 1.5]
# Room above and below the lines, the claim's among them.
set offsets 0, 0, graph 0.05, graph 0.05
set xlabel "guest CPUs"
set ylabel "Slab + Percpu relative to SLAB (x)"
# Below the graph, where no line can run into it.
set key below left Left reverse noenhanced height 1.5
set key autotitle columnheader
set label 1 bars at graph 0.99, graph 0.03 right noenhanced
# The bars' clause only where some block has one: gnuplot reads the data
# of an iteration over nothing, and warns that it has no valid points.
barsplot = words(ciblocks) == 0 ? "" : \
	"for [k=1:words(ciblocks)] datafile index (word(ciblocks, k) + 0) " . \
	"using 1:2:3:4 with yerrorbars pointtype 7 " . \
	"linecolor (word(ciblocks, k) + 1) notitle,"
plot for [i=0:nblocks-1] datafile index i using 1:2 with linespoints linewidth 2 \
	pointtype 7 linecolor i+1, \
	@barsplot \
	1 with lines dashtype 2 linewidth 1.5 linecolor rgb "black" title "SLAB", \
	1.3 with lines dashtype 3 linewidth 1.5 linecolor rgb "gray40" title "x1.30: the 30% claim"
