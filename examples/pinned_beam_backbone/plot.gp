# The first nonsmooth mode's backbone for three meshes, and their differences from the finest.
# Run in the folder that holds out-20, out-40 and out-80 (see case.prm).
set terminal pngcairo size 1000,420
set output 'beam_backbones.png'
set datafile separator ','
set multiplot layout 1,2
set xlabel 'energy'
set ylabel 'frequency [rad/s]'
set key bottom right
set grid
plot 'out-20/branch.csv' every ::1 using 5:4 w lp pt 6 ps 0.7 t '20 elements', \
     'out-40/branch.csv' every ::1 using 5:4 w lp pt 4 ps 0.7 t '40 elements', \
     'out-80/branch.csv' every ::1 using 5:4 w l lw 2 t '80 elements'
set datafile separator whitespace
set ylabel 'frequency - frequency(80 elements) [rad/s]'
set logscale y
set format y '%.0e'
# Differences at the 80-element energies, from the other branches interpolated by gnuplot's
# smooth option would blur the figures: they are tabulated by diff.awk instead.
plot '< awk -f diff.awk out-20/branch.csv out-80/branch.csv' using 1:2 w lp pt 6 t '20 - 80', \
     '< awk -f diff.awk out-40/branch.csv out-80/branch.csv' using 1:2 w lp pt 4 t '40 - 80'
unset multiplot
