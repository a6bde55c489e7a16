# gnuplot -e "dir='out'" plot.gp
# Reads dir/poincare.csv and dir/sweep_summary.csv of `vibroimpact sweep case.prm -o out`; writes:
#   poincare.png  Poincaré points at the contact point (w and dw/dt at t = kT after the
#                 transient) vs the gap d: the bifurcation diagram of Figure 9; points taken
#                 while the beam sticks to the obstacle in red
#   sticking.png  fraction of the recorded time spent sticking, and impacts per forcing period
#   impacts.png   approach velocity of every impact after the transient vs the swept value
if (!exists("dir")) dir = "out"
if (!exists("xname")) xname = "gap d"
file = dir."/poincare.csv"
summary = dir."/sweep_summary.csv"
set datafile separator ","
set terminal pngcairo size 1000,800 noenhanced
set grid
set xlabel xname
stats summary using "value" nooutput
set xrange [STATS_min:STATS_max]
stats file using "period" nooutput
periods = STATS_max

set output dir."/poincare.png"
set multiplot layout 2,1 title "Poincaré section at the contact point x = 0.4"
set ylabel "w(0.4) at t = (k + phase) T"
plot file using "value":(column("stuck") == 0 ? column("u") : 1/0) with points pt 7 ps 0.5 lc rgb "#1f4e9a" title "free flight", \
     file using "value":(column("stuck") == 1 ? column("u") : 1/0) with points pt 7 ps 0.7 lc rgb "#c0392b" title "sticking"
set ylabel "dw/dt(0.4) at t = (k + phase) T"
plot file using "value":(column("stuck") == 0 ? column("v") : 1/0) with points pt 7 ps 0.5 lc rgb "#1f4e9a" title "free flight", \
     file using "value":(column("stuck") == 1 ? column("v") : 1/0) with points pt 7 ps 0.7 lc rgb "#c0392b" title "sticking"
unset multiplot

set output dir."/sticking.png"
set multiplot layout 2,1
set ylabel "sticking fraction of time"
set yrange [0:*]
plot summary using "value":"sticking_fraction" with linespoints pt 7 ps 0.5 lw 2 title "time stuck / recorded time"
set autoscale y
set ylabel "impacts per period"
plot summary using "value":(column("impacts") / periods) with linespoints pt 7 ps 0.5 lw 2 title "impacts / recorded periods"
unset multiplot

set output dir."/impacts.png"
set title "Impact section: contact velocity just before every impact after the transient"
set ylabel "approach velocity -U^-"
set autoscale y
plot dir."/impacts.csv" using "value":(column("sticks") == 0 ? -column("velocity") : 1/0) with points pt 7 ps 0.4 lc rgb "#1f4e9a" title "impact", \
     dir."/impacts.csv" using "value":(column("sticks") == 1 ? -column("velocity") : 1/0) with points pt 7 ps 0.7 lc rgb "#c0392b" title "impact that starts sticking (chatter ends)"
