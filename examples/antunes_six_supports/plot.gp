# Force histories and displacements at the supports (the paper's Figs 4-7 layout), from the
# support_forces.csv that `vibroimpact simulate` writes next to statistics.csv. `simulate` already
# draws support_forces.png, spectra.png and force_pdf.png; this script redraws the first panel with
# a time window: gnuplot -e "dir='out'; t0=0; t1=0.1" plot.gp
if (!exists("dir")) dir = 'out'
if (!exists("t0")) t0 = 0
if (!exists("t1")) t1 = 1e9
set terminal pngcairo noenhanced size 1200,700
set output dir.'/supports_window.png'
set datafile separator ','
set multiplot layout 2,1
set xrange [t0 < 0 ? 0 : t0 : t1]
set xlabel 'time [s]'
set ylabel 'displacement at s1 [m]'
plot dir.'/support_forces.csv' using 'time':'u_s1' with lines notitle, -1e-3 with lines dt 2 lc 'magenta' notitle, 1e-3 with lines dt 2 lc 'magenta' notitle
set ylabel 'contact force at s1 [N]'
plot dir.'/support_forces.csv' using 'time':'force_s1' with lines notitle
unset multiplot
