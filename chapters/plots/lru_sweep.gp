# Chapter 6, PF-17: LRU misses of mul on a float32 cube against the cache's capacity.
# Called by chapters/06_performance.cpp as
#   gnuplot -e "datafile='...'; outfile='...'" lru_sweep.gp
# datafile: a header line, then capacity_kib matched transpose_1_2 transpose_0_2 per row.
set terminal svg size 640,320 dynamic font "sans,11" background rgb "white"
set output outfile
set logscale x 2
set logscale y 10
# The legend above the plot: the transposed lines run along the top of it, where a key inside
# would sit on them.
set key outside top center horizontal
set grid
set xlabel "LRU capacity (KiB)"
set ylabel "misses (64-byte lines)"
plot datafile using 1:2 with lines lw 2 title "x * y", \
     '' using 1:3 with lines lw 2 title "x * y.transpose(1, 2)", \
     '' using 1:4 with lines lw 2 title "x * y.transpose(0, 2)"
