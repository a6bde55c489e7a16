# Overlay of `vibroimpact compare` results: the contact-point gap and the total energy of the
# Moreau–Jean FE run and the modal CoR reference, and the impact times of both.
#   vibroimpact compare examples/pinned_beam_obstacle/case.prm -o out -s 'Simulation/Final time=0.6' \
#       -s 'Modal restitution/Number of modes=0'
#   gnuplot -e "dir='out'" examples/pinned_beam_obstacle/compare.gp     # out/compare_*.png
if (!exists("dir")) dir = "out"
set datafile separator ","
set terminal pngcairo size 1000,600 noenhanced
set grid
set key outside top center horizontal
set xlabel "time"

set output dir."/compare_gap.png"
set ylabel "gap at the obstacle"
plot dir."/modal-cor/history.csv" using "time":"gap_obstacle" with lines lw 3 lc rgb "#999999" title "modal CoR (reference)", \
     dir."/moreau-jean/history.csv" using "time":"gap_obstacle" with lines lw 1 lc rgb "#d62728" title "Moreau–Jean FE"

set output dir."/compare_impacts.png"
set ylabel "impact time, Moreau–Jean FE - modal CoR"
set xlabel "impact time (modal CoR)"
plot dir."/impacts_moreau-jean.csv" using 2:($3-$2) with linespoints pt 7 title "impact time difference"
