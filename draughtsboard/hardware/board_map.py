"""A text picture of the switches, as the diagnostics print it.

White's side at the bottom, files a.. left to right, as the builder sees the board from
White's chair: ``#`` a closed switch, ``.`` an open one, blank a light square.
"""

from __future__ import annotations

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
