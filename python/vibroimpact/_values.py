"""Python values as a case file spells them: the overrides of vibroimpact.Case and the entries of
Case.from_dict. Python and NumPy scalars, lists and 1-D arrays are accepted; anything else is an
InputError naming the entry (one line, as the command line's)."""
import math as _math
import numbers as _numbers
import os as _os

import numpy as _np

from ._vibroimpact import InputError


def _scalar_text(value, where):
    # bool before Integral: True is an int too. NumPy's bool_ is neither.
    if isinstance(value, (bool, _np.bool_)):
        return "true" if value else "false"
    if isinstance(value, _numbers.Integral):
        return str(int(value))
    if isinstance(value, _numbers.Real):
        # float() first: NumPy 2's repr of np.float64(0.5) is "np.float64(0.5)"; repr of a Python
        # float is the shortest text that reads back as the same double.
        number = float(value)
        return repr(number) if _math.isfinite(number) else str(number)
    if isinstance(value, str):
        return str(value)
    if isinstance(value, _os.PathLike):
        return _os.fspath(value)
    raise InputError("%s: a %s is not a value of a case file (give a number, a bool, a string, a list or a "
                     "1-D array)" % (where, type(value).__name__))


def value_text(value, where):
    """`value` as the case file's text: true/false, whole numbers, the shortest round-trip real,
    lists and 1-D arrays as "a, b, c". `where` names the entry in the error message."""
    if isinstance(value, _np.ndarray):
        if value.ndim > 1:
            raise InputError("%s: a %d-D array (give a scalar, a list or a 1-D array)" % (where, value.ndim))
        value = value.tolist() if value.ndim == 1 else value.item()
    if isinstance(value, (list, tuple)):
        items = []
        for item in value:
            if isinstance(item, (list, tuple, _np.ndarray)) and not isinstance(item, str):
                raise InputError("%s: a list of lists (give a flat list or a 1-D array)" % where)
            items.append(_scalar_text(item, where))
        return ", ".join(items)
    if value is None:
        raise InputError("%s: None is not a value (give \"\" for an empty entry)" % where)
    return _scalar_text(value, where)


def override_list(overrides):
    """The command line's -s 'Section/Entry=value' texts of an overrides mapping."""
    if overrides is None:
        return []
    if not hasattr(overrides, "items"):
        raise TypeError("overrides: a mapping {'Section/Entry': value}")
    return ["%s=%s" % (entry, value_text(value, "command line: -s " + str(entry)))
            for entry, value in overrides.items()]
