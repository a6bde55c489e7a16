#!/usr/bin/env python3
"""How much of a forced response's frequency range its branches trace, and where the gaps are.

    vibroimpact continue case.prm -o up -s 'Continuation/Maximum points=3000' -s 'Continuation/Restarts=100'
    vibroimpact continue case.prm -o down -s 'Continuation/Direction=down' -s 'Continuation/Maximum points=3000' \\
        -s 'Continuation/Restarts=100'
    python3 coverage.py up down            # the union of both runs' continued steps over 4.935 - 14.80 rad/s
    python3 coverage.py --breaks up down   # and each run's breaks: how they end, what traces them

A frequency counts as traced when a continued step of some branch (two consecutive points of one
stretch: the second not `restarted`) spans it; a restart's break spans nothing. Prints, per
folder, its points, restarts and `jumped` marks (and how many kept steps are marked `jumped`
without being restarts: none, since such steps are refused), then the union's share of the range
and its gaps. --range LO HI changes the range. --breaks: per folder, its breaks (each restart: the
frequencies between the point before it and the restart's first orbit) by how the stretch before
them ended (a located `grazing` or `chatter-sticking` on either side of the break, else `not
located`: LOCA failed where no change of contacts was found) and by what traces them (that run's
other stretches, the other folders', or nothing: listed).
"""
import argparse
import csv
import os


def continued_steps(folder):
    with open(os.path.join(folder, "branch.csv")) as f:
        rows = list(csv.DictReader(f))
    steps = [(min(float(a["frequency"]), float(b["frequency"])), max(float(a["frequency"]), float(b["frequency"])))
             for a, b in zip(rows, rows[1:]) if b["restarted"] != "1"]
    return rows, steps


def gaps_in(steps, lo, hi):
    gaps, reached = [], lo
    for a, b in sorted(steps):
        if b <= reached:
            continue
        if a > reached:
            gaps.append((reached, min(a, hi)))
        reached = max(reached, b)
        if reached >= hi:
            break
    if reached < hi:
        gaps.append((reached, hi))
    return [(a, b) for a, b in gaps if a < b]


def print_breaks(folder, rows, steps, union):
    kinds, own, other, left = {}, 0, 0, []
    for before, after in zip(rows, rows[1:]):
        if after["restarted"] != "1":
            continue
        a, b = sorted((float(before["frequency"]), float(after["frequency"])))
        kind = before["special"] or after["special"] or "not located"
        kinds[kind] = kinds.get(kind, 0) + 1
        if not gaps_in(steps, a, b):
            own += 1
        elif not gaps_in(union, a, b):
            other += 1
        else:
            left.append((a, b, kind, sum(y - x for x, y in gaps_in(union, a, b))))
    print(f"{folder}: {sum(kinds.values())} breaks, ending at " + ", ".join(f"{n} {k}" for k, n in sorted(kinds.items()))
          + f"; traced by its own stretches {own}, by the other folders' {other}, untraced {len(left)}")
    for a, b, kind, width in left:
        print(f"    {a:.6f} - {b:.6f} ({kind}): {width:.2e} rad/s untraced")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+")
    parser.add_argument("--range", nargs=2, type=float, default=(4.935, 14.80), metavar=("LO", "HI"))
    parser.add_argument("--breaks", action="store_true", help="each run's breaks, how they end, what traces them")
    args = parser.parse_args()
    lo, hi = args.range
    union, runs = [], []
    for folder in args.folders:
        rows, steps = continued_steps(folder)
        union += steps
        runs.append((folder, rows, steps))
        marked = sum(r["jumped"] == "1" and r["restarted"] != "1" for r in rows)
        print(f"{folder}: {len(rows)} points, {sum(r['restarted'] == '1' for r in rows)} restarts, "
              f"{sum(r['jumped'] == '1' for r in rows)} jumped ({marked} kept steps marked jumped)")
    gaps = gaps_in(union, lo, hi)
    share = 1 - sum(b - a for a, b in gaps) / (hi - lo)
    print(f"traced {100 * share:.1f} % of {lo} - {hi}; gaps: " + ", ".join(f"{a:.3f} - {b:.3f}" for a, b in gaps))
    if args.breaks:
        for folder, rows, steps in runs:
            print_breaks(folder, rows, steps, union)


if __name__ == "__main__":
    main()
