# The first contact phase of the wave-mode reference against the number of modes and the sampling
# step, as the paper's Figures 4-5 (Yin et al. 2007). Make the runs first
# (doc/validation-wave-modes.md §6.3):
#   for N in 10 50 100 2000; do vibroimpact simulate case.prm -o out/N$N -q \
#     -s 'Simulation/Solver=wave-modes' -s 'Simulation/Final time=0.0079' -s 'Simulation/Output interval=0' \
#     -s 'Simulation/Frame interval=0' -s "Wave modes/Number of modes=$N" -s 'Wave modes/Time step=3e-8'; done
#   for h in 3e-5 3e-6 3e-7; do vibroimpact simulate case.prm -o out/h$h -q \
#     -s 'Simulation/Solver=wave-modes' -s 'Simulation/Final time=0.0079' -s 'Simulation/Output interval=0' \
#     -s 'Simulation/Frame interval=0' -s 'Wave modes/Number of modes=2000' -s "Wave modes/Time step=$h"; done
#   gnuplot -e "dir='out'" plot_wave_modes.gp      # out/wave_modes_N.png, out/wave_modes_h.png
# The force is the sampled P(t) = -EA u'(l, t) of the series (force_tip), not a mean over a row.
if (!exists("dir")) dir = "out"
set datafile separator ","
set terminal pngcairo size 1000,600 noenhanced
set grid
set key top right
set xlabel "time (ms)"
set ylabel "contact force P (N)"
set xrange [7.64:7.79]

set output dir."/wave_modes_N.png"
set title "first contact, sampled every 30 ns, against the number of modes N"
plot for [N in "10 50 100 2000"] dir."/N".N."/history.csv" using (1e3*column("time")):(column("force_tip")) \
     with lines title "N = ".N

set output dir."/wave_modes_h.png"
set title "first contact, N = 2000, against the sampling step"
plot for [h in "3e-5 3e-6 3e-7"] dir."/h".h."/history.csv" using (1e3*column("time")):(column("force_tip")) \
     with lines title "h = ".h." s", \
     dir."/N2000/history.csv" using (1e3*column("time")):(column("force_tip")) with lines title "h = 3e-8 s"
