"""Find shots (a quiet move or sacrifice, then a capture of two to five pieces) that win
material by force, for the engine's tactics suite and for the puzzle files.

Every position is proved with `MaterialProver` (exhaustive search on material alone,
``HORIZON`` quiet plies, captures to the end), never chosen by the engine's own search,
and kept only if:

* the side to move has no capture (a shot begins with a quiet move);
* it has at least four legal moves, and at most two of them win material by force;
* the winning line has a capture of two to five pieces by the side that plays the shot;
* the best move still wins material with a horizon one quiet ply longer (and so does
  every other move listed as a solution: one that wins only at the shorter horizon is
  not listed).

The suite records both horizons: ``horizon`` (where the position was found and its
``solutions`` listed) and ``check_horizon`` (one ply longer, where every solution was
verified): the benchmark judges the engine's move there, since a move that wins at the
shorter horizon but loses at the longer one wins nothing, and a move that gives up
material for three plies to win more on the fourth is a deeper shot, not a miss.

Where positions come from (``source`` beside each one):

* ``tactics`` for Russian and international draughts: the real games in tests/data. For
  each position of a game, the position itself, and the positions after each *other*
  legal move than the one played there (a move a player could have made): "one move off
  a master game". The first ``SKIP_PLIES`` plies are skipped (the middle game is
  wanted) and at most one position is taken from each game.
* ``tactics`` for the column games (no game collections exist in the project): games
  played by a seeded random player that takes the move winning most material half of
  the time and a random move otherwise.
* ``puzzles`` (every variant): the same seeded random games, with other seeds, so that
  no puzzle is a tactics position.

    .venv/bin/python scripts/mine_shots.py tactics [--per-variant 25] > benchmarks/tactics.json
    .venv/bin/python scripts/mine_shots.py puzzles [--per-variant 30] \
        --out draughtsboard/play/puzzles
"""

from __future__ import annotations

import argparse
import json
import pathlib
import random
import sys
from collections.abc import Iterator

from draughtsboard.board.game.pdn_reader import read_pdn
from draughtsboard.board.game.pdn_writer import write_game
from draughtsboard.board.game.record import Game
from draughtsboard.board.rules import initial_position
from draughtsboard.board.rules.engine.material import LOST, MaterialProver
from draughtsboard.board.rules.notation import format_move
from draughtsboard.board.rules.position import Position
from draughtsboard.board.rules.variants import get_variant, variant_names

HORIZON = 3
NODES = 60_000
DATA = pathlib.Path(__file__).resolve().parents[1] / "tests" / "data"
GAME_FILES = {
    "russian": ["russian-ussr-championship-part1.pdn"],
    "international": ["international-wk2003.pdn", "international-candidate95.pdn"],
}
RANDOM_PLIES = 120
SKIP_PLIES = 12  # real games: the middle game, not the first moves


def shot(prover: MaterialProver, position: Position) -> dict | None:
    """The shot of a position, if it passes every filter (see the module doc)."""
    legal = position.legal_moves()
    if len(legal) < 4 or legal[0].captures:
        return None
    outcomes = prover.outcomes(position, HORIZON, NODES)
    if not outcomes or outcomes[0].gain < 1:
        return None
    winners = [o for o in outcomes if o.gain >= 1]
    if len(winners) > 2:
        return None
    best = outcomes[0]
    line = list(best.line)
    mover_captures = [len(move.captures) for move in line[0::2]]
    if not any(2 <= n <= 5 for n in mover_captures):
        return None
    last = max(i for i in range(0, len(line), 2) if line[i].captures)
    line = line[:last + 1]
    deeper = prover.gain(position, best.move, HORIZON + 1, NODES * 4)
    if deeper is None or deeper < 1:
        return None
    texts = []
    current = position
    for move in line:
        texts.append(format_move(current, move))
        current = current.play(move)
    # a second winner is a solution only if it too still wins one ply further
    solutions = [o for o in winners if o is best or
                 (gain := prover.gain(position, o.move, HORIZON + 1, NODES * 4)) is not None
                 and gain >= 1]
    return {"fen": position.fen(), "gain": min(best.gain, LOST),
            "solutions": [format_move(position, o.move, legal) for o in solutions],
            "line": texts}


# -- where positions come from ---------------------------------------------------------------

def game_positions(name: str) -> Iterator[tuple[str, Position]]:
    """(source, position) from the real games: each position of a game and the positions
    one other move away from it."""
    variant = get_variant(name)
    for file_name in GAME_FILES.get(name, []):
        read = read_pdn((DATA / file_name).read_text(encoding="utf-8"), variant=variant,
                        source=file_name)
        for pdn_game in read.games:
            game = pdn_game.game
            positions = game.positions
            for ply, played in enumerate(game.moves):
                if ply < SKIP_PLIES:
                    continue
                before = positions[ply]
                where = f"{file_name} game {pdn_game.number}"
                yield f"{where}, before ply {ply + 1}", before
                for other in before.legal_moves():
                    if other == played.move:
                        continue
                    text = format_move(before, other)
                    yield (f"{where}, ply {ply + 1}: {text} instead of {played.text}",
                           before.play(other))


def random_game_positions(name: str, seed_base: str, games: int = 400
                          ) -> Iterator[tuple[str, Position]]:
    """(source, position) from seeded games of a half-greedy, half-random player."""
    variant = get_variant(name)
    prover = MaterialProver(variant)
    for number in range(games):
        seed = f"{seed_base}-{name}-{number}"
        rng = random.Random(seed)
        position = initial_position(variant)
        for ply in range(RANDOM_PLIES):
            legal = position.legal_moves()
            if not legal:
                break
            yield f"seeded game {seed!r}, after ply {ply}", position
            if rng.random() < 0.5:
                scored = []
                for move in legal:
                    after = position.play(move)
                    scored.append((-prover.balance(after), move))
                top = max(score for score, _ in scored)
                move = rng.choice([m for score, m in scored if score == top])
            else:
                move = rng.choice(legal)
            position = position.play(move)


def mine(name: str, count: int, source: Iterator[tuple[str, Position]],
         one_per_game: bool) -> list[dict]:
    prover = MaterialProver(get_variant(name))
    found: list[dict] = []
    seen: set[str] = set()
    used_games: set[str] = set()
    for where, position in source:
        game = where.split(",")[0]
        if one_per_game and game in used_games:
            continue
        if position.fen() in seen:
            continue
        entry = shot(prover, position)
        if entry is None:
            continue
        seen.add(entry["fen"])
        used_games.add(game)
        entry = {"id": f"{name}-{len(found) + 1:02d}", "variant": name, **entry,
                 "source": where}
        found.append(entry)
        print(f"{entry['id']}: {entry['line']} (+{entry['gain']}) from {where}",
              file=sys.stderr, flush=True)
        if len(found) >= count:
            break
    return found


def tactics(args) -> int:
    positions = []
    for name in args.variants.split(","):
        if name in GAME_FILES and args.seed_base == "tactics":
            source = game_positions(name)
        else:
            source = random_game_positions(name, args.seed_base)
        positions += mine(name, args.per_variant, source, one_per_game=True)
    print(json.dumps({"horizon": HORIZON, "check_horizon": HORIZON + 1,
                      "made_by": "scripts/mine_shots.py tactics",
                      "positions": positions}, indent=1))
    return 0


def puzzles(args) -> int:
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for name in args.variants.split(","):
        variant = get_variant(name)
        found = mine(name, args.per_variant, random_game_positions(name, "puzzle"),
                     one_per_game=True)
        (out / f"{name}.pdn").write_text(puzzle_file(variant, found), encoding="utf-8")
    return 0


def puzzle_file(variant, entries: list[dict]) -> str:
    """The PDN of a puzzle file: each shot a game from its position, the forced line as
    its moves, what to find as its first comment, where it came from as ``Source``."""
    text = []
    for number, entry in enumerate(entries, 1):
        tags = {"Event": f"draughtsboard puzzles: {variant.title}",
                "Round": str(number), "White": "?", "Black": "?",
                "Annotator": "made and checked by draughtsboard's engine",
                "Source": entry["source"]}
        game = Game.from_fen(variant, entry["fen"], tags=tags)
        gain = entry["gain"]
        game.comment = (f"{'White' if game.start.white_to_move else 'Black'} to play and win "
                        f"{gain} piece{'s' if gain > 1 else ''}")
        for move in entry["line"]:
            game.play(move)
        text.append(write_game(game, times=False, events=False))
    return "".join(text)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    one = sub.add_parser("tactics")
    one.add_argument("--per-variant", type=int, default=25)
    one.add_argument("--variants", default=",".join(variant_names()))
    one.add_argument("--seed-base", default="tactics", help="seeds of the random games "
                     "(another value gives a development set to try engine changes on, "
                     "kept apart from the suite)")
    one.set_defaults(run=tactics)
    two = sub.add_parser("puzzles")
    two.add_argument("--per-variant", type=int, default=30)
    two.add_argument("--variants", default=",".join(variant_names()))
    two.add_argument("--out", required=True)
    two.set_defaults(run=puzzles)
    args = parser.parse_args()
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
