"""The opponent constraint: on a program's turns the board takes only the move it chose.

Against an opponent (the side a program plays, its moves carried out on the board by the
person), the opponent's turn limits the move table to the move it chose (none while it
thinks). After the opponent's move was taken back, the person's move before it is owed
too, and the board takes nothing until it is (`takeback_owed`). Kept out of the tracker,
which asks only for a position's table (`MoveTables`) and, through `TurnConstraint`,
whose turn it is and what the opponent chose: the tracker has no branch of its own for
an opponent beyond the words of its flags.
"""

from __future__ import annotations

from typing import Protocol

from ..rules.errors import DraughtsError
from ..rules.position import Move, Position
from .move_table import MoveShape, MoveTable, MoveTableCache


class MoveTables(Protocol):
    """Where a position's move table comes from."""

    def table_of(self, position: Position) -> MoveTable:
        """The move table the board is held to in ``position``."""
        ...


class TurnConstraint(MoveTables, Protocol):
    """What the tracker asks of the opponent constraint (see the module doc)."""

    @property
    def side(self) -> bool | None:
        """The side an opponent plays (True: White; None: people play both)."""
        ...

    @property
    def expected(self) -> tuple[Position, Move] | None:
        """The opponent's chosen move and the position it was chosen in."""
        ...

    @property
    def takeback_owed(self) -> bool:
        """The opponent's move was taken back: the person's own is owed too."""
        ...

    def is_turn(self, position: Position) -> bool:
        """Whether ``position`` has the opponent to move."""
        ...

    def expected_shape(self, table: MoveTable) -> MoveShape | None:
        """The opponent's move to carry out in ``table``'s position (None: none)."""
        ...

    def set_side(self, white: bool | None) -> None:
        """An opponent plays White (True), Black (False) or nobody (None)."""
        ...

    def expect(self, position: Position, move: Move | None) -> None:
        """The opponent chose ``move`` in ``position`` (None: it thinks again)."""
        ...

    def took_back(self, owed: bool) -> None:
        """A move was taken back; ``owed``: the person's move before it is owed too."""
        ...

    def reset(self) -> None:
        """A new game: no choice, nothing owed."""
        ...


class OpponentTurns:
    """The move tables of the positions met, limited on the opponent's turns to the move
    it chose (none before it chooses, none while a takeback is owed)."""

    def __init__(self, tables: MoveTableCache | None = None) -> None:
        self._tables = tables if tables is not None else MoveTableCache()
        self._side: bool | None = None
        self._expected: tuple[Position, Move] | None = None
        self._takeback_owed = False
        self._limited: dict[Position, MoveTable] = {}  # tables of the opponent's turns

    @property
    def side(self) -> bool | None:
        return self._side

    @property
    def expected(self) -> tuple[Position, Move] | None:
        return self._expected

    @property
    def takeback_owed(self) -> bool:
        return self._takeback_owed

    def is_turn(self, position: Position) -> bool:
        white = self._side
        return white is not None and position.white_to_move == white

    def set_side(self, white: bool | None) -> None:
        self._side = white
        self._expected = None
        self._limited.clear()

    def expect(self, position: Position, move: Move | None) -> None:
        """`DraughtsError` for a move that is not legal in ``position``, or a position
        that is not the opponent's turn."""
        if move is not None:
            if not self.is_turn(position):
                raise DraughtsError(f"not the opponent's turn in {position.fen()}")
            if not position.is_legal(move):
                raise DraughtsError(f"{move} is not legal in {position.fen()}")
        self._expected = (position, move) if move is not None else None
        self._limited.clear()

    def took_back(self, owed: bool) -> None:
        self._takeback_owed = owed
        self._limited.clear()

    def reset(self) -> None:
        self._expected = None
        self._limited.clear()
        self._takeback_owed = False

    def expected_shape(self, table: MoveTable) -> MoveShape | None:
        """The opponent's move to carry out in ``table``'s position (None: not its turn,
        or it has not chosen yet, or a takeback is owed)."""
        expected = self._expected
        if expected is None or expected[0] != table.position or self._takeback_owed:
            return None
        for shape in table.shapes:
            if shape.move == expected[1]:
                return shape
        return None

    def table_of(self, position: Position) -> MoveTable:
        """The move table of ``position``: on the opponent's turn, limited to the move it
        chose (none while it thinks)."""
        table = self._tables.of(position)
        if not self.is_turn(position):
            return table
        limited = self._limited.get(position)
        if limited is None:
            if len(self._limited) >= self._tables.limit:
                self._limited.clear()
            expected = self._expected
            moves = (expected[1],) if expected is not None and expected[0] == position \
                and not self._takeback_owed else ()
            limited = self._limited[position] = table.limited_to(moves)
        return limited
