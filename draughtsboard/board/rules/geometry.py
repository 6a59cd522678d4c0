"""Board geometry as data: size, square numbering, algebraic names and diagonal rays.

Every board here has a dark square in White's lower-left corner (a1) and is played on the
dark squares only. Squares are addressed three ways:

* the variant's **number** (Russian and international: row by row from White's top left,
  1 = b8 or b10; Lasca boards: row by row from a1, 1 = a1);
* the **algebraic name** (``a1`` ... ``h8``), file and rank from White's side;
* the engine's **bit index** ``rank * (size + 1) + file``: a full grid with one spare
  column, so that every diagonal step is a fixed shift (+size+2, +size, -size, -size-2)
  and a step off the board lands on the spare column or outside the mask.

Ray tables are computed once per geometry (instances are cached) and shared by every
position on that board.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from functools import cache

FILES = "abcdefghijklmnopqrstuvwxyz"


class Numbering(Enum):
    """Where square 1 is and in which order numbers run."""

    FROM_TOP_LEFT = "top-left"  # Russian, international: 1 = b8 / b10, row by row downwards
    FROM_BOTTOM_LEFT = "bottom-left"  # Lasca boards: 1 = a1, row by row upwards


# Direction indices. NE and NW are White's forward directions.
NE, NW, SE, SW = 0, 1, 2, 3
DIRECTIONS = (NE, NW, SE, SW)


@dataclass(frozen=True, eq=False)
class Geometry:
    """A square board played on its dark squares: numbering, names, and the tables the move
    generator walks (rays, neighbours, rank masks), computed once."""
    size: int
    numbering: Numbering
    # Derived tables, filled in __post_init__.
    square_count: int = field(init=False)
    bit_of_number: tuple[int, ...] = field(init=False, repr=False)  # index 0 unused
    number_of_bit: tuple[int, ...] = field(init=False, repr=False)  # 0 where not a square
    name_of_bit: tuple[str, ...] = field(init=False, repr=False)
    bit_of_name: dict[str, int] = field(init=False, repr=False)
    board_mask: int = field(init=False, repr=False)
    rays: tuple[tuple[tuple[int, ...], ...], ...] = field(init=False, repr=False)
    neighbour: tuple[tuple[int, int, int, int], ...] = field(init=False, repr=False)
    rank_masks: tuple[int, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        n = self.size
        width = n + 1
        squares = [
            (rank, file) for rank in range(n) for file in range(n) if (rank + file) % 2 == 0
        ]
        if self.numbering is Numbering.FROM_TOP_LEFT:
            ordered = sorted(squares, key=lambda rf: (-rf[0], rf[1]))
        else:
            ordered = sorted(squares, key=lambda rf: (rf[0], rf[1]))
        total_bits = n * width
        number_of_bit = [0] * total_bits
        bit_of_number = [-1]
        name_of_bit = [""] * total_bits
        bit_of_name = {}
        board_mask = 0
        for number, (rank, file) in enumerate(ordered, 1):
            bit = rank * width + file
            bit_of_number.append(bit)
            number_of_bit[bit] = number
            name = f"{FILES[file]}{rank + 1}"
            name_of_bit[bit] = name
            bit_of_name[name] = bit
            board_mask |= 1 << bit
        steps = {NE: (1, 1), NW: (1, -1), SE: (-1, 1), SW: (-1, -1)}
        rays: list[tuple[tuple[int, ...], ...]] = [((), (), (), ())] * total_bits
        neighbour: list[tuple[int, ...]] = [(-1, -1, -1, -1)] * total_bits
        for rank, file in squares:
            bit = rank * width + file
            per_direction = []
            for direction in DIRECTIONS:
                dr, df = steps[direction]
                ray = []
                r, f = rank + dr, file + df
                while 0 <= r < n and 0 <= f < n:
                    ray.append(r * width + f)
                    r, f = r + dr, f + df
                per_direction.append(tuple(ray))
            rays[bit] = tuple(per_direction)
            neighbour[bit] = tuple(ray[0] if ray else -1 for ray in per_direction)
        rank_masks = []
        for rank in range(n):
            mask = 0
            for file in range(n):
                if (rank + file) % 2 == 0:
                    mask |= 1 << (rank * width + file)
            rank_masks.append(mask)
        set_ = object.__setattr__
        set_(self, "square_count", len(ordered))
        set_(self, "bit_of_number", tuple(bit_of_number))
        set_(self, "number_of_bit", tuple(number_of_bit))
        set_(self, "name_of_bit", tuple(name_of_bit))
        set_(self, "bit_of_name", bit_of_name)
        set_(self, "board_mask", board_mask)
        set_(self, "rays", tuple(rays))
        set_(self, "neighbour", tuple(neighbour))
        set_(self, "rank_masks", tuple(rank_masks))

    # -- conversions ------------------------------------------------------------------

    @property
    def numbers(self) -> range:
        return range(1, self.square_count + 1)

    def coords(self, number: int) -> tuple[int, int]:
        """(file, rank) of square ``number``, both 0-based from White's lower left."""
        bit = self.bit_of_number[number]
        return bit % (self.size + 1), bit // (self.size + 1)

    def number_at(self, file: int, rank: int) -> int:
        """Square number at 0-based (file, rank); ValueError for a light or off-board square."""
        if not (0 <= file < self.size and 0 <= rank < self.size) or (file + rank) % 2:
            raise ValueError(
                f"({file}, {rank}) is not a playable square on {self.size}x{self.size}")
        return self.number_of_bit[rank * (self.size + 1) + file]

    def name(self, number: int) -> str:
        """Algebraic name (``c3``) of square ``number``."""
        return self.name_of_bit[self.bit_of_number[number]]

    def number_of_name(self, name: str) -> int:
        """Square number of an algebraic name; KeyError when not a playable square."""
        return self.number_of_bit[self.bit_of_name[name]]

    def mask_of_bits(self, bits: int) -> int:
        """Engine bitboard -> occupancy mask over square numbers (bit n-1 for square n)."""
        mask = 0
        for table in self._byte_tables:
            if not bits:
                break
            mask |= table[bits & 0xFF]
            bits >>= 8
        return mask

    @property
    def _byte_tables(self) -> tuple[tuple[int, ...], ...]:
        """Per 8-bit chunk of a bitboard, the occupancy mask of each of its 256 values."""
        cached = self.__dict__.get("_byte_tables_cache")
        if cached is None:
            tables = []
            total_bits = len(self.number_of_bit)
            for chunk in range((total_bits + 7) // 8):
                table = []
                for value in range(256):
                    mask = 0
                    for offset in range(8):
                        bit = chunk * 8 + offset
                        if value >> offset & 1 and bit < total_bits and self.number_of_bit[bit]:
                            mask |= 1 << (self.number_of_bit[bit] - 1)
                    table.append(mask)
                tables.append(tuple(table))
            cached = tuple(tables)
            object.__setattr__(self, "_byte_tables_cache", cached)
        return cached


@cache
def geometry(size: int, numbering: Numbering) -> Geometry:
    """The shared geometry for a board size and numbering (built once)."""
    return Geometry(size, numbering)


def iter_bits(bits: int):
    """Yield the bit indices set in ``bits``, lowest first."""
    while bits:
        low = bits & -bits
        yield low.bit_length() - 1
        bits ^= low


# The boards the games are played on, each with its usual numbering: what a board config
# names (`board_geometry`), so that adapters (switch matrices, LED chains) lay out a board
# without knowing which game is played on it.
USUAL_NUMBERING = {7: Numbering.FROM_BOTTOM_LEFT, 8: Numbering.FROM_TOP_LEFT,
                   10: Numbering.FROM_TOP_LEFT}


def board_geometry(size: int, numbering: Numbering | str | None = None) -> Geometry:
    """The geometry of a board of ``size`` (7, 8 or 10) numbered as ``numbering`` says
    (``"top-left"``, ``"bottom-left"``; default: the usual numbering of that size);
    ValueError naming what is known."""
    if size not in USUAL_NUMBERING:
        known = ", ".join(f"{n}x{n}" for n in sorted(USUAL_NUMBERING))
        raise ValueError(f"no board of size {size!r} (known: {known})")
    if numbering is None:
        numbering = USUAL_NUMBERING[size]
    elif not isinstance(numbering, Numbering):
        try:
            numbering = Numbering(numbering)
        except ValueError:
            known = ", ".join(repr(n.value) for n in Numbering)
            raise ValueError(f"no numbering {numbering!r} (known: {known})") from None
    return geometry(size, numbering)


def board_name(board: Geometry) -> str:
    """A board's name for people and files: ``8x8``, with the numbering when it is not the
    usual one for the size (``8x8-bottom-left``)."""
    name = f"{board.size}x{board.size}"
    if USUAL_NUMBERING.get(board.size) is not board.numbering:
        name += f"-{board.numbering.value}"
    return name


def board_of_name(name: str) -> Geometry:
    """The geometry `board_name` names; ValueError naming the usual boards otherwise."""
    size_text, _, numbering = name.partition("-")
    first, x, second = size_text.partition("x")
    if not (x and first == second and first.isascii() and first.isdigit()):
        known = ", ".join(f"{n}x{n}" for n in sorted(USUAL_NUMBERING))
        raise ValueError(f"no board {name!r} (known: {known})")
    return board_geometry(int(first), numbering or None)
