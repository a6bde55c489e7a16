# Opens .pvd records with ParaView's reader (run by pvpython): every time step the record lists is
# one ParaView offers, and each loads with points, cells and point arrays (the files of
# either VTU writer open in ParaView).
import sys
import xml.etree.ElementTree as ElementTree

from paraview import servermanager
from paraview.simple import Delete, OpenDataFile

failures = 0
for path in sys.argv[1:]:
    listed = sorted(float(d.get("timestep")) for d in ElementTree.parse(path).getroot().iter("DataSet"))
    reader = OpenDataFile(path)
    offered = reader.TimestepValues
    offered = sorted(offered) if isinstance(offered, (list, tuple)) or hasattr(offered, "__len__") else [offered]
    problems = []
    if len(offered) != len(listed) or any(abs(a - b) > 1e-12 * max(1.0, abs(b)) for a, b in zip(offered, listed)):
        problems.append("times %s, the record lists %s" % (offered[:5], listed[:5]))
    for time in listed:
        reader.UpdatePipeline(time)
        data = servermanager.Fetch(reader)
        if data.GetNumberOfPoints() == 0 or data.GetNumberOfCells() == 0:
            problems.append("no points or cells at t = %g" % time)
        elif data.GetPointData().GetNumberOfArrays() == 0:
            problems.append("no point arrays at t = %g" % time)
    Delete(reader)
    print("%s: %s" % (path, "; ".join(problems) if problems else "%d time steps open" % len(listed)))
    failures += bool(problems)
sys.exit(1 if failures else 0)
