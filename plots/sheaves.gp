# SPDX-License-Identifier: GPL-2.0
# The price of per-CPU caching: memory the workload's caches hold against
# the instructions of an alloc+free pair, one point per sheaf capacity,
# labelled with the capacity and the refills per 1000 allocations; a
# line per variant and CPU count, from blocks of "x y label" separated
# by two blank lines, each headed by its title. Reference allocators
# (SLAB, SLUB before sheaves) are blocks of one point.
# Set by slabbench plot: datafile, outfile, termtype (png or svg),
# charttitle, nblocks.
if (termtype eq "svg") {
	set terminal svg size 1000,620 dynamic enhanced font "sans,12" background "white"
} else {
	set terminal pngcairo size 1000,620 enhanced font "sans,11" background "white"
}
set output outfile
set title charttitle noenhanced
set xlabel "instructions per alloc+free pair (cost model, exact; one CPU's loop)"
set ylabel "MiB held by its caches (census)"
set grid
set key outside bottom center horizontal noenhanced
set yrange [0:*]
set xrange [0:*]
set offsets graph 0.02, graph 0.12, graph 0.08, 0
plot for [i=0:nblocks-1] datafile index i using 1:2 with linespoints \
	linewidth 2 pointtype 7 title columnheader(1), \
	for [i=0:nblocks-1] datafile index i using 1:2:3 with labels \
	offset char 1,char 0.6 left font ",9" noenhanced notitle
