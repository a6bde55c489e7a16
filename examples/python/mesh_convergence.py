"""A mesh-convergence study of a response, written as a loop: the elastic bar of
examples/bar_on_rigid_wall hits a rigid wall (e = 0) at V = 1; the d'Alembert solution says the
contact lasts 2L/c = 2 and delivers the impulse 2 rho A L V = 2 with no energy lost. On the finite
elements the contact node's inelastic impact loses energy, 0.577/n of (1/2) m V^2 on n elements
(doc/time_stepping.md section 6): an O(dx) error, so the observed rate of the energy lost is 1.
The impulse's error falls about as dx^(2/3) (the front smeared by dispersion, the example's README).

    PYTHONPATH=build/python python3 examples/python/mesh_convergence.py [elements ...]

The runs' warnings (the contact node's penetration at the coarse meshes) are collected and
summarised after the table, not printed in its middle.
"""
import collections
import math
import sys
import warnings
from pathlib import Path

import vibroimpact as vi

CASE = Path(__file__).resolve().parents[1] / "bar_on_rigid_wall" / "case.prm"


def response(elements):
    """The wall's total impulse and the energy lost (fraction of (1/2) m V^2 = 1/2) on a mesh of
    `elements` linear rod elements at Courant number 1 (h = dx/c)."""
    run = vi.Case(CASE, overrides={"Body bar/Number of elements": elements,
                                   "Moreau-Jean/Time step": 1.0 / elements,
                                   "Simulation/Final time": 3.0}).simulate()
    history = run.history
    return history["impulse_wall"].sum(), history["impact_dissipation"][-1] / 0.5


def study(meshes=(25, 50, 100, 200, 400)):
    """Rows (elements, impulse, its observed rate, energy lost, its observed rate): each mesh
    halves dx, so a rate is log2 of the ratio of two successive errors. Returns the rows and the
    runs' warnings, (elements, message) each."""
    rows, said = [], []
    for n in meshes:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", vi.VibroimpactWarning)
            impulse, lost = response(n)
        said += [(n, str(w.message)) for w in caught]
        if rows:
            previous = rows[-1]
            rows.append((n, impulse, math.log2(abs(previous[1] - 2) / abs(impulse - 2)),
                         lost, math.log2(previous[3] / lost)))
        else:
            rows.append((n, impulse, float("nan"), lost, float("nan")))
    return rows, said


def summary(said):
    """The warnings in a few lines: each message once, with the meshes that gave it."""
    meshes = collections.OrderedDict()
    for n, message in said:
        meshes.setdefault(message, []).append(n)
    return ["warning (%s elements): %s" % (", ".join(map(str, ns)), message) for message, ns in meshes.items()]


if __name__ == "__main__":
    rows, said = study(tuple(int(n) for n in sys.argv[1:]) or (25, 50, 100, 200, 400))
    print("%8s %12s %6s %12s %6s" % ("elements", "impulse", "rate", "energy lost", "rate"))
    for row in rows:
        print("%8d %12.6f %6.3f %12.4e %6.3f" % row)
    for line in summary(said):
        print(line, file=sys.stderr)
