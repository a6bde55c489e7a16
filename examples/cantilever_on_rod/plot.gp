# gnuplot -e "dir='out'" plot.gp
# Reads dir/history.csv of `vibroimpact simulate case.prm -o out`; writes into dir:
#   tip.png      beam tip and rod top displacement (mm) against time (ms); the first impact at
#                7.64833 ms (Yin et al. 2007) is marked
#   force.png    contact force p/h (N): the sub-impacts of the first impact phase
#   energy.png   kinetic, potential and total energy, impact dissipation
# The force is impulse / h with h the spacing of the rows: impulse_<c> is the impulse since the
# previous row, so this is the mean contact force over each row.
if (!exists("dir")) dir = "out"
file = dir."/history.csv"
set datafile separator ","
set terminal pngcairo size 1000,600 noenhanced
set grid
set key top right
set xlabel "time (ms)"
stats file using "time" every ::0::1 nooutput
h = STATS_max - STATS_min
set arrow 1 from 7.64833, graph 0 to 7.64833, graph 1 nohead dashtype 2 lc rgb "black"
set label 1 "first impact, Yin et al.: 7.64833 ms" at 7.8, graph 0.9

set output dir."/tip.png"
set ylabel "displacement (mm)"
plot file using (1e3*column("time")):(1e3*column("u_beam_tip")) with lines lw 2 title "beam tip", \
     file using (1e3*column("time")):(1e3*column("u_rod_top")) with lines lw 2 title "rod top", \
     file using (1e3*column("time")):(1e3*column("u_beam_middle")) with lines title "beam middle"

set output dir."/force.png"
set ylabel "contact force p/h (N)"
plot file using (1e3*column("time")):(column("impulse_tip")/h) with lines lw 1 title "contact force"

set output dir."/energy.png"
set ylabel "energy (J)"
plot file using (1e3*column("time")):"total_energy" with lines lw 2 title "total", \
     file using (1e3*column("time")):"kinetic_energy" with lines title "kinetic", \
     file using (1e3*column("time")):"potential_energy" with lines title "potential", \
     file using (1e3*column("time")):"impact_dissipation" with lines title "impact dissipation"
