#!/usr/bin/env python3
"""Tabulates, at every value of a frequency sweep, the sweep's Poincaré points against the
periodic orbits of forced-response branches at the same forcing frequency.

    vibroimpact sweep case.prm -o sweep
    vibroimpact continue case.prm -o up -s 'Continuation/Maximum points=1500' -s 'Continuation/Restarts=100'
    vibroimpact continue case.prm -o down -s 'Continuation/Direction=down' \\
        -s 'Continuation/Maximum points=1500' -s 'Continuation/Restarts=100'
    python3 branch_vs_sweep.py sweep up down > branch_vs_sweep.csv     # summary on stderr

With `-s "Continuation/Report frequencies=<the sweep's omegas, comma-separated>"` each branch
folder also holds at_frequencies.csv, the branch's orbits solved at exactly those frequencies:
they are used instead of interpolating (interpolation error 0).

The sweep's 30 recorded points (u, v at the probe, sampling phase 0.75) are classed as period k
(the smallest k <= 12 with point i = point i + k to 1e-6 of their size) or "none" (not periodic
after the transient). The branches are read at the same phase (branch.csv's u_ and v_ columns of
the probe); between two consecutive points of one stretch (no restart between) whose
frequencies bracket the sweep value, the orbit's (u, v) there is interpolated quadratically
through three points of the stretch, and the difference from the linear interpolation is kept as
the interpolation's error. u and v are measured on their scales over the sweep (their largest
sizes). A period-1 sweep value agrees with the branch when a stable orbit lies within 1e-4 of
those scales; where the nearest stable orbit's interpolation error exceeds that, the branch is
too coarse there to say.

Standard library only; reads the files `vibroimpact` writes, nothing else.
"""
import csv
import math
import sys


def sweep_classes(sweep_dir):
    """{value (omega/omega_1): (omega, period k or 0, [(u, v)...])} from poincare.csv."""
    values = {}
    with open(f"{sweep_dir}/poincare.csv") as f:
        for row in csv.DictReader(f):
            entry = values.setdefault(float(row["value"]), [float(row["omega"]), []])
            entry[1].append((float(row["u"]), float(row["v"])))
    # u and v are compared on their own scales, the largest over the sweep (sticking orbits sit at 0).
    scale = [max(abs(p[q]) for _, points in values.values() for p in points) or 1.0 for q in (0, 1)]
    classes = {}
    for index, (omega, points) in values.items():
        period = 0
        for k in range(1, 13):
            if all(max(abs(points[i][q] - points[i + k][q]) / scale[q] for q in (0, 1)) <= 1e-6
                   for i in range(len(points) - k)):
                period = k
                break
        classes[index] = (omega, period, points)
    return classes, scale


def branch_points(branch_dir, probe):
    with open(f"{branch_dir}/branch.csv") as f:
        return [{"omega": float(r["frequency"]), "u": float(r[f"u_{probe}"]), "v": float(r[f"v_{probe}"]),
                 "stable": r["stable"] == "1", "restarted": r["restarted"] == "1",
                 "family": r["family"], "admissible": r["admissible"] == "1"} for r in csv.DictReader(f)]


def exact_orbits(branch_dir, probe):
    """{omega: [(u, v, stable, 0, admissible)...]} from at_frequencies.csv, or None without it."""
    try:
        f = open(f"{branch_dir}/at_frequencies.csv")
    except FileNotFoundError:
        return None
    orbits = {}
    with f:
        for r in csv.DictReader(f):
            orbits.setdefault(float(r["frequency"]), []).append(
                (float(r[f"u_{probe}"]), float(r[f"v_{probe}"]), r["stable"] == "1", 0.0, r["admissible"] == "1"))
    return orbits


def crossings(points, omega):
    """The branch's orbits at `omega`: (u, v, stable, interpolation error) per bracketing pair."""
    found = []
    for k in range(1, len(points)):
        a, b = points[k - 1], points[k]
        if b["restarted"] or a["family"] != b["family"]:
            continue
        if not (min(a["omega"], b["omega"]) <= omega <= max(a["omega"], b["omega"])) or a["omega"] == b["omega"]:
            continue
        s = (omega - a["omega"]) / (b["omega"] - a["omega"])
        linear = [a[q] + s * (b[q] - a[q]) for q in ("u", "v")]
        # A third point of the same stretch for the quadratic (the one after b, else before a).
        c = None
        if k + 1 < len(points) and not points[k + 1]["restarted"] and points[k + 1]["family"] == b["family"]:
            c = points[k + 1]
        elif k >= 2 and not a["restarted"] and points[k - 2]["family"] == a["family"]:
            c = points[k - 2]
        quadratic = linear
        if c is not None and len({a["omega"], b["omega"], c["omega"]}) == 3:
            x = (a["omega"], b["omega"], c["omega"])
            def lagrange(q):
                y = (a[q], b[q], c[q])
                return sum(y[i] * math.prod((omega - x[j]) / (x[i] - x[j]) for j in range(3) if j != i)
                           for i in range(3))
            quadratic = [lagrange("u"), lagrange("v")]
        error = max(abs(quadratic[0] - linear[0]), abs(quadratic[1] - linear[1]))
        found.append((quadratic[0], quadratic[1], a["stable"] and b["stable"], error,
                      a["admissible"] and b["admissible"]))
    return found


def main(argv):
    if len(argv) < 3:
        sys.exit("usage: branch_vs_sweep.py SWEEP_DIR BRANCH_DIR... [--probe NAME]")
    probe = "contact_point"
    if "--probe" in argv:
        i = argv.index("--probe")
        probe = argv[i + 1]
        del argv[i:i + 2]
    classes, scale = sweep_classes(argv[1])
    points = [branch_points(d, probe) for d in argv[2:]]
    exact = [exact_orbits(d, probe) for d in argv[2:]]

    def orbits_at(omega):
        found = []
        for branch, solved in zip(points, exact):
            if solved is None:
                found += crossings(branch, omega)
            else:
                found += [o for w, at in solved.items() if abs(w - omega) <= 1e-12 * omega for o in at]
        return found

    out = csv.writer(sys.stdout)
    out.writerow(["value", "omega", "sweep_period", "sweep_u", "sweep_v", "stable_orbits", "unstable_orbits",
                  "nearest_stable_du", "nearest_stable_dv", "interpolation_error", "verdict"])
    tally = {}
    for index in sorted(classes):
        omega, period, sweep = classes[index]
        orbits = [o for o in orbits_at(omega) if o[4]]
        stable = [o for o in orbits if o[2]]
        u, v = sweep[-1]
        distance = lambda o: max(abs(o[0] - u) / scale[0], abs(o[1] - v) / scale[1])
        nearest = min(stable, key=distance, default=None)
        du = dv = err = ""
        verdict = ""
        if nearest is not None:
            du, dv, err = nearest[0] - u, nearest[1] - v, nearest[3]
        if period == 1:
            if nearest is not None and distance(nearest) <= 1e-4:
                verdict = "agrees"
            elif nearest is not None and err > 1e-4 * min(scale):
                verdict = "sweep periodic; branch too coarse here to say"
            elif orbits:
                verdict = "sweep periodic, not on a stable orbit of the branches"
            else:
                verdict = "sweep periodic, no branch orbit at this frequency"
        else:
            kind = f"period {period}" if period else "not periodic"
            verdict = f"sweep {kind}; branch " + ("stable there" if stable else
                                                  "unstable there" if orbits else "absent")
        tally[verdict] = tally.get(verdict, 0) + 1
        fmt = lambda x: f"{x:.10g}" if x != "" else ""
        out.writerow([index, fmt(omega), period, fmt(u), fmt(v), len(stable), len(orbits) - len(stable),
                      fmt(du), fmt(dv), fmt(err), verdict])
    for verdict, count in sorted(tally.items(), key=lambda t: -t[1]):
        print(f"{count:4d}  {verdict}", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv)
