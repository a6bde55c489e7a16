"""One declaration per verb: the library's verb table (studies/verb_table.h, exported as
vibroimpact._vibroimpact.verbs()) names every verb's command-line word, Python method, result
class and help line; the command line, the compiled module and the Python layer must agree with
it, so a verb added, renamed or dropped on one side alone fails here."""
import inspect
import os
import subprocess
from pathlib import Path

import vibroimpact as vi
from vibroimpact import _vibroimpact

SOURCE = Path(os.environ.get("VIBROIMPACT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
CLI = os.environ.get("VIBROIMPACT_CLI", "vibroimpact")
TABLE = _vibroimpact.verbs()
CASE_VERBS = [verb for verb in TABLE if verb["reads_case"]]
# Case's public methods that are not verbs: reading, building and writing the case itself.
NOT_VERBS = {"from_string", "from_dict", "keys", "to_prm", "with_overrides"}


def public_methods(cls):
    return {name for name, value in vars(cls).items() if not name.startswith("_") and callable(value)}


def test_every_case_verb_is_a_case_method_and_nothing_else_is():
    methods = {verb["method"] for verb in CASE_VERBS}
    assert public_methods(vi.Case) - NOT_VERBS == methods
    compiled = {name for name in dir(_vibroimpact.Case) if not name.startswith("_")}
    assert compiled - NOT_VERBS - {"entries", "name", "filename"} == methods


def test_each_method_says_the_tables_help_and_returns_its_result_class():
    for verb in CASE_VERBS:
        method = getattr(vi.Case, verb["method"])
        doc = inspect.getdoc(method)
        first = doc.splitlines()[0]
        assert first.lower().startswith(verb["help"].lower()), (verb["name"], first)
        assert "`vibroimpact %s`" % verb["name"] in first
        assert "Returns\n-------\n%s" % verb["result"] in doc, verb["name"]
        assert inspect.isclass(getattr(vi, verb["result"])) and verb["result"] in vi.__all__
        for part in ("Parameters", "Raises", "progress"):
            assert part in doc, (verb["name"], part)


def test_verbs_and_parameters_follow_the_table():
    assert list(vi.verbs()) == [verb["name"] for verb in CASE_VERBS]
    assert [verb["name"] for verb in TABLE if not verb["reads_case"]] == ["parameters"]
    for verb in CASE_VERBS:  # both spellings name the same verb
        assert vi.parameters(verb["method"]) == vi.parameters(verb["name"]), verb["name"]


def test_the_command_line_offers_the_tables_verbs():
    help_text = subprocess.run([CLI, "--help"], capture_output=True, text=True, check=True).stdout
    listed = [line.split()[0] for line in help_text.split("Subcommands:")[1].splitlines() if line.strip()]
    assert listed == [verb["name"] for verb in TABLE]
