"""vibroimpact: finite elements for beams, rods and supports that hit obstacles or each other.

The verbs of the command line as methods of a case, their results as NumPy arrays (doc/python.md):

    import vibroimpact as vi
    case = vi.Case("examples/two_dof_sticking/case.prm", overrides={"Simulation/Final time": 20})
    run = case.simulate()
    run.history["total_energy"]          # the column of history.csv, as a 1-D ndarray

Nothing is written unless output="dir" is given (then exactly what the command line writes there).
Bad input raises InputError (a ValueError) with the command line's one-line message; a numerical
failure raises NumericalError (a RuntimeError); Ctrl-C raises KeyboardInterrupt.
"""
import os as _os
from collections.abc import Mapping as _Mapping

from ._vibroimpact import Case as _Case
from ._vibroimpact import InputError, NumericalError, solvers

__all__ = ["Case", "InputError", "NumericalError", "Modes", "Simulation", "Comparison", "Convergence", "Sweep",
           "solvers"]


def _value_text(value):
    """A Python value as the case file spells it: true/false, shortest round-trip reals, lists."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return ", ".join(_value_text(v) for v in value)
    return str(value)


def _override_list(overrides):
    if overrides is None:
        return []
    if not isinstance(overrides, _Mapping):
        raise TypeError("overrides: a mapping {'Section/Entry': value}")
    return ["%s=%s" % (entry, _value_text(value)) for entry, value in overrides.items()]


def _folder(output):
    """The output folder as the compiled module takes it (a str or a path), or None."""
    return None if output is None else _os.fspath(output)


class _Result:
    """Named results; repr lists the names."""

    def __init__(self, fields):
        self.__dict__.update(fields)

    def __repr__(self):
        return "%s(%s)" % (type(self).__name__, ", ".join(sorted(self.__dict__)))


class Modes(_Result):
    """Case.modes(): frequencies (Hz, as modes.csv), omegas (rad/s), periods (s),
    generalised_mass (of the unit-peak shapes), and the shapes as mode_shapes.csv draws them:
    shapes[point, mode] (unit peak) at the points (body, x)."""


class Simulation(_Result):
    """Case.simulate(): history, events, statistics (mappings column -> 1-D ndarray, the columns
    of history.csv, events.csv and statistics.csv) and summary (the numbers the run prints)."""


class Comparison(_Result):
    """Case.compare(): runs (name -> {solver, history, events, statistics, warnings}: the columns of
    <run>/history.csv, events.csv and statistics.csv), reference (the reference run's name), impacts
    (run -> the columns of impacts_<run>.csv), support_statistics (the columns of
    support_statistics.csv; empty without clearance supports) and text (comparison.txt)."""


class Convergence(_Result):
    """Case.converge(): convergence (the columns of convergence.csv; empty for a frequency study),
    frequencies (a frequency study: elements, dofs, omegas[row, mode], relative_errors[row, mode],
    reference; else None), branches (a branch study: the columns of branches.csv; else None),
    text (convergence.txt) and warnings."""


class Sweep(_Result):
    """Case.sweep(): the columns of each CSV file the sweep writes, by its stem (poincare, impacts,
    sweep_summary; or for a seed ensemble realizations, ensemble, ensemble_spectra) and text
    (sweep.txt)."""


class Case:
    """A case file (.prm or .json) with overrides {"Section/Entry": value}, read and checked once."""

    def __init__(self, path, overrides=None):
        self._case = _Case(str(path), _override_list(overrides))

    @classmethod
    def from_string(cls, text, overrides=None):
        """A case given as the text of a .prm (or JSON) file; messages call it <string>."""
        case = cls.__new__(cls)
        case._case = _Case.from_string(text, _override_list(overrides))
        return case

    @property
    def name(self):
        """Model/Name."""
        return self._case.name

    def modes(self, output=None):
        """Natural frequencies and mode shapes (`vibroimpact modes`)."""
        return Modes(self._case.modes(_folder(output)))

    def simulate(self, solver=None, output=None):
        """A time history by the case's solver, or by `solver` (`vibroimpact simulate`)."""
        return Simulation(self._case.simulate(solver, _folder(output)))

    def continue_(self, output=None):
        """Periodic orbits by shooting and continuation (`vibroimpact continue`): branch.csv's
        columns, one row per orbit."""
        return self._case.continue_(_folder(output))

    def compare(self, output=None):
        """Every "Run <name>" of the case against the reference run (`vibroimpact compare`)."""
        return Comparison(self._case.compare(_folder(output)))

    def converge(self, output=None):
        """The Convergence subsection's refinement study (`vibroimpact converge`)."""
        return Convergence(self._case.converge(_folder(output)))

    def sweep(self, output=None):
        """The Sweep subsection's parameter sweep or seed ensemble (`vibroimpact sweep`), serial:
        MPI stays with the command line."""
        return Sweep(self._case.sweep(_folder(output)))

    def __repr__(self):
        return "vibroimpact.Case(%r)" % self._case.filename
