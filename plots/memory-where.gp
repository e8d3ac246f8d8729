# SPDX-License-Identifier: GPL-2.0
# Slab memory by location at one CPU count, from the census: a stacked
# bar per allocator (variant), the median over boots of each location in
# MiB. The slab pages are live objects, their padding, free slots where
# the allocator keeps them and slab tails; the caches' per-CPU structures
# are in Percpu beside them. Above each bar (ratiofile: "x y text"): the
# allocator's kmem_cache and kmem_cache_node, slab objects counted in
# "live objects", in KiB; what that figure is, under the key (a label
# naming it above each bar would run into the next).
# Set by slabbench plot: datafile, ratiofile, outfile, termtype,
# charttitle, ncols, colours (one per column, in order).
if (termtype eq "svg") {
	set terminal svg size 1000,600 dynamic enhanced font "sans,12" background "white"
} else {
	set terminal pngcairo size 1000,600 enhanced font "sans,11" background "white"
}
set output outfile
set title charttitle noenhanced
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border -1
set boxwidth 0.6
set grid ytics
set xtics noenhanced
set ylabel "MiB"
set yrange [0:*]
set key outside right top noenhanced
set label 1 "Above each bar: the bytes\nbeyond live objects\n(all but the first part)" at screen 0.72, screen 0.45 left noenhanced
# Room above the bars for their labels.
set offsets 0, 0, graph 0.1, 0
plot for [i=2:ncols+1] datafile using i:xtic(1) title columnheader(i) \
	linecolor rgb word(colours, i-1), \
	ratiofile using 1:2:3 with labels offset 0,1 noenhanced notitle
