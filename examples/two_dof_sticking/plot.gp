# gnuplot -e "dir='out'; ref='out-nocorr'" plot.gp   (ref is optional: the run without correction)
# Makes energy.png and displacements.png (in dir) from history.csv.
if (!exists("dir")) dir = "out"
set datafile separator ","
set key autotitle columnhead
set terminal pngcairo size 1000,600 noenhanced
set grid
set key outside top center horizontal
set xlabel "time"

set output dir."/energy.png"
set ylabel "energy"
if (exists("ref")) {
  plot dir."/history.csv" using "time":"total_energy" with lines lw 2 title "total (with correction)", \
       ref."/history.csv" using "time":"total_energy" with lines lw 2 title "total (without correction)", \
       dir."/history.csv" using "time":"kinetic_energy" with lines title "kinetic (with correction)"
} else {
  plot dir."/history.csv" using "time":"total_energy" with lines lw 2 title "total", \
       dir."/history.csv" using "time":"kinetic_energy" with lines title "kinetic", \
       dir."/history.csv" using "time":"potential_energy" with lines title "potential"
}

set output dir."/displacements.png"
set ylabel "displacement"
plot dir."/history.csv" using "time":"u_x1" with lines title "u1 (mass 1)", \
     dir."/history.csv" using "time":"u_x2" with lines title "u2 (mass 2)", \
     0.1 with lines dashtype 2 lc rgb "black" title "stop (gap 0.1)"
