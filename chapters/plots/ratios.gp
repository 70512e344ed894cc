# Chapter 6: a timing claim's ratios, this run beside the seed notebook and the access model.
# Called by book::ratio_figure (chapters/book/ratios.cpp) as
#   gnuplot -e "datafile='...'; outfile='...'; series=2; title1='this run'; colour1='#1f77b4'; ..." \
#           ratios.gp
# datafile: a header line, then one row per experiment: "label" and a ratio per series ("?" where
# a row has none: the seed did not measure it). series: how many; titleK and colourK: series K's
# legend and colour (this run first, then the seed notebook and the line model where some row has
# them), so that a series no row has takes no slot beside each bar.
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
if (!exists("series")) series = 3; title1 = "this run"; title2 = "seed notebook"; \
                       title3 = "line model"; colour1 = "#1f77b4"; colour2 = "#ff7f0e"; \
                       colour3 = "#7f7f7f"
plot for [i=1:series] datafile using i + 1:xtic(1) \
     title value(sprintf("title%d", i)) lc rgb value(sprintf("colour%d", i))
