# Mode shapes of the pinned–pinned beam with the obstacle marked, and the frequency
# convergence. Run: gnuplot -e "out='output/pinned_beam_modes'" examples/pinned_beam_modes/plot.gp
if (!exists("out")) out = 'output/pinned_beam_modes'
set datafile separator ','
set terminal pngcairo size 1000,600 font ',11'

set output out.'/mode_shapes.png'
set title 'Pinned–pinned beam: first five mode shapes (unit peak) and the obstacle at x = 0.4'
set xlabel 'x'
set ylabel 'w / max|w|'
set key outside right
set grid
set xrange [0:1]
set yrange [-1.25:1.25]
stats out.'/contacts.csv' using 2 nooutput name 'contact'
set arrow 1 from contact_min, -1.2 to contact_min, -1.02 head filled lc rgb 'black' lw 2
set label 1 'obstacle' at contact_min, -1.15 offset 1,0
plot for [j=1:5] out.'/mode_shapes.csv' using 2:(column(2+j)) skip 1 with lines lw 2 title sprintf('mode %d', j)

set output out.'/frequencies.png'
unset arrow 1
unset label 1
set title 'Natural frequencies against (j {/Symbol p})^2'
set xlabel 'mode j'
set ylabel '{/Symbol w}_j [rad/s]'
set xrange [0.5:5.5]
set yrange [*:*]
set logscale y
plot out.'/modes.csv' using 1:2 skip 1 with points pt 7 ps 1.5 title 'finite elements', \
     (x*pi)**2 with lines dt 2 title '(j {/Symbol p})^2'
