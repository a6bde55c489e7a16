# gnuplot -e "dir='out'" plot.gp
# Reads dir/history.csv of `vibroimpact simulate case.prm -o out`; writes into dir:
#   energy.png        kinetic, potential and total energy vs time
#   energy_error.png  (E(t) - E(0)) / E(0): round-off only (e = 1, theta = 1/2)
#   contact.png       deflection at the obstacle (x = 0.4) and at midspan, and the impulses
if (!exists("dir")) dir = "out"
file = dir."/history.csv"
set datafile separator ","
set terminal pngcairo size 1000,600 noenhanced
set grid
set xlabel "time (scaled: omega_1 = pi^2)"

stats file using "total_energy" every ::0::0 nooutput
E0 = STATS_min

set output dir."/energy.png"
set ylabel "energy"
set key top right
plot file using "time":"total_energy" with lines lw 2 title "total", \
     file using "time":"kinetic_energy" with lines title "kinetic", \
     file using "time":"potential_energy" with lines title "potential"

set output dir."/energy_error.png"
set ylabel "(E - E0) / E0"
set format y "%.1e"
plot file using "time":(column("total_energy")/E0 - 1) with lines lw 2 title "relative energy error"
unset format

set output dir."/contact.png"
set multiplot layout 2,1
set ylabel "deflection w"
plot file using "time":"u_contact_point" with lines lw 2 title "w(0.4) (contact point)", \
     file using "time":"u_midspan" with lines title "w(0.5)", \
     0 with lines dashtype 2 lc rgb "black" title "obstacle"
set ylabel "impulse since the previous row"
plot file using "time":"impulse_obstacle" with impulses title "impulse (every 10 steps, summed)"
unset multiplot
