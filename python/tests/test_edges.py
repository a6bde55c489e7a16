"""The Python module's rough edges, each held by a test: entries set on a case, an argument's
error naming the argument, one progress stream a call (modes included), every result's warnings
and DataFrames, the number of modes a small model can give, and the examples' labels and quiet
output."""
import importlib.util
import os
import subprocess
import sys
import types
import warnings
from pathlib import Path

import numpy as np
import pytest

import vibroimpact as vi

SOURCE = Path(os.environ.get("VIBROIMPACT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
CLI = os.environ.get("VIBROIMPACT_CLI", "vibroimpact")
TWO_DOF = SOURCE / "examples/two_dof_sticking/case.prm"
FEP = SOURCE / "examples/two_dof_fep/case.prm"  # 2 DoFs, no Modes subsection


def example(name):
    spec = importlib.util.spec_from_file_location(name, SOURCE / "examples/python" / (name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_an_entry_is_set_by_item_assignment_and_copied_by_with_overrides():
    case = vi.Case(TWO_DOF)
    copy = case.with_overrides({"Simulation/Final time": 3})
    case["Simulation/Final time"] = 5
    assert case["Simulation/Final time"] == 5.0 and copy["Simulation/Final time"] == 3.0
    assert case.simulate().history["time"][-1] == pytest.approx(5)
    assert vi.Case(TWO_DOF)["Simulation/Final time"] != 5.0  # the file is untouched
    with pytest.raises(vi.InputError, match="Simulation/Final tme"):
        case["Simulation/Final tme"] = 1
    assert case["Simulation/Final time"] == 5.0  # unchanged by the refused entry


def test_an_arguments_error_names_the_argument():
    with pytest.raises(vi.InputError) as error:
        vi.Case(TWO_DOF).simulate(solver="moreau")
    message = str(error.value)
    assert "solver='moreau'" in message and "moreau-jean" in message
    assert "Simulation/Solver" not in message and str(TWO_DOF) not in message


def follow(call):
    """The reports of one call, checked to be one stream a single bar can follow."""
    reports = []
    call(reports.append)
    fractions = [p.fraction for p in reports]
    assert fractions == sorted(fractions) and fractions[-1] == 1
    assert [p.index for p in reports] == sorted(p.index for p in reports)
    assert all(p.index < p.count for p in reports) and len({p.count for p in reports}) == 1
    return reports


def test_progress_is_one_stream_a_call():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", vi.VibroimpactWarning)
        modes = follow(lambda progress: vi.Case(FEP).modes(progress=progress))
        fep = vi.Case(FEP, overrides={"Continuation/Maximum points": 8})
        families = follow(lambda progress: fep.continue_(progress=progress))
        case = SOURCE / "examples/pinned_beam_obstacle/case.prm"
        compare = follow(lambda progress: vi.Case(case, overrides={"Simulation/Final time": 0.02}).compare(
            progress=progress))
    assert [p.phase for p in modes if p.done == 0] == ["model", "eigensolve"]
    assert {(p.phase, p.count) for p in families} == {("family of mode 1", 2), ("family of mode 2", 2)}
    runs = sorted({(p.index, p.phase) for p in compare})
    assert [index for index, _ in runs] == list(range(compare[0].count)) and compare[0].count >= 2


def test_every_result_has_warnings_and_dataframes(monkeypatch):
    try:
        import pandas  # noqa: F401
    except ImportError:  # a stand-in that keeps the columns it is given
        monkeypatch.setitem(sys.modules, "pandas", types.SimpleNamespace(DataFrame=dict))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", vi.VibroimpactWarning)
        modes = vi.Case(FEP).modes()
        sweep = vi.Case(SOURCE / "examples/pinned_beam_gap_sweep/case.prm",
                        overrides={"Sweep/Number of values": 2, "Sweep/Recorded periods": 2,
                                   "Sweep/Transient periods": 1}).sweep()
        run = vi.Case(TWO_DOF, overrides={"Simulation/Final time": 2}).simulate()
    frames = modes.to_pandas()
    assert list(frames["modes"]["frequency_hz"]) == list(modes.frequencies)
    assert list(frames["shapes"]["mode_2"]) == list(modes.shapes[:, 1]) and len(frames["shapes"]["x"]) == len(modes.x)
    assert "poincare" in sweep.to_pandas()
    for result in (modes, sweep, run):
        assert isinstance(result.warnings, list), type(result).__name__
    assert run.warnings == run.summary["warnings"]


def test_the_default_number_of_modes_is_at_most_the_dofs(tmp_path):
    with pytest.warns(vi.VibroimpactWarning, match="Modes/Number of modes") as said:
        modes = vi.Case(FEP).modes()
    assert len(modes.omegas) == 2 and len(said) == 1 and len(modes.warnings) == 1
    cli = subprocess.run([CLI, "modes", str(FEP), "-q", "-o", str(tmp_path / "a")], capture_output=True, text=True)
    assert cli.returncode == 0 and cli.stderr.count("Modes/Number of modes") == 1
    with pytest.raises(vi.InputError, match="Modes/Number of modes"):
        vi.Case(FEP, overrides={"Modes/Number of modes": 5}).modes()
    text = FEP.read_text() + "\nsubsection Modes\n  set Number of modes = 5\nend\n"
    (tmp_path / "case.prm").write_text(text.replace("../../meshes", str(SOURCE / "meshes")))
    cli = subprocess.run([CLI, "modes", str(tmp_path / "case.prm"), "-q", "-o", str(tmp_path / "b")],
                         capture_output=True, text=True)
    assert cli.returncode == 2 and cli.stderr.count("\n") == 1
    assert str(tmp_path / "case.prm") in cli.stderr and "Modes/Number of modes" in cli.stderr


def test_frequency_energy_labels_each_point_with_its_impacts():
    fep = example("frequency_energy")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", vi.VibroimpactWarning)
        branch = fep.branches(points=45)
    labels = []
    for label, rows in fep.series(branch):
        counts = np.unique(branch["impacts"][rows])
        assert len(counts) == 1 and fep.impacts_text(int(counts[0])) in label
        labels.append(label)
    assert "mode 1, two impacts a period" in labels and "mode 1, one impact a period" in labels


def test_mesh_convergence_prints_its_table_whole_and_the_warnings_after():
    script = SOURCE / "examples/python/mesh_convergence.py"
    out = subprocess.run([sys.executable, str(script), "25", "50"], capture_output=True, text=True, check=True,
                         env=dict(os.environ, PYTHONUNBUFFERED="1"))
    assert out.stdout.splitlines()[0].split() == ["elements", "impulse", "rate", "energy", "lost", "rate"]
    assert len(out.stdout.splitlines()) == 3
    assert all(line.startswith("warning (") for line in out.stderr.splitlines()), out.stderr


def test_the_pages_figures_are_what_the_code_prints():
    script = SOURCE / "doc/scripts/python-figures.py"
    out = subprocess.run([sys.executable, str(script), "--check", "prompt", "fep-warning",
                          "--build", str(Path(vi.__file__).resolve().parents[2])], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
