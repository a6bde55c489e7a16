"""The case file's entries from Python: what `vibroimpact parameters` lists (read from the
library's own declaration), a case built from nested dicts (its .prm text), a case written back
as a .prm file, and one entry's value."""
import collections as _collections
import re as _re

from ._values import value_text
from ._vibroimpact import InputError, _closest_name
from ._vibroimpact import parameters as _parameters


class Parameter(_collections.namedtuple("Parameter", "path default pattern documentation")):
    """One declared entry: path ("Section/Entry"; a family's instance as "<name>", e.g.
    "Body <name>/Length"), default (text), pattern (deal.II's) and documentation."""

    __slots__ = ()


def parameters(verb=None):
    """The entries `vibroimpact parameters [verb]` prints, in its order.

    Parameters
    ----------
    verb : str, optional
        modes, simulate, compare, sweep, converge or continue (or its method's spelling,
        continue_): only the entries it reads. None: every entry.

    Returns
    -------
    list of Parameter
        (path, default, pattern, documentation) named tuples.

    Raises
    ------
    InputError
        For an unknown verb.
    """
    return [Parameter(path, default, pattern, doc) for path, _, default, pattern, doc in _parameters(verb or "")]


def _sections(tree, prefix, where):
    """Flattens nested dicts into {section: [(entry, value)]}; "Section/Entry" keys are split."""
    out = _collections.OrderedDict()
    for key, value in tree.items():
        if not isinstance(key, str):
            raise InputError("%s: %r: keys are the case file's names (str)" % (where, key))
        path = prefix + [part.strip() for part in key.split("/")]
        if isinstance(value, dict):
            for section, entries in _sections(value, path, where).items():
                out.setdefault(section, []).extend(entries)
        elif len(path) < 2:
            raise InputError("%s: %s: a section needs a dict of entries, got a %s" % (where, key, type(value).__name__))
        else:
            out.setdefault(tuple(path[:-1]), []).append((path[-1], value))
    return out


def prm_text(tree, where):
    """The .prm text of a case given as nested dicts {section: {entry: value}}."""
    if not isinstance(tree, dict):
        raise InputError("%s: a case is a dict of sections, got a %s" % (where, type(tree).__name__))
    lines = []
    for section, entries in _sections(tree, [], where).items():
        lines += ["  " * depth + "subsection " + name for depth, name in enumerate(section)]
        indent = "  " * len(section)
        for entry, value in entries:
            path = "/".join(section + (entry,))
            text = value_text(value, "%s: %s" % (where, path))
            # The .prm format has no escape: '#' starts a comment and a line ends the value.
            if "#" in text or "\n" in text or "\r" in text:
                raise InputError("%s: %s: a value with '#' or a line break cannot be given in a case file"
                                 % (where, path))
            lines.append("%sset %s = %s" % (indent, entry, text))
        lines += ["  " * depth + "end" for depth in reversed(range(len(section)))]
    return "\n".join(lines) + "\n"


def without_line(error, where):
    """The error of a case built in code, without the line of a text the user never saw."""
    return InputError(_re.sub(r"^%s:\d+:" % _re.escape(where), where + ":", str(error)))


def case_prm(entries, sections, header):
    """The .prm text of a case: every section it gives, with the entries whose value is not the
    default (the others read the same either way), aligned as deal.II writes them."""
    lines = ["# " + line for line in header]
    for section in sections:
        given = [(path[len(section) + 1:], value) for path, value, default, _, _ in entries
                 if path.startswith(section + "/") and value != default]
        width = max((len(name) for name, _ in given), default=0)
        lines.append("subsection %s" % section)
        lines += ["  set %s = %s" % (name.ljust(width), value) for name, value in given]
        lines.append("end")
    return "\n".join(lines) + "\n"


def typed_value(value, pattern):
    """An entry's text as Python: float (Double), int (Integer), bool (Bool), else str."""
    if pattern.startswith("[Double"):
        return float(value)
    if pattern.startswith("[Integer"):
        return int(value)
    if pattern.startswith("[Bool"):
        return value.strip() == "true"
    return value


def missing_entry(filename, path, paths):
    """The KeyError of case[path] for an entry the case does not declare."""
    closest = _closest_name(path, paths)
    return KeyError("%s: %s: no such entry%s" % (filename, path, " (did you mean '%s'?)" % closest if closest else ""))
