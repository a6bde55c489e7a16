"""The Python module's contract (doc/python.md): its numbers are the command line's CSV numbers,
bad input raises InputError naming the entry, nothing is written without output=, the solve
releases the GIL, and Ctrl-C raises KeyboardInterrupt and leaves the interpreter usable."""
import csv
import os
import signal
import subprocess
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import vibroimpact as vi

SOURCE = Path(os.environ.get("VIBROIMPACT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
CLI = os.environ.get("VIBROIMPACT_CLI", "vibroimpact")
TWO_DOF = SOURCE / "examples/two_dof_sticking/case.prm"
SHORT = {"Simulation/Final time": 20}


def cli(verb, case, out, overrides=()):
    """The command line on the same case: its output folder."""
    command = [CLI, verb, str(case), "-q", "-o", str(out)]
    for entry in overrides:
        command += ["-s", entry]
    subprocess.run(command, check=True)
    return out


def read_csv(path):
    """Columns of a CSV as the module gives them: reals as float arrays (empty: NaN), text as str."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    columns = {}
    for k, name in enumerate(rows[0]):
        cells = [r[k] for r in rows[1:]]
        try:
            columns[name] = np.array([float(c) if c else np.nan for c in cells])
        except ValueError:
            columns[name] = np.array(cells)
    return columns


def assert_same_columns(module, table):
    assert list(module) == list(table)
    for name, column in table.items():
        if column.dtype.kind == "f":
            np.testing.assert_array_equal(module[name], column, err_msg=name)
        else:
            assert list(module[name]) == list(column), name


def test_modes_equal_modes_csv(tmp_path):
    case = SOURCE / "examples/pinned_beam_modes/case.prm"
    modes = vi.Case(case).modes()
    table = read_csv(cli("modes", case, tmp_path / "cli") / "modes.csv")
    np.testing.assert_allclose(modes.frequencies, table["frequency_hz"], rtol=1e-10, atol=0)
    np.testing.assert_allclose(modes.omegas, table["omega_rad_per_s"], rtol=1e-10, atol=0)
    shapes = read_csv(tmp_path / "cli/mode_shapes.csv")
    np.testing.assert_allclose(modes.shapes[:, 0], shapes["mode_1"], rtol=0, atol=1e-10)
    # The pinned-pinned beam: omega_j = (j pi)^2 in its scaled units, to the FE error.
    j = np.arange(1, len(modes.omegas) + 1)
    np.testing.assert_allclose(modes.omegas[:3], (j[:3] * np.pi) ** 2, rtol=1e-3)


def test_simulate_history_events_equal_csv(tmp_path):
    run = vi.Case(TWO_DOF, overrides=SHORT).simulate()
    out = cli("simulate", TWO_DOF, tmp_path / "cli", ["Simulation/Final time=20"])
    history = read_csv(out / "history.csv")
    assert list(run.history) == list(history)
    for name, column in history.items():
        assert run.history[name][-1] == column[-1] or np.isnan(column[-1]), name
        np.testing.assert_array_equal(run.history[name], column, err_msg=name)
    assert_same_columns(run.events, read_csv(out / "events.csv"))
    assert run.summary["impacts"] == np.count_nonzero(run.events["kind"] == "impact")
    # The energy correction keeps the total energy at its initial value through the impacts.
    energy = run.history["total_energy"]
    assert np.max(np.abs(energy - energy[0])) < 1e-9 * energy[0]


def test_support_statistics_equal_csv(tmp_path):
    case = SOURCE / "examples/antunes_one_support/case.prm"
    run = vi.Case(case, overrides={"Simulation/Final time": 0.05, "Simulation/Frame interval": 0}).simulate()
    out = cli("simulate", case, tmp_path / "cli", ["Simulation/Final time=0.05", "Simulation/Frame interval=0"])
    table = read_csv(out / "statistics.csv")
    assert_same_columns(run.statistics, table)
    assert run.statistics["impacts"][0] > 0


def test_from_string_and_solver_choice():
    text = TWO_DOF.read_text()
    a = vi.Case.from_string(text, overrides=SHORT).simulate()
    b = vi.Case(TWO_DOF, overrides=SHORT).simulate()
    np.testing.assert_array_equal(a.history["total_energy"], b.history["total_energy"])
    cor = vi.Case(TWO_DOF, overrides=SHORT).simulate(solver="modal-cor")
    assert cor.summary["solver"] == "modal-cor"


def test_bad_input_raises_input_error_naming_the_entry():
    with pytest.raises(vi.InputError, match="Simulation/Final time") as error:
        vi.Case(TWO_DOF, overrides={"Simulation/Final time": -1})
    assert isinstance(error.value, ValueError)
    assert "\n" not in str(error.value)
    with pytest.raises(vi.InputError, match="solver='no-such-solver'"):
        vi.Case(TWO_DOF, overrides=SHORT).simulate(solver="no-such-solver")
    with pytest.raises(vi.InputError, match="<string>"):
        vi.Case.from_string("subsection Nowhere\nend\n")


def test_nothing_written_unless_output(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    vi.Case(TWO_DOF, overrides=SHORT).simulate()
    vi.Case(TWO_DOF).modes()
    assert list(tmp_path.iterdir()) == []
    vi.Case(TWO_DOF, overrides=SHORT).simulate(output="module")
    cli("simulate", TWO_DOF, tmp_path / "cli", ["Simulation/Final time=20"])
    assert sorted(p.name for p in (tmp_path / "module").iterdir()) == \
        sorted(p.name for p in (tmp_path / "cli").iterdir())
    for name in ("history.csv", "events.csv"):
        assert (tmp_path / "module" / name).read_bytes() == (tmp_path / "cli" / name).read_bytes()


def test_solve_releases_the_gil():
    case = vi.Case(TWO_DOF, overrides={"Simulation/Final time": 400, "Simulation/Output interval": 0.1})
    worker = threading.Thread(target=case.simulate)
    worker.start()
    time.sleep(0.05)
    start = time.perf_counter()
    sum(range(200000))  # Python work that needs the GIL
    python_time = time.perf_counter() - start
    assert worker.is_alive(), "the solve ended too soon to tell"
    worker.join()
    assert python_time < 0.5


def test_ctrl_c_raises_keyboard_interrupt_and_interpreter_stays_usable():
    case = vi.Case(TWO_DOF, overrides={"Simulation/Final time": 20000, "Simulation/Output interval": 1})
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    start = time.perf_counter()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        case.simulate()
    assert time.perf_counter() - start < 1.3  # the signal at 0.3 s, the stop within a second
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    run = vi.Case(TWO_DOF, overrides={"Simulation/Final time": 1}).simulate()  # usable again
    assert run.history["time"][-1] == pytest.approx(1)
