# The chain's forced response curve by shooting and by harmonic balance on one plot (README.md):
# run from a folder holding frc-shooting/, frc-hb5/ and frc-hb41/ (the README's commands).
set terminal pngcairo size 900,560 noenhanced
set output 'harmonic_balance_frc.png'
set datafile separator ','
set key top right
set grid
set xlabel 'forcing frequency [rad/s]'
set ylabel 'amplitude of x2 (largest |u| over the orbit)'
set xrange [0.4:2.0]
branch(d) = sprintf("< awk -F, 'NR > 1 { if ($22 == 1) print \"\"; print }' %s/branch.csv", d)
specials(d) = sprintf("< awk -F, 'NR > 1 && $28 != \"none\" && $28 != \"\"' %s/branch.csv", d)
plot branch('frc-shooting') using 4:26 with lines lw 4 lc rgb '#bbbbbb' title 'shooting (exact event-driven map)', \
     branch('frc-hb5') using 4:26 with lines lw 1.5 dt 2 lc 1 title 'harmonic balance, H = 5', \
     branch('frc-hb41') using 4:26 with lines lw 1.5 lc 2 title 'harmonic balance, H = 41', \
     specials('frc-shooting') using 4:26 with points pt 6 ps 1.6 lc 'black' title 'special points (shooting)', \
     specials('frc-hb41') using 4:26 with points pt 7 ps 0.7 lc 2 title 'special points (H = 41)'
