"""Threads and processes (doc/python.md, "Threads and processes"): every shipped example's main
verb, run in 4 threads at once (the module releases the GIL), gives the serial results bit for
bit, round after round; a Case pickles (its file's text and its overrides), so a process pool
gives them too."""
import concurrent.futures
import multiprocessing
import os
import pickle
from pathlib import Path

import numpy as np
import pytest

import vibroimpact as vi

SOURCE = Path(os.environ.get("VIBROIMPACT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
THREADS = 4
ROUNDS = int(os.environ.get("VIBROIMPACT_THREAD_ROUNDS", "2"))

# (example, verb, overrides): each shipped example's main verb, cut short. The six-support beam
# runs each of its solvers (modal-uk: ARPACK's modes, random loads: FFTW; moreau-jean: Siconos);
# the tube runs modes (ARPACK with deflation) and a simulation (friction contact in space).
JOBS = [
    ("antunes_one_support", "simulate", {"Simulation/Final time": 0.01}),
    ("antunes_six_supports", "simulate", {"Simulation/Final time": 0.01}),
    ("antunes_six_supports", "simulate", {"Simulation/Final time": 0.005, "Simulation/Solver": "moreau-jean"}),
    ("antunes_six_supports", "simulate", {"Simulation/Final time": 0.005, "Simulation/Solver": "modal-penalty"}),
    ("bar_on_rigid_wall", "simulate", {"Simulation/Final time": 2}),
    ("cantilever_on_rod", "simulate", {"Simulation/Final time": 0.01}),
    ("cantilever_on_rod_forced", "simulate", {"Simulation/Final time": 0.01}),
    ("pinned_beam_forced_sticking", "simulate", {"Simulation/Final time": 3}),
    ("pinned_beam_obstacle", "simulate", {"Simulation/Final time": 3}),
    ("tube_six_supports", "simulate", {"Simulation/Final time": 0.005}),
    ("tube_six_supports", "modes", {}),
    ("pinned_beam_modes", "modes", {}),
    ("two_dof_sticking", "simulate", {"Simulation/Final time": 100}),
    ("pinned_beam_backbone", "continue_", {"Continuation/Maximum points": 4}),
    ("rod_nonsmooth_mode", "continue_", {"Continuation/Maximum points": 10}),
    ("two_dof_fep", "continue_", {"Continuation/Maximum points": 20}),
    ("two_dof_sticking_family", "continue_", {"Continuation/Maximum points": 3, "Moreau-Jean/Time step": 0.01}),
    ("pinned_beam_frequency_sweep", "sweep", {"Sweep/Number of values": 2, "Sweep/Transient periods": 5,
                                              "Sweep/Recorded periods": 3}),
]

# What a run measures of itself, not of the mechanics: left out of the comparison.
CLOCKS = {"wall_time", "cpu_time", "text"}


def case_of(job):
    example, _, overrides = job
    return vi.Case(SOURCE / "examples" / example / "case.prm", overrides=overrides)


def plain(result):
    """A result as nested dicts of arrays and scalars, without its clocks."""
    if isinstance(result, vi._Result):
        result = vars(result)
    if isinstance(result, dict):
        return {k: plain(v) for k, v in result.items() if k not in CLOCKS}
    return result


def run(job):
    return plain(getattr(case_of(job), job[1])())


def assert_identical(a, b, where):
    """a and b equal bit for bit: the same keys, arrays of the same dtype, shape and bytes."""
    if isinstance(a, dict):
        assert isinstance(b, dict) and list(a) == list(b), where
        for k in a:
            assert_identical(a[k], b[k], where + "/" + str(k))
    elif isinstance(a, np.ndarray):
        assert isinstance(b, np.ndarray) and a.dtype == b.dtype and a.shape == b.shape, where
        if a.dtype.kind == "f":
            assert a.tobytes() == b.tobytes(), "%s: %d of %d values differ" % (
                where, np.count_nonzero(a.view(np.uint64) != b.view(np.uint64)), a.size)
        else:
            assert np.array_equal(a, b), where
    elif isinstance(a, float):
        assert np.float64(a).tobytes() == np.float64(b).tobytes(), "%s: %r != %r" % (where, a, b)
    else:
        assert a == b, "%s: %r != %r" % (where, a, b)


def name(job):
    return "%s.%s%s" % (job[0], job[1], "(%s)" % job[2]["Simulation/Solver"] if "Simulation/Solver" in job[2] else "")


@pytest.fixture(scope="module")
def serial():
    return [run(job) for job in JOBS]


def test_every_example_in_four_threads_equals_serial(serial):
    failures = []
    for r in range(ROUNDS):
        # Each job twice a round, in an order that differs from round to round: the same case in
        # two threads and different cases side by side.
        order = [k for k in range(len(JOBS))] * 2
        order = order[r % len(order):] + order[:r % len(order)]
        order = order[::2] + order[1::2] if r % 2 else order
        with concurrent.futures.ThreadPoolExecutor(THREADS) as pool:
            futures = [(k, pool.submit(run, JOBS[k])) for k in order]
            for k, future in futures:
                try:
                    assert_identical(future.result(), serial[k], name(JOBS[k]))
                except Exception as e:  # a wrong number, or a NumericalError from a race
                    failures.append("round %d: %s: %s: %s" % (r, name(JOBS[k]), type(e).__name__, e))
    assert not failures, "\n".join(failures)


def simulate_in_process(case):
    return plain(case.simulate())


def test_case_pickles_with_its_text_and_overrides(tmp_path):
    case = vi.Case(SOURCE / "examples/two_dof_sticking/case.prm", overrides={"Simulation/Final time": 3})
    copy = pickle.loads(pickle.dumps(case))
    assert copy.name == case.name and repr(copy) == repr(case)
    assert_identical(plain(copy.simulate()), plain(case.simulate()), "pickled")
    # The text is what was read, not what the file holds later; messages still name the file.
    moved = tmp_path / "case.prm"
    moved.write_text((SOURCE / "examples/two_dof_sticking/case.prm").read_text())
    original = vi.Case(moved, overrides={"Simulation/Final time": 3})
    state = pickle.dumps(original)
    moved.write_text("this is no longer a case file\n")
    restored = pickle.loads(state)
    assert repr(restored) == repr(original)
    assert_identical(plain(restored.simulate()), plain(case.simulate()), "file changed")


def test_process_pool_equals_serial(serial):
    jobs = [k for k, job in enumerate(JOBS) if job[1] == "simulate"][:4]
    context = multiprocessing.get_context("spawn")  # fork would copy this process' threads' locks
    with concurrent.futures.ProcessPoolExecutor(2, mp_context=context) as pool:
        results = list(pool.map(simulate_in_process, [case_of(JOBS[k]) for k in jobs]))
    for k, result in zip(jobs, results):
        assert_identical(result, serial[k], name(JOBS[k]))
