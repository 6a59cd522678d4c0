"""Column games: Lasca (Lasker's rules) and column draughts with Russian mechanics.

A square holds a *column*: a string of pieces listed top first (``'wbB'``: a white man on
top of a black man on top of a black officer). The top piece owns and moves the column, so
move generation needs only the top pieces: the `Position` bitboards (``white``, ``black``,
``kings``) describe the tops, and the single capture walker of `movegen` runs on them
unchanged. What this module adds is what happens to the columns when a move is played:

* the moving column goes from the start square to the end square; if its top piece is a
  man that is promoted, that piece (and only it) becomes an officer / king;
* each jumped column loses its top piece, which goes under the capturing column, in the
  order taken (the first directly under the original column);
* what is left of a jumped column stays on its square, owned by its new top piece (a
  buried officer is still an officer); a square whose column is used up is empty.

The column games themselves are data in `variants`; their position text
(``W:a1=w,c3=wbB``) is read in `fen` and written by `Position.fen`.
"""

from __future__ import annotations

from .movegen import Bitboards, MoveGenerator, RawMove

PIECES = "wbWB"
WHITE_PIECE = {"w": True, "W": True, "b": False, "B": False}
OFFICER = {"w": False, "b": False, "W": True, "B": True}
_CROWN = {"w": "W", "b": "B", "W": "W", "B": "B"}


class ColumnMoveGenerator(MoveGenerator):
    """The shared walker on the top pieces, plus the column bookkeeping of a move.

    ``legal``, ``count`` and ``captures`` are inherited as they are:
    their input is the top-piece bitboards. ``apply`` and ``perft_position`` carry the
    columns along; perft keeps one mutable list of columns and undoes each move, and the
    last ply is the inherited bulk ``count`` (no columns needed there).
    """

    @staticmethod
    def make(columns: list[str], own: int, enemy: int, kings: int,
             raw: RawMove) -> tuple[int, int, int]:
        """Play ``raw`` on a mutable list of columns (indexed by bit) and return the
        mover's (own, enemy, kings) top bitboards after it. The caller keeps the old
        strings of the start, end and captured squares if it wants to undo."""
        start, end, _, promotes, _, captured = raw
        start_bit = 1 << start
        end_bit = 1 << end
        moving = columns[start]
        top = moving[0]
        if promotes:
            top = _CROWN[top]
            moving = top + moving[1:]
        own = (own & ~start_bit) | end_bit
        kings &= ~start_bit
        if OFFICER[top]:
            kings |= end_bit
        if captured:
            mover_is_white = WHITE_PIECE[top]
            for square in captured:
                column = columns[square]
                moving += column[0]
                rest = column[1:]
                columns[square] = rest
                bit = 1 << square
                if not rest:
                    enemy &= ~bit
                    kings &= ~bit
                    continue
                new_top = rest[0]
                if WHITE_PIECE[new_top] is mover_is_white:
                    enemy &= ~bit
                    own |= bit
                if OFFICER[new_top]:
                    kings |= bit
                else:
                    kings &= ~bit
        columns[start] = ""
        columns[end] = moving
        return own, enemy, kings

    def apply(self, own: int, enemy: int, kings: int, columns: tuple[str, ...] | None,
              raw: RawMove) -> Bitboards:
        assert columns is not None, "a column game's position always has its columns"
        changed = list(columns)
        own, enemy, kings = self.make(changed, own, enemy, kings, raw)
        return own, enemy, kings, tuple(changed)

    def perft_position(self, position, depth: int) -> int:
        """Perft from a column-game position: the columns are carried along, the last ply
        counted from the top pieces."""
        if depth <= 0:
            return 1
        columns = list(position.columns)
        tall = sum(1 << bit for bit, column in enumerate(columns) if len(column) > 1)
        return self._perft(columns, tall, position.own, position.enemy, position.kings,
                           position.white_to_move, depth)

    def _perft(self, columns: list[str], tall: int, own: int, enemy: int, kings: int,
               white: bool, depth: int) -> int:
        """Perft on a mutable list of columns, each move made and undone in place.

        Written out rather than calling `make`. ``tall`` is the bitboard of the squares
        holding two pieces or more: a move that jumps none of them changes the top
        bitboards exactly as in a single-piece game, which is all the last two plies need.
        """
        if depth <= 2:
            if depth == 1:
                return self.count(own, enemy, kings, white)
            return self._perft_last_two(columns, tall, own, enemy, kings, white)
        black_to_move = not white
        deeper = depth - 1
        search = self._perft_last_two if deeper == 2 else self._perft
        total = 0
        for start, end, mask, promotes, _, captured in self.legal(own, enemy, kings, white):
            start_bit = 1 << start
            end_bit = 1 << end
            new_own = (own & ~start_bit) | end_bit
            if kings & start_bit or promotes:
                new_kings = (kings & ~start_bit) | end_bit
            else:
                new_kings = kings & ~start_bit
            moving = saved_start = columns[start]
            if promotes:
                moving = _CROWN[moving[0]] + moving[1:]
            if not captured:
                new_tall = (tall & ~start_bit) | end_bit if tall & start_bit else tall
                columns[start] = ""
                columns[end] = moving
                total += search(columns, new_tall, enemy, new_own, new_kings, black_to_move,
                                deeper)
                columns[end] = ""
                columns[start] = saved_start
                continue
            new_enemy = enemy & ~mask
            new_kings &= ~mask
            new_tall = (tall & ~start_bit) | end_bit
            saved = []
            for square in captured:
                column = columns[square]
                saved.append(column)
                moving += column[0]
                rest = column[1:]
                columns[square] = rest
                if rest:
                    bit = 1 << square
                    new_top = rest[0]
                    if WHITE_PIECE[new_top] is white:
                        new_own |= bit
                    else:
                        new_enemy |= bit
                    if new_top < "a":  # an officer (capital letter)
                        new_kings |= bit
                    if len(rest) == 1:
                        new_tall &= ~bit
            columns[start] = ""
            columns[end] = moving
            total += search(columns, new_tall, new_enemy, new_own, new_kings, black_to_move,
                            deeper)
            columns[end] = ""
            columns[start] = saved_start
            for square, column in zip(captured, saved, strict=True):
                columns[square] = column
        return total

    def _perft_last_two(self, columns: list[str], tall: int, own: int, enemy: int,
                        kings: int, white: bool, depth: int = 2) -> int:
        # Depth 2 (the argument only matches `_perft`'s): the columns are only read, and
        # each child is counted from its top bitboards.
        count = self.count
        black_to_move = not white
        total = 0
        for start, end, mask, promotes, _, captured in self.legal(own, enemy, kings, white):
            start_bit = 1 << start
            end_bit = 1 << end
            new_own = (own & ~start_bit) | end_bit
            if kings & start_bit or promotes:
                new_kings = ((kings & ~start_bit) | end_bit) & ~mask
            else:
                new_kings = kings & ~(start_bit | mask)
            if not mask:  # a quiet move
                total += count(enemy, new_own, new_kings, black_to_move)
                continue
            new_enemy = enemy & ~mask
            if mask & tall:
                for square in captured:
                    column = columns[square]
                    if len(column) > 1:
                        bit = 1 << square
                        new_top = column[1]
                        if WHITE_PIECE[new_top] is white:
                            new_own |= bit
                        else:
                            new_enemy |= bit
                        if new_top < "a":  # an officer (capital letter)
                            new_kings |= bit
            total += count(new_enemy, new_own, new_kings, black_to_move)
        return total
