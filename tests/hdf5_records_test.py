#!/usr/bin/python3
# Simulation/Output format = hdf5 (issue 26 §2): records.h5 read back by h5py holds every column
# of history.csv, events.csv and statistics.csv under the same names with the same doubles, and
# solution.xdmf lists the .pvd's frames (same times) with the same point arrays as the .vtu files.
#
#   hdf5_records_test.py <vibroimpact> <case.prm> <work dir>
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import h5py
import numpy
import vtk
from vtk.util.numpy_support import vtk_to_numpy

program, case, work = sys.argv[1], sys.argv[2], Path(sys.argv[3])
shutil.rmtree(work, ignore_errors=True)
# 15 ms of the six-support tube: 1500 rows, the first impacts (at 9 ms), six frames.
short = ["-s", "Simulation/Final time=0.015", "-s", "Simulation/Frame interval=3e-3"]
for fmt in ("csv", "hdf5"):
    subprocess.run([program, "simulate", case, "-q", "-o", str(work / fmt), "-s", f"Simulation/Output format={fmt}"]
                   + short, check=True)
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)


def read_csv(path):
    lines = path.read_text().splitlines()
    names = lines[0].split(",")
    cells = [line.split(",") for line in lines[1:]]
    return names, [[row[c] for row in cells] for c in range(len(names))]


def same_column(stored, cells, where):
    if stored.dtype.kind in "OSU":
        text = [v.decode() if isinstance(v, bytes) else v for v in stored[()]]
        check(text == cells, f"{where}: text differs")
    else:
        expected = numpy.array([float(c) if c else numpy.nan for c in cells])
        check(stored.shape == expected.shape, f"{where}: {stored.shape} rows, CSV {expected.shape}")
        if stored.shape == expected.shape:
            check(numpy.array_equal(stored[()], expected, equal_nan=True), f"{where}: numbers differ")


with h5py.File(work / "hdf5" / "records.h5", "r") as records:
    for table in ("history", "events", "statistics"):
        names, columns = read_csv(work / "csv" / f"{table}.csv")
        check(sorted(records[table].keys()) == sorted(names), f"{table}: datasets {sorted(records[table].keys())}")
        for name, cells in zip(names, columns):
            if name in records[table]:
                dataset = records[table][name]
                same_column(dataset, cells, f"{table}/{name}")
                check(dataset.compression == "gzip" and dataset.chunks is not None, f"{table}/{name}: not compressed")
    check(records["history"]["time"].shape[0] > 100, "history has too few rows to mean anything")
    check(records["events"]["time"].shape[0] > 0, "no events: the comparison needs impacts")

# The frames: the .xdmf's times are the .pvd's, its arrays the .vtu's.
pvd = ElementTree.parse(work / "csv" / "solution.pvd").getroot().iter("DataSet")
pvd = [(float(d.get("timestep")), d.get("file")) for d in pvd]
xdmf = ElementTree.parse(work / "hdf5" / "solution.xdmf").getroot()
grids = xdmf.find("Domain").find("Grid").findall("Grid")
check(len(grids) == len(pvd) == 6, f"{len(grids)} XDMF frames, {len(pvd)} in the .pvd")
with h5py.File(work / "hdf5" / "solution.h5", "r") as frames:
    for grid, (time, vtu) in zip(grids, pvd):
        check(float(grid.find("Time").get("Value")) == time, f"frame time {grid.find('Time').get('Value')} != {time}")
        reader = vtk.vtkXMLUnstructuredGridReader()
        reader.SetFileName(str(work / "csv" / vtu))
        reader.Update()
        points = reader.GetOutput().GetPointData()
        names = {points.GetArrayName(i) for i in range(points.GetNumberOfArrays())}
        attributes = {a.get("Name"): a for a in grid.findall("Attribute") if a.get("Center") == "Node"}
        check(set(attributes) == names, f"{vtu}: arrays {sorted(names)}, XDMF {sorted(attributes)}")
        for name, attribute in attributes.items():
            path = attribute.find("DataItem").text.split(":", 1)[1]
            stored = frames[path][()]
            expected = vtk_to_numpy(points.GetArray(name)).reshape(stored.shape)
            check(numpy.array_equal(stored, expected), f"{vtu}/{name}: values differ from {path}")
        geometry = grid.find("Geometry").find("DataItem").text.split(":", 1)[1]
        # vtkPoints keeps single precision: the .vtu's points are the .h5's doubles rounded.
        drawn = vtk_to_numpy(reader.GetOutput().GetPoints().GetData())
        check(numpy.array_equal(frames[geometry][()].astype(drawn.dtype), drawn), f"{vtu}: points differ")

for failure in failures:
    print("FAIL:", failure)
print(f"{len(failures)} failures")
sys.exit(1 if failures else 0)
