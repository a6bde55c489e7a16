# gnuplot -e "dir='out'" plot.gp
# Reads dir/history.csv of `vibroimpact simulate case.prm -o out`; writes into dir:
#   force.png      contact force p/h against d'Alembert's rho A c V = 1 on 0 < t < 2L/c = 2
#   velocity.png   velocities of the struck end, the middle and the free end (exact: 1 -> 0 -> -1
#                  at the arrival of the compressive and of the reflected unloading front)
#   energy.png     kinetic, potential, total energy and the impact dissipation
# The force is impulse / h with h the spacing of the rows: impulse_<c> is the impulse since the
# previous row, so this is the mean contact force over each row.
if (!exists("dir")) dir = "out"
file = dir."/history.csv"
set datafile separator ","
set terminal pngcairo size 1000,600 noenhanced
set grid
set key top right
set xlabel "time t c / L"

stats file using "time" every ::0::1 nooutput
h = STATS_max - STATS_min

set output dir."/force.png"
set ylabel "contact force / (rho A c V)"
set yrange [-0.1:1.5]
exact(t) = (t > 0 && t < 2) ? 1 : 0
set samples 2001
plot file using "time":(column("impulse_wall")/h) with steps lw 2 title "Moreau-Jean FE (impulse / h)", \
     exact(x) with lines dashtype 2 lw 2 lc rgb "black" title "d'Alembert"
unset yrange

set output dir."/velocity.png"
set ylabel "velocity / V"
plot file using "time":"v_struck_end" with lines lw 2 title "struck end (x = L)", \
     file using "time":"v_middle" with lines title "middle (x = L/2)", \
     file using "time":"v_free_end" with lines title "free end (x = 0)"

set output dir."/energy.png"
set ylabel "energy / (m V^2)"
plot file using "time":"total_energy" with lines lw 2 title "total", \
     file using "time":"kinetic_energy" with lines title "kinetic", \
     file using "time":"potential_energy" with lines title "potential", \
     file using "time":"impact_dissipation" with lines title "impact dissipation (e = 0 at the node)"
