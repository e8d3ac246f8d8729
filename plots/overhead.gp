# SPDX-License-Identifier: GPL-2.0
# Where each allocator's memory goes, per live object, stacked: the object
# itself, size rounding, slab tail waste and idle slots (free objects in
# slabs held by per-CPU and partial lists), all measured. A row per run
# and object size, in bytes per object. Left:
# everything, so the overhead is seen at its true scale; right: the
# overhead alone, with each run's total overhead against the base run's
# (ratiofile: "x y text") written above its bar.
# Set by slabbench plot: datafile, ratiofile, outfile, termtype,
# charttitle.
if (termtype eq "svg") {
	set terminal svg size 1000,600 dynamic enhanced font "sans,12" background "white"
} else {
	set terminal pngcairo size 1000,600 enhanced font "sans,11" background "white"
}
set output outfile
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border -1
set boxwidth 0.7
set grid ytics
set xtics noenhanced rotate by -25
set yrange [0:*]
set multiplot layout 1,2 title charttitle noenhanced
set title "all bytes per live object"
set ylabel "bytes per live object"
set key inside left top noenhanced
# Room above the bars for the key.
set offsets 0, 0, graph 0.5, 0
plot for [i=2:5] datafile using i:xtic(1) title columnheader(i) linecolor i-1
set title "overhead alone, and against the base run"
set ylabel "bytes per live object beyond the object"
unset key
set offsets 0, 0, graph 0.12, 0
plot for [i=3:5] datafile using i:xtic(1) title columnheader(i) linecolor i-1, \
	ratiofile using 1:2:3 with labels offset 0,1 notitle
unset multiplot
