"""The magnet and reed numbers of docs/building.md, worked out from a model, not copied.

A disc magnet magnetised along its axis is a uniformly magnetised cylinder: its field
outside equals that of many small dipoles filling its volume (each ``M dV``, with
``M = Br / mu0``). From that model this script computes:

* the field on the magnet's axis at a distance below its face (the exact closed form of
  a cylinder, as a check of the dipole sum);
* the drive of a reed: the magnetic potential difference between the two ends of its
  blades (ampere-turns, the unit reed makers rate pull-in in), for the reed's middle
  under the magnet and for one end under it. A reed lying flat under the magnet's
  centre sees the same potential at both ends: a drive of zero, whatever the magnet;
* the field at the nearest dark square of the neighbour (two 40 mm squares diagonally,
  56.6 mm away): what a neighbouring piece adds to a reed;
* the force between two pieces stacked in a column game, one of them turned over (an
  officer): two magnets face each other with the same pole and push apart.

    .venv/bin/python benchmarks/magnet_model.py [--br 1.2]

Br = 1.2 T is N35 (the weakest common grade); N42 is about 1.3 T (fields and drive scale
with Br, forces with Br squared). The last line is JSON for scripts.
"""

from __future__ import annotations

import argparse
import json
import math

MU0 = 4e-7 * math.pi
REED_LENGTH = 0.014  # m: a 2 x 14 mm glass reed; its blades end near the glass ends
SQUARE = 0.040  # m: the side of a square of a tournament board
G = 9.81


def dipoles(diameter: float, height: float, br: float, rings: int = 6, sectors: int = 16,
            layers: int = 4) -> list[tuple[float, float, float, float]]:
    """(x, y, z, moment) of the small dipoles filling a disc magnet whose lower face is at
    z = 0 (z up), each moment along +z."""
    radius = diameter / 2
    magnetisation = br / MU0
    points = []
    for i in range(rings):
        r_in, r_out = radius * i / rings, radius * (i + 1) / rings
        r = (r_in + r_out) / 2
        area = math.pi * (r_out ** 2 - r_in ** 2) / sectors
        for k in range(sectors):
            angle = 2 * math.pi * (k + 0.5) / sectors
            for j in range(layers):
                z = height * (j + 0.5) / layers
                volume = area * height / layers
                points.append((r * math.cos(angle), r * math.sin(angle), z,
                               magnetisation * volume))
    return points


def potential(magnet, x: float, y: float, z: float) -> float:
    """Magnetic scalar potential (A) at a point, from every dipole of the magnet."""
    total = 0.0
    for px, py, pz, m in magnet:
        dx, dy, dz = x - px, y - py, z - pz
        r2 = dx * dx + dy * dy + dz * dz
        total += m * dz / (4 * math.pi * r2 ** 1.5)
    return total


def field(magnet, x: float, y: float, z: float) -> tuple[float, float, float]:
    """Flux density (T) at a point outside the magnet."""
    bx = by = bz = 0.0
    for px, py, pz, m in magnet:
        dx, dy, dz = x - px, y - py, z - pz
        r2 = dx * dx + dy * dy + dz * dz
        r5 = r2 ** 2.5
        k = MU0 * m / (4 * math.pi)
        bx += k * 3 * dz * dx / r5
        by += k * 3 * dz * dy / r5
        bz += k * (3 * dz * dz - r2) / r5
    return bx, by, bz


def axis_field_exact(diameter: float, height: float, br: float, distance: float) -> float:
    """Field on the axis of a cylinder magnet, ``distance`` from its face (closed form)."""
    r = diameter / 2
    far = distance + height
    return br / 2 * (far / math.hypot(r, far) - distance / math.hypot(r, distance))


def reed_drive(magnet, depth: float, offset: float) -> float:
    """Potential difference (A) between the two ends of a flat reed ``depth`` below the
    magnet's face, its middle ``offset`` along its length from under the magnet's axis."""
    half = REED_LENGTH / 2
    return abs(potential(magnet, offset - half, 0.0, -depth)
               - potential(magnet, offset + half, 0.0, -depth))


def repulsion(magnet, centres: float) -> float:
    """Upward force (N) on a copy of ``magnet`` turned over (moments along -z), centred on
    the same axis ``centres`` above it: the sum over every pair of small dipoles of
    F2z = 3 mu0 m1 m2 / (4 pi r^5) * (3 dz - 5 dz^3 / r^2)."""
    force = 0.0
    for x1, y1, z1, m1 in magnet:
        for x2, y2, z2, m2 in magnet:
            dx, dy, dz = x2 - x1, y2 - y1, z2 + centres - z1
            r2 = dx * dx + dy * dy + dz * dz
            force += (3 * MU0 * m1 * -m2 / (4 * math.pi * r2 ** 2.5)) * (3 * dz - 5 * dz ** 3 / r2)
    return force


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--br", type=float, default=1.2, help="remanence, tesla")
    args = parser.parse_args()
    br = args.br
    disc = dipoles(0.006, 0.002, br)
    out: dict = {}
    print(f"6 x 2 mm disc magnet, Br = {br} T")
    print("field on its axis, below its face:")
    for mm in (5, 8, 10, 12, 15):
        exact = axis_field_exact(0.006, 0.002, br, mm / 1000) * 1000
        summed = field(disc, 0, 0, -mm / 1000)[2] * 1000
        out[f"axis_mT_{mm}mm"] = round(exact, 1)
        print(f"  {mm:2d} mm: {exact:5.1f} mT (dipole sum {summed:5.1f} mT)")
    print("reed drive, ampere-turns between the ends of a flat 14 mm reed:")
    print("  depth   middle under the magnet   one end under the magnet")
    for mm in (5, 6, 8, 10, 12):
        centre = reed_drive(disc, mm / 1000, 0.0)
        end = reed_drive(disc, mm / 1000, REED_LENGTH / 2)
        out[f"drive_end_AT_{mm}mm"] = round(end, 1)
        print(f"  {mm:2d} mm  {centre:14.1f} AT {end:22.1f} AT")
    neighbour = math.hypot(SQUARE, SQUARE)
    b = field(disc, neighbour, 0.0, -0.008)
    neighbour_mt = math.sqrt(sum(c * c for c in b)) * 1000
    out["neighbour_mT"] = round(neighbour_mt, 3)
    print(f"field at the nearest dark square, {neighbour * 1000:.1f} mm away, 8 mm down: "
          f"{neighbour_mt:.3f} mT")
    print("column games: a turned-over piece on another, magnets face to face:")
    for name, diameter, height in (("6 x 2 mm", 0.006, 0.002), ("5 x 1 mm", 0.005, 0.001),
                                   ("4 x 1 mm", 0.004, 0.001), ("3 x 1 mm", 0.003, 0.001)):
        magnet = dipoles(diameter, height, br, rings=4, sectors=10, layers=2)
        for gap_mm in (6, 8):
            grams = repulsion(magnet, gap_mm / 1000) / G * 1000
            out[f"push_g_{name.replace(' ', '')}_{gap_mm}mm"] = round(grams, 1)
            line = f"  {name}, centres {gap_mm} mm apart: pushes with {grams:5.1f} g-force"
            if gap_mm == 8:
                drive = reed_drive(magnet, 0.005, REED_LENGTH / 2)
                line += f"; drive of one end at 5 mm: {drive:5.1f} AT"
                out[f"drive_end_AT_{name.replace(' ', '')}_5mm"] = round(drive, 1)
            print(line)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
