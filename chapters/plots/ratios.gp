# Chapter 6: a timing claim's ratios, this run beside the seed notebook and the access model.
# Called by chapters/06_performance.cpp as
#   gnuplot -e "datafile='...'; outfile='...'" ratios.gp
# datafile: a header line, then one row per experiment: "label" this_run seed model
# (0 where a column has no value: the seed did not measure it).
set terminal svg size 640,300 dynamic font "sans,11" background rgb "white"
set output outfile
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set key top left
set grid ytics
set ylabel "time relative to the baseline"
set yrange [0:*]
set datafile missing "?"
set xtics nomirror
plot datafile using 2:xtic(1) title "this run" lc rgb "#1f77b4", \
     '' using 3 title "seed notebook" lc rgb "#ff7f0e", \
     '' using 4 title "line model" lc rgb "#7f7f7f"
