#!/usr/bin/env bash
# Runs every example (the list of tests/outputs/example-outputs) with its own frame settings and
# opens each .pvd it writes with ParaView's reader through pvpython (open_pvd.py): every time step
# loads, with its points, cells and arrays. Exit 77 (ctest: skipped, saying why) where ParaView's
# Python modules are not installed.
set -uo pipefail
cli=$1 root=$2 work=$3

source "$root/tests/paraview/pvpython.sh"

rm -rf "$work" && mkdir -p "$work"
status=0
while IFS='|' read -r name verb case rest; do
  args=()
  IFS='|' read -r -a overrides <<<"$rest"
  for o in "${overrides[@]}"; do [ -n "$o" ] && args+=(-s "$o"); done
  "$cli" "$verb" "$root/$case" -q -o "$work/$name" "${args[@]}" >"$work/$name.log" 2>&1 ||
    { echo "FAIL: $name: vibroimpact $verb exited $?: $(tail -1 "$work/$name.log")"; status=1; }
done < <("$root/tests/outputs/example-outputs" list)

mapfile -t records < <(find "$work" -name '*.pvd' | sort)
[ ${#records[@]} -gt 0 ] || { echo "FAIL: the examples wrote no .pvd"; exit 1; }
"$pvpython" "$root/tests/paraview/open_pvd.py" "${records[@]}" || status=1
exit $status
