"""vibroimpact: finite elements for beams, rods and supports that hit obstacles or each other.

The verbs of the command line as methods of a case, their results as NumPy arrays (doc/python.md):

    import vibroimpact as vi
    case = vi.Case("examples/two_dof_sticking/case.prm", overrides={"Simulation/Final time": 20})
    run = case.simulate()
    run.history["total_energy"]          # the column of history.csv, as a 1-D ndarray

A case can be built in code (Case.from_dict), written back (case.to_prm()), read and set entry by
entry (case["Simulation/Final time"] = 5; case.with_overrides({...}) for a copy);
vibroimpact.parameters(verb) lists every entry a verb reads. Results print their tables' shapes and
summary, keep their warnings (.warnings) and turn into pandas DataFrames (.to_pandas()); each CSV
file's columns are a Table (a dict of arrays with .shape and .to_pandas()). Every verb takes
progress=callable(p): one stream a call, p a Progress (phase, index, count, done, total, fraction).

Each verb's method, its result class and its first docstring line come from the library's verb
table (vibroimpact.verbs(); python/tests/test_verbs.py checks them against it).

Nothing is written unless output="dir" is given (then exactly what the command line writes there).
Bad input raises InputError (a ValueError) with the command line's one-line message; a numerical
failure raises NumericalError (a RuntimeError); Ctrl-C raises KeyboardInterrupt.
"""
import os as _os

import numpy as _np
import warnings as _warnings

from ._parameters import Parameter, parameters
from ._parameters import case_prm as _case_prm
from ._parameters import missing_entry as _missing_entry
from ._parameters import prm_text as _prm_text
from ._parameters import typed_value as _typed_value
from ._parameters import without_line as _without_line
from ._progress import Progress
from ._progress import reporting as _reporting
from ._results import Result as _Result
from ._results import Table
from ._values import override_list as _override_list
from ._vibroimpact import Case as _Case
from ._vibroimpact import InputError, NumericalError, __version__, solvers
from ._vibroimpact import verbs as _verbs

__all__ = ["Case", "InputError", "NumericalError", "VibroimpactWarning", "Modes", "Simulation", "Continuation",
           "Comparison", "Convergence", "Sweep", "Table", "Parameter", "Progress", "parameters", "solvers", "verbs",
           "__version__"]

# The library's verb table (studies/verb_table.h), one dict a verb: name, method, result, help, reads_case.
_VERB_TABLE = _verbs()


def verbs():
    """The command line's verbs that run a case, {name: one-line help}, in its order; each is a
    method of Case (``continue`` is ``Case.continue_``, ``continue`` being a Python keyword).

    Returns
    -------
    dict of str to str
    """
    return {verb["name"]: verb["help"] for verb in _VERB_TABLE if verb["reads_case"]}


class VibroimpactWarning(UserWarning):
    """What the command line prints as "warning: ...": a family that stopped on a failure, a
    jumped point, an ill-conditioned model, an LCP the solver recovered from. Each is also kept
    in the result (``warnings``, or ``summary["warnings"]``); filter them as any warning."""


def _warn(messages):
    for message in messages:
        _warnings.warn(message, VibroimpactWarning, stacklevel=3)


def _folder(output):
    """The output folder as the compiled module takes it (a str or a path), or None."""
    return None if output is None else _os.fspath(output)


class Modes(_Result):
    """Case.modes(): frequencies (Hz, as modes.csv), omegas (rad/s), periods (s),
    generalised_mass (of the unit-peak shapes), the shapes as mode_shapes.csv draws them:
    shapes[point, mode] (unit peak) at the points (body, x), and warnings (fewer modes than the
    default: the model has fewer DoFs)."""

    def to_pandas(self):
        """The modes (a row each: mode, omega_rad_per_s, frequency_hz, period_s,
        generalised_mass) and the shapes (a row a point: body, x, mode_1, ...) as pandas
        DataFrames, by name ("modes", "shapes").

        Returns
        -------
        dict of str to pandas.DataFrame

        Raises
        ------
        ImportError
            When pandas is not installed.
        """
        count = len(self.omegas)
        modes = Table({"mode": _np.arange(1.0, count + 1), "omega_rad_per_s": self.omegas,
                       "frequency_hz": self.frequencies, "period_s": self.periods,
                       "generalised_mass": self.generalised_mass})
        shapes = Table({"body": self.body, "x": self.x})
        shapes.update({"mode_%d" % (j + 1): self.shapes[:, j] for j in range(count)})
        return {"modes": modes.to_pandas(), "shapes": shapes.to_pandas()}


class Simulation(_Result):
    """Case.simulate(): every CSV table the command line writes for the run, as a Table (column ->
    1-D ndarray): history, events (planar contacts and supports in space, with `angle` for the
    latter), and for runs with clearance supports statistics, spectra, force_pdf, support_forces
    (planar supports), support_orbits and wear_sectors (supports in space); a table the run does
    not write is None. summary: the numbers the run prints, and its warnings; warnings: the same
    warnings."""

    TABLES = ("history", "events", "statistics", "spectra", "force_pdf", "support_forces", "support_orbits",
              "wear_sectors")

    def __init__(self, fields):
        super().__init__({name: fields.get(name) for name in self.TABLES + ("summary",)})
        self.warnings = list(self.summary["warnings"])


class Continuation(_Result):
    """Case.continue_(): branch (branch.csv's columns, one row per orbit), special_points (the
    rows of branch whose `special` is set: folds, branch points, period doublings, grazings),
    at_frequencies (forced responses with Continuation/Report frequencies: at_frequencies.csv's
    columns, the branch's orbits at those frequencies; None without them), curves (with
    Continuation/Follow: curves.csv's columns, the curves of special points in two parameters,
    one row per point; None without it),
    orbits (orbit_<family>_<point> -> {family, point, table: the columns of its CSV file,
    displacement and velocity: samples x DoFs arrays}), summary (map, method, unknowns, wall_time,
    families: a row per family with its range and why it stopped, text: the lines the command
    line prints) and warnings (the command line's, also issued as VibroimpactWarning)."""

    def __init__(self, fields):
        branch = Table(fields["branch"])
        special = branch["special"] != ""
        super().__init__({"branch": branch,
                          "special_points": Table({k: v[special] for k, v in branch.items()}),
                          "at_frequencies": fields.get("at_frequencies"),
                          "curves": Table(fields["curves"]) if "curves" in fields else None,
                          "orbits": fields["orbits"], "summary": fields["summary"],
                          "warnings": fields["warnings"]})


class Comparison(_Result):
    """Case.compare(): runs (name -> {solver, history, events, the support tables of simulate()
    that the run writes (statistics, spectra, ...), warnings}: the columns of <run>/*.csv), reference (the reference run's name), impacts
    (run -> the columns of impacts_<run>.csv), support_statistics (the columns of
    support_statistics.csv; empty without clearance supports), text (comparison.txt) and warnings
    (every run's, "run <name>: ...", as the command line prints them)."""


class Convergence(_Result):
    """Case.converge(): convergence (the columns of convergence.csv; empty for a frequency study),
    frequencies (a frequency study: elements, dofs, omegas[row, mode], relative_errors[row, mode],
    reference; else None), branches (a branch study: the columns of branches.csv; else None),
    text (convergence.txt) and warnings."""


class Sweep(_Result):
    """Case.sweep(): the columns of each CSV file the sweep writes, by its stem (poincare, impacts,
    sweep_summary; or for a seed ensemble realizations, ensemble, ensemble_spectra), text
    (sweep.txt) and warnings."""


_OUTPUT_DOC = """output : str or os.PathLike, optional
        A folder: the files the command line writes with ``-o`` go there (staged, committed when
        the run succeeded). None: nothing is written.
    progress : callable or bool, optional
        ``progress(p)`` is called from the calling thread with a vibroimpact.Progress as the call
        moves (a thousandth of a phase at a time): one stream a call, ``p.fraction`` of the whole
        call never falling, ``p.phase`` (``p.index`` of ``p.count``) what runs now. True draws a
        bar on stderr. What it raises is raised when the call returns."""

_RAISES_DOC = """InputError
        Bad input (a ValueError): one line naming the file and the entry.
    NumericalError
        A numerical failure the library could not recover from (a RuntimeError).
    OSError
        An output file that could not be written.
    KeyboardInterrupt
        Ctrl-C (SIGINT) or SIGTERM during the call; nothing is kept."""


_RESULT_CLASSES = {"Modes": Modes, "Simulation": Simulation, "Continuation": Continuation,
                   "Comparison": Comparison, "Convergence": Convergence, "Sweep": Sweep}


def _verb(method):
    """The verb table's row of a Case method."""
    return next(verb for verb in _VERB_TABLE if verb["method"] == method)


def _verb_method(details):
    """A Case method of a verb of the table: its first docstring line is the table's help, its
    Returns the table's result class; `details` says the rest (parameters, {output}, {raises})."""
    def apply(method):
        verb = _verb(method.__name__)
        first = "%s%s (`vibroimpact %s`)." % (verb["help"][0].upper(), verb["help"][1:], verb["name"])
        body = details.replace("{output}", _OUTPUT_DOC).replace("{raises}", _RAISES_DOC)
        method.__doc__ = "%s\n\n    %s\n\n    Returns\n    -------\n    %s\n\n    Raises\n    ------\n    %s\n    " % (
            first, body, verb["result"], _RAISES_DOC)
        return method
    return apply


class Case:
    """A case file (.prm or .json) with overrides, read and checked once.

    Parameters
    ----------
    path : str or os.PathLike
        The case file.
    overrides : mapping, optional
        {"Section/Entry": value}, the command line's ``-s 'Section/Entry=value'``. Values are
        Python or NumPy scalars (bool -> true/false, reals as their shortest round-trip text),
        strings, lists or 1-D arrays (-> "a, b, c").

    Raises
    ------
    InputError
        A file that cannot be read, an unknown entry (with the closest declared name: "did you
        mean ..."), a value out of its range or of the wrong kind.
    """

    def __init__(self, path, overrides=None):
        self._case = _Case(_os.fspath(path), _override_list(overrides))

    @classmethod
    def from_string(cls, text, overrides=None):
        """A case given as the text of a .prm (or JSON, when it starts with '{') file.

        Parameters
        ----------
        text : str
        overrides : mapping, optional
            As for Case().

        Returns
        -------
        Case
            Messages name it <string>.

        Raises
        ------
        InputError
        """
        case = cls.__new__(cls)
        case._case = _Case.from_string(text, _override_list(overrides))
        return case

    @classmethod
    def from_dict(cls, sections, overrides=None):
        """A case built in code: {section: {entry: value}}, as the .prm file's subsections.

        Parameters
        ----------
        sections : dict
            Top-level sections by name ("Model", "Body mass1", "Contact stop", "Simulation",
            "Moreau-Jean", ...), each a dict of entries; a key "Section/Entry" sets one entry
            directly. Values as for overrides: scalars, strings, lists or 1-D arrays for list
            entries. Entries left out keep their defaults (vibroimpact.parameters()).
        overrides : mapping, optional
            As for Case().

        Returns
        -------
        Case
            Messages name it <dict>; case.to_prm() gives its file.

        Raises
        ------
        InputError
            A misspelt section or entry (with the closest declared name), a bad value.
        """
        case = cls.__new__(cls)
        text = _prm_text(sections, "<dict>")
        try:
            case._case = _Case.from_string(text, _override_list(overrides), "<dict>")
        except InputError as error:
            raise _without_line(error, "<dict>") from None
        return case

    @property
    def name(self):
        """Model/Name."""
        return self._case.name

    @property
    def filename(self):
        """The case file (<string> or <dict> for a case given in code)."""
        return self._case.filename

    def _entries(self):
        entries, sections = self._case.entries()
        return {path: (value, pattern) for path, value, _, pattern, _ in entries}, entries, sections

    def __getitem__(self, path):
        """The value of one entry, "Section/Entry", as the case reads it (its file, overrides
        and defaults): float, int or bool for numbers and switches, else the text (a list entry
        as "a, b, c").

        Raises
        ------
        KeyError
            No such entry, with the closest declared one ("did you mean ...").
        """
        values = self._entries()[0]
        if path not in values:
            raise _missing_entry(self.filename, path, list(values))
        return _typed_value(*values[path])

    def __setitem__(self, path, value):
        """Sets one entry, "Section/Entry", as an override (the command line's -s): the case is
        read again with it, and checked (``case.with_overrides`` makes a copy instead).

        Raises
        ------
        InputError
            No such entry (with the closest declared one), a bad value; the case is unchanged.
        """
        self._case = self._case.with_overrides(_override_list({path: value}))

    def with_overrides(self, overrides):
        """A copy of the case with more overrides, {"Section/Entry": value} as for Case() (they
        win over the case's own); the case itself is unchanged.

        Parameters
        ----------
        overrides : mapping

        Returns
        -------
        Case

        Raises
        ------
        InputError
            An unknown entry or a bad value.
        """
        copy = Case.__new__(Case)
        copy._case = self._case.with_overrides(_override_list(overrides))
        return copy

    def keys(self):
        """Every entry's path ("Section/Entry") the case declares."""
        return list(self._entries()[0])

    def __contains__(self, path):
        return path in self._entries()[0]

    def __iter__(self):
        return iter(self.keys())

    def to_prm(self, path=None):
        """The .prm file the case stands for: every section it gives (in its file or by an
        override) with the entries that differ from their defaults, overrides applied.
        ``Case.from_string(case.to_prm())`` is the same case (a relative Mesh file is then
        looked up from the working directory).

        Parameters
        ----------
        path : str or os.PathLike, optional
            Where to write it too.

        Returns
        -------
        str
            The file's text.

        Raises
        ------
        OSError
            When `path` cannot be written.
        """
        _, entries, sections = self._entries()
        header = ["%s: the case %s as vibroimpact %s reads it" % (self.name, self.filename, __version__)]
        text = _case_prm(entries, sections, header)
        if path is not None:
            with open(_os.fspath(path), "w") as f:
                f.write(text)
        return text

    def _run(self, method, progress, *arguments):
        """Runs a verb's compiled method with `arguments`, its result as the table's class, its
        warnings issued."""
        with _reporting(progress):
            result = _RESULT_CLASSES[_verb(method)["result"]](getattr(self._case, method)(*arguments))
        _warn(result.warnings)
        return result

    @_verb_method("""Parameters
    ----------
    {output}""")
    def modes(self, output=None, progress=None):
        return self._run("modes", progress, _folder(output))

    @_verb_method("""Parameters
    ----------
    solver : str, optional
        A registered solver (vibroimpact.solvers()) instead of Simulation/Solver; an unknown one
        is an InputError naming this argument.
    {output}""")
    def simulate(self, solver=None, output=None, progress=None):
        return self._run("simulate", progress, solver, _folder(output))

    @_verb_method("""Parameters
    ----------
    {output}""")
    def continue_(self, output=None, progress=None):
        return self._run("continue_", progress, _folder(output))

    @_verb_method("""Every "Run <name>" of the case against the reference run.

    Parameters
    ----------
    {output}""")
    def compare(self, output=None, progress=None):
        return self._run("compare", progress, _folder(output))

    @_verb_method("""The Convergence subsection's refinement study.

    Parameters
    ----------
    {output}""")
    def converge(self, output=None, progress=None):
        return self._run("converge", progress, _folder(output))

    @_verb_method("""The Sweep subsection's parameter sweep or seed ensemble, serial: MPI stays with
    the command line.

    Parameters
    ----------
    {output}""")
    def sweep(self, output=None, progress=None):
        return self._run("sweep", progress, _folder(output))

    def __repr__(self):
        return "vibroimpact.Case(%r)" % self._case.filename
