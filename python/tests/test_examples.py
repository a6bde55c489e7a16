"""The scripts of examples/python run as the user runs them, and their physics holds: the energy
correction keeps the two-mass chain's energy (the module's numbers are the command line's CSV),
the bar's energy loss converges at rate 1 under mesh refinement, and the 2-DOF chain's one-impact
families leave their linear modes and reach the closed form's grazing energy."""
import importlib.util
import os
import subprocess
from pathlib import Path

import numpy as np

SOURCE = Path(os.environ.get("VIBROIMPACT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
CLI = os.environ.get("VIBROIMPACT_CLI", "vibroimpact")


def example(name):
    spec = importlib.util.spec_from_file_location(name, SOURCE / "examples/python" / (name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def cli_column(verb, case, out, column, table, overrides=()):
    command = [CLI, verb, str(case), "-q", "-o", str(out)]
    for entry in overrides:
        command += ["-s", entry]
    subprocess.run(command, check=True)
    header = (out / table).read_text().splitlines()[0].split(",")
    return np.genfromtxt(out / table, delimiter=",", skip_header=1, usecols=header.index(column))


def test_two_dof_energy(tmp_path):
    two_dof = example("two_dof_energy")
    runs = two_dof.energy_runs(final_time=60.0)
    two_dof.plot(runs, tmp_path / "energy.png")
    assert (tmp_path / "energy.png").stat().st_size > 10000
    with_, without = runs[True].history["total_energy"], runs[False].history["total_energy"]
    assert runs[True].summary["impacts"] > 5
    assert np.max(np.abs(with_ - with_[0])) < 1e-9 * with_[0]  # kept through every impact
    assert without[-1] < 0.5 * without[0]                      # e = 0 drains it
    cli = cli_column("simulate", two_dof.CASE, tmp_path / "cli", "total_energy", "history.csv",
                     ["Simulation/Final time=60", "Moreau-Jean/Energy correction=false"])
    np.testing.assert_array_equal(without, cli)


def test_mesh_convergence_rate(tmp_path):
    rows, _ = example("mesh_convergence").study(meshes=(25, 50, 100, 200))
    energy_rates = [row[4] for row in rows[1:]]
    impulse_rates = [row[2] for row in rows[1:]]
    assert all(0.9 < rate < 1.1 for rate in energy_rates), energy_rates   # energy lost = O(dx)
    assert all(0.5 < rate < 0.9 for rate in impulse_rates), impulse_rates # impulse -> 2 as dx^(2/3)
    assert abs(rows[-1][1] - 2) < 0.01


def test_frequency_energy_plot(tmp_path):
    fep = example("frequency_energy")
    branch = fep.branches(points=45)
    fep.plot(branch, tmp_path / "fep.png")
    assert (tmp_path / "fep.png").stat().st_size > 10000
    for family, omega in ((0, 0.618034), (1, 1.618034)):
        frequency = branch["frequency"][branch["family"] == family]
        assert abs(frequency[0] - omega) < 0.1 * omega    # leaves its linear mode
        assert np.all(np.diff(frequency) > 0)            # and stiffens
    # Mode 1's one-impact orbits end where the closed form puts their grazing: E = 0.178687.
    one_impact = (branch["family"] == 0) & (branch["impacts"] == 1)
    assert abs(branch["energy"][one_impact].max() / 0.178687 - 1) < 0.01
    cli = cli_column("continue", fep.CASE, tmp_path / "cli", "energy", "branch.csv",
                     ["Continuation/Maximum points=45"])
    np.testing.assert_array_equal(branch["energy"], cli)
