#!/usr/bin/env bash
# Runs three examples (beams on supports; a beam on a rod; point masses) with
# `Simulation/Output format` csv and hdf5 and opens each run's solution.xdmf with ParaView's XDMF
# readers through pvpython (open_xdmf.py): the .pvd's time steps, points, cells and arrays
# (the files of either VTU writer). Exit 77 (ctest: skipped) without ParaView's Python.
set -uo pipefail
cli=$1 root=$2 work=$3
source "$root/tests/paraview/pvpython.sh"

rm -rf "$work" && mkdir -p "$work"
status=0 pairs=()
while IFS='|' read -r name case final_time frame_interval; do
  for format in csv hdf5; do
    "$cli" simulate "$root/$case" -q -o "$work/$name/$format" -s "Simulation/Output format=$format" \
      -s "Simulation/Final time=$final_time" -s "Simulation/Frame interval=$frame_interval" >"$work/$name.$format.log" 2>&1 ||
      { echo "FAIL: $name ($format): vibroimpact simulate exited $?: $(tail -1 "$work/$name.$format.log")"; status=1; }
  done
  pairs+=("$work/$name/hdf5/solution.xdmf" "$work/$name/csv/solution.pvd")
done <<'RUNS'
antunes_six_supports|examples/antunes_six_supports/case.prm|0.015|1e-3
cantilever_on_rod|examples/cantilever_on_rod/case.prm|0.01|1e-3
two_dof_sticking|examples/two_dof_sticking/case.prm|10|0.7
RUNS
"$pvpython" "$root/tests/paraview/open_xdmf.py" "${pairs[@]}" || status=1
exit $status
