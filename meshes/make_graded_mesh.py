#!/usr/bin/env python3
"""Writes a 1D gmsh (format 2.2) mesh of [0, L] graded towards a point, for deal.II's GridIn.

Element size grows linearly with the distance from the point:
h(x) = h_min + rate * |x - x_c|.

  python3 meshes/make_graded_mesh.py 1.0 0.4 0.005 0.15 > meshes/unit_beam_graded_x0.4.msh
"""
import sys


def nodes(length, centre, h_min, rate):
    def walk(start, stop):
        xs, x = [start], start
        direction = 1 if stop > start else -1
        while abs(stop - x) > 1e-12:
            h = h_min + rate * abs(x - centre)
            x = x + direction * min(h, abs(stop - x))
            # avoid a sliver at the end
            if abs(stop - x) < 0.3 * (h_min + rate * abs(x - centre)):
                x = stop
            xs.append(x)
        return xs

    left = walk(centre, 0.0)[::-1]
    right = walk(centre, length)
    return left + right[1:]


def main():
    length, centre, h_min, rate = (float(a) for a in sys.argv[1:5])
    xs = nodes(length, centre, h_min, rate)
    print("$MeshFormat\n2.2 0 8\n$EndMeshFormat")
    print("$Nodes\n%d" % len(xs))
    for i, x in enumerate(xs, start=1):
        print("%d %.17g 0 0" % (i, x))
    print("$EndNodes\n$Elements\n%d" % (len(xs) - 1))
    for i in range(1, len(xs)):
        print("%d 1 2 0 1 %d %d" % (i, i, i + 1))
    print("$EndElements")


if __name__ == "__main__":
    main()
