"""Progress of a long call (a verb's `progress=` argument): one stream a call, reported to a
Python callback(p) from the calling thread, p a Progress saying which phase runs (a comparison's
run, a continuation's family, the eigensolve of modes()) and how far the whole call is, or drawn
on stderr with progress=True. What the callback raises stops its reporting and is raised when the
call returns (it never unwinds through the library)."""
import collections as _collections
import contextlib as _contextlib
import sys as _sys

from ._vibroimpact import _set_progress


class Progress(_collections.namedtuple("Progress", "phase index count done total fraction")):
    """Where a call stands: `phase` (what runs now: "simulate", a solver's name, "family of mode
    1", "eigensolve", ...), its `index` (from 0) of `count` phases, `done` of `total` in the
    phase's own unit (simulated time, orbits, cycles), and `fraction`: how far the whole call is,
    0 to 1, never smaller than the last report's (what a single progress bar follows)."""

    __slots__ = ()


class _TerminalBar:
    """A one-line bar on stderr, redrawn in place: the call's fraction and the phase running."""

    def __init__(self, stream):
        self.stream = stream
        self.drawn = False

    def __call__(self, p):
        filled = int(40 * p.fraction)
        phase = "%s (%d/%d)" % (p.phase, p.index + 1, p.count) if p.count > 1 else p.phase
        self.stream.write("\r%s [%s%s] %5.1f%%\033[K" % (phase, "#" * filled, " " * (40 - filled), 100 * p.fraction))
        self.stream.flush()
        self.drawn = True

    def close(self):
        if self.drawn:
            self.stream.write("\n")
            self.stream.flush()


@_contextlib.contextmanager
def reporting(progress):
    """Reports the call's progress to `progress` (a callable(Progress), True for a bar on stderr,
    None or False for nothing) while the body runs."""
    if progress is None or progress is False:
        yield
        return
    if progress is True:
        callback = _TerminalBar(_sys.stderr)
    elif callable(progress):
        callback = progress
    else:
        raise TypeError("progress: a callable(vibroimpact.Progress), True (a bar on stderr) or None")
    raised = []

    def sink(phase, index, count, done, total, fraction):
        if raised:
            return
        try:
            callback(Progress(phase, index, count, done, total, fraction))
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
