"""Case.compare(), Case.converge() and Case.sweep() (doc/python.md): each returns the columns of
the CSV files its verb writes, the same doubles and text as the command line's files, and with
output="dir" writes the command line's files. Small cases (short records, few values) keep each
test to a few seconds."""
import os
from pathlib import Path

import numpy as np
import pytest

import vibroimpact as vi
from test_module import SOURCE, assert_same_columns, cli, read_csv

TIMINGS = ("wall_time", "cpu_time")  # measured, so never equal between two runs


def without_timings(columns):
    return {name: column for name, column in columns.items() if name not in TIMINGS}


def overrides_list(overrides):
    return ["%s=%s" % item for item in overrides.items()]


def assert_same_files(module_dir, cli_dir):
    """The same files; every CSV the same text but for its timing columns."""
    module_files = sorted(p.relative_to(module_dir) for p in module_dir.rglob("*") if p.is_file())
    cli_files = sorted(p.relative_to(cli_dir) for p in cli_dir.rglob("*") if p.is_file())
    assert module_files == cli_files
    for name in module_files:
        if name.suffix == ".csv":
            assert_same_columns(without_timings(read_csv(module_dir / name)), without_timings(read_csv(cli_dir / name)))


COMPARE = SOURCE / "examples/antunes_one_support/case.prm"
COMPARE_SHORT = {"Simulation/Final time": 0.04, "Simulation/Frame interval": 0}


def test_compare_equals_the_command_lines_csv(tmp_path):
    result = vi.Case(COMPARE, overrides=COMPARE_SHORT).compare(output=tmp_path / "module")
    out = cli("compare", COMPARE, tmp_path / "cli", overrides_list(COMPARE_SHORT))
    assert result.reference == "uk"
    assert sorted(result.runs) == ["moreau_jean", "penalty", "uk"]
    for name, run in result.runs.items():
        assert_same_columns(run.get("history"), read_csv(out / name / "history.csv"))
        assert_same_columns(run.get("events"), read_csv(out / name / "events.csv"))
    assert sorted(result.impacts) == ["moreau_jean", "penalty"]
    for name, columns in result.impacts.items():
        assert_same_columns(columns, read_csv(out / ("impacts_%s.csv" % name)))
    assert_same_columns(result.support_statistics, read_csv(out / "support_statistics.csv"))
    assert result.text == (out / "comparison.txt").read_text()
    assert_same_files(tmp_path / "module", out)
    # Physics: all three solvers see the beam hit the support, in contact for about the same time.
    statistics = result.support_statistics
    assert list(statistics["run"]) == ["uk", "penalty", "moreau_jean"] and statistics["impacts"].min() > 0
    np.testing.assert_allclose(statistics["contact_fraction"], statistics["contact_fraction"][0], rtol=0.3)


BAR = SOURCE / "examples/bar_on_rigid_wall/case.prm"
BAR_SHORT = {"Convergence/Refinement cycles": 3}


def test_converge_response_equals_convergence_csv(tmp_path):
    result = vi.Case(BAR, overrides=BAR_SHORT).converge(output=tmp_path / "module")
    out = cli("converge", BAR, tmp_path / "cli", overrides_list(BAR_SHORT))
    assert_same_columns(without_timings(result.convergence), without_timings(read_csv(out / "convergence.csv")))
    assert result.frequencies is None
    assert_same_files(tmp_path / "module", out)
    # The bar's contact duration 2 is reached to within a few per cent, better on finer meshes.
    errors = result.convergence["error_1"]
    assert errors[-1] < errors[0] and errors[-1] < 0.05


def test_converge_frequencies(tmp_path):
    case = SOURCE / "examples/pinned_beam_modes/case.prm"
    overrides = {"Body beam/Number of elements": 4}
    result = vi.Case(case, overrides=overrides).converge()
    assert result.convergence == {}
    f = result.frequencies
    assert f["omegas"].shape == (len(f["elements"]), len(f["reference"]))
    # Cubic Hermite beams: the first frequency's error falls about 16-fold per bisection.
    e = f["relative_errors"][:, 0]
    assert np.all(np.diff(f["elements"]) > 0) and e[-1] < e[0] / 10
    text = (cli("converge", case, tmp_path / "cli", overrides_list(overrides)) / "convergence.txt").read_text()
    assert result.text == text


BEAM_BRANCH = SOURCE / "examples/pinned_beam_backbone/case.prm"  # its Convergence section: Study = branch


def test_converge_branch_equals_the_command_lines_csv(tmp_path):
    result = vi.Case(BEAM_BRANCH).converge(output=tmp_path / "module")
    out = cli("converge", BEAM_BRANCH, tmp_path / "cli", [])
    assert_same_columns(result.convergence, read_csv(out / "convergence.csv"))
    # No tongue on these branches: an all-empty text column reads back as NaN, so it is checked apart.
    branches = dict(result.branches)
    assert set(branches.pop("tongue")) == {""}
    cli_branches = read_csv(out / "branches.csv")
    del cli_branches["tongue"]
    assert_same_columns(branches, cli_branches)
    assert_same_files(tmp_path / "module", out)
    # The backbone of 4 FE modes converges like the Hermite beam's frequencies: h^4 at every energy.
    np.testing.assert_allclose(result.convergence["frequency_order"], 4.0, atol=0.15)
    assert set(result.convergence["where"]) == {"backbone"}


GAP = SOURCE / "examples/pinned_beam_gap_sweep/case.prm"
GAP_SHORT = {"Sweep/Number of values": 4, "Sweep/Transient periods": 10, "Sweep/Recorded periods": 5}


def test_sweep_equals_the_command_lines_csv(tmp_path):
    result = vi.Case(GAP, overrides=GAP_SHORT).sweep(output=tmp_path / "module")
    out = cli("sweep", GAP, tmp_path / "cli", overrides_list(GAP_SHORT))
    for stem in ("poincare", "impacts", "sweep_summary"):
        assert_same_columns(without_timings(getattr(result, stem)), without_timings(read_csv(out / (stem + ".csv"))))
    assert_same_files(tmp_path / "module", out)
    summary = result.sweep_summary
    np.testing.assert_array_equal(summary["value"], np.linspace(0, 1.8, 4))
    # The smallest gap hits the obstacle; every recorded period has a Poincaré point.
    assert summary["impacts"][0] > 0
    assert len(result.poincare["value"]) == 4 * 5


def test_sweep_seed_ensemble_equals_the_command_lines_csv(tmp_path):
    overrides = {"Sweep/Parameter": "seed", "Sweep/Number of values": 2, "Simulation/Final time": 0.04}
    result = vi.Case(COMPARE, overrides=overrides).sweep()
    out = cli("sweep", COMPARE, tmp_path / "cli", overrides_list(overrides))
    for stem in ("realizations", "ensemble", "ensemble_spectra"):
        assert_same_columns(getattr(result, stem), read_csv(out / (stem + ".csv")))
    assert list(result.realizations["realization"]) == [0, 1]
    # The ensemble's mean is the mean over its records, which hit the support.
    impacts = result.realizations["impacts"]
    row = list(result.ensemble["statistic"]).index("impacts")
    assert impacts.min() > 0 and result.ensemble["mean"][row] == pytest.approx(impacts.mean(), rel=1e-12)
