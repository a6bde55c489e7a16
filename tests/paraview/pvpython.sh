# Sourced by the ParaView tests: sets `pvpython` to a pvpython that can import paraview.simple, or
# exits 77 (ctest: skipped, saying why) where ParaView's Python modules are not installed.
pvpython=$(command -v pvpython) ||
  { echo "SKIP: pvpython not found (ParaView with its Python modules is not installed)"; exit 77; }
"$pvpython" -c "import paraview.simple" >/dev/null 2>&1 ||
  { echo "SKIP: $pvpython cannot import paraview.simple (ParaView without python3-paraview)"; exit 77; }
