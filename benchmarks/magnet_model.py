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

* with ``--tactile``, a board for blind players (docs/accessibility.md): the dark squares
  raised, a hole in each, a peg under each piece. For a magnet in the piece's base and
  for one in the tip of its peg, and for each disc size that fits there, it gives the
  drive of a piece, a king (two stacked) and the worst column (pieces either way up),
  of a king and of a column on the nearest dark square, of a piece lifted until its
  peg leaves the hole, and which is the smallest magnet that works.

    .venv/bin/python -m benchmarks.magnet_model [--br 1.2]
    .venv/bin/python -m benchmarks.magnet_model --tactile [--raised 3] [--peg 5] [--top 5]
        [--cover 1] [--piece 8] [--peg-diameter 4] [--column 12] [--square 40]

Br = 1.2 T is N35 (the weakest common grade); N42 is about 1.3 T (fields and drive scale
with Br, forces with Br squared). The last line is JSON for scripts.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
from dataclasses import dataclass

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


def signed_drive(magnet, depth: float, offset: float) -> float:
    """Potential difference (A) between the two ends of a flat reed ``depth`` below the
    magnet's face, its middle ``offset`` along its length from under the magnet's axis,
    with its sign: magnets on one reed add up with theirs (a turned-over one subtracts)."""
    half = REED_LENGTH / 2
    return (potential(magnet, offset - half, 0.0, -depth)
            - potential(magnet, offset + half, 0.0, -depth))


def reed_drive(magnet, depth: float, offset: float) -> float:
    """The drive (A, ampere-turns) of a reed: the size of :func:`signed_drive`."""
    return abs(signed_drive(magnet, depth, offset))


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


PULL_IN = (10.0, 25.0)  # AT: the pull-in range of a small glass reed (docs/building.md)
REED_RADIUS_MM = 1.0  # half the 2 mm glass: a peg's tip must stop above it
BASE_MAGNETS = (("6 x 2 mm", 6.0, 2.0), ("5 x 1 mm", 5.0, 1.0), ("4 x 1 mm", 4.0, 1.0),
                ("3 x 1 mm", 3.0, 1.0))
TIP_MAGNETS = (("4 x 4 mm", 4.0, 4.0), ("3 x 3 mm", 3.0, 3.0), ("3 x 2 mm", 3.0, 2.0),
               ("3 x 1 mm", 3.0, 1.0), ("2 x 2 mm", 2.0, 2.0), ("2 x 1 mm", 2.0, 1.0))
PLACES = ("base", "tip")


@dataclass(frozen=True)
class Tactile:
    """A tactile board and its pieces, in millimetres, as a builder measures them.

    The dark squares stand ``raised`` above the light ones, each with a hole in its
    centre; a piece's peg goes ``peg`` into the hole. The reed lies flat ``top`` below
    the light squares' surface (to its axis), one end under the square's centre. A
    magnet sits either in the piece's base (``cover`` of the piece under it) or in the
    tip of its peg (its face flush with the tip). Stacked pieces (a king, a column) put
    their magnets ``piece`` apart: the upper piece's peg goes into a hole in the lower
    one's top, as deep as the peg."""

    raised: float = 3.0
    peg: float = 5.0
    top: float = 5.0
    cover: float = 1.0
    piece: float = 8.0
    peg_diameter: float = 4.0
    column: int = 12
    square: float = 40.0

    def problem(self) -> str | None:
        """Why this board cannot be built as given (one line), or None."""
        for name in ("raised", "peg", "top", "cover"):
            if not 0 <= getattr(self, name) <= 50:
                return f"--{name} {getattr(self, name):g}: give 0 to 50 mm"
        if not 4 <= self.piece <= 100:  # a stack's magnets (up to 4 mm tall) must not overlap
            return f"--piece {self.piece:g}: give 4 to 100 mm"
        for name in ("peg_diameter", "square"):
            if not 0 < getattr(self, name) <= 100:
                flag = name.replace("_", "-")
                return f"--{flag} {getattr(self, name):g}: give more than 0, up to 100 mm"
        if not 1 <= self.column <= 24:
            return f"--column {self.column}: give 1 to 24 pieces"
        tip = self.top + self.raised - self.peg
        if tip < REED_RADIUS_MM:
            return (f"--peg {self.peg:g} reaches the reed: top {self.top:g} + raised "
                    f"{self.raised:g} - peg {self.peg:g} = {tip:g} mm, and the reed's glass "
                    f"needs {REED_RADIUS_MM:g} mm above its axis")
        return None

    def depth(self, place: str) -> float:
        """Metres from the reed's axis up to the lower face of a seated piece's magnet."""
        if place == "base":
            return (self.top + self.raised + self.cover) / 1000
        return (self.top + self.raised - self.peg) / 1000

    def magnets(self, place: str) -> tuple[tuple[str, float, float], ...]:
        """The discs (name, diameter, height in mm) that fit: any in the base; in the
        tip, one at least 1 mm narrower than the peg and no taller than it."""
        if place == "base":
            return BASE_MAGNETS
        return tuple(m for m in TIP_MAGNETS
                     if m[1] <= self.peg_diameter - 1 and m[2] <= self.peg)


def disc(diameter_mm: float, height_mm: float, br: float):
    """A disc magnet's dipoles, fine enough to agree with the exact field on its axis
    to 1.5 % at 2 mm from its face (layers no thicker than 0.5 mm)."""
    return dipoles(diameter_mm / 1000, height_mm / 1000, br,
                   layers=max(4, math.ceil(height_mm / 0.5)))


def worst_column(levels: list[float]) -> float:
    """The smallest drive (AT) of a column whose pieces' drives on the reed are
    ``levels`` (bottom first), each piece either way up: the bottom one counts as it
    is (a reed does not care which pole), each other one with either sign. Turning every
    upper piece against the bottom one gives ``|d1| - sum |di|``, the least there is when
    it is not negative; when it is, the signs are tried (up to 11 pieces), else 0: the
    column may cancel its own drive."""
    first, rest = abs(levels[0]), levels[1:]
    bound = first - sum(abs(d) for d in rest)
    if bound >= 0:
        return bound
    if len(rest) > 10:
        return 0.0
    return min(abs(first + sum(s * abs(d) for s, d in zip(signs, rest, strict=True)))
               for signs in itertools.product((1, -1), repeat=len(rest)))


@dataclass(frozen=True)
class Figures:
    """One magnet in one place on one tactile board: its drives on the reed (AT)."""

    name: str
    place: str
    seated: float  # one piece on its square
    king: float  # two pieces stacked, the same pole up
    column: float  # the worst column of 2..N pieces, each either way up
    next_king: float  # a king on the nearest dark square, the reed pointing at it
    next_column: float  # N pieces there: an upper bound (every piece's drive added)
    lifted: float  # one piece lifted until its peg leaves the hole
    push: float  # g-force: two magnets in a stack face to face (a piece turned over)

    def works(self, game: str, pull_in: tuple[float, float] = PULL_IN) -> bool:
        """For ``game`` "draughts" (pieces and kings) or "columns" (any column too): every
        reed of the pull-in range closes under its own square's pieces, and what stands
        on the nearest square stays under a tenth of the most sensitive reed's pull-in
        (its release, lower than its pull-in, is then not reached either)."""
        own = (self.seated, self.king) + ((self.column,) if game == "columns" else ())
        near = self.next_column if game == "columns" else self.next_king
        return min(own) >= pull_in[1] and near < pull_in[0] / 10

    def as_json(self) -> dict:
        return {"seated_AT": round(self.seated, 1), "king_AT": round(self.king, 1),
                "column_AT": round(self.column, 1), "next_king_AT": round(self.next_king, 3),
                "next_column_AT": round(self.next_column, 3),
                "lifted_AT": round(self.lifted, 1), "push_g": round(self.push, 2),
                "draughts": self.works("draughts"), "columns": self.works("columns")}


def figures(board: Tactile, place: str, name: str, diameter_mm: float, height_mm: float,
            br: float) -> Figures:
    """What one magnet does on ``board``, placed in the base or the peg's tip."""
    magnet = disc(diameter_mm, height_mm, br)
    depth, step, end = board.depth(place), board.piece / 1000, REED_LENGTH / 2
    stack = max(2, board.column)
    levels = [signed_drive(magnet, depth + i * step, end) for i in range(stack)]
    far = math.hypot(board.square, board.square) / 1000 - end  # the reed's middle
    nearby = [abs(signed_drive(magnet, depth + i * step, far)) for i in range(stack)]
    coarse = dipoles(diameter_mm / 1000, height_mm / 1000, br, rings=4, sectors=10, layers=2)
    return Figures(name, place, seated=abs(levels[0]), king=abs(levels[0] + levels[1]),
                   column=min(worst_column(levels[:n]) for n in range(2, stack + 1)),
                   next_king=sum(nearby[:2]), next_column=sum(nearby),
                   lifted=reed_drive(magnet, depth + board.peg / 1000, end),
                   push=repulsion(coarse, step) / G * 1000)


def choose(rows: list[Figures], game: str) -> Figures | None:
    """The smallest magnet (the lists run from big to small) that works for ``game``."""
    good = [row for row in rows if row.works(game)]
    return good[-1] if good else None


def tactile_report(board: Tactile, br: float) -> dict:
    print(f"tactile board: dark squares raised {board.raised:g} mm, pegs {board.peg:g} mm "
          f"into the holes, the reed's axis {board.top:g} mm under the light squares, "
          f"{board.square:g} mm squares, pieces {board.piece:g} mm high, columns up to "
          f"{board.column}; Br = {br} T")
    print(f"a reed closes at {PULL_IN[0]:g}-{PULL_IN[1]:g} AT; it lies flat, one end under "
          "the square's centre. Drives in AT: a piece, a king, the worst column; a king and "
          "a column on the nearest dark square; a piece lifted by its peg's length. "
          "The push of two magnets face to face in a stack, in g-force.")
    out: dict = {"board": {"raised_mm": board.raised, "peg_mm": board.peg,
                           "top_mm": board.top, "cover_mm": board.cover,
                           "piece_mm": board.piece, "peg_diameter_mm": board.peg_diameter,
                           "column": board.column, "square_mm": board.square, "br_T": br}}
    titles = {"base": f"magnet in the piece's base, {board.cover:g} mm of piece under it",
              "tip": "magnet in the peg's tip"}
    for place in PLACES:
        print(f"{titles[place]}: its face {board.depth(place) * 1000:g} mm above the "
              "reed's axis")
        rows = [figures(board, place, *magnet, br) for magnet in board.magnets(place)]
        if not rows:
            print(f"  no magnet fits a {board.peg_diameter:g} mm peg {board.peg:g} mm long")
        else:
            print("  magnet     piece   king  column | next: king  column | lifted   push"
                  " | draughts  columns")
        for row in rows:
            print(f"  {row.name:9s} {row.seated:6.1f} {row.king:6.1f} {row.column:7.1f} | "
                  f"{row.next_king:10.3f} {row.next_column:7.3f} | {row.lifted:6.1f} "
                  f"{row.push:6.2f} | {'yes' if row.works('draughts') else 'no':8s}  "
                  f"{'yes' if row.works('columns') else 'no'}")
        out[place] = {row.name.replace(" ", ""): row.as_json() for row in rows}
        for game in ("draughts", "columns"):
            best = choose(rows, game)
            print(f"  smallest that works for {game}: {best.name if best else 'none'}")
            out[f"{place}_{game}"] = best.name.replace(" ", "") if best else None
    return out


class OneLineParser(argparse.ArgumentParser):
    """Bad input is one line on stderr and exit 2, never a usage block."""

    def error(self, message: str):
        print(f"magnet_model.py: {message}", file=sys.stderr)
        raise SystemExit(2)


def standard_report(br: float) -> dict:
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
    return out


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(description=__doc__.splitlines()[0])
    parser.add_argument("--br", type=float, default=1.2, help="remanence, tesla")
    parser.add_argument("--tactile", action="store_true",
                        help="a board with raised dark squares and pegged pieces")
    defaults = Tactile()
    for name, help_text in (("raised", "mm the dark squares stand above the light ones"),
                            ("peg", "mm the peg goes into the hole"),
                            ("top", "mm from the light squares' surface to the reed's axis"),
                            ("cover", "mm of piece under a magnet in its base"),
                            ("piece", "mm a piece is high"),
                            ("peg-diameter", "mm across the peg"),
                            ("square", "mm a square's side")):
        key = name.replace("-", "_")
        parser.add_argument(f"--{name}", type=float, default=None,
                            help=f"{help_text} (default {getattr(defaults, key):g})")
    parser.add_argument("--column", type=int, default=None,
                        help=f"the tallest column to check (default {defaults.column})")
    args = parser.parse_args(argv)
    given = {key: value for key, value in vars(args).items()
             if key not in ("br", "tactile") and value is not None}
    if given and not args.tactile:
        parser.error(f"--{next(iter(given)).replace('_', '-')} describes a tactile board: "
                     "give --tactile too")
    if not 0 < args.br <= 2:
        parser.error(f"--br {args.br:g}: give a remanence above 0, up to 2 T")
    if args.tactile:
        board = Tactile(**given)
        problem = board.problem()
        if problem:
            parser.error(problem)
        out = tactile_report(board, args.br)
    else:
        out = standard_report(args.br)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
