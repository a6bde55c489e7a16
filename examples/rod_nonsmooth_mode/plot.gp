# The massless-end FE rod's branches (out-10/, out-20/: see case.prm) against the continuum's first
# nonsmooth mode, omega = 4 omega_1 / (3 + sqrt(E_g/E)), E_g = EA g^2 / (2L) = 0.005.
set terminal pngcairo size 900,600
set output 'rod_backbone.png'
set datafile separator ','
set key top left
set grid
set logscale x
set xlabel 'energy E / E_g'
set ylabel 'frequency / omega_1'
Eg = 0.005
w1 = pi / 2
backbone(x) = 4.0 / (3 + sqrt(1.0 / x))
set xrange [1:200]
set yrange [0.98:1.36]
plot backbone(x) with lines lw 2 lc rgb 'black' title 'continuum (closed form)', \
     'out-10/branch.csv' using ($5/Eg):($4/w1) with linespoints pt 7 ps 0.6 lc rgb '#1f77b4' title 'FE, 10 elements', \
     'out-20/branch.csv' using ($5/Eg):($4/w1) with linespoints pt 5 ps 0.6 lc rgb '#d62728' title 'FE, 20 elements', \
     1 with lines dt 2 lc rgb 'gray' title 'omega_1', 4.0/3 with lines dt 3 lc rgb 'gray' title '4 omega_1 / 3'
