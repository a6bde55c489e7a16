#!/usr/bin/env python3
"""Regenerates the measured figures of doc/python.md, each between its markers

    <!-- figure NAME: python3 doc/scripts/python-figures.py NAME -->
    ...
    <!-- end figure NAME -->

so that the page shows what the code prints today, with the command beside it. Run from the
repository after the build (the module from build/python):

    python3 doc/scripts/python-figures.py [--check] [--build DIR] [NAME ...]

NAME: prompt (a result printed at the prompt), fep-warning (the warning two_dof_fep's
continuation gives), deb (`cpack -G DEB`: its time and the .deb's size; slow, so only when
named). Without NAME: prompt and fep-warning. --check writes nothing and exits 1 when the page
differs from the code's output in more than what varies from run to run (wall times, seconds).
"""
import argparse
import io
import re
import subprocess
import sys
import time
import warnings
from contextlib import redirect_stdout
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "doc" / "python.md"
VARYING = [r"wall_time=[0-9.e+-]+", r"[0-9.]+ s\b", r"[0-9,]+ bytes", r"[0-9.]+ MB"]


def prompt_figure(vi):
    """A simulation at the prompt: the result's fields and summary, then one Table."""
    command = 'vi.Case("examples/two_dof_sticking/case.prm", overrides={"Simulation/Final time": 20}).simulate()'
    run = vi.Case(ROOT / "examples/two_dof_sticking/case.prm", overrides={"Simulation/Final time": 20}).simulate()
    return "```\n>>> %s\n%r\n>>> _.history\n%r\n```" % (command, run, run.history)


def fep_warning_figure(vi):
    """The first warning of examples/two_dof_fep's continuation, as the page quotes it."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", vi.VibroimpactWarning)
        result = vi.Case(ROOT / "examples/two_dof_fep/case.prm").continue_()
    first = result.warnings[0] if result.warnings else "(none)"
    return ("On examples/two_dof_fep, for example, the continuation warns \"%s\", the warning the command "
            "line prints." % first)


def deb_figure(build):
    """`cpack -G DEB` in the build folder: its wall time and the .deb's size."""
    start = time.perf_counter()
    subprocess.run(["cpack", "-G", "DEB"], cwd=build, check=True, stdout=subprocess.DEVNULL)
    seconds = time.perf_counter() - start
    deb = sorted(Path(build).glob("vibroimpact_*.deb"))[-1]
    size = deb.stat().st_size
    return ("```\ncd build && cpack -G DEB                  # %.0f s; a %.1f MB .deb\n```\n\n"
            "Measured on the machine that builds this page (`cpack -G DEB` %.1f s): `%s` %s bytes."
            % (seconds, size / 1e6, seconds, deb.name, format(size, ",")))


def figures(names, build):
    sys.path.insert(0, str(Path(build) / "python"))
    import vibroimpact as vi
    makers = {"prompt": lambda: prompt_figure(vi), "fep-warning": lambda: fep_warning_figure(vi),
              "deb": lambda: deb_figure(build)}
    with redirect_stdout(io.StringIO()):
        return {name: makers[name]() for name in names}


def block(name):
    return re.compile(r"(<!-- figure %s: [^\n]*-->\n)(.*?)(\n<!-- end figure %s -->)" % (re.escape(name), re.escape(name)),
                      re.S)


def masked(text):
    for pattern in VARYING:
        text = re.sub(pattern, "#", text)
    return text


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="prompt, fep-warning, deb")
    parser.add_argument("--check", action="store_true", help="compare only; exit 1 on a difference")
    parser.add_argument("--build", default=str(ROOT / "build"), help="the build folder")
    arguments = parser.parse_args()
    names = arguments.names or ["prompt", "fep-warning"]
    unknown = [name for name in names if name not in ("prompt", "fep-warning", "deb")]
    if unknown:
        parser.error("no figure %s (prompt, fep-warning, deb)" % ", ".join(unknown))
    page = PAGE.read_text()
    made = figures(names, arguments.build)
    differs = []
    for name, text in made.items():
        found = block(name).search(page)
        if not found:
            sys.exit("%s: no markers for the figure %s" % (PAGE, name))
        if masked(found.group(2)) != masked(text):
            differs.append(name)
        page = page[:found.start(2)] + text + page[found.end(2):]
    if arguments.check:
        for name in differs:
            print("%s: the figure %s differs from what the code prints now (python3 %s %s)"
                  % (PAGE.relative_to(ROOT), name, Path(__file__).relative_to(ROOT), name), file=sys.stderr)
        sys.exit(1 if differs else 0)
    PAGE.write_text(page)


if __name__ == "__main__":
    main()
