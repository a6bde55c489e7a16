# gnuplot -e "dir='out'" plot.gp
# Reads dir/history.csv of `vibroimpact simulate case.prm -o out` (Output interval = 0: every step); writes into dir:
#   force.png         contact force p/h (N) against time (s), with the excitation F(t) = 0.01 sin(50 t)
#                     (positive = push onto the rod) and the paper's peak 0.8076 N
#   force_static.png  the first push half-period (0 to pi/50 s): the contact force against F(t)
#                     and the paper's 0.01004 N
#   tip.png           beam tip and rod top displacement (nm) against time (s)
# The force is impulse / h with h the spacing of the rows: impulse_<c> is the impulse since the
# previous row, so this is the mean contact force over each row.
if (!exists("dir")) dir = "out"
file = dir."/history.csv"
set datafile separator ","
set terminal pngcairo size 1000,600 noenhanced
set grid
set key top right
set xlabel "time (s)"
stats file using "time" every ::0::1 nooutput
h = STATS_max - STATS_min
F(t) = 0.01*sin(50*t)

set output dir."/force.png"
set ylabel "force (N)"
stats file using (column("impulse_tip")/h) nooutput
set yrange [-0.05:(STATS_max > 0.8 ? 1.1*STATS_max : 0.9)]
set arrow 1 from graph 0, first 0.8076 to graph 1, first 0.8076 nohead dashtype 2 lc rgb "black"
set label 1 "Yin et al.: maximum impact force 0.8076 N" at graph 0.02, first 0.78
plot file using "time":(column("impulse_tip")/h) with lines lw 1 title "contact force p/h", \
     file using "time":(F(column("time"))) every 100 with lines lw 2 title "F(t) = 0.01 sin(50 t)"
unset arrow 1
unset label 1
set autoscale y

set output dir."/force_static.png"
set xrange [0:0.07]
set yrange [-0.002:0.0115]
set arrow 2 from graph 0, first 0.01004 to graph 1, first 0.01004 nohead dashtype 2 lc rgb "black"
set label 2 "Yin et al.: static contact force 0.01004 N; contact until 0.06274 s" at graph 0.02, first 0.0108
plot file using "time":(column("impulse_tip")/h) every 20 with lines lw 2 title "contact force p/h", \
     file using "time":(F(column("time"))) every 20 with lines dashtype 3 lw 2 title "F(t)"
unset arrow 2
unset label 2
set autoscale

set output dir."/tip.png"
set ylabel "displacement (nm)"
plot file using "time":(1e9*column("u_beam_tip")) every 10 with lines lw 2 title "beam tip", \
     file using "time":(1e9*column("u_rod_top")) every 10 with lines lw 1 title "rod top"
