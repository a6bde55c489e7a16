#!/usr/bin/env python3
"""Reversible periodic orbits of the seed's 2-DOF chain with elastic impacts (m = k = 1, a rigid
stop 0.1 above m2, e = 1), found independently of vibroimpact (closed-form modal flow, no library):
starts for `vibroimpact continue` with `Start = simulation` (three_impacts.prm).

The chain is reversible: (q, v) -> (q, -v) maps orbits to orbits run backwards, and an elastic
impact with v1 = 0 is its own mirror. An orbit through a brake point (v = 0) at t = 0 and, after k
impacts, an impact with v1 = 0 at t = tau is periodic with period 2 tau and 2k + 1 impacts a
period (k = 0: the one-impact families; k = 1: three impacts). At a fixed energy E the brake points
are q = s (cos theta, sin theta) with (1/2) q^T K q = E; the script scans theta for sign changes of
v1 at the (k+1)-th impact, bisects, and prints the orbits whose first impact is not itself
symmetric (those are k-fold covers of one-impact orbits).

    python3 symmetric_orbits.py E [k] [angles]      e.g.  python3 symmetric_orbits.py 2 1

Orbits between two symmetric impacts (v1 = 0 at both, k impacts between: 2k + 2 impacts a
period) start from the impact state q = (u1, g), v = (0, v2 < 0) just after it:

    python3 symmetric_orbits.py impacts E [k] [points]   e.g.  python3 symmetric_orbits.py impacts 0.5 0
"""
import math
import sys

GAP = 0.1
OMEGAS = [math.sqrt((3 - math.sqrt(5)) / 2), math.sqrt((3 + math.sqrt(5)) / 2)]
SHAPES = []
for om in OMEGAS:  # K = [[2, -1], [-1, 1]], M = I: (2 - w^2) a = b, unit length
    a, b = 1.0, 2 - om * om
    SHAPES.append((a / math.hypot(a, b), b / math.hypot(a, b)))


def modal(q, v):
    return [(s[0] * q[0] + s[1] * q[1], s[0] * v[0] + s[1] * v[1]) for s in SHAPES]


def physical(m, t):
    q, v = [0.0, 0.0], [0.0, 0.0]
    for (a, b), om, s in zip(m, OMEGAS, SHAPES):
        x = a * math.cos(om * t) + b / om * math.sin(om * t)
        xd = -a * om * math.sin(om * t) + b * math.cos(om * t)
        for j in range(2):
            q[j] += s[j] * x
            v[j] += s[j] * xd
    return q, v


def impacts(q0, v0, count, t_max=80.0, dt=0.002):
    """The first `count` impacts (time, q, v before) from (q0, v0): gap crossings bisected."""
    m, t0, t, out = modal(q0, v0), 0.0, 0.0, []
    while len(out) < count and t < t_max:
        if physical(m, t - t0)[0][1] < GAP <= physical(m, t + dt - t0)[0][1]:
            lo, hi = t, t + dt
            for _ in range(60):
                mid = 0.5 * (lo + hi)
                lo, hi = (mid, hi) if physical(m, mid - t0)[0][1] < GAP else (lo, mid)
            q, v = physical(m, hi - t0)
            out.append((hi, q, v))
            m, t0, t = modal(q, (v[0], -v[1])), hi, hi + 1e-9
        else:
            t += dt
    return out


def symmetric_impact_velocity(energy, theta, k):
    u = (math.cos(theta), math.sin(theta))
    s = math.sqrt(2 * energy / (2 * u[0] ** 2 - 2 * u[0] * u[1] + u[1] ** 2))
    q = (s * u[0], s * u[1])
    if q[1] >= GAP:
        return None
    found = impacts(q, (0.0, 0.0), k + 1)
    if len(found) < k + 1:
        return None
    return found[k][2][0], found[k][0], q, found[0][2][0]


def impact_to_impact(energy, q1, k):
    """From a symmetric impact (q2 = g, v1 = 0, v2 from E, leaving the stop): v1 at the (k+1)-th
    impact after it, and that impact's time and q1."""
    potential = 0.5 * (2 * q1 * q1 - 2 * q1 * GAP + GAP * GAP)
    if potential >= energy:
        return None
    v2 = -math.sqrt(2 * (energy - potential))
    found = impacts((q1, GAP - 1e-12), (0.0, v2), k + 1)
    if len(found) < k + 1:
        return None
    return found[k][2][0], found[k][0], found[k][1][0]


def scan_impact_to_impact(energy, k, n):
    """Orbits between two symmetric impacts with k impacts between: 2k + 2 impacts a period."""
    reach = math.sqrt(2 * energy)  # |q1| bound for the potential at q2 = g
    previous = None
    for j in range(n + 1):
        q1 = -reach + 2 * reach * j / n
        r = impact_to_impact(energy, q1, k)
        if r and previous and (r[0] > 0) != (previous[1][0] > 0) and abs(r[1] - previous[1][1]) < 0.5:
            lo, hi, sign = previous[0], q1, previous[1][0] > 0
            for _ in range(50):
                mid = 0.5 * (lo + hi)
                rm = impact_to_impact(energy, mid, k)
                if rm is None:
                    break
                lo, hi = (mid, hi) if (rm[0] > 0) == sign else (lo, mid)
            q = 0.5 * (lo + hi)
            rm = impact_to_impact(energy, q, k)
            if rm and abs(rm[0]) < 1e-6 and abs(rm[2] - q) > 1e-4:  # not a cover of a one-impact orbit
                print(f"E = {energy}: symmetric impact u1 = {q:.10f}, u2 = {GAP}, v2 = "
                      f"{-math.sqrt(2 * (energy - 0.5 * (2 * q * q - 2 * q * GAP + GAP * GAP))):.10f}, "
                      f"T = {2 * rm[1]:.8f}, omega = {math.pi / rm[1]:.6f}, {2 * k + 2} impacts a period")
        previous = (q1, r) if r else None


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "impacts":
        energy = float(sys.argv[2])
        scan_impact_to_impact(energy, int(sys.argv[3]) if len(sys.argv) > 3 else 0,
                              int(sys.argv[4]) if len(sys.argv) > 4 else 720)
        return
    energy = float(sys.argv[1])
    k = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 720
    previous = None
    for j in range(n + 1):
        theta = 2 * math.pi * j / n
        r = symmetric_impact_velocity(energy, theta, k)
        if r and previous and (r[0] > 0) != (previous[1][0] > 0) and abs(r[1] - previous[1][1]) < 0.5:
            lo, hi, sign = previous[0], theta, previous[1][0] > 0
            for _ in range(50):
                mid = 0.5 * (lo + hi)
                rm = symmetric_impact_velocity(energy, mid, k)
                if rm is None:
                    break
                lo, hi = (mid, hi) if (rm[0] > 0) == sign else (lo, mid)
            rm = symmetric_impact_velocity(energy, 0.5 * (lo + hi), k)
            if rm and abs(rm[0]) < 1e-6 and abs(rm[3]) > 1e-3:
                print(f"E = {energy}: brake point u1 = {rm[2][0]:.10f}, u2 = {rm[2][1]:.10f}, "
                      f"T = {2 * rm[1]:.8f}, omega = {math.pi / rm[1]:.6f}, {2 * k + 1} impacts a period")
        previous = (theta, r) if r else None


if __name__ == "__main__":
    main()
