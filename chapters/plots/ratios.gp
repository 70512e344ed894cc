# Chapter 6: a timing claim's ratios, this run beside the seed notebook and the access model.
# Called by chapters/06_performance.cpp as
#   gnuplot -e "datafile='...'; outfile='...'" ratios.gp
# datafile: a header line, then one row per experiment: "label" this_run seed model
# (0 where a column has no value: the seed did not measure it).
set terminal svg size 640,380 dynamic font "sans,11" background rgb "white"
set output outfile
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
# Ratios span decades (0.3 to 64 in one chart): a log axis keeps every bar readable, and the
# dashed line at 1 marks "as fast as the baseline".
set logscale y 10
set yrange [0.1:*]
set ytics ("0.1" 0.1, "0.3" 0.3, "1" 1, "3" 3, "10" 10, "30" 30, "100" 100, "300" 300)
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dashtype 2 lc rgb "gray"
# The legend above the plot, where no bar can be; the labels slanted so long ones never overlap.
set key outside top center horizontal
set grid ytics
set ylabel "time ÷ the baseline's (log scale)"
set datafile missing "?"
set xtics nomirror rotate by 20 right
set bmargin 7
plot datafile using 2:xtic(1) title "this run" lc rgb "#1f77b4", \
     '' using 3 title "seed notebook" lc rgb "#ff7f0e", \
     '' using 4 title "line model" lc rgb "#7f7f7f"
