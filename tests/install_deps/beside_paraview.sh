#!/usr/bin/env bash
# scripts/install-deps on a machine where Debian's ParaView (python3-paraview) is installed, with
# apt-get, dpkg-query and sudo replaced by fakes that act as Debian 12's do: nothing is
# removed, everything but libvtk9-dev is installed, one line says so, and a second run only checks.
# Without ParaView libvtk9-dev is installed as before.
set -uo pipefail
script=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin"
fail() { echo "FAIL: $*"; exit 1; }

cat >"$work/bin/dpkg-query" <<'FAKE'
#!/usr/bin/env bash
grep -qx "${@: -1}" "$FAKE_DIR/installed" && echo "install ok installed" || exit 1
FAKE
# apt-get: refuses libvtk9-dev (python3-vtk9) beside python3-paraview as apt does; logs real calls.
cat >"$work/bin/apt-get" <<'FAKE'
#!/usr/bin/env bash
[ "$1" = update ] && { echo update >>"$FAKE_DIR/calls"; exit 0; }
simulate=false; remove=true; packages=()
for a in "$@"; do
  case $a in -s) simulate=true ;; --no-remove) remove=false ;; -*|install) ;; *) packages+=("$a") ;; esac
done
$simulate || echo "install ${packages[*]}$($remove || echo ' (no-remove)')" >>"$FAKE_DIR/calls"
for p in "${packages[@]}"; do
  if [ "$p" = libvtk9-dev ] && grep -qx python3-paraview "$FAKE_DIR/installed"; then
    echo "The following packages have unmet dependencies:"
    echo " python3-paraview : Conflicts: python3-vtk9 but 9.1.0+really9.1.0+dfsg2-5+deb12u1 is to be installed"
    echo "E: Error, pkgProblemResolver::Resolve generated breaks, this may be caused by held packages."
    exit 100
  fi
done
$simulate || printf '%s\n' "${packages[@]}" >>"$FAKE_DIR/installed"
FAKE
printf '#!/usr/bin/env bash\nexec "$@"\n' >"$work/bin/sudo"
chmod +x "$work/bin/"*
export PATH="$work/bin:$PATH" FAKE_DIR=$work

# 1. ParaView installed, nothing of ours: everything but libvtk9-dev, nothing removed, one line.
printf 'python3-paraview\nparaview\n' >"$work/installed"
out=$("$script" 2>&1) || fail "install-deps failed beside ParaView: $out"
grep -q "install .*libdeal.ii-dev.* (no-remove)" "$work/calls" || fail "apt-get install without --no-remove: $(cat "$work/calls")"
! grep -q "install .*libvtk9-dev" "$work/calls" || fail "libvtk9-dev was asked for: $(cat "$work/calls")"
grep -qx python3-paraview "$work/installed" || fail "python3-paraview was removed"
[ "$(grep -c "libvtk9-dev conflicts with the installed python3-paraview; building with deal.II's VTU writer" <<<"$out")" = 1 ] ||
  fail "no single line naming the conflict and the fallback: $out"
! grep -q "^E:" <<<"$out" || fail "apt's raw error reached the user: $out"

# 2. A second run only checks.
: >"$work/calls"
out=$("$script" 2>&1) || fail "second run failed: $out"
[ ! -s "$work/calls" ] || fail "second run called apt-get: $(cat "$work/calls")"
[ "$(wc -l <<<"$out")" = 1 ] && grep -q "present; libvtk9-dev conflicts" <<<"$out" || fail "second run said: $out"

# 3. Without ParaView, libvtk9-dev is installed as before.
: >"$work/installed"; : >"$work/calls"
out=$("$script" 2>&1) || fail "install-deps failed without ParaView: $out"
grep -q "install .*libvtk9-dev" "$work/calls" || fail "libvtk9-dev not installed without ParaView: $(cat "$work/calls")"
echo "install-deps beside ParaView: nothing removed, one line, second run only checks; without it VTK installed"
