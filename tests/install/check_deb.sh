#!/usr/bin/env bash
# The Debian package as apt would install it: `cpack -G DEB` in the build folder, the .deb's files
# unpacked into a scratch root (dpkg-deb -x), then the program and `import vibroimpact` run from
# there with a bare environment: nothing of the build tree on any path, only the scratch root's
# dist-packages on PYTHONPATH (apt's /usr/lib/python3/dist-packages is on python3's own path).
# Usage: check_deb.sh BUILD_DIR WORK_DIR PYTHON SOURCE_DIR
set -euo pipefail
build=$1 work=$2 python=$3 source=$4
rm -rf "$work"
mkdir -p "$work"

# dpkg-shlibdeps only adds the Depends line; the contents are what is checked here.
start=$(date +%s.%N)
(cd "$build" && cpack -G DEB -B "$work/package" -D CPACK_DEBIAN_PACKAGE_SHLIBDEPS=OFF >"$work/cpack.log" 2>&1) ||
  { cat "$work/cpack.log"; exit 1; }
deb=$(ls "$work"/package/vibroimpact_*.deb)
dpkg-deb -x "$deb" "$work/root"
echo "check_deb: $(basename "$deb"), $(du -k "$deb" | cut -f1) kB, packed and unpacked in" \
  "$(awk "BEGIN { printf \"%.1f\", $(date +%s.%N) - $start }") s"

fail() { echo "check_deb: $*" >&2; exit 1; }
root=$work/root
for file in usr/bin/vibroimpact usr/include/vibroimpact/studies/case_file.h usr/lib/python3/dist-packages/vibroimpact/__init__.py; do
  [ -e "$root/$file" ] || fail "the package has no /$file"
done
# The library folder is lib or lib/<multiarch>, as the build's prefix chose (GNUInstallDirs).
[ -n "$(find "$root/usr/lib" -path '*/cmake/vibroimpact/vibroimpactConfig.cmake')" ] || fail "no CMake package config"
[ -n "$(find "$root/usr/lib" -name 'libvibroimpact.so*')" ] || fail "no libvibroimpact.so"
[[ $(dpkg-deb -f "$deb" Depends) == *python3-numpy* ]] || fail "the package does not depend on python3-numpy"

# A bare environment: no LD_LIBRARY_PATH, no PYTHONPATH into the build, another working folder.
bare=(env -i PATH=/usr/bin:/bin HOME="$work")
cd "$work"
program_version=$("${bare[@]}" "$root/usr/bin/vibroimpact" --version | head -1)
echo "check_deb: $program_version"
# A verb loads its module (libvibroimpact-cli.so) by the program's $ORIGIN RUNPATH.
listing=$("${bare[@]}" "$root/usr/bin/vibroimpact" parameters modes)
grep -q "subsection Body" <<<"$listing" || fail "'vibroimpact parameters modes' from the scratch root printed no parameters"
module=$("${bare[@]}" PYTHONPATH="$root/usr/lib/python3/dist-packages" "$python" -c '
import vibroimpact as vi
case = vi.Case("'"$source"'/examples/two_dof_sticking/case.prm")
print(vi.__version__, vi.__file__, len(case.modes().omegas))')
echo "check_deb: import vibroimpact: $module"
read -r version file n_modes <<<"$module"
[ "vibroimpact $version" = "$program_version" ] || fail "vibroimpact.__version__ $version, the program: $program_version"
case $file in "$root"/*) ;; *) fail "imported $file, not the scratch root's" ;; esac
[ "$n_modes" = 2 ] || fail "the two-mass chain has $n_modes modes, not 2"
# Every shared object finds its libraries from the scratch root (no 'not found').
for so in "$root"/usr/bin/vibroimpact $(find "$root/usr/lib" -name '*.so' -type f); do
  missing=$("${bare[@]}" ldd "$so" | grep "not found" || true)
  [ -z "$missing" ] || fail "$so: $missing"
  libraries=$("${bare[@]}" ldd "$so" | grep -F "=> $build/" | grep -vF "=> $root/" || true)
  [ -z "$libraries" ] || fail "$so loads from the build tree: $libraries"
done
echo "check_deb: ok"
