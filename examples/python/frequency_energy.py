"""The frequency-energy plot of the seed talk's 2-DOF chain (m = k = 1, a rigid stop 0.1 beyond
m2, elastic impacts e = 1; examples/two_dof_fep): the families of periodic orbits leave the linear
modes (omega = 0.618, 1.618 rad/s) at their grazing energies with one impact a period and stiffen;
past mode 1's second grazing (E = 0.1787) its orbits hit the stop twice a period. Each point is
drawn with its number of impacts a period (branch.csv's `impacts`).
case.continue_() traces them by shooting and continuation; its .branch is branch.csv's columns, its
.warnings what the command line warns of (also issued as vi.VibroimpactWarning).

    PYTHONPATH=build/python python3 examples/python/frequency_energy.py fep.png
"""
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # a file, no display
import matplotlib.pyplot as plt
import numpy as np

import vibroimpact as vi

CASE = Path(__file__).resolve().parents[1] / "two_dof_fep" / "case.prm"


def branches(points=120):
    """branch.csv's columns: one row per orbit, `family` 0 and 1 for the modes 1 and 2."""
    return vi.Case(CASE, overrides={"Continuation/Maximum points": points}).continue_().branch


def impacts_text(count):
    """'one impact a period', 'two impacts a period', ... for the legend."""
    words = {0: "no impact", 1: "one impact", 2: "two impacts", 3: "three impacts"}
    return "%s a period" % words.get(count, "%d impacts" % count)


def series(branch):
    """The plotted groups: (label, rows) for each family and number of impacts a period."""
    groups = []
    for family in np.unique(branch["family"]):
        for impacts in np.unique(branch["impacts"][branch["family"] == family]):
            rows = (branch["family"] == family) & (branch["impacts"] == impacts)
            groups.append(("mode %d, %s" % (family + 1, impacts_text(int(impacts))), rows))
    return groups


def plot(branch, path):
    figure, axes = plt.subplots(figsize=(9, 6))
    markers = {1: ".", 2: "x", 3: "+"}
    for label, rows in series(branch):
        impacts = int(branch["impacts"][rows][0])
        axes.plot(branch["energy"][rows], branch["frequency"][rows], markers.get(impacts, "*"), label=label)
    stable = branch["stable"] == 1
    axes.plot(branch["energy"][stable], branch["frequency"][stable], "ko", mfc="none", ms=6, label="stable")
    for omega in (0.618034, 1.618034):
        axes.axhline(omega, color="gray", ls="--", lw=0.8)
    axes.set_xscale("log")
    axes.set_xlabel("energy")
    axes.set_ylabel("frequency [rad/s]")
    axes.grid(True)
    axes.legend()
    figure.savefig(path, dpi=100)
    plt.close(figure)


if __name__ == "__main__":
    branch = branches()
    plot(branch, sys.argv[1] if len(sys.argv) > 1 else "fep.png")
    print("%d orbits, energy %.4g .. %.4g" % (len(branch["energy"]), branch["energy"].min(), branch["energy"].max()))
