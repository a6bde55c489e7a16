"""Progress of a long call (a verb's `progress=` argument): the library's progress bars, which the
command line draws on a terminal, reported to a Python callback(done, total, label) from the
calling thread, or drawn on stderr with progress=True. What the callback raises stops its
reporting and is raised when the call returns (it never unwinds through the library)."""
import contextlib as _contextlib
import sys as _sys

from ._vibroimpact import _set_progress


class _TerminalBar:
    """A one-line bar on stderr, redrawn in place."""

    def __init__(self, stream):
        self.stream = stream
        self.drawn = False

    def __call__(self, done, total, label):
        fraction = min(max(done / total if total > 0 else 1.0, 0.0), 1.0)
        filled = int(40 * fraction)
        self.stream.write("\r%s [%s%s] %5.1f%%" % (label, "#" * filled, " " * (40 - filled), 100 * fraction))
        self.stream.flush()
        self.drawn = True

    def close(self):
        if self.drawn:
            self.stream.write("\n")
            self.stream.flush()


@_contextlib.contextmanager
def reporting(progress):
    """Reports the library's progress to `progress` (a callable, True for a bar on stderr, None or
    False for nothing) while the body runs."""
    if progress is None or progress is False:
        yield
        return
    if progress is True:
        callback = _TerminalBar(_sys.stderr)
    elif callable(progress):
        callback = progress
    else:
        raise TypeError("progress: a callable(done, total, label), True (a bar on stderr) or None")
    raised = []

    def sink(done, total, label):
        if raised:
            return
        try:
            callback(done, total, label)
        except BaseException as error:  # kept for after the call: nothing unwinds through C++
            raised.append(error)

    _set_progress(sink)
    try:
        yield
    finally:
        _set_progress(None)
        if isinstance(callback, _TerminalBar):
            callback.close()
    if raised:
        raise raised[0]
