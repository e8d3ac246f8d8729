# SPDX-License-Identifier: GPL-2.0
# Clustered bars: a row per category ("label v1 v2 ..."), a bar per run;
# the first line names the runs. "?" marks a figure a run does not have.
# Set by slabbench plot: datafile, outfile, termtype, charttitle, ylabel,
# nruns.
if (termtype eq "svg") {
	set terminal svg size 900,560 dynamic enhanced font "sans,12" background "white"
} else {
	set terminal pngcairo size 900,560 enhanced font "sans,11" background "white"
}
set output outfile
set title charttitle noenhanced
set ylabel ylabel noenhanced
set datafile missing "?"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set grid ytics
set key outside right top noenhanced
# Upright: slanted labels of many long categories make gnuplot warn that
# it has no room for them.
set xtics noenhanced rotate by 90 right font ",9"
set yrange [0:*]
plot for [i=2:nruns+1] datafile using i:xtic(1) title columnheader(i)
