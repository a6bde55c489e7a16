"""Parameters and models in code (doc/python.md): vi.parameters lists what
`vibroimpact parameters` prints, a case built by Case.from_dict runs bit for bit as its file,
to_prm and case[...] give the case back, overrides take NumPy values, and a misspelt entry is
answered with the closest declared name; vi.__version__ is the program's."""
import os
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest

import vibroimpact as vi

SOURCE = Path(os.environ.get("VIBROIMPACT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
CLI = os.environ.get("VIBROIMPACT_CLI", "vibroimpact")
TWO_DOF = SOURCE / "examples/two_dof_sticking/case.prm"
SHORT = {"Simulation/Final time": 20}


def cli_listing(verb):
    """(path, default, documentation) of each `set` line of `vibroimpact parameters verb`."""
    text = subprocess.run([CLI, "parameters", verb], check=True, capture_output=True, text=True).stdout
    listing, path, comment = [], [], []
    for line in text.splitlines()[text.splitlines().index("# Listing of Parameters") + 2:]:
        line = line.strip()
        if line.startswith("#"):
            comment.append(line[1:].strip())
            continue
        if line.startswith("subsection "):
            path.append(line[len("subsection "):])
        elif line == "end":
            path.pop()
        elif line.startswith("set "):
            name, _, default = line[4:].partition("=")
            listing.append(("/".join(path + [name.strip()]), default.strip(), " ".join(" ".join(comment).split())))
        comment = []
    return listing


def test_parameters_are_what_the_command_line_lists():
    listed = cli_listing("simulate")  # one verb: the program takes ~2 s to start its verbs
    declared = vi.parameters("simulate")
    assert [(p.path, p.default) for p in declared] == [(path, default) for path, default, _ in listed]
    for p, (_, _, comment) in zip(declared, listed):
        assert " ".join(p.documentation.split()) in comment, p.path
    assert all(p.pattern.startswith("[") for p in declared)
    assert "Body <name>/Mass" in [p.path for p in declared]
    assert len(vi.parameters()) > len(vi.parameters("modes"))
    with pytest.raises(vi.InputError, match="unknown verb"):
        vi.parameters("simulat")


def doc_example():
    """The from_dict example of doc/python.md, run: its `chain`."""
    doc = (SOURCE / "doc/python.md").read_text()
    code = re.search(r"<!-- from_dict example[^>]*-->\s*```python\n(.*?)```", doc, re.S).group(1)
    scope = {}
    exec(code, scope)
    return scope["chain"]


def test_from_dict_is_the_example_bit_for_bit():
    chain = doc_example()
    assert chain.filename == "<dict>"
    built = chain.simulate()
    read = vi.Case(TWO_DOF).simulate()
    assert list(built.history) == list(read.history)
    for name, column in read.history.items():
        assert built.history[name].tobytes() == column.tobytes(), name
    assert built.events["time"].tobytes() == read.events["time"].tobytes()
    assert built.summary["impacts"] == read.summary["impacts"] > 0


def test_to_prm_and_entries_give_the_case_back():
    case = vi.Case(TWO_DOF, overrides={"Simulation/Final time": 20, "Moreau-Jean/Time step": 0.004,
                                       "Moreau-Jean/Energy correction": False})
    text = case.to_prm()
    assert re.search(r"\n  set Final time +\= 20\n", text) and re.search(r"\n  set Time step +\= 0.004\n", text)
    assert "Energy correction" not in text  # overridden to its default: left out, read the same
    assert "subsection Sweep" not in text  # a section the file does not give stays out
    again = vi.Case.from_string(text).simulate()
    run = case.simulate()
    for name, column in run.history.items():
        assert again.history[name].tobytes() == column.tobytes(), name
    assert case["Simulation/Final time"] == 20.0
    assert case["Moreau-Jean/Energy correction"] is False
    assert case["Modes/Number of modes"] == 2 and isinstance(case["Modes/Number of modes"], int)
    assert case["Body m2/Origin"] == "1, 0, 0"
    assert case["Sweep/Number of values"] == vi.Case(TWO_DOF)["Sweep/Number of values"]  # a default
    assert "Body m1/Mass" in case
    with pytest.raises(KeyError, match=re.escape("did you mean 'Simulation/Final time'")):
        case["Simulation/Final tme"]


class NumPy2Float(np.float64):
    """A float64 that spells itself as NumPy 2 does: np.float64(0.5)."""

    def __repr__(self):
        return "np.float64(%s)" % float.__repr__(self)

    __str__ = __repr__


def test_overrides_take_numpy_values():
    plain = {"Simulation/Final time": 5.0, "Moreau-Jean/Time step": 0.001, "Moreau-Jean/Energy correction": False,
             "Modes/Number of modes": 2, "Body m2/Origin": [1, 0, 0]}
    numpy = {"Simulation/Final time": np.float64(5.0), "Moreau-Jean/Time step": NumPy2Float(0.001),
             "Moreau-Jean/Energy correction": np.bool_(False), "Modes/Number of modes": np.int64(2),
             "Body m2/Origin": np.array([1, 0, 0])}
    a, b = vi.Case(TWO_DOF, overrides=plain).simulate(), vi.Case(TWO_DOF, overrides=numpy).simulate()
    for name, column in a.history.items():
        assert b.history[name].tobytes() == column.tobytes(), name
    case = vi.Case(TWO_DOF, overrides={"Continuation/Families": np.array([1, 2])})
    assert case["Continuation/Families"] == "1, 2"
    with pytest.raises(vi.InputError, match="Continuation/Families: a 2-D array") as error:
        vi.Case(TWO_DOF, overrides={"Continuation/Families": np.ones((2, 2))})
    assert "\n" not in str(error.value)


def test_misspelt_entries_name_the_closest_declared_one():
    def message(**where):
        with pytest.raises(vi.InputError) as error:
            if "overrides" in where:
                vi.Case(TWO_DOF, overrides=where["overrides"])
            elif "text" in where:
                vi.Case.from_string(where["text"])
            else:
                vi.Case.from_dict(where["sections"])
        assert "\n" not in str(error.value)
        return str(error.value)

    assert message(overrides={"Simulation/Final tme": 1}) == \
        "command line: -s Simulation/Final tme: no such entry (did you mean 'Simulation/Final time'?)"
    assert message(overrides={"Moreau-Jean/time Step": 1}) == \
        "command line: -s Moreau-Jean/time Step: no such entry (did you mean 'Moreau-Jean/Time step'?)"
    text = TWO_DOF.read_text().replace("set Final time", "set Final tim")
    assert re.fullmatch(r"<string>:\d+: Simulation/Final tim: no such entry "
                        r"\(did you mean 'Simulation/Final time'\?\)", message(text=text))
    text = TWO_DOF.read_text().replace("subsection Simulation", "subsection Simulaton")
    assert "Simulaton: no such subsection (did you mean 'Simulation'?)" in message(text=text)
    json = '{"Model": {"Name": "x"}, "Simulaton": {"Final time": "1"}}'  # JSON: deal.II names no section
    assert message(text=json) == \
        "<string>: Simulaton/Final time: no such entry (did you mean 'Simulation/Final time'?)"
    assert message(sections={"Model": {"Name": "x"}, "Simulation": {"Final tim": 1}}) == \
        "<dict>: Simulation/Final tim: no such entry (did you mean 'Simulation/Final time'?)"
    assert message(sections={"Model": {"Name": "x"}, "Simulation": {"Final time": None}}) == \
        "<dict>: Simulation/Final time: None is not a value (give \"\" for an empty entry)"
    # The command line says the same.
    run = subprocess.run([CLI, "simulate", str(TWO_DOF), "-q", "-s", "Simulation/Final tme=1"],
                         capture_output=True, text=True)
    assert run.returncode == 2 and "did you mean 'Simulation/Final time'" in run.stderr


def test_version_is_the_programs():
    program = subprocess.run([CLI, "--version"], check=True, capture_output=True, text=True).stdout
    assert program.splitlines()[0] == "vibroimpact " + vi.__version__


def test_every_verb_of_the_table_is_a_method():
    """The library's verb table (studies/verb_table.h) is what Case offers: a method per verb, whose
    parameters vi.parameters(verb) lists."""
    verbs = vi.verbs()
    assert list(verbs) == ["modes", "simulate", "compare", "sweep", "converge", "continue"]
    for name, help_line in verbs.items():
        method = getattr(vi.Case, name + "_" if name == "continue" else name)
        assert callable(method) and help_line
        assert vi.parameters(name)
