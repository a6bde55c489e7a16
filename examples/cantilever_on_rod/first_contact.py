#!/usr/bin/env python3
"""The first contact phase of a run: python3 first_contact.py OUT [LABEL]
Reads OUT/events.csv and OUT/history.csv of `vibroimpact simulate` and prints one markdown row:
impact (ms), first separation (ms), duration (us), the episode's impulse (N s), the largest
force_tip row inside it (N) and its time (ms), impacts by 7.8 ms."""
import csv
import sys

out = sys.argv[1]
label = sys.argv[2] if len(sys.argv) > 2 else out
events = list(csv.DictReader(open(out + "/events.csv")))
impacts = [e for e in events if e["kind"] == "impact"]
separations = [e for e in events if e["kind"] == "separation"]
t0 = float(impacts[0]["time"])
t1 = float(separations[0]["time"]) if separations else float("nan")
rows = list(csv.DictReader(open(out + "/history.csv")))
inside = [(float(r["force_tip"]), float(r["time"])) for r in rows if t0 <= float(r["time"]) <= t1]
peak = max(inside) if inside else (float("nan"), float("nan"))
count = sum(1 for e in impacts if float(e["time"]) <= 0.0078)
print(f"| {label} | {t0*1e3:.9f} | {t1*1e3:.6f} | {(t1-t0)*1e6:.3f} | {float(impacts[0]['impulse']):.5f} "
      f"| {peak[0]:.0f} | {peak[1]*1e3:.5f} | {count} |")
