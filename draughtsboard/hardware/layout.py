"""Where each matrix (row, column) sits on the board.

Boards are wired in whatever direction was easiest under the wood, so the matrix does not
have to follow the board's numbering. A wiring is described by the board corner (seen
from White, a1 = bottom-left) at which matrix row 0, column 0 sits, and by whether matrix
rows run along ranks or along files. Row ``i`` is then the ``i``-th line from that corner
and column ``j`` the ``j``-th dark square along it, counted from the same corner. These
eight choices cover every rotation and mirror image of a wiring; a table of square numbers
in the config covers anything else.
"""

from __future__ import annotations

from draughtsboard.board.rules.geometry import Geometry

CORNERS = ("bottom-left", "bottom-right", "top-left", "top-right")
LINES = ("ranks", "files")

# A matrix map: map[row][column] is a square number, or 0 where the row is shorter
# (7x7 boards alternate 4 and 3 dark squares per row).
MatrixMap = tuple[tuple[int, ...], ...]


def matrix_shape(size: int) -> tuple[int, int]:
    """(rows, columns) of the switch matrix for a ``size`` x ``size`` board."""
    return size, (size + 1) // 2


def corner_map(geometry: Geometry, origin: str, rows_along: str) -> MatrixMap:
    """The matrix map of a wiring that starts at ``origin`` with rows along ``rows_along``."""
    if origin not in CORNERS:
        raise ValueError(f"unknown corner {origin!r} (known: {', '.join(CORNERS)})")
    if rows_along not in LINES:
        raise ValueError(f"unknown line {rows_along!r} (known: {', '.join(LINES)})")
    n = geometry.size
    from_top = origin.startswith("top")
    from_right = origin.endswith("right")
    _, columns = matrix_shape(n)
    table = []
    for line in range(n):
        row = []
        for step in range(n):
            if rows_along == "ranks":
                rank = n - 1 - line if from_top else line
                file = n - 1 - step if from_right else step
            else:
                file = n - 1 - line if from_right else line
                rank = n - 1 - step if from_top else step
            if (file + rank) % 2 == 0:
                row.append(geometry.number_at(file, rank))
        row += [0] * (columns - len(row))
        table.append(tuple(row))
    return tuple(table)


def check_map(table: MatrixMap, square_count: int) -> list[str]:
    """Problems with an explicit map: each square exactly once, nothing outside the board."""
    problems = []
    seen: dict[int, tuple[int, int]] = {}
    for r, row in enumerate(table):
        for c, square in enumerate(row):
            if square == 0:
                continue
            if not 1 <= square <= square_count:
                problems.append(f"square {square} at ({r}, {c}) is not on the board")
            elif square in seen:
                problems.append(f"square {square} appears at {seen[square]} and ({r}, {c})")
            else:
                seen[square] = (r, c)
    missing = [n for n in range(1, square_count + 1) if n not in seen]
    if missing:
        problems.append(f"squares {missing} have no switch")
    return problems
