set terminal pngcairo size 900,820
set output 'two_dof_fep.png'
set datafile separator ','
set logscale x
set xlabel 'energy'
set ylabel 'frequency [rad/s]'
set key below left maxrows 7 font ',9'
set grid
set arrow from graph 0, first 0.618034 to graph 1, first 0.618034 nohead dt 2 lc 'gray'
set arrow from graph 0, first 1.618034 to graph 1, first 1.618034 nohead dt 2 lc 'gray'
plot 'fep/branch.csv' every ::1 using (($1==0 && $6==1 && $10==1) ? $5 : 1/0):4 w p pt 7 ps 0.6 lc 1 t 'e = 1, mode 1, one impact, stable', \
     'fep/branch.csv' every ::1 using (($1==0 && $6==1 && $10==0) ? $5 : 1/0):4 w p pt 6 ps 0.6 lc 1 t 'e = 1, mode 1, one impact, unstable', \
     'fep/branch.csv' every ::1 using (($1==0 && $6==2) ? $5 : 1/0):4 w p pt 6 ps 0.6 lc rgb '#66cc66' t 'e = 1, mode 1 past grazing, two impacts', \
     'two/branch.csv' every ::1 using 5:4 w p pt 7 ps 0.5 lc rgb '#66cc66' t 'e = 1, two impacts (own start), stable', \
     'three/branch.csv' every ::1 using ($10==1 ? $5 : 1/0):4 w p pt 7 ps 0.5 lc rgb '#dd0000' t 'e = 1, three impacts, stable', \
     'three/branch.csv' every ::1 using ($10==0 ? $5 : 1/0):4 w p pt 6 ps 0.5 lc rgb '#dd0000' t 'e = 1, three impacts, unstable', \
     'three_b/branch.csv' every ::1 using ($6==3 ? $5 : 1/0):4 w p pt 4 ps 0.5 lc rgb '#dd0000' t 'e = 1, three impacts (second family)', \
     'three_b/branch.csv' every ::1 using ($6==4 ? $5 : 1/0):4 w p pt 4 ps 0.5 lc rgb '#aa6600' t '... then four impacts', \
     'fep/branch.csv' every ::1 using (($1==1 && $10==1) ? $5 : 1/0):4 w p pt 7 ps 0.6 lc 2 t 'e = 1, mode 2, stable', \
     'fep/branch.csv' every ::1 using (($1==1 && $10==0) ? $5 : 1/0):4 w p pt 6 ps 0.6 lc 2 t 'e = 1, mode 2, unstable', \
     'sticking/branch.csv' every ::1 using 5:4 w p pt 5 ps 0.6 lc 3 t 'e = 0 + correction: from v0 = (1, 1)', \
     'sticking_modes/branch.csv' every ::1 using ($1==0 ? $5 : 1/0):4 w p pt 9 ps 0.6 lc 4 t 'e = 0 + correction: from mode 1', \
     'sticking_modes/branch.csv' every ::1 using ($1==1 ? $5 : 1/0):4 w p pt 11 ps 0.6 lc 6 t 'e = 0 + correction: from mode 2', \
     'exact_sticking_1/branch.csv' every ::1 using 5:4 w p pt 13 ps 0.5 lc rgb '#1f3fbf' t 'e = 0 + correction, exact map: from mode 1', \
     'exact_sticking_2/branch.csv' every ::1 using 5:4 w p pt 13 ps 0.5 lc 8 t 'e = 0 + correction, exact map: from mode 2'
