# Contact-point displacement and midspan displacement for three chatter thresholds epsilon
# (Vyasarayani et al., Figures 4 and 5). Run the three cases first (README.md), then
#   gnuplot -e "dir='out'" examples/pinned_beam_forced_sticking/plot.gp    # out/epsilon_study.png
if (!exists("dir")) dir = "out"
set datafile separator ","
set terminal pngcairo size 1000,700 noenhanced
set grid
set key outside top center horizontal
set output dir."/epsilon_study.png"
set multiplot layout 2,1
set ylabel "w(0.4, t): contact point"
plot dir."/eps1e-6/history.csv" using "time":"u_contact_point" with lines lw 3 lc rgb "#999999" title "epsilon = 1e-6", \
     dir."/eps1e-4/history.csv" using "time":"u_contact_point" with lines lw 2 lc rgb "#1f77b4" title "1e-4", \
     dir."/eps1e-3/history.csv" using "time":"u_contact_point" with lines lw 1 lc rgb "#d62728" title "1e-3"
set xlabel "time"
set ylabel "w(0.5, t): midspan"
plot dir."/eps1e-6/history.csv" using "time":"u_midspan" with lines lw 3 lc rgb "#999999" notitle, \
     dir."/eps1e-4/history.csv" using "time":"u_midspan" with lines lw 2 lc rgb "#1f77b4" notitle, \
     dir."/eps1e-3/history.csv" using "time":"u_midspan" with lines lw 1 lc rgb "#d62728" notitle
unset multiplot
