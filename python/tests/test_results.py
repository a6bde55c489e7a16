"""Results at the prompt and in Jupyter (doc/python.md): they print their tables'
shapes and the run's summary, render as HTML, turn into pandas DataFrames, every method says
its parameters, returns and raises, and a long call reports its progress to a callback."""
import inspect
import os
import threading
from pathlib import Path

import numpy as np
import pytest

import vibroimpact as vi

SOURCE = Path(os.environ.get("VIBROIMPACT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
TWO_DOF = SOURCE / "examples/two_dof_sticking/case.prm"
SHORT = {"Simulation/Final time": 20}


@pytest.fixture(scope="module")
def run():
    return vi.Case(TWO_DOF, overrides=SHORT).simulate()


def test_results_print_their_shapes_and_summary(run):
    rows, columns = len(run.history["time"]), len(run.history)
    assert run.history.shape == (rows, columns)
    assert run.events.shape == (len(run.events["time"]), len(run.events))
    text = repr(run)
    assert text.splitlines()[0] == "Simulation:"
    assert "history  %d rows x %d columns" % (rows, columns) in text  # statistics: None, not listed
    assert "statistics" not in text
    assert "solver=moreau-jean" in text and "impacts=%d" % run.summary["impacts"] in text
    assert repr(run.history).startswith("Table(%d rows x %d columns: time, " % (rows, columns))
    html = run._repr_html_()
    assert "<table>" in html and "%d rows x %d columns" % (rows, columns) in html
    table = run.history._repr_html_()
    assert "<th>total_energy</th>" in table and "&hellip;" in table  # first and last rows only
    assert isinstance(run.history, dict)  # still the mapping it was


def test_to_pandas(run):
    pandas = pytest.importorskip("pandas")
    frame = run.history.to_pandas()
    assert isinstance(frame, pandas.DataFrame) and list(frame.columns) == list(run.history)
    np.testing.assert_array_equal(frame["total_energy"].to_numpy(), run.history["total_energy"])
    assert set(run.to_pandas()) == {"history", "events"}  # no supports: no support tables (None)


def test_every_method_documents_parameters_returns_and_raises():
    methods = [vi.Case.modes, vi.Case.simulate, vi.Case.continue_, vi.Case.compare, vi.Case.converge,
               vi.Case.sweep, vi.Case.from_string, vi.Case.from_dict, vi.parameters]
    for method in methods:
        doc = inspect.getdoc(method)
        for part in ("Parameters", "Returns", "Raises"):
            assert part in doc, "%s: no %s" % (method.__name__, part)
    for method in (vi.Case.to_prm, vi.Case.__getitem__, vi.Table.to_pandas):
        assert "Raises" in inspect.getdoc(method), method.__name__
    assert "progress" in inspect.signature(vi.Case.simulate).parameters
    # The compiled layer's methods carry pybind11's signatures.
    assert vi._vibroimpact.Case.simulate.__doc__.startswith("simulate(self: vibroimpact._vibroimpact.Case, solver:")
    assert vi._vibroimpact.parameters.__doc__.startswith("parameters(verb: str = '') -> list")


def test_progress_reaches_the_callback_from_the_calling_thread():
    calls = []

    def progress(p):
        calls.append((p, threading.get_ident()))

    vi.Case(TWO_DOF, overrides=SHORT).simulate(progress=progress)
    assert len(calls) > 10
    done = [c[0].done for c in calls]
    assert done == sorted(done) and done[-1] == calls[-1][0].total == 20 and calls[-1][0].fraction == 1
    assert {c[0].phase for c in calls} == {"simulate"} and {c[1] for c in calls} == {threading.get_ident()}
    # No callback: nothing is reported to the last one.
    vi.Case(TWO_DOF, overrides=SHORT).simulate()
    assert len(calls) == len(done)


def test_what_the_callback_raises_is_raised_after_the_call(capsys):
    def progress(p):
        raise ValueError("stop at %g" % p.done)

    with pytest.raises(ValueError, match="stop at"):
        vi.Case(TWO_DOF, overrides=SHORT).simulate(progress=progress)
    vi.Case(TWO_DOF, overrides={"Simulation/Final time": 1}).simulate(progress=True)
    assert "simulate [########################################] 100.0%" in capsys.readouterr().err
    with pytest.raises(TypeError, match="progress"):
        vi.Case(TWO_DOF, overrides=SHORT).simulate(progress="yes")
