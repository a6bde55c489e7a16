"""The seed talk's two-mass chain hitting a stop with purely inelastic impacts (e = 0), integrated by
Moreau-Jean with and without the energy correction (examples/two_dof_sticking): with it the total
energy stays at its initial value through impacts and sticking phases, without it the impacts
drain it. The README's figure, from Python:

    PYTHONPATH=build/python python3 examples/python/two_dof_energy.py two_dof_energy.png
"""
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # a file, no display
import matplotlib.pyplot as plt

import vibroimpact as vi

CASE = Path(__file__).resolve().parents[1] / "two_dof_sticking" / "case.prm"


def energy_runs(final_time=200.0):
    """The case's run with the energy correction (True) and without it (False)."""
    return {correction: vi.Case(CASE, overrides={"Moreau-Jean/Energy correction": correction,
                                                 "Simulation/Final time": final_time}).simulate()
            for correction in (True, False)}


def plot(runs, path):
    figure, axes = plt.subplots(figsize=(10, 6))
    with_, without = runs[True].history, runs[False].history
    axes.plot(with_["time"], with_["total_energy"], lw=2, label="total (with correction)")
    axes.plot(without["time"], without["total_energy"], lw=2, label="total (without correction)")
    axes.plot(with_["time"], with_["kinetic_energy"], lw=0.8, label="kinetic (with correction)")
    axes.set_xlabel("time")
    axes.set_ylabel("energy")
    axes.grid(True)
    axes.legend(loc="upper center", bbox_to_anchor=(0.5, 1.1), ncol=3)
    figure.savefig(path, dpi=100)
    plt.close(figure)


if __name__ == "__main__":
    runs = energy_runs()
    plot(runs, sys.argv[1] if len(sys.argv) > 1 else "two_dof_energy.png")
    for correction, run in runs.items():
        energy = run.history["total_energy"]
        print("energy correction %-5s: E %.6g -> %.6g, %d impacts" %
              (correction, energy[0], energy[-1], run.summary["impacts"]))
