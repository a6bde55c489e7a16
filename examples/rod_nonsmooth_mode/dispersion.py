#!/usr/bin/env python3
# The spectrum table of doc/periodic.md §7 and the backbone table of doc/continuation-rod.md §1
# (dispersion of the FE rod and its first nonsmooth mode): for each mass matrix / element degree
# and mesh, the FE frequencies against the continuum's (2n - 1) omega_1 (`spectrum`), and the
# massless-end branch from the closed-form orbit against the closed-form backbone
# T = (L/c)(3 + sqrt(E_g/E)) (`backbone`). Plain Python, runs the program.
#
#   examples/rod_nonsmooth_mode/dispersion.py spectrum build/vibroimpact
#   examples/rod_nonsmooth_mode/dispersion.py backbone build/vibroimpact [start E/E_g, default 10]
#   examples/rod_nonsmooth_mode/dispersion.py compare out/branch.csv      (one branch.csv)
import csv
import math
import os
import subprocess
import sys
import tempfile
import time

CASE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "case.prm")
E_G = 0.005  # EA g^2 / (2L) with EA = L = 1, g = 0.1
OMEGA_1 = math.pi / 2
METHODS = [  # name, element degree, Mass matrix, lumped fraction
    ("consistent p=1", 1, "consistent", None),
    ("lumped p=1", 1, "lumped", None),
    ("blended p=1 (f=1/2)", 1, "blended", 0.5),
    ("consistent p=2", 2, "consistent", None),
    ("blended p=2 (f=2/3)", 2, "blended", 2.0 / 3.0),
]
MESHES = [10, 20, 40, 80, 160]
if os.environ.get("METHODS"):  # e.g. METHODS="consistent p=1,lumped p=1": a subset of the rows
    METHODS = [m for m in METHODS if m[0] in os.environ["METHODS"].split(",")]


def overrides(degree, mass, fraction, elements):
    s = ["-s", f"Body rod/Number of elements={elements}", "-s", f"Body rod/Element degree={degree}",
         "-s", f"Body rod/Mass matrix={mass}"]
    if fraction is not None:
        s += ["-s", f"Body rod/Lumped fraction={fraction:.17g}"]
    return s


def closed_form_frequency(energy):
    return 4 * OMEGA_1 / (3 + math.sqrt(E_G / energy))


def spectrum(program):
    print("| method | " + " | ".join(f"{n} el." for n in MESHES) + " |")
    print("|---|" + "---:|" * len(MESHES))
    for name, degree, mass, fraction in METHODS:
        cells = []
        for elements in MESHES:
            dofs = degree * elements
            with tempfile.TemporaryDirectory() as out:
                subprocess.run([program, "modes", CASE, "-q", "-o", out, "-s", f"Modes/Number of modes={dofs}"]
                               + overrides(degree, mass, fraction, elements), check=True, capture_output=True)
                with open(os.path.join(out, "modes.csv")) as f:
                    omegas = [float(r["omega_rad_per_s"]) for r in csv.DictReader(f)]
            errors = [abs(w / ((2 * n + 1) * OMEGA_1) - 1) for n, w in enumerate(omegas)]
            leading = next((n for n, e in enumerate(errors) if e >= 0.01), len(errors))
            cells.append(f"{leading}/{dofs} ({errors[0]:.1e})")
        print(f"| {name} | " + " | ".join(cells) + " |")


def compare(branch_csv):
    """Points within 1 % of the closed form: the run from the first point, and the log-E measure of all."""
    with open(branch_csv) as f:
        rows = list(csv.DictReader(f))
    if not rows:
        return None
    points = [(float(r["energy"]) / E_G, float(r["frequency"]) / closed_form_frequency(float(r["energy"])) - 1)
              for r in rows]
    inside = [abs(e) < 0.01 for _, e in points]
    run_end = 0
    while run_end + 1 < len(points) and inside[run_end + 1] and inside[0]:
        run_end += 1
    covered = sum(abs(math.log10(points[k + 1][0] / points[k][0]))
                  for k in range(len(points) - 1) if inside[k] and inside[k + 1])
    return {"points": len(points), "first_error": points[0][1], "newton": int(rows[0]["newton_iterations"]),
            "run": (points[0][0], points[run_end][0]) if inside[0] else None, "covered_log10": covered,
            "E_range": (min(p[0] for p in points), max(p[0] for p in points)),
            "max_error_in_run": max(abs(points[k][1]) for k in range(run_end + 1))}


def backbone(program, start=10.0):
    energy = start * E_G
    amplitude = 2 * math.sqrt(energy / 2)  # u = -2 B x, B = sqrt(E / (2 L EA))
    period = 3 + math.sqrt(1 / start)
    print(f"start E = {start} E_g (closed form T = {period:.6f}), up to 100 E_g")
    print("| method | elements | Newton (first point) | first ω/ω_closed − 1 | within 1 % from the start | "
          "log10 E covered within 1 % | E/E_g reached | points | time |")
    print("|---|---:|---:|---:|---|---:|---|---:|---:|")
    for name, degree, mass, fraction in METHODS:
        for elements in MESHES:
            with tempfile.TemporaryDirectory() as out:
                t0 = time.time()
                run = subprocess.run([program, "continue", CASE, "-q", "-o", out,
                                      "-s", f"Body rod/Initial displacement={-amplitude:.12g}*x",
                                      "-s", f"Continuation/Start period={period:.12g}",
                                      "-s", f"Continuation/Maximum energy={100 * E_G}",
                                      "-s", "Continuation/Maximum points=200",
                                      "-s", "Continuation/Maximum Newton iterations=30"]
                                     + overrides(degree, mass, fraction, elements), capture_output=True, text=True)
                seconds = time.time() - t0
                result = compare(os.path.join(out, "branch.csv")) if run.returncode == 0 else None
            if result is None:
                print(f"| {name} | {elements} | fails | | | | | 0 | {seconds:.1f} s |", flush=True)
                continue
            run_text = (f"{result['run'][0]:.3g} – {result['run'][1]:.3g} E_g" if result["run"] else "—")
            print(f"| {name} | {elements} | {result['newton']} | {100 * result['first_error']:+.3f} % | {run_text} | "
                  f"{result['covered_log10']:.2f} | {result['E_range'][0]:.3g} – {result['E_range'][1]:.3g} | "
                  f"{result['points']} | {seconds:.1f} s |", flush=True)


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "spectrum":
        spectrum(sys.argv[2])
    elif len(sys.argv) >= 3 and sys.argv[1] == "backbone":
        backbone(sys.argv[2], float(sys.argv[3]) if len(sys.argv) > 3 else 10.0)
    elif len(sys.argv) == 3 and sys.argv[1] == "compare":
        print(compare(sys.argv[2]))
    else:
        sys.exit(__doc__ if __doc__ else "usage: dispersion.py spectrum|backbone PROGRAM | compare branch.csv")
