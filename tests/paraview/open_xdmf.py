# Opens HDF5 runs' solution.xdmf with each of ParaView's XDMF readers (run by pvpython) and checks
# it against the same run's .pvd: the same time steps, and at every step
# the same points, cells and point arrays (values as in the .vtu: deal.II's writer keeps single
# precision), with `body` a cell array (VTK's .vtu: a cell array; deal.II's: a point array).
#
#   pvpython open_xdmf.py <solution.xdmf> <solution.pvd> [<solution.xdmf> <solution.pvd> ...]
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import numpy
import paraview.simple as simple
from vtkmodules.util.numpy_support import vtk_to_numpy
from vtkmodules.vtkIOXML import vtkXMLUnstructuredGridReader

# ParaView's own reader objects: the one ParaView picks for .xdmf, then every XDMF reader it has.
READERS = [("default", lambda path: simple.OpenDataFile(path))]
for name, files in (("Xdmf3ReaderS", "FileName"), ("Xdmf3ReaderT", "FileName"), ("XDMFReader", "FileNames")):
    if hasattr(simple, name):
        READERS.append((name, lambda path, name=name, files=files: getattr(simple, name)(**{files: [path]})))


def arrays(attributes):
    return {attributes.GetArrayName(i): vtk_to_numpy(attributes.GetArray(i)) for i in range(attributes.GetNumberOfArrays())}


def check_pair(xdmf, pvd):
    problems = []
    frames = [(float(d.get("timestep")), Path(pvd).parent / d.get("file"))
              for d in ElementTree.parse(pvd).getroot().iter("DataSet")]
    if not frames:
        return ["the .pvd lists no frames"]
    for label, open_reader in READERS:
        reader = open_reader(xdmf)
        offered = list(reader.TimestepValues) if hasattr(reader.TimestepValues, "__len__") else [reader.TimestepValues]
        listed = [time for time, _ in frames]
        if offered != listed:
            k = next((k for k, (a, b) in enumerate(zip(offered, listed)) if a != b), min(len(offered), len(listed)))
            problems.append("%s: %d time steps, the .pvd %d; step %d at %r, the .pvd's %r" % (
                label, len(offered), len(listed), k, offered[k] if k < len(offered) else None,
                listed[k] if k < len(listed) else None))
            simple.Delete(reader)
            continue
        for time, vtu in frames:
            reader.UpdatePipeline(time)
            # The reader's own output at this time (a builtin session: no Fetch, no reduction).
            got = reader.GetClientSideObject().GetOutputDataObject(0)
            drawn = vtkXMLUnstructuredGridReader()
            drawn.SetFileName(str(vtu))
            drawn.Update()
            want = drawn.GetOutput()
            where = "%s at t = %g (%s)" % (label, time, vtu.name)
            stamp = want.GetFieldData().GetArray("TimeValue")
            if stamp is None or stamp.GetComponent(0, 0) != time:
                problems.append("%s: the .vtu's TimeValue is not the .pvd's time" % where)
            if (got.GetNumberOfPoints(), got.GetNumberOfCells()) != (want.GetNumberOfPoints(), want.GetNumberOfCells()):
                problems.append("%s: %d points, %d cells; the .vtu %d, %d" % (where, got.GetNumberOfPoints(),
                                got.GetNumberOfCells(), want.GetNumberOfPoints(), want.GetNumberOfCells()))
                continue
            want_points = vtk_to_numpy(want.GetPoints().GetData())
            if not numpy.array_equal(vtk_to_numpy(got.GetPoints().GetData()).astype(want_points.dtype), want_points):
                problems.append("%s: points differ" % where)
            got_point, want_point = arrays(got.GetPointData()), arrays(want.GetPointData())
            if set(got_point) != set(want_point) - {"body"}:
                problems.append("%s: point arrays %s, the .vtu's %s" % (where, sorted(got_point), sorted(want_point)))
            for name in set(got_point) & set(want_point):
                if not numpy.array_equal(got_point[name].astype(want_point[name].dtype), want_point[name]):
                    problems.append("%s: %s differs from the .vtu's" % (where, name))
            body = arrays(got.GetCellData()).get("body")
            if body is None:
                problems.append("%s: no cell array body" % where)
            elif "body" in want_point:  # deal.II's .vtu: body at every point of the cell
                cells = vtk_to_numpy(got.GetCells().GetConnectivityArray())
                offsets = vtk_to_numpy(got.GetCells().GetOffsetsArray())
                at_points = [set(want_point["body"][cells[offsets[c]:offsets[c + 1]]]) for c in range(len(body))]
                if any(values != {body[c]} for c, values in enumerate(at_points)):
                    problems.append("%s: body differs from the .vtu's" % where)
            elif not numpy.array_equal(body, arrays(want.GetCellData()).get("body")):
                problems.append("%s: body differs from the .vtu's" % where)
        simple.Delete(reader)
    return problems


failures = 0
for xdmf, pvd in zip(sys.argv[1::2], sys.argv[2::2]):
    problems = check_pair(xdmf, pvd)
    print("%s: %s" % (xdmf, "; ".join(problems[:5]) if problems else
                      "%d readers, the .pvd's time steps, points, cells and arrays" % len(READERS)))
    failures += bool(problems)
sys.exit(1 if failures or len(sys.argv) < 3 else 0)
