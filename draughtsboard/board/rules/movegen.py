"""The move generator: one walker for every variant, on integer bitboards.

Positions are handled here as three integers from the mover's point of view: ``own``
and ``enemy`` (every square holding a piece, or the top of a column, of each side) and
``kings`` (squares whose piece or top piece is a king, either side), plus whether White
is to move. Bit indices follow `geometry.Geometry` (a full grid with one spare column),
so a diagonal step is a fixed shift and a step off the board falls off the mask.

A *raw move* is the tuple ``(start, end, captured_mask, promotes, landings, captured)``
of bit indices: ``landings`` every square the piece lands on after the start (the end
last), ``captured`` the jumped squares in the order taken. Public code sees `Move`
values instead; raw moves exist so that perft and the tracker's per-position tables do
no allocation they do not need.

Capture rules (docs/rules.md): capturing is compulsory and goes on to the end; turkish
strike, so a jumped piece stays on its square until the move is over, blocks the way and
cannot be jumped twice, while the start square counts as empty; a flying king that can go
on capturing must land on a square from which it can; what a man reaching the last row
during a capture does, and whether the majority rule picks among complete captures, are
read from the `Variant`. The generator returns raw moves and bitboards only: `Position`
builds positions from them, and `generators.generator_for` finds a variant's generator.
"""

from __future__ import annotations

from collections.abc import Callable

from .geometry import DIRECTIONS, NE, NW, SE, SW
from .variants import CapturePromotion, Variant

RawMove = tuple  # (start, end, captured_mask, promotes, landings, captured)
Bitboards = tuple  # (own, enemy, kings, columns): a position's pieces after a raw move


class MoveGenerator:
    """Legal moves of one variant; built once per variant, holds only constant tables."""

    def __init__(self, variant: Variant) -> None:
        geometry = variant.geometry
        size = geometry.size
        self.variant = variant
        self.geometry = geometry
        self._board = geometry.board_mask
        self._up_right = size + 2  # NE is a left shift by this, SW a right shift
        self._up_left = size  # NW is a left shift by this, SE a right shift
        self._rays = geometry.rays
        # Promotion row of the side to move: index by ``white`` (True/False).
        self._promotion_row = (geometry.rank_masks[0], geometry.rank_masks[size - 1])
        backwards = variant.men_capture_backwards
        self._men_capture_backwards = backwards
        self._kings_fly = variant.kings_fly
        self._crown_and_continue = (
            variant.capture_promotion is CapturePromotion.CONTINUES_AS_KING
        )
        self._crowning_ends_move = variant.capture_promotion is CapturePromotion.ENDS_THE_MOVE
        self._distinct_by_path = variant.holds_columns
        self._majority_rule = variant.majority_rule
        # For each side and square: the (victim, victim_bit, landing) of every jump a man
        # there could make, so the capture walk does no neighbour arithmetic; the same for
        # a king that does not fly, in the order of `geometry.rays`.
        forward = ((SE, SW), (NE, NW))  # by side: Black, White
        self._man_jumps = tuple(
            _jump_table(geometry, forward[side] + (forward[1 - side] if backwards else ()))
            for side in (0, 1))
        self._king_jumps = _jump_table(geometry, DIRECTIONS)
        # Short captures (Lasca): kings do not fly, men capture forward only and a man
        # reaching the last row stops there, so a man's jumps never meet a square twice and
        # the board is the same all along its walk. If moreover moves are told apart by the
        # order of their captures (columns), which for pieces that do not fly fixes the
        # path, so that every capture path is a move of its own, and every complete capture
        # is legal (no majority rule), `legal` and `count` use walkers specialised to these
        # rules: lists instead of deduplication, and leaf counts from bitboards without
        # listing the captures.
        self._short = (not variant.kings_fly and not backwards and self._crowning_ends_move
                       and self._distinct_by_path and not variant.majority_rule)
        # `legal` and `count` are chosen once here, not tested on every call (perft calls
        # them millions of times): typed as callables, since they are not fixed methods.
        self.legal: Callable[[int, int, int, bool], list[RawMove]] = (
            self._short_legal if self._short else self._general_legal)
        self.count: Callable[[int, int, int, bool], int] = (
            self._short_count if self._short else self._general_count)
        self._quiet_men = _quiet_man_steps(geometry, self._promotion_row)
        self._quiet_kings = _quiet_king_steps(geometry, variant.kings_fly)
        # `Move` values of quiet moves by (start, end) bits: built once, shared by every
        # position, since legal-move lists are mostly quiet moves.
        self.quiet_move_values: dict = {}

    # -- whole-position queries ---------------------------------------------------------

    def _general_legal(self, own: int, enemy: int, kings: int, white: bool) -> list[RawMove]:
        """`legal` for every variant: every legal raw move, the captures if any capture
        exists, else the quiet moves."""
        sources = self.capture_sources(own, enemy, kings, white)
        if sources:
            return self._captures_from(sources, own, enemy, kings, white)
        return self.quiet_moves(own, enemy, kings, white)

    def _general_count(self, own: int, enemy: int, kings: int, white: bool) -> int:
        """`count` for every variant: the number of legal moves, counting quiet moves
        without listing them (perft leaves)."""
        sources = self.capture_sources(own, enemy, kings, white)
        if sources:
            return len(self._captures_from(sources, own, enemy, kings, white))
        empty = self._board & ~(own | enemy)
        men = own & ~kings
        right, left = self._up_right, self._up_left
        if white:
            total = ((men << right) & empty).bit_count() + ((men << left) & empty).bit_count()
        else:
            total = ((men >> right) & empty).bit_count() + ((men >> left) & empty).bit_count()
        own_kings = own & kings
        if own_kings:
            if self._kings_fly:
                for shift in (right, left):
                    x = own_kings
                    while x:
                        x = (x << shift) & empty
                        total += x.bit_count()
                    x = own_kings
                    while x:
                        x = (x >> shift) & empty
                        total += x.bit_count()
            else:
                for shift in (right, left):
                    total += ((own_kings << shift) & empty).bit_count()
                    total += ((own_kings >> shift) & empty).bit_count()
        return total

    def capture_sources(self, own: int, enemy: int, kings: int, white: bool) -> int:
        """Bitboard of the pieces that may start a capture: every man with a first jump,
        and every king when some king has one (0: no capture on the board)."""
        empty = self._board & ~(own | enemy)
        sources = self._capturing_men(own & ~kings, enemy, empty, white)
        own_kings = own & kings
        if own_kings and self._kings_can_capture(own_kings, enemy, empty):
            sources |= own_kings
        return sources

    def _kings_can_capture(self, own_kings: int, enemy: int, empty: int) -> bool:
        right, left = self._up_right, self._up_left
        if not self._kings_fly:
            for shift in (right, left):
                if (((own_kings << shift) & enemy) << shift) & empty:
                    return True
                if (((own_kings >> shift) & enemy) >> shift) & empty:
                    return True
            return False
        for shift in (right, left):
            reach = x = own_kings
            while x:
                x = (x << shift) & empty
                reach |= x
            if (((reach << shift) & enemy) << shift) & empty:
                return True
            reach = x = own_kings
            while x:
                x = (x >> shift) & empty
                reach |= x
            if (((reach >> shift) & enemy) >> shift) & empty:
                return True
        return False

    # -- quiet moves ------------------------------------------------------------------------

    def quiet_moves(self, own: int, enemy: int, kings: int, white: bool) -> list[RawMove]:
        """Every non-capturing raw move of the side to move (men one step forward, kings along
        their rays)."""
        empty = self._board & ~(own | enemy)
        men = own & ~kings
        right, left = self._up_right, self._up_left
        if white:
            right_targets = (men << right) & empty
            left_targets = (men << left) & empty
        else:
            right_targets = (men >> right) & empty
            left_targets = (men >> left) & empty
        right_moves, left_moves = self._quiet_men[white]
        moves: list[RawMove] = []
        append = moves.append
        while right_targets:
            low = right_targets & -right_targets
            right_targets ^= low
            append(right_moves[low.bit_length() - 1])
        while left_targets:
            low = left_targets & -left_targets
            left_targets ^= low
            append(left_moves[low.bit_length() - 1])
        own_kings = own & kings
        if own_kings:
            steps = self._quiet_kings
            while own_kings:
                low = own_kings & -own_kings
                own_kings ^= low
                for ray in steps[low.bit_length() - 1]:
                    for square, raw in ray:
                        if not (empty >> square) & 1:
                            break
                        append(raw)
        return moves

    # -- captures ---------------------------------------------------------------------------

    def captures(self, own: int, enemy: int, kings: int, white: bool) -> list[RawMove]:
        """Every complete capture sequence that is legal (the majority rule applied)."""
        sources = self.capture_sources(own, enemy, kings, white)
        return self._captures_from(sources, own, enemy, kings, white) if sources else []

    def _captures_from(self, pieces: int, own: int, enemy: int, kings: int,
                       white: bool) -> list[RawMove]:
        found: dict[tuple, RawMove] = {}
        occupied_all = own | enemy
        while pieces:
            low = pieces & -pieces
            pieces ^= low
            start = low.bit_length() - 1
            occupied = occupied_all ^ low  # the start square is empty during the move
            if kings & low:
                self._king_walk(start, start, white, occupied, enemy, 0, (), (), found, False)
            else:
                self._man_walk(start, start, white, occupied, enemy, 0, (), (), found)
        moves = list(found.values())
        if self._majority_rule and len(moves) > 1:
            # The majority rule: only the captures that take the most pieces are legal.
            most = max(len(move[5]) for move in moves)
            return [move for move in moves if len(move[5]) == most]
        return moves

    def _capturing_men(self, men: int, enemy: int, empty: int, white: bool) -> int:
        """The men with at least one first jump: an enemy next to them and an empty square
        behind it, in a direction they may capture (bitboard)."""
        right, left = self._up_right, self._up_left
        sources = 0
        if white or self._men_capture_backwards:
            sources = ((((empty >> right) & enemy) >> right)
                       | (((empty >> left) & enemy) >> left))
        if not white or self._men_capture_backwards:
            sources |= ((((empty << right) & enemy) << right)
                        | (((empty << left) & enemy) << left))
        return sources & men

    def _record(self, found, start, end, captured_mask, promotes, landings, captured) -> None:
        if self._distinct_by_path:
            # Column games: the order of captures builds the columns, so it tells moves
            # apart; where a flying king may land between the same two captures, those
            # landings make the same position and are one move.
            key = (start, end, captured, promotes)
        else:
            key = (start, end, captured_mask, promotes)
        if key not in found:
            found[key] = (start, end, captured_mask, promotes, landings, captured)

    def _man_walk(self, start, here, white, occupied, enemy, captured_mask, landings, captured,
                  found) -> bool:
        """Extend a man's capture from ``here``; record complete sequences. True if it jumped."""
        promotion_row = self._promotion_row[white]
        jumped = False
        for victim, victim_bit, land in self._man_jumps[white][here]:
            if not enemy & victim_bit or captured_mask & victim_bit or (occupied >> land) & 1:
                continue
            jumped = True
            mask = captured_mask | victim_bit
            path = landings + (land,)
            order = captured + (victim,)
            if (promotion_row >> land) & 1:
                if self._crowning_ends_move:
                    self._record(found, start, land, mask, True, path, order)
                elif self._crown_and_continue:
                    if not self._king_walk(start, land, white, occupied, enemy, mask, path,
                                           order, found, True):
                        self._record(found, start, land, mask, True, path, order)
                elif not self._man_walk(start, land, white, occupied, enemy, mask, path, order,
                                        found):
                    self._record(found, start, land, mask, True, path, order)
            elif not self._man_walk(start, land, white, occupied, enemy, mask, path, order, found):
                self._record(found, start, land, mask, False, path, order)
        return jumped

    def _king_walk(self, start, here, white, occupied, enemy, captured_mask, landings, captured,
                   found, promotes) -> bool:
        """Extend a king's capture from ``here``; record complete sequences. True if it jumped.

        A flying king may land on any free square beyond the jumped piece, except that where
        some of those squares let it go on capturing, it must land on one of those.
        """
        fly = self._kings_fly
        jumped = False
        for ray in self._rays[here]:
            length = len(ray)
            i = 0
            if fly:
                while i < length and not (occupied >> ray[i]) & 1:
                    i += 1
            if i >= length - 1:
                continue
            victim = ray[i]
            victim_bit = 1 << victim
            if not enemy & victim_bit or captured_mask & victim_bit:
                continue
            j = i + 1
            if (occupied >> ray[j]) & 1:
                continue
            lands = [ray[j]]
            if fly:
                j += 1
                while j < length and not (occupied >> ray[j]) & 1:
                    lands.append(ray[j])
                    j += 1
            jumped = True
            mask = captured_mask | victim_bit
            order = captured + (victim,)
            continuing = [land for land in lands if self._king_can_capture(land, occupied, enemy,
                                                                           mask)]
            if continuing:
                for land in continuing:
                    self._king_walk(start, land, white, occupied, enemy, mask,
                                    landings + (land,), order, found, promotes)
            else:
                for land in lands:
                    self._record(found, start, land, mask, promotes, landings + (land,), order)
        return jumped

    def _king_can_capture(self, here, occupied, enemy, captured_mask) -> bool:
        fly = self._kings_fly
        for ray in self._rays[here]:
            length = len(ray)
            i = 0
            if fly:
                while i < length and not (occupied >> ray[i]) & 1:
                    i += 1
            if i >= length - 1:
                continue
            victim = ray[i]
            if ((enemy >> victim) & 1 and not (captured_mask >> victim) & 1
                    and not (occupied >> ray[i + 1]) & 1):
                return True
        return False

    # -- short captures (Lasca) ------------------------------------------------------------

    def _short_legal(self, own: int, enemy: int, kings: int, white: bool) -> list[RawMove]:
        """`legal` for short captures: each complete path is a move of its own."""
        empty = self._board & ~(own | enemy)
        right, left = self._up_right, self._up_left
        if white:  # the squares with a forward jump, then those with a backward one
            jumpers = (((empty >> right) & enemy) >> right) | (((empty >> left) & enemy) >> left)
        else:
            jumpers = (((empty << right) & enemy) << right) | (((empty << left) & enemy) << left)
        pieces = own & ~kings & jumpers
        own_kings = own & kings
        if own_kings:
            if white:
                back = (((empty << right) & enemy) << right) | (((empty << left) & enemy) << left)
            else:
                back = (((empty >> right) & enemy) >> right) | (((empty >> left) & enemy) >> left)
            pieces |= own_kings & (jumpers | back)
        if not pieces:
            return self.quiet_moves(own, enemy, kings, white)
        moves: list[RawMove] = []
        append = moves.append
        man_jumps = self._man_jumps[white]
        promotion_row = self._promotion_row[white]
        while pieces:
            low = pieces & -pieces
            pieces ^= low
            start = low.bit_length() - 1
            if kings & low:
                self._short_king_walk(start, start, (own | enemy) ^ low, enemy, 0, (), (),
                                      moves)
                continue
            # A man's first jumps, written out; it goes on only from ``jumpers``.
            for victim, victim_bit, land in man_jumps[start]:
                if enemy & victim_bit and (empty >> land) & 1:
                    if (promotion_row >> land) & 1:
                        append((start, land, victim_bit, True, (land,), (victim,)))
                    elif (jumpers >> land) & 1:
                        self._short_man_walk(start, land, man_jumps, enemy, empty, jumpers,
                                             promotion_row, victim_bit, (land,), (victim,),
                                             moves)
                    else:
                        append((start, land, victim_bit, False, (land,), (victim,)))
        return moves

    def _short_man_walk(self, start, here, man_jumps, enemy, empty, jumpers, promotion_row,
                        captured_mask, landings, captured, moves) -> None:
        """Extend a man's forward capture from ``here``, where it has a jump (it stops on
        the last row); append the complete sequences to ``moves``. The board is the same
        all along: the man never comes back to a square, so ``empty`` and ``jumpers``
        (the squares with a forward jump) hold for the whole walk."""
        for victim, victim_bit, land in man_jumps[here]:
            if not enemy & victim_bit or not (empty >> land) & 1:
                continue
            mask = captured_mask | victim_bit
            path = landings + (land,)
            order = captured + (victim,)
            if (promotion_row >> land) & 1:
                moves.append((start, land, mask, True, path, order))
            elif (jumpers >> land) & 1:
                self._short_man_walk(start, land, man_jumps, enemy, empty, jumpers,
                                     promotion_row, mask, path, order, moves)
            else:
                moves.append((start, land, mask, False, path, order))

    def _short_king_walk(self, start, here, occupied, enemy, captured_mask, landings,
                         captured, moves) -> bool:
        """Extend a non-flying king's capture from ``here``; append complete sequences to
        ``moves``. True if it jumped."""
        jumped = False
        for victim, victim_bit, land in self._king_jumps[here]:
            if not enemy & victim_bit or captured_mask & victim_bit or (occupied >> land) & 1:
                continue
            jumped = True
            mask = captured_mask | victim_bit
            path = landings + (land,)
            order = captured + (victim,)
            if not self._short_king_walk(start, land, occupied, enemy, mask, path, order,
                                         moves):
                moves.append((start, land, mask, False, path, order))
        return jumped

    def _short_count(self, own: int, enemy: int, kings: int, white: bool) -> int:
        """`count` for short captures: complete capture paths counted, not listed."""
        empty = self._board & ~(own | enemy)
        right, left = self._up_right, self._up_left
        men = own & ~kings
        # The squares with a jump towards the mover's far row (men jump only that way)
        # and, for kings, towards its near row as well.
        if white:
            forward = (((empty >> right) & enemy) >> right) | (((empty >> left) & enemy) >> left)
        else:
            forward = (((empty << right) & enemy) << right) | (((empty << left) & enemy) << left)
        jumping = men & forward
        total = self._short_man_paths(jumping, enemy, empty, forward, white) if jumping else 0
        own_kings = own & kings
        if own_kings:
            if white:
                backward = (((empty << right) & enemy) << right) | (((empty << left) & enemy)
                                                                     << left)
            else:
                backward = (((empty >> right) & enemy) >> right) | (((empty >> left) & enemy)
                                                                     >> left)
            jumping = own_kings & (forward | backward)
            if jumping:
                occupied_all = own | enemy
                walk = self._short_king_paths
                while jumping:
                    low = jumping & -jumping
                    jumping ^= low
                    total += walk(low.bit_length() - 1, occupied_all ^ low, enemy, 0)
        if total:
            return total
        if white:
            total = ((men << right) & empty).bit_count() + ((men << left) & empty).bit_count()
        else:
            total = ((men >> right) & empty).bit_count() + ((men >> left) & empty).bit_count()
        if own_kings:
            for shift in (right, left):
                total += ((own_kings << shift) & empty).bit_count()
                total += ((own_kings >> shift) & empty).bit_count()
        return total

    def _short_man_paths(self, men: int, enemy: int, empty: int, jumpers: int,
                         white: bool) -> int:
        """Complete capture paths of the men on ``men``, all of which have a jump (the
        men's side of `_short_count`).

        ``jumpers``: the squares from which a man could jump (forward). The board does not
        change along a man's walk, and a jump in one direction maps the men to distinct
        landings, so the paths are counted a direction at a time on whole bitboards: every
        landing ends a path (on the last row, or with no jump from it) except those in
        ``jumpers``, which count their own continuations instead.
        """
        total = 0
        for shift in (self._up_right, self._up_left):
            if white:
                landed = (((men << shift) & enemy) << shift) & empty
            else:
                landed = (((men >> shift) & enemy) >> shift) & empty
            if landed:
                total += landed.bit_count()
                going_on = landed & jumpers  # never on the last row: no jump from there
                if going_on:
                    total += (self._short_man_paths(going_on, enemy, empty, jumpers, white)
                              - going_on.bit_count())
        return total

    def _short_king_paths(self, here: int, occupied: int, enemy: int,
                          captured_mask: int) -> int:
        """Complete capture paths of a non-flying king from ``here`` (0: no jump)."""
        total = 0
        for _, victim_bit, land in self._king_jumps[here]:
            if enemy & victim_bit and not captured_mask & victim_bit \
                    and not (occupied >> land) & 1:
                total += self._short_king_paths(land, occupied, enemy,
                                                captured_mask | victim_bit) or 1
        return total

    # -- playing raw moves and perft ----------------------------------------------------------

    @staticmethod
    def play_pieces(own: int, enemy: int, kings: int, move: RawMove) -> tuple[int, int, int]:
        """(own, enemy, kings) after ``move`` for games of single pieces (not columns)."""
        start_bit = 1 << move[0]
        end_bit = 1 << move[1]
        captured_mask = move[2]
        own = (own & ~start_bit) | end_bit
        enemy &= ~captured_mask
        if kings & start_bit or move[3]:
            kings = (kings & ~(start_bit | captured_mask)) | end_bit
        else:
            kings &= ~(start_bit | captured_mask)
        return own, enemy, kings

    def perft(self, own: int, enemy: int, kings: int, white: bool, depth: int) -> int:
        """Leaf count at ``depth`` (the last ply counted without playing it)."""
        if depth <= 0:
            return 1
        if depth == 1:
            return self.count(own, enemy, kings, white)
        total = 0
        count, perft = self.count, self.perft
        deeper = depth - 1
        for start, end, captured_mask, promotes, _, _ in self.legal(own, enemy, kings, white):
            start_bit = 1 << start
            new_own = (own & ~start_bit) | (1 << end)
            if kings & start_bit or promotes:
                new_kings = (kings & ~(start_bit | captured_mask)) | (1 << end)
            else:
                new_kings = kings & ~(start_bit | captured_mask)
            if depth == 2:
                total += count(enemy & ~captured_mask, new_own, new_kings, not white)
            else:
                total += perft(enemy & ~captured_mask, new_own, new_kings, not white, deeper)
        return total

    def apply(self, own: int, enemy: int, kings: int, columns: tuple[str, ...] | None,
              raw: RawMove) -> Bitboards:
        """The mover's (own, enemy, kings) and the columns after a raw move (``columns``
        is ``None`` in single-piece games). `Position.play` builds the position from
        these; column games replace this method."""
        return (*self.play_pieces(own, enemy, kings, raw), columns)

    def perft_position(self, position, depth: int) -> int:
        """Perft from anything with a position's ``own``, ``enemy``, ``kings`` and
        ``white_to_move`` (hook: column games count on their columns too)."""
        return self.perft(position.own, position.enemy, position.kings,
                          position.white_to_move, depth)


# -- constant tables, built once per generator ----------------------------------------------

def _jump_table(geometry, directions) -> tuple:
    """For each square: the (victim, victim bit, landing) of every jump to a neighbour in
    one of ``directions`` and on to the square behind it, both on the board."""
    neighbour = geometry.neighbour
    return tuple(
        tuple((neighbour[square][d], 1 << neighbour[square][d], neighbour[neighbour[square][d]][d])
              for d in directions
              if neighbour[square][d] >= 0 and neighbour[neighbour[square][d]][d] >= 0)
        for square in range(len(neighbour)))


def _quiet_man_steps(geometry, promotion_rows: tuple[int, int]) -> tuple:
    """Raw quiet moves of men, by side (Black, White) and by shift (NE or SE first, then
    NW or SW), indexed by the end square (``None`` where no man can step there)."""
    board = geometry.board_mask
    size = geometry.size
    squares = len(geometry.neighbour)
    return tuple(
        tuple(
            tuple(
                (end - step, end, 0, bool((promotion_rows[side] >> end) & 1), (end,), ())
                if (board >> end) & 1 and end - step >= 0 and (board >> (end - step)) & 1
                else None
                for end in range(squares))
            for step in ((size + 2, size) if side else (-(size + 2), -size)))
        for side in (0, 1))


def _quiet_king_steps(geometry, kings_fly: bool) -> tuple:
    """Raw quiet moves of kings: for each square, each ray as (square, raw move), only its
    first square if kings do not fly."""
    return tuple(
        tuple(
            tuple((square, (start, square, 0, False, (square,), ()))
                  for square in (ray if kings_fly else ray[:1]))
            for ray in geometry.rays[start])
        for start in range(len(geometry.neighbour)))
