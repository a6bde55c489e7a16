"""What the verbs return, pleasant at the prompt and in Jupyter: a CSV file's columns are a Table
(a dict of 1-D arrays that knows its shape, prints it and turns into a pandas DataFrame), a
result prints its tables' shapes and its run's summary, and both render as HTML in a notebook."""
import html as _html

import numpy as _np

_PREVIEW_ROWS = 5  # rows shown at each end of a table in a notebook


class Table(dict):
    """The columns of one CSV file the command line writes: column name -> 1-D ndarray (numbers
    as float, NaN for an empty field; text as str), in the file's order. A dict, so
    ``table["time"]`` and ``list(table)`` work as for any mapping."""

    @property
    def shape(self):
        """(rows, columns)."""
        rows = len(next(iter(self.values()))) if self else 0
        return rows, len(self)

    def to_pandas(self):
        """The table as a pandas DataFrame (one column per CSV column, in order).

        Returns
        -------
        pandas.DataFrame

        Raises
        ------
        ImportError
            When pandas is not installed (Debian: python3-pandas).
        """
        try:
            import pandas
        except ImportError as error:
            raise ImportError("Table.to_pandas() needs pandas (Debian: apt install python3-pandas)") from error
        return pandas.DataFrame(dict(self))

    def __repr__(self):
        rows, columns = self.shape
        names = list(self)
        shown = ", ".join(names[:8]) + (", ..." if len(names) > 8 else "")
        return "Table(%d rows x %d columns: %s)" % (rows, columns, shown)

    def _repr_html_(self):
        rows, columns = self.shape
        head = "<p>%d rows &times; %d columns</p>" % (rows, columns)
        keep = list(range(min(rows, _PREVIEW_ROWS))) + list(range(max(_PREVIEW_ROWS, rows - _PREVIEW_ROWS), rows))
        cells = ["<tr>%s</tr>" % "".join("<th>%s</th>" % _html.escape(name) for name in self)]
        for k, row in enumerate(keep):
            if k == _PREVIEW_ROWS and row > _PREVIEW_ROWS:
                cells.append("<tr>%s</tr>" % ("<td>&hellip;</td>" * columns))
            cells.append("<tr>%s</tr>" % "".join("<td>%s</td>" % _html.escape(_cell(column[row]))
                                                 for column in self.values()))
        return head + "<table>%s</table>" % "".join(cells)


def _cell(value):
    return "%.6g" % value if isinstance(value, (float, _np.floating)) else str(value)


def tabulate(value):
    """A dict of equally long 1-D arrays as a Table; dicts holding such dicts converted inside."""
    if not isinstance(value, dict) or isinstance(value, Table):
        return value
    columns = list(value.values())
    if columns and all(isinstance(c, _np.ndarray) and c.ndim == 1 and len(c) == len(columns[0]) for c in columns):
        return Table(value)
    if any(isinstance(v, dict) for v in columns):
        return {k: tabulate(v) for k, v in value.items()}
    return value


def _describe(value):
    """One line saying what a field holds."""
    if isinstance(value, Table):
        return "%d rows x %d columns" % value.shape
    if isinstance(value, _np.ndarray):
        if value.ndim == 1 and value.size <= 6:  # a few numbers: the numbers themselves
            return _np.array2string(value, precision=6, separator=", ")
        return "array %s" % (" x ".join(map(str, value.shape)) or "scalar")
    if isinstance(value, str):
        lines = value.splitlines()
        return "text, %d lines" % len(lines) if len(lines) > 1 else repr(value)
    if isinstance(value, dict):
        if all(isinstance(v, Table) for v in value.values()):
            return ", ".join("%s (%d x %d)" % ((k,) + v.shape) for k, v in value.items()) or "none"
        return "%d entries: %s" % (len(value), ", ".join(map(str, value)))
    if isinstance(value, (list, tuple)):
        return "%d: %s" % (len(value), "; ".join(map(str, value))) if value else "none"
    return repr(value)


def _summary_text(summary):
    return ", ".join("%s=%s" % (k, "%.6g" % v if isinstance(v, float) else v)
                     for k, v in summary.items() if k != "warnings")


class Result:
    """Named results: each field an attribute. Printing lists the fields with their tables'
    shapes (those that are None, tables a run does not write, are left out), then the run's
    summary."""

    def __init__(self, fields):
        self.__dict__.update({k: tabulate(v) for k, v in fields.items()})

    def to_pandas(self):
        """Every table of the result as a pandas DataFrame, by field (nested: "runs/a/history").

        Returns
        -------
        dict of str to pandas.DataFrame

        Raises
        ------
        ImportError
            When pandas is not installed.
        """
        frames = {}

        def collect(prefix, value):
            if isinstance(value, Table):
                frames[prefix] = value.to_pandas()
            elif isinstance(value, dict):
                for k, v in value.items():
                    collect("%s/%s" % (prefix, k), v)

        for name, value in vars(self).items():
            collect(name, value)
        return frames

    def _shown(self):
        """The fields with a value (a table the run does not write is None, and not listed)."""
        return {k: v for k, v in vars(self).items() if v is not None}

    def __repr__(self):
        fields = self._shown()
        warnings = fields.pop("warnings", [])  # a line each, last
        width = max((len(k) for k in fields), default=0)
        lines = ["%s:" % type(self).__name__]
        for name, value in fields.items():
            if name == "summary" and isinstance(value, dict):
                continue
            lines.append("  %s  %s" % (name.ljust(width), _describe(value)))
        summary = fields.get("summary")
        if isinstance(summary, dict):
            lines.append("  %s  %s" % ("summary".ljust(width), _summary_text(summary)))
        lines += ["  warning: %s" % warning for warning in warnings]
        return "\n".join(lines)

    def _repr_html_(self):
        rows = "".join("<tr><th style='text-align:left'>%s</th><td style='text-align:left'>%s</td></tr>"
                       % (_html.escape(name), _html.escape(_summary_text(value) if name == "summary"
                                                           and isinstance(value, dict) else _describe(value)))
                       for name, value in self._shown().items())
        return "<b>%s</b><table>%s</table>" % (type(self).__name__, rows)
