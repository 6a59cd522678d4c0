"""Legal-move generation on every position of the games in tests/data: ours against pydraughts.

The games are the international ones (``international-*.pdn``, numeric moves ``32-28``,
``28x19``) and the Russian ones (``russian-ussr-championship-part1.pdn``, algebraic moves
``c3-d4``, ``d4:b6``, each game with a FEN tag). A small private extractor takes each game's
move list (tags, comments, variations, move numbers and results stripped) and follows it with
our `parse_move`; this is not the project's PDN reader. A game whose moves we refuse is
reported and left at the last position we could reach.

Timing: ours is ``position.legal_moves()`` on fresh `Position` objects built from the same
bitboards for every repetition (a position caches its legal moves), and the generator's raw
``legal()`` alone; pydraughts is ``Board.legal_moves()`` on boards set up from the same
positions (it caches nothing). pydraughts is slow, so by default it runs on every 4th
position; the ratio compares the two on those same positions. On that sample the benchmark
also checks that both libraries give the same moves (start, end, captured squares). Times
are CPU seconds of this process (the machine may be shared), the garbage collector paused;
medians over repetitions.

    .venv/bin/python -m benchmarks.legal_moves [--repeat N] [--reference-every K]

The last line is JSON.
"""

from __future__ import annotations

import argparse
import gc
import json
import pathlib
import re
import statistics
import time

from draughtsboard.board.rules import generator_for, initial_position
from draughtsboard.board.rules.errors import DraughtsError
from draughtsboard.board.rules.fen import format_fen, parse_fen
from draughtsboard.board.rules.notation import parse_move
from draughtsboard.board.rules.position import Position
from draughtsboard.board.rules.variants import Variant, get_variant

DATA = pathlib.Path(__file__).parents[1] / "tests" / "data"
FILES = {
    "international": sorted(DATA.glob("international-*.pdn")),
    "russian": [DATA / "russian-ussr-championship-part1.pdn"],
}
PYDRAUGHTS_NAME = {"international": "standard", "russian": "russian"}

_TAG = re.compile(r'^\s*\[(\w+)\s+"(.*)"\s*\]\s*$')
_RESULTS = {"1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*"}
_MOVE_NUMBER = re.compile(r"^\d+\.+")


# -- a small move-list extractor (not a PDN reader) ----------------------------------------------

def games_of(path: pathlib.Path) -> list[tuple[dict[str, str], list[str]]]:
    """Each game's tags and move texts, in file order."""
    games: list[tuple[dict[str, str], list[str]]] = []
    tags: dict[str, str] = {}
    movetext: list[str] = []

    def close() -> None:
        nonlocal tags, movetext
        if tags or "".join(movetext).strip():
            games.append((tags, moves_of(" ".join(movetext))))
        tags, movetext = {}, []

    for line in path.read_text("utf-8", errors="replace").splitlines():
        tag = _TAG.match(line)
        if tag:
            if "".join(movetext).strip():
                close()
            tags[tag.group(1)] = tag.group(2)
        else:
            movetext.append(line)
    close()
    return games


def moves_of(text: str) -> list[str]:
    text = re.sub(r"\{[^}]*\}", " ", text)  # comments
    while re.search(r"\([^()]*\)", text):  # variations, innermost first
        text = re.sub(r"\([^()]*\)", " ", text)
    text = re.sub(r";[^\n]*", " ", text)
    text = re.sub(r"\s*([-x:])\s*", r"\1", text)  # '1- 7', '47x 9' -> one token
    moves = []
    for token in text.split():
        token = _MOVE_NUMBER.sub("", token).rstrip("!?")
        if not token or token in _RESULTS:
            continue
        moves.append(token)
    return moves


def follow(variant: Variant, path: pathlib.Path, refused: list[dict]) -> list[Position]:
    """Every position of every game of a file (before each move, and the last one)."""
    positions = []
    for number, (tags, moves) in enumerate(games_of(path), 1):
        fen = tags.get("FEN")
        position = parse_fen(variant, fen) if fen else initial_position(variant)
        positions.append(position)
        for ply, text in enumerate(moves, 1):
            try:
                position = position.play(parse_move(position, text))
            except DraughtsError as error:
                refused.append({"file": path.name, "game": number,
                                "white": tags.get("White", "?"), "black": tags.get("Black", "?"),
                                "ply": ply, "move": text, "error": str(error)})
                break
            positions.append(position)
    return positions


# -- timing --------------------------------------------------------------------------------------

def median_cpu(function, repeat: int, setup=None) -> float:
    """Median CPU seconds of ``function(setup())``, the collector paused while it runs."""
    seconds = []
    for _ in range(repeat):
        argument = setup() if setup else None
        gc.collect()
        gc.disable()
        try:
            started = time.process_time()
            function(argument)
            seconds.append(time.process_time() - started)
        finally:
            gc.enable()
    return statistics.median(seconds)


def fresh(positions: list[Position]) -> list[Position]:
    return [Position(p.variant, p.white, p.black, p.kings, p.white_to_move) for p in positions]


def ours_all(positions):
    for position in positions:
        position.legal_moves()


def raw_all(positions):
    for position in positions:
        generator = generator_for(position.variant)
        generator.legal(position.own, position.enemy, position.kings, position.white_to_move)


def theirs_all(boards):
    for board in boards:
        board.legal_moves()


# -- pydraughts' numbering -----------------------------------------------------------------------

def square_maps(variant: Variant) -> tuple[dict[int, int], dict[int, int]]:
    """(ours -> pydraughts, pydraughts -> ours): international alike; pydraughts numbers the
    Russian board from a1 (1 = a1, 2 = c1, 5 = b2), we from b8."""
    geometry = variant.geometry
    if not variant.algebraic_moves:
        same = {n: n for n in geometry.numbers}
        return same, same
    per_row = geometry.size // 2
    theirs = {}
    for n in geometry.numbers:
        row = (n - 1) // per_row
        theirs["abcdefgh"[((n - 1) % per_row) * 2 + row % 2] + str(row + 1)] = n
    to_theirs = {n: theirs[geometry.name(n)] for n in geometry.numbers}
    return to_theirs, {t: o for o, t in to_theirs.items()}


def pydraughts_board(draughts, position: Position, to_theirs: dict[int, int]):
    sides: dict[str, list[str]] = {"w": [], "b": []}
    for number in position.variant.geometry.numbers:
        piece = position.piece_at(number)
        if piece:
            sides[piece.lower()].append(("K" if piece.isupper() else "") + str(to_theirs[number]))
    fen = (f"{'W' if position.white_to_move else 'B'}:W{','.join(sides['w'])}"
           f":B{','.join(sides['b'])}")
    return draughts.Board(variant=PYDRAUGHTS_NAME[position.variant.name], fen=fen)


def same_moves(position: Position, board, to_ours: dict[int, int]) -> bool:
    mine = {(m.start, m.end, frozenset(m.captures)) for m in position.legal_moves()}
    reference = {(to_ours[m.board_move[0][0]], to_ours[m.board_move[-1][1]],
                  frozenset(to_ours[c] for c in (m.captures or []))) for m in board.legal_moves()}
    return mine == reference


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs of ours (median)")
    parser.add_argument("--reference-repeat", type=int, default=1, help="runs of pydraughts")
    parser.add_argument("--reference-every", type=int, default=4,
                        help="pydraughts on every K-th position (default 4; 1 for all)")
    args = parser.parse_args()
    import draughts  # the reference: a test-only dependency

    figures: dict[str, dict] = {}
    refused: list[dict] = []
    print(f"{'variant':<14} {'positions':>9} {'ours us':>9} {'raw us':>8} {'sample':>7} "
          f"{'ours us':>9} {'pyd. us':>9} {'ratio':>7} {'differ':>6}")
    for variant_name, paths in FILES.items():
        variant = get_variant(variant_name)
        positions = [p for path in paths for p in follow(variant, path, refused)]
        count = len(positions)
        ours = median_cpu(ours_all, args.repeat, lambda: fresh(positions)) / count  # noqa: B023
        raw = median_cpu(raw_all, args.repeat, lambda: positions) / count  # noqa: B023

        sample = positions[::args.reference_every]
        to_theirs, to_ours = square_maps(variant)
        boards = [pydraughts_board(draughts, p, to_theirs) for p in sample]
        ours_sample = median_cpu(ours_all, args.repeat, lambda: fresh(sample)) / len(sample)  # noqa: B023
        theirs = median_cpu(theirs_all, args.reference_repeat, lambda: boards) / len(sample)  # noqa: B023
        differ = [format_fen(p) for p, b in zip(sample, boards, strict=True)
                  if not same_moves(p, b, to_ours)]
        ratio = theirs / ours_sample
        print(f"{variant_name:<14} {count:>9} {ours * 1e6:>9.1f} {raw * 1e6:>8.1f} "
              f"{len(sample):>7} {ours_sample * 1e6:>9.1f} {theirs * 1e6:>9.0f} {ratio:>6.0f}x "
              f"{len(differ):>6}", flush=True)
        figures[variant_name] = {
            "games": sum(len(games_of(path)) for path in paths), "positions": count,
            "ours_us_per_position": round(ours * 1e6, 2),
            "ours_raw_us_per_position": round(raw * 1e6, 2),
            "sample_positions": len(sample),
            "ours_sample_us_per_position": round(ours_sample * 1e6, 2),
            "pydraughts_us_per_position": round(theirs * 1e6, 1),
            "ratio": round(ratio, 1), "positions_with_different_moves": differ[:5],
        }
    for entry in refused:
        print(f"refused: {entry['file']} game {entry['game']} ({entry['white']} - "
              f"{entry['black']}) ply {entry['ply']} {entry['move']!r}: {entry['error']}")
    print(json.dumps({"benchmark": "legal_moves", "repeat": args.repeat, **figures,
                      "refused_games": refused}, ensure_ascii=False))


if __name__ == "__main__":
    main()
