"""Everything the command line writes reaches Python (doc/python.md): simulate()
returns every CSV table of the run (events of bodies and supports in space, statistics,
spectra, force_pdf, support_forces, support_orbits, wear_sectors) equal to the files; continue_()
returns the branch, its special points, the sampled orbits, the summary and the command line's
warnings, issued as VibroimpactWarning. Empty CSV fields come back as NaN."""
import re
import subprocess
import warnings

import numpy as np
import pytest

import vibroimpact as vi
from test_module import CLI, SOURCE, assert_same_columns, cli, read_csv

SUPPORT_TABLES = ("statistics", "spectra", "force_pdf", "support_forces", "support_orbits", "wear_sectors")


def assert_same_table(module, table):
    """assert_same_columns, but a text column the file leaves empty (read_csv reads it as NaN) is
    the module's column of empty strings."""
    for name, column in module.items():
        if column.dtype.kind == "U" and table[name].dtype.kind == "f" and np.isnan(table[name]).all():
            assert list(column) == [""] * len(table[name]), name
            table[name] = column
    assert_same_columns(module, table)


def csv_stems(folder):
    return {p.stem for p in folder.glob("*.csv")}


def assert_tables_equal_files(run, folder):
    """Every CSV file of the folder is the run's table of that name; the run has no other."""
    written = csv_stems(folder)
    for name in vi.Simulation.TABLES:
        table = getattr(run, name)
        assert (table is not None) == (name in written), name
        if table is not None and name != "history":
            assert_same_columns(table, read_csv(folder / (name + ".csv")))


def simulated_both_ways(example, final_time, folder):
    """The example simulated by the module and by the command line (no frames): the module's
    result, checked table by table against the command line's folder, and that folder."""
    case = SOURCE / "examples" / example / "case.prm"
    short = {"Simulation/Final time": final_time, "Simulation/Frame interval": 0}
    run = vi.Case(case, overrides=short).simulate()
    out = cli("simulate", case, folder, ["%s=%s" % item for item in short.items()])
    assert_tables_equal_files(run, out)
    return run, out


def test_tube_events_spectra_and_wear_equal_the_files(tmp_path):
    run, out = simulated_both_ways("tube_six_supports", 0.01, tmp_path / "cli")
    # The supports in space's events, with the angle where on the wall (the tube has no planar contact).
    assert len(run.events["time"]) > 0 and np.all(np.isfinite(run.events["angle"]))
    assert set(run.events["contact"]) <= set(run.statistics["support"])
    assert {"wear_sectors", "support_orbits", "spectra"} <= csv_stems(out)
    # The sectors' wear work adds up to each support's.
    for support, total in zip(run.statistics["support"], run.statistics["wear_work"]):
        mine = run.wear_sectors["support"] == support
        np.testing.assert_allclose(run.wear_sectors["wear_work"][mine].sum(), total, rtol=1e-12, atol=1e-300)


def test_planar_supports_tables_equal_the_files(tmp_path):
    run, _ = simulated_both_ways("antunes_one_support", 0.05, tmp_path / "cli")
    assert run.support_forces is not None and run.wear_sectors is None
    # The support's contact force integrates to the impulses of its two stops.
    forces = run.support_forces
    dt = np.diff(forces["time"])
    impulse = sum(run.history[c][1:].sum() for c in run.history if c.startswith("impulse_"))
    np.testing.assert_allclose((forces[[c for c in forces if c.startswith("force_")][0]][1:] * dt).sum(), impulse,
                               rtol=1e-12)


def cli_warnings(case, out, overrides):
    """The command line's warnings on the same case (its stderr lines), without the prefix."""
    command = [CLI, "continue", str(case), "-q", "-o", str(out)]
    for item in overrides.items():
        command += ["-s", "%s=%s" % item]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    prefix = "vibroimpact: warning: "
    return [line[len(prefix):] for line in done.stderr.splitlines() if line.startswith(prefix)]


def test_continue_returns_branch_special_points_orbits_and_warnings(tmp_path):
    case = SOURCE / "examples/impact_oscillator/case.prm"
    # Orbit point 30 of a branch cut at 25 points: the command line warns that it wrote no orbit.
    overrides = {"Continuation/Maximum points": 25, "Continuation/Orbit points": "0, 12, 30",
                 "Continuation/Samples per orbit": 64, "Continuation/Switch branches": "none"}
    with pytest.warns(vi.VibroimpactWarning, match="no orbit_0_30 written"):
        result = vi.Case(case, overrides=overrides).continue_()
    out = tmp_path / "cli"
    expected = cli_warnings(case, out, overrides)
    assert result.warnings == expected and len(expected) == 1

    branch = read_csv(out / "branch.csv")
    assert_same_table(result.branch, branch)
    # An empty field is NaN (a grazing gap of an orbit that never nears its stop), text stays text.
    assert np.isnan(result.branch["grazing_gap"]).any() and result.branch["special"].dtype.kind == "U"
    special = result.special_points
    assert len(special["point"]) == np.count_nonzero(result.branch["special"] != "") > 0
    assert set(special["special"]) <= {"fold", "branch point", "period doubling", "Neimark-Sacker", "grazing",
                                       "chatter-sticking"}

    assert sorted(result.orbits) == ["orbit_0_0", "orbit_0_12"]
    for name, orbit in result.orbits.items():
        assert_same_columns(orbit["table"], read_csv(out / (name + ".csv")))
        assert orbit["displacement"].shape == (65, 1) == orbit["velocity"].shape  # t = 0 .. T
        # One mass: the probe is its DoF, and the orbit closes on itself after one period.
        np.testing.assert_array_equal(orbit["table"]["u_x"], orbit["displacement"][:, 0])
        row = result.branch["point"] == orbit["point"]
        assert orbit["table"]["time"][-1] == pytest.approx(result.branch["period"][row][0], rel=1e-12)
        np.testing.assert_allclose(orbit["displacement"][-1], orbit["displacement"][0], atol=1e-8)
        np.testing.assert_allclose(orbit["velocity"][-1], orbit["velocity"][0], atol=1e-8)

    assert result.at_frequencies is None  # no Report frequencies
    summary = result.summary
    families = summary["families"]
    points = len(result.branch["point"])  # 25 and the special points located between them
    assert families["points"][0] == points >= 25 and summary["unknowns"] == 2
    assert families["last_frequency"][0] == result.branch["frequency"][-1]
    assert re.match(r"impact_oscillator: \S+ map, 2 unknowns, 1 rank, ", summary["text"][0])
    assert ": %d points (%d stable)" % (points, result.branch["stable"].sum()) in summary["text"][1]
    assert "special_points" in repr(result)


def test_warnings_can_be_silenced_and_are_kept():
    case = SOURCE / "examples/impact_oscillator/case.prm"
    overrides = {"Continuation/Maximum points": 3, "Continuation/Orbit points": "5"}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(vi.VibroimpactWarning):
            vi.Case(case, overrides=overrides).continue_()
        warnings.simplefilter("ignore", vi.VibroimpactWarning)
        result = vi.Case(case, overrides=overrides).continue_()
    assert len(result.warnings) == 1


def test_continue_returns_the_orbits_at_report_frequencies_as_the_file(tmp_path):
    case = SOURCE / "examples/impact_oscillator/case.prm"
    overrides = {"Continuation/Report frequencies": "1.0, 1.6"}
    result = vi.Case(case, overrides=overrides).continue_()
    out = tmp_path / "cli"
    cli_warnings(case, out, overrides)
    assert_same_columns(result.at_frequencies, read_csv(out / "at_frequencies.csv"))
    # Once at 1.0 rad/s; three times at 1.6 (stable and unstable one-impact orbits, no impact).
    assert sorted(result.at_frequencies["frequency"]) == [1.0, 1.6, 1.6, 1.6]


def test_continue_returns_the_curves_of_special_points_as_the_file(tmp_path):
    """With Continuation/Follow, continue_() returns curves.csv's columns: the grazing curve of the
    orbit without impacts on its closed form F = g sqrt((1 - w^2)^2 + (2 zeta w)^2)."""
    case = SOURCE / "examples/impact_oscillator/case.prm"
    overrides = {"Continuation/Follow": "grazing", "Continuation/Second parameter": "Load F/Amplitude",
                 "Continuation/Second parameter range": "0.5, 2", "Continuation/Minimum frequency": "1.2",
                 "Continuation/Switch branches": "none"}
    result = vi.Case(case, overrides=overrides).continue_()
    out = tmp_path / "cli"
    cli_warnings(case, out, overrides)
    assert_same_table(result.curves, read_csv(out / "curves.csv"))
    w, force = result.curves["frequency"], result.curves["parameter"]
    assert len(w) >= 10 and set(result.curves["kind"]) == {"grazing"}
    assert np.abs(force - np.hypot(1 - w**2, 0.1 * w)).max() < 1e-8
