"""What the diagnostics print, for every backend: the switches as a picture, and the
empty-board self-test's report.

The map: White's side at the bottom, files a.. left to right, as the builder sees the
board from White's chair: ``#`` a closed switch, ``.`` an open one, blank a light square.

Both are the hardware layer's and both diags use them: ``diag`` on pins directly, ``diag
--backend serial`` (`draughtsboard.firmware_bridge.diag`) through the functions the
composition root passes in, since the adapters never import each other. One text, so
the two backends say the same thing about the same fault.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from draughtsboard.board.rules.geometry import FILES, Geometry

CLOSED = "#"
OPEN = "."


def render_map(geometry: Geometry, occupied: int, *, numbers: bool = False) -> str:
    """The board as lines of text; with ``numbers`` a second grid gives the square numbers."""
    n = geometry.size
    lines = []
    for rank in reversed(range(n)):
        cells = []
        numbered = []
        for file in range(n):
            if (file + rank) % 2:
                cells.append(" ")
                numbered.append("  ")
                continue
            square = geometry.number_at(file, rank)
            cells.append(CLOSED if occupied >> (square - 1) & 1 else OPEN)
            numbered.append(f"{square:2d}")
        line = f"{rank + 1:2d} " + " ".join(cells)
        if numbers:
            line += "    " + " ".join(numbered)
        lines.append(line)
    footer = "   " + " ".join(FILES[:n])
    if numbers:
        footer += "    " + " ".join(f"{f:>2}" for f in FILES[:n])
    lines.append(footer)
    return "\n".join(lines)


def empty_board_report(square_count: int, closed: Iterable[int],
                       unsteady: Mapping[int, int],
                       where: Mapping[int, str] | None = None) -> tuple[str, bool]:
    """The empty-board self-test's report and whether the board passed: a line for each
    square whose switch is ``closed`` with every piece off, then for each that was
    ``unsteady`` (square -> times it flickered), else one line saying all is well.
    ``where`` names a square's wires, where the backend knows them (``row 2 (BCM 12),
    column 1 (BCM 23)``); a microcontroller's are its own."""
    where = where or {}

    def square(n: int) -> str:
        return f"square {n} ({where[n]})" if n in where else f"square {n}"

    lines = [f"{square(n)}: closed on an empty board: a stuck reed, a magnet nearby, or a "
             "short to its column" for n in sorted(closed)]
    lines += [f"{square(n)}: flickered {count} times on an empty board: a loose wire or a "
              "failing reed" for n, count in sorted(unsteady.items()) if count]
    if lines:
        return "\n".join(lines), False
    return f"empty board: all {square_count} switches open and steady", True
