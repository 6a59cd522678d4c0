"""PDN reader and writer on the shared game files: every game reads, what we write reads
back to the same moves, tags and result, and pydraughts replays what we write."""

import pathlib

import pytest

import draughtsboard.board.rules.variants  # noqa: F401  (registers every variant first)
from draughtsboard.board.game.pdn_reader import decode_pdn, read_pdn
from draughtsboard.board.game.pdn_writer import write_game, write_games
from draughtsboard.board.rules.variants import get_variant

DATA = pathlib.Path(__file__).resolve().parents[2] / "data"
SHARED = {
    "international-wk2003.pdn": (None, 23),
    "international-candidate95.pdn": (None, 8),
    "russian-ussr-championship-part1.pdn": ("russian", 100),
}


PYDRAUGHTS_GAMES = {"international-wk2003.pdn": 2, "international-candidate95.pdn": 1,
                    "russian-ussr-championship-part1.pdn": 2}


def read_shared(name):
    variant, _ = SHARED[name]
    text = decode_pdn((DATA / name).read_bytes())
    return read_pdn(text, variant=get_variant(variant) if variant else None, source=name)


@pytest.fixture(scope="module")
def shared():
    return {name: read_shared(name) for name in SHARED}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SHARED))
def test_every_shared_game_reads(shared, name):
    result = shared[name]
    assert result.errors == []
    assert len(result.games) == SHARED[name][1]
    assert [g.number for g in result.games] == list(range(1, SHARED[name][1] + 1))


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SHARED))
def test_written_pdn_reads_back_the_same(shared, name):
    games = [entry.game for entry in shared[name].games]
    again = read_pdn(write_games(games), source="written")
    assert again.errors == []
    for before, after in zip(games, (entry.game for entry in again.games), strict=True):
        assert after.variant is before.variant
        assert [m.move for m in after.moves] == [m.move for m in before.moves]
        assert after.tags == before.tags
        assert after.result == before.result
        assert after.start == before.start


def test_international_results_are_written_in_the_variants_own_form(shared):
    game = shared["international-candidate95.pdn"].games[0].game  # file says 1-0
    assert game.result == "2-0"
    assert '[Result "2-0"]' in write_game(game)


def test_russian_game_without_gametype_needs_a_variant():
    text = (DATA / "russian-ussr-championship-part1.pdn").read_text("utf-8")
    result = read_pdn(text, source="ru.pdn")
    assert result.games == []
    assert len(result.errors) == 100
    assert "no GameType tag" in str(result.errors[0])
    assert str(result.errors[0]).startswith("ru.pdn: game 1, line 1, column 1:")


def _pydraughts_moves(text):
    from draughts import Board, Move
    from draughts.PDN import PDNReader

    replayed = []
    for game in PDNReader(pdn_text=text).games:
        board = Board(game.variant, game.tags.get("FEN", "startpos"))
        moves = []
        for pdn_move in game.moves:
            # pydraughts 0.6.7 reads the file as we write it, but its Move() knows only 'x'
            # for a capture, not the Russian ':' that the Russian rules (and PDN 3.0) use.
            move = Move(board, pdn_move=pdn_move.replace(":", "x"))
            board.push(move)
            moves.append(board.fen)
        replayed.append((game.variant, moves))
    return replayed


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SHARED))
def test_pydraughts_replays_what_we_write(shared, name):
    # pydraughts takes about two seconds a game: a few games per file keep the suite fast.
    games = [entry.game for entry in shared[name].games][:PYDRAUGHTS_GAMES[name]]
    replayed = _pydraughts_moves(write_games(games))
    assert len(replayed) == len(games)
    for game, (variant, fens) in zip(games, replayed, strict=True):
        assert variant == {"international": "standard", "russian": "russian"}[game.variant.name]
        assert len(fens) == game.ply
        ours = [_pydraughts_fen(p) for p in game.positions[1:]]
        assert [_normal(f) for f in fens] == ours


def _normal(fen):
    side, *parts = fen.split(":")
    squares = {}
    for part in parts:
        for item in filter(None, part[1:].split(",")):
            squares[item.lstrip("K")] = part[0] + ("K" if item.startswith("K") else "")
    return side, tuple(sorted(squares.items()))


def _pydraughts_fen(position):
    variant = position.variant
    geometry = variant.geometry
    white, black = [], []
    for number in geometry.numbers:
        piece = position.piece_at(number)
        if piece is None:
            continue
        name = geometry.name(number) if variant.algebraic_moves else str(number)
        (white if piece in "wW" else black).append(("K" if piece.isupper() else "") + name)
    side = "W" if position.white_to_move else "B"
    return _normal(f"{side}:W{','.join(white)}:B{','.join(black)}")
