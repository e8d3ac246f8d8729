# SPDX-License-Identifier: GPL-2.0
# Slab memory by location at one CPU count or several, from the census:
# a stacked bar per allocator (variant) at each count, the median over
# boots of each location in MiB; an empty row between two counts. The slab pages are live objects, their padding, free slots where
# the allocator keeps them and slab tails; the caches' per-CPU structures
# are in Percpu beside them. Above each bar (ratiofile: "x y text"): the
# allocator's kmem_cache and kmem_cache_node, slab objects counted in
# "live objects", in KiB; what that figure is, under the key (a label
# naming it above each bar would run into the next).
# Set by slabbench plot: datafile, ratiofile, outfile, termtype,
# charttitle, ncols, colours (one per column, in order), nrows (bars and
# empty rows), rotate (1: the bars name their CPU count too, slanted).
# Wider with more bars, so that each keeps its room.
width = 1000 + (nrows > 8 ? 60 * (nrows - 8) : 0)
if (termtype eq "svg") {
	set terminal svg size width,600 dynamic enhanced font "sans,12" background "white"
} else {
	set terminal pngcairo size width,600 enhanced font "sans,11" background "white"
}
set output outfile
set title charttitle noenhanced
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border -1
set boxwidth 0.6
set grid ytics
set xtics noenhanced
if (rotate) {
	set xtics rotate by -35 left
	set bmargin 9
}
set ylabel "MiB"
set yrange [0:*]
set key outside right top noenhanced
set label 1 "Above each bar: the bytes\nbeyond live objects\n(all but the first part)" at graph 1.03, graph 0.1 left noenhanced
# Room above the bars for their labels.
set offsets 0, 0, graph 0.1, 0
plot for [i=2:ncols+1] datafile using i:xtic(1) title columnheader(i) \
	linecolor rgb word(colours, i-1), \
	ratiofile using 1:2:3 with labels offset 0,1 font (rotate ? ",9" : "") noenhanced notitle
