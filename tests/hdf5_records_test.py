#!/usr/bin/python3
# Simulation/Output format = hdf5: records.h5 read back by h5py holds every column
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
# 15 ms of a six-support case: 1500 rows, the first impacts (at 8-9 ms), six frames.
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
    tables = ["history", "events", "statistics"] + (["wear_sectors"] if (work / "csv" / "wear_sectors.csv").exists() else [])
    for table in tables:
        names, columns = read_csv(work / "csv" / f"{table}.csv")
        check(sorted(records[table].keys()) == sorted(names), f"{table}: datasets {sorted(records[table].keys())}")
        for name, cells in zip(names, columns):
            if name in records[table]:
                dataset = records[table][name]
                same_column(dataset, cells, f"{table}/{name}")
                check(dataset.compression == "gzip" and dataset.chunks is not None, f"{table}/{name}: not compressed")
    check(records["history"]["time"].shape[0] > 100, "history has too few rows to mean anything")
    check(records["events"]["time"].shape[0] > 0, "no events: the comparison needs impacts")

# The frames: the .xdmf's times are the .pvd's, its arrays the .vtu's. The .vtu files come from
# VTK's writer (doubles, `body` a cell array) or, in a build without VTK (beside Debian's
# ParaView), from deal.II's (single precision, `body` a point array): `--version` says which.
dealii_writer = "DataOutBase" in subprocess.run([program, "--version"], capture_output=True, text=True,
                                                check=True).stdout
precision = numpy.float32 if dealii_writer else numpy.float64
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
        check(set(attributes) == names - ({"body"} if dealii_writer else set()),
              f"{vtu}: arrays {sorted(names)}, XDMF {sorted(attributes)}")
        for name, attribute in attributes.items():
            path = attribute.find("DataItem").text.split(":", 1)[1]
            stored = frames[path][()]
            if name not in names:
                continue
            expected = vtk_to_numpy(points.GetArray(name)).reshape(stored.shape)
            check(expected.dtype == precision, f"{vtu}/{name}: {expected.dtype}, this writer writes {precision}")
            # deal.II's .vtu holds the .h5's doubles rounded to single precision.
            check(numpy.array_equal(stored.astype(expected.dtype), expected), f"{vtu}/{name}: values differ from {path}")
        # `body`: an XDMF cell attribute; in the .vtu a cell array (VTK) or the value at each
        # segment's two points (deal.II).
        cell_body = [a for a in grid.findall("Attribute") if a.get("Name") == "body" and a.get("Center") == "Cell"]
        check(len(cell_body) == 1, f"frame at {time}: no cell attribute body in the XDMF")
        if cell_body:
            body = frames[cell_body[0].find("DataItem").text.split(":", 1)[1]][()]
            if dealii_writer and "body" not in names:
                check(False, f"{vtu}: no point array body")
            elif dealii_writer:
                segments = frames[grid.find("Topology").find("DataItem").text.split(":", 1)[1]][()]
                drawn_body = vtk_to_numpy(points.GetArray("body"))
                check(numpy.array_equal(drawn_body[segments[:, 0]], body) and
                      numpy.array_equal(drawn_body[segments[:, 1]], body), f"{vtu}/body: differs from the XDMF's")
            else:
                cells = reader.GetOutput().GetCellData().GetArray("body")
                check(cells is not None and numpy.array_equal(vtk_to_numpy(cells)[:len(body)], body),
                      f"{vtu}/body: differs from the XDMF's")
        geometry = grid.find("Geometry").find("DataItem").text.split(":", 1)[1]
        # vtkPoints keeps single precision: the .vtu's points are the .h5's doubles rounded.
        drawn = vtk_to_numpy(reader.GetOutput().GetPoints().GetData())
        check(numpy.array_equal(frames[geometry][()].astype(drawn.dtype), drawn), f"{vtu}: points differ")

for failure in failures:
    print("FAIL:", failure)
print(f"{len(failures)} failures")
sys.exit(1 if failures else 0)
