set terminal pngcairo size 1000,600
set output 'forced_response_vs_sweep.png'
set datafile separator ','
set xlabel 'omega / omega_1'; set ylabel 'u at the contact point, phase 0.75'
set key top left
set xrange [0.45:1.55]
plot 'sweep/poincare.csv' every ::1 using 1:5 with points pt 7 ps 0.5 lc 'black' title 'sweep: modal CoR Poincaré points', \
     'up/branch.csv' every ::1 using (($10==1 && $13==1) ? $4/9.8696044 : 1/0):24 with points pt 7 ps 0.3 lc 'red' title 'periodic orbits (event-driven map), stable', \
     'up/branch.csv' every ::1 using (($10==0 && $13==1) ? $4/9.8696044 : 1/0):24 with points pt 6 ps 0.3 lc 'blue' title 'unstable', \
     'up/branch.csv' every ::1 using ($13==0 ? $4/9.8696044 : 1/0):24 with points pt 2 ps 0.6 lc 'gray' title 'not admissible (grazing)', \
     'down/branch.csv' every ::1 using (($10==1 && $13==1) ? $4/9.8696044 : 1/0):24 with points pt 7 ps 0.3 lc 'red' notitle, \
     'down/branch.csv' every ::1 using (($10==0 && $13==1) ? $4/9.8696044 : 1/0):24 with points pt 6 ps 0.3 lc 'blue' notitle
