# Frequency-energy plot of a `continue` output folder: gnuplot -e "dir='out'" plot.gp
if (!exists("dir")) dir = 'out'
set terminal pngcairo size 900,600
set output dir.'/fep_families.png'
set datafile separator ','
set logscale x
set xlabel 'energy'; set ylabel 'frequency [rad/s]'; set grid; set key outside right
set arrow from graph 0, first 0.618034 to graph 1, first 0.618034 nohead dt 2 lc 'gray'
set arrow from graph 0, first 1.618034 to graph 1, first 1.618034 nohead dt 2 lc 'gray'
plot dir.'/branch.csv' every ::1 using ($10 == 1 ? $5 : 1/0):4:($1 + 1) with points pt 7 lc variable title 'stable', \
     dir.'/branch.csv' every ::1 using ($10 == 0 ? $5 : 1/0):4:($1 + 1) with points pt 6 lc variable title 'unstable'
