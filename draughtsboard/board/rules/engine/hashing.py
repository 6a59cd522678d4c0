"""Position hashes for the engine's transposition table: Zobrist keys, the same in every run.

A position's key is the exclusive or of one 64-bit key per occupied square (what stands
there) and one for Black to move, so a move changes it by a few exclusive ors. The keys
come from a fixed-seed generator, not from Python's ``hash``: string hashing changes from
one process to the next, and the engine promises the same answer for the same node budget
in every run, which depends on which table entries collide.

Single-piece games key a square by its piece (man or king of either colour). Column
games key it by the whole column, top first: a column of one piece gets that piece's key,
a taller one a key derived from its text with BLAKE2 (deterministic too), remembered in a
bounded table since the same few columns come back all through a search.
"""

from __future__ import annotations

import hashlib
import random
from functools import cache

from ..geometry import Geometry

SEED = 0x5EED_D2A6  # any fixed number: the keys only need to be the same in every run
COLUMN_MEMO_LIMIT = 1 << 16  # column keys remembered (a few MB at most)


class ZobristKeys:
    """The keys of one board: ``men[c][bit]`` and ``kings[c][bit]`` (``c`` 0 for White, 1
    for Black), ``black_to_move``, and `column` for column games."""

    def __init__(self, geometry: Geometry) -> None:
        generator = random.Random(SEED + geometry.size)
        bits = len(geometry.number_of_bit)
        self.men = tuple(tuple(generator.getrandbits(64) for _ in range(bits)) for _ in range(2))
        self.kings = tuple(tuple(generator.getrandbits(64) for _ in range(bits))
                           for _ in range(2))
        self.black_to_move = generator.getrandbits(64)
        # per square: column text -> key (the four single pieces, then taller columns as
        # they are met; ``""`` is 0, so an emptied square needs no test)
        self._single = tuple(
            {"": 0, "w": self.men[0][bit], "b": self.men[1][bit], "W": self.kings[0][bit],
             "B": self.kings[1][bit]}
            for bit in range(bits))
        self.columns_of: tuple[dict[str, int], ...] = tuple(dict(d) for d in self._single)
        self._remembered = 0

    def column(self, bit: int, column: str) -> int:
        """The key of ``column`` (top first) standing on ``bit``; 0 for an empty square.
        ``columns_of[bit].get(column)`` is the fast path; this fills it."""
        memo = self.columns_of[bit]
        key = memo.get(column)
        if key is None:
            if self._remembered > COLUMN_MEMO_LIMIT:
                for square, table in enumerate(self.columns_of):
                    table.clear()
                    table.update(self._single[square])
                self._remembered = 0
            digest = hashlib.blake2b(f"{bit}:{column}".encode(), digest_size=8,
                                     key=b"draughtsboard").digest()
            key = memo[column] = int.from_bytes(digest, "little")
            self._remembered += 1
        return key

    def of_pieces(self, white: int, black: int, kings: int, white_to_move: bool) -> int:
        """The key of a single-piece position, from scratch."""
        key = 0 if white_to_move else self.black_to_move
        for colour, pieces in ((0, white), (1, black)):
            men, crowned = self.men[colour], self.kings[colour]
            while pieces:
                low = pieces & -pieces
                pieces ^= low
                bit = low.bit_length() - 1
                key ^= crowned[bit] if kings & low else men[bit]
        return key

    def of_columns(self, columns, white_to_move: bool) -> int:
        """The key of a column-game position, from scratch."""
        key = 0 if white_to_move else self.black_to_move
        for bit, column in enumerate(columns):
            if column:
                key ^= self.column(bit, column)
        return key


@cache
def keys_for(geometry: Geometry) -> ZobristKeys:
    """The shared keys of a board (built once)."""
    return ZobristKeys(geometry)
