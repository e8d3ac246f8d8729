# SPDX-License-Identifier: GPL-2.0
# The price of per-CPU caching: memory the workload's caches hold against
# the instructions of an alloc+free pair, one point per sheaf capacity,
# labelled with the capacity and (in brackets) the refills per 1000
# allocations; a panel per CPU count, in it a line per variant, from
# blocks of "x y label" separated by two blank lines, each headed by its
# title. Reference allocators (SLAB, SLUB before sheaves) are blocks of
# one point.
# Set by slabbench plot: datafile, outfile, termtype (png or svg),
# charttitle, panels (the CPU counts), lo and hi (each panel's first and
# last block), as words.
n = words(panels)
if (termtype eq "svg") {
	set terminal svg size 560*n+100,620 dynamic enhanced font "sans,12" background "white"
} else {
	set terminal pngcairo size 560*n+100,620 enhanced font "sans,11" background "white"
}
set output outfile
set multiplot layout 1,n title charttitle noenhanced
set xlabel "instructions per alloc+free pair (cost model, exact)"
set ylabel "MiB held by its caches (census)"
set grid
set key outside bottom center horizontal noenhanced
set yrange [0:*]
set xrange [0:*]
set offsets graph 0.02, graph 0.2, graph 0.08, 0
do for [p=1:n] {
	set title word(panels, p)." vCPUs: label = capacity (refills per 1000 allocations)" noenhanced
	plot for [i=word(lo, p)+0:word(hi, p)+0] datafile index i using 1:2 with linespoints \
		linewidth 2 pointtype 7 linecolor i-(word(lo, p)+0)+1 title columnheader(1), \
		for [i=word(lo, p)+0:word(hi, p)+0] datafile index i using 1:2:3 with labels \
		offset char 1,char 0.6 left font ",9" noenhanced notitle
}
unset multiplot
