"""The engine's strength, tactics and speed, in every variant (the last line is JSON).

Parts (``--part``, all by default):

* ``strength``: the engine at ``--budget`` seconds a move (0.2) against a greedy one-ply
  material player (it plays the move after which it has the most material, men 1 and
  kings or officers 3, ties broken by a seeded random choice, so no two games are alike),
  ``--games`` games per variant (40), colours alternating. Score = (wins + draws / 2) /
  games. Games end by the rules (no legal move, the variant's draw rules, threefold
  repetition) or, after ``--max-plies`` plies (300), as a draw.
* ``scaling``: the engine at 4x the budget against itself at the budget,
  ``--scaling-games`` games per variant (20): openings of four random plies (seeded) that
  the engine judges within half a man of equal (four random plies often hand one side a
  man in Lasca and the column games, and the colour then decides both games of the pair),
  each played twice with colours swapped. The bigger budget should score more than half.
* ``scaling-nodes``: the same with node budgets, ``--small-nodes`` (3,000) against four
  times as many, ``--node-games`` games per variant (40): the same result on every run.
* ``tactics``: the suite in benchmarks/tactics.json (made by scripts/mine_shots.py; where
  each position comes from is written beside it): the engine gets ``--tactics-seconds``
  (1 s) per position, and a position is solved when the move it plays wins material by
  force within the suite's ``check_horizon`` (four quiet plies, where every listed
  solution was verified), as `MaterialProver` proves it. Each unsolved position says what
  the move played gains two quiet plies further on (a deeper shot, or a miss); that does
  not count it as solved.
* ``levels``: the built-in engine's levels (`engine/levels.py`): each level against the
  next lower, ``--level-games`` games per variant (40) from balanced openings (as
  ``scaling``, each opening played twice with colours swapped), and level 1 against full
  strength (level 10) as many games. Levels are node and depth budgets, so every run gives
  the same games. A game of single pieces is adjudicated when one side leads by
  ``ADJUDICATE_LEAD`` (men 1, kings 3) in two quiet positions in a row: a lead that
  neither level gives back, and it saves most of the time of a game played out. A column
  game (Lasca, column draughts) is played out: there one capture of a tall column's top
  turns a lead of many pieces round, so a count of commanded pieces decides nothing
  (``--adjudicate auto``, the default; ``on`` or ``off`` for every game). The figures:
  each higher level's score against the next lower (should be
  at least 0.6) and the share of games level 1 loses to full strength (at least 0.95).
  ``--level-salt`` draws other openings and game seeds: tune levels on one salt, confirm
  them on the default. ``--level-log`` keeps every game as a JSON line, so a stopped run
  resumes (games of levels retuned since are played again).
* ``speed``: nodes per second of the search, and the time to a hint at depth 6 from the
  initial position of each variant (median of ``--repeat`` runs, 5).

Times are CPU seconds of the process that plays (the engine's clock is
``time.process_time``), so that a machine shared with other work gives the same budgets;
games run in ``--jobs`` processes (2).

    .venv/bin/python -m benchmarks.engine
        [--part strength,scaling,scaling-nodes,tactics,levels,speed] [--variants russian,...]
        [--games 40] [--scaling-games 20] [--budget 0.2] [--jobs 2] [--level-games 40]
        [--level-pairs 2-1,10-1] [--level-log FILE] [--level-salt SALT]
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import pathlib
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from draughtsboard.board.game.record import Game
from draughtsboard.board.replay.harness import random_game
from draughtsboard.board.rules import initial_position, parse_fen
from draughtsboard.board.rules.engine import Engine
from draughtsboard.board.rules.engine.levels import LevelPlayer, level
from draughtsboard.board.rules.engine.material import MaterialProver
from draughtsboard.board.rules.notation import format_move
from draughtsboard.board.rules.position import Move, Position
from draughtsboard.board.rules.variants import get_variant, variant_names

TACTICS = pathlib.Path(__file__).with_name("tactics.json")
OPENING_PLIES = 4
BALANCED = 50  # hundredths of a man: an opening fit for a scaling game
OPENING_NODES = 20_000
ADJUDICATE_LEAD = 3  # men (kings and officers 3) ahead in two quiet positions in a row


# -- players ----------------------------------------------------------------------------

def greedy_material(position: Position) -> int:
    """The material of the side that just moved, minus the other side's: men 1, kings 3;
    in column games the pieces each side commands (those in the columns it tops)."""
    white_moved = not position.white_to_move
    if position.columns is None:
        white = position.white.bit_count() + 2 * (position.white & position.kings).bit_count()
        black = position.black.bit_count() + 2 * (position.black & position.kings).bit_count()
    else:
        white = black = 0
        for column in position.columns:
            if not column:
                continue
            top_white = column[0] in "wW"
            for piece in column:
                if (piece in "wW") == top_white:
                    worth = 3 if piece in "WB" else 1
                    if top_white:
                        white += worth
                    else:
                        black += worth
    return white - black if white_moved else black - white


def quiet_lead(position: Position) -> int | None:
    """White's material lead (men 1, kings 3) where the side to move has no capture;
    None in the middle of an exchange."""
    legal = position.legal_moves()
    if not legal or legal[0].captures:
        return None
    lead = greedy_material(position)  # the side that just moved, minus the other
    return lead if not position.white_to_move else -lead


def greedy_move(game: Game, rng: random.Random) -> Move:
    position = game.position
    scored = [(greedy_material(position.play(move)), move) for move in position.legal_moves()]
    best = max(score for score, _ in scored)
    return rng.choice([move for score, move in scored if score == best])


def engine_player(variant, seconds: float):
    engine = Engine(variant, clock=time.process_time)

    def play(game: Game) -> Move:
        return engine.search(game.position, seconds=seconds,
                             history=game.positions[:-1]).move

    return play


def play_game(variant, white, black, max_plies: int,
              opening: tuple[Move, ...] = (), adjudicate: bool = False) -> tuple[str, int]:
    """('white' | 'black' | 'draw', plies) of one game; with ``adjudicate``, a lead of
    ``ADJUDICATE_LEAD`` in two quiet positions in a row wins."""
    game = Game(variant)
    for move in opening:
        game.play(move)
    leads = []
    while True:
        if adjudicate:
            leads.append(quiet_lead(game.position))
            if len(leads) >= 2 and leads[-1] is not None and leads[-2] is not None:
                if min(leads[-1], leads[-2]) >= ADJUDICATE_LEAD:
                    return "white", game.ply
                if max(leads[-1], leads[-2]) <= -ADJUDICATE_LEAD:
                    return "black", game.ply
        outcome = game.outcome()
        if outcome is not None:
            result, _ = outcome
            if result == variant.results[0]:
                return "white", game.ply
            if result == variant.results[2]:
                return "black", game.ply
            return "draw", game.ply
        if game.ply >= max_plies:
            return "draw", game.ply
        player = white if game.position.white_to_move else black
        game.play(player(game))


def score_of(results: list[str]) -> float:
    return (results.count("win") + results.count("draw") / 2) / len(results)


# -- strength against the greedy player -------------------------------------------------

def strength_game(task: tuple) -> dict:
    name, index, budget, max_plies = task
    variant = get_variant(name)
    rng = random.Random(f"greedy-{name}-{index}")
    engine = engine_player(variant, budget)

    def greedy(game: Game) -> Move:
        return greedy_move(game, rng)

    engine_white = index % 2 == 0
    started = time.process_time()
    winner, plies = play_game(variant, engine if engine_white else greedy,
                              greedy if engine_white else engine, max_plies)
    side = "white" if engine_white else "black"
    outcome = "draw" if winner == "draw" else ("win" if winner == side else "loss")
    return {"variant": name, "game": index, "engine": side, "outcome": outcome,
            "plies": plies, "cpu": time.process_time() - started}


# -- scaling: 4x budget against 1x ------------------------------------------------------

def random_opening(variant, seed: str) -> tuple[Move, ...]:
    return tuple(random_game(initial_position(variant), random.Random(seed), OPENING_PLIES))


@functools.cache
def balanced_opening(variant, seed: str) -> tuple[Move, ...]:
    """The first random opening (seeds ``seed-0``, ``seed-1`` ...) that the engine judges
    within ``BALANCED`` of equal with a fixed node budget (the same on every run). Four
    random plies often hand one side a man in Lasca and the column games, and then the
    colour decides both games of the pair whatever the budgets. Kept per process: the
    level pairs all start from the same openings."""
    for attempt in range(100):
        moves = random_opening(variant, f"{seed}-{attempt}")
        position = initial_position(variant)
        for move in moves:
            position = position.play(move)
        if abs(Engine(variant).search(position, nodes=OPENING_NODES).score) <= BALANCED:
            return moves
    raise RuntimeError(f"no balanced opening for {variant.name} from {seed!r}")


def node_player(variant, nodes: int):
    engine = Engine(variant)

    def play(game: Game) -> Move:
        return engine.search(game.position, nodes=nodes, history=game.positions[:-1]).move

    return play


def scaling_game(task: tuple) -> dict:
    name, index, budget, max_plies = task
    variant = get_variant(name)
    opening = balanced_opening(variant, f"opening-{name}-{index // 2}")
    if isinstance(budget, int):  # a node budget
        big, small = node_player(variant, 4 * budget), node_player(variant, budget)
    else:
        big, small = engine_player(variant, 4 * budget), engine_player(variant, budget)
    big_white = index % 2 == 0
    winner, plies = play_game(variant, big if big_white else small,
                              small if big_white else big, max_plies, opening)
    side = "white" if big_white else "black"
    outcome = "draw" if winner == "draw" else ("win" if winner == side else "loss")
    return {"variant": name, "game": index, "big": side, "outcome": outcome, "plies": plies}


# -- levels: each level against the next lower ------------------------------------------

def level_player(variant, number: int, seed: str, seconds: list[float]):
    """A level's moves; the CPU time of each is appended to ``seconds``."""
    player = LevelPlayer(variant, number, seed=seed)

    def play(game: Game) -> Move:
        started = time.process_time()
        move = player.choose(game.position, game.positions[:-1]).move
        seconds.append(round(time.process_time() - started, 4))
        return move

    return play


def level_definition(task: tuple) -> str:
    """What a level game's result depends on besides its index: the two levels' budgets
    and the game's limits. A result in ``--level-log`` counts only while this is the same
    (levels retuned since then make it stale)."""
    name, _, high, low, max_plies, adjudicate, salt = task
    budgets = [{key: value for key, value in dataclasses.asdict(level(number, name)).items()
                if key != "meaning"} for number in (high, low)]
    return json.dumps([budgets, max_plies, adjudicate, salt])


def level_game(task: tuple) -> dict:
    """``task``: (variant, game index, higher level, lower level, max plies, adjudicate,
    salt). ``salt`` (empty by default) draws other openings and game seeds: levels tuned
    on one salt are confirmed on another."""
    name, index, high, low, max_plies, adjudicate, salt = task
    variant = get_variant(name)
    prefix = f"{salt}-" if salt else ""
    opening = balanced_opening(variant, f"opening-{prefix}{name}-{index // 2}")
    seed = f"levels-{prefix}{name}-{index}"
    high_seconds: list[float] = []
    low_seconds: list[float] = []
    strong = level_player(variant, high, f"{seed}-{high}", high_seconds)
    weak = level_player(variant, low, f"{seed}-{low}", low_seconds)
    high_white = index % 2 == 0
    started = time.process_time()
    winner, plies = play_game(variant, strong if high_white else weak,
                              weak if high_white else strong, max_plies, opening, adjudicate)
    side = "white" if high_white else "black"
    outcome = "draw" if winner == "draw" else ("win" if winner == side else "loss")
    return {"variant": f"{name} {high}-{low}", "game": index, "outcome": outcome,
            "plies": plies, "cpu": time.process_time() - started,
            "definition": level_definition(task),
            "move_seconds": {str(high): high_seconds, str(low): low_seconds}}


def read_level_log(path: pathlib.Path | None) -> dict:
    """The games already played, by (pair key, game index) with their definition; a torn
    last line (a run stopped while writing) is skipped."""
    done: dict = {}
    if path is None or not path.exists():
        return done
    for line in path.read_text().splitlines():
        try:
            result = json.loads(line)
            done[(result["variant"], result["game"])] = result
        except (ValueError, KeyError, TypeError):
            continue
    return done


def adjudicates(name: str, adjudicate: str) -> bool:
    """Whether a level game of variant ``name`` is adjudicated: ``adjudicate`` is 'on',
    'off' or 'auto' (single pieces yes, columns no: see the module's docstring)."""
    if adjudicate == "auto":
        return not get_variant(name).holds_columns
    return adjudicate == "on"


def levels(variants: list[str], games: int, max_plies: int, adjudicate: str,
           jobs: int, pairs: list[tuple[int, int]], log: pathlib.Path | None = None,
           salt: str = "") -> dict:
    """Every pair in every variant; games in ``log`` (JSON lines) with the same
    definition are taken from it, new ones appended, so a stopped run resumes."""
    tasks = [(name, i, high, low, max_plies, adjudicates(name, adjudicate), salt)
             for i in range(games) for name in variants for high, low in pairs]
    done = read_level_log(log)
    results, todo = [], []
    for task in tasks:
        earlier = done.get((f"{task[0]} {task[2]}-{task[3]}", task[1]))
        if earlier is not None and earlier.get("definition") == level_definition(task):
            results.append(earlier)
        else:
            todo.append(task)
    print(f"levels: {len(results)} games from {log}, {len(todo)} to play", file=sys.stderr,
          flush=True)

    def keep(result: dict) -> None:
        if log is not None:
            with log.open("a") as out:
                out.write(json.dumps(result) + "\n")

    results += run_games(level_game, todo, jobs, "levels", keep)
    keys = [f"{name} {high}-{low}" for name in variants for high, low in pairs]
    table = summarise(results, keys)
    out: dict = {"games_per_pair": games, "adjudicate": adjudicate, "salt": salt,
                 "pairs": table,
                 "cpu_seconds": round(sum(r["cpu"] for r in results))}
    higher = [entry["score"] for key, entry in table.items() if not key.endswith("10-1")]
    full = [entry for key, entry in table.items() if key.endswith("10-1")]
    out["lowest_score_of_a_higher_level"] = min(higher) if higher else None
    out["level1_loses_to_full_strength"] = {
        key.split()[0]: round(entry["wins"] / entry["games"], 3)
        for key, entry in table.items() if key.endswith("10-1")} if full else None
    out["move_seconds"] = move_times(results)
    return out


def move_times(results: list[dict]) -> dict:
    """CPU seconds per move of each level in each variant: median, 95th percentile,
    longest, and how many moves (forced moves included: they cost nothing)."""
    by_level: dict = {}
    for result in results:
        name = result["variant"].split()[0]
        for number, seconds in result["move_seconds"].items():
            by_level.setdefault(int(number), {}).setdefault(name, []).extend(seconds)
    out: dict = {}
    for number in sorted(by_level):
        out[str(number)] = {}
        for name, seconds in by_level[number].items():
            seconds = sorted(seconds)
            out[str(number)][name] = {
                "median": round(statistics.median(seconds), 3),
                "p95": round(seconds[min(len(seconds) - 1, int(0.95 * len(seconds)))], 3),
                "max": round(seconds[-1], 3), "moves": len(seconds)}
    return out


def run_games(function, tasks: list[tuple], jobs: int, label: str,
              keep=None) -> list[dict]:
    results: list[dict] = []
    if not tasks:
        return results
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for result in pool.map(function, tasks):
            results.append(result)
            if keep is not None:
                keep(result)
            print(f"{label} {result['variant']} game {result['game']}: {result['outcome']} "
                  f"in {result['plies']} plies", file=sys.stderr, flush=True)
    return results


def summarise(results: list[dict], variants: list[str]) -> dict:
    out = {}
    for name in variants:
        outcomes = [r["outcome"] for r in results if r["variant"] == name]
        if outcomes:
            out[name] = {"games": len(outcomes), "wins": outcomes.count("win"),
                         "draws": outcomes.count("draw"), "losses": outcomes.count("loss"),
                         "score": round(score_of(outcomes), 3)}
    return out


# -- tactics ----------------------------------------------------------------------------

def tactics(variants: list[str], seconds: float) -> dict:
    suite = json.loads(TACTICS.read_text())
    horizon = suite["check_horizon"]
    out = {}
    for name in variants:
        variant = get_variant(name)
        engine = Engine(variant, clock=time.process_time)
        prover = MaterialProver(variant)
        entries = [entry for entry in suite["positions"] if entry["variant"] == name]
        solved = 0
        failures = []
        times = []
        for entry in entries:
            position = parse_fen(variant, entry["fen"])
            result = engine.search(position, seconds=seconds)
            gain = prover.gain(position, result.move, horizon, nodes=2_000_000)
            times.append(result.seconds)
            if gain is not None and gain >= 1:
                solved += 1
            else:
                # not counted as solved; said beside it: whether the move played wins
                # material by force further on (a deeper shot than the suite's)
                deeper = prover.gain(position, result.move, horizon + 2, nodes=2_000_000)
                failures.append({"id": entry["id"],
                                 "played": format_move(position, result.move),
                                 "solutions": entry["solutions"],
                                 f"gain_at_horizon_{horizon + 2}": deeper})
        if entries:
            out[name] = {"positions": len(entries), "solved": solved,
                         "share": round(solved / len(entries), 3),
                         "median_seconds": round(statistics.median(times), 3),
                         "unsolved": failures}
        print(f"tactics {name}: {solved}/{len(entries)}", file=sys.stderr, flush=True)
    return out


# -- speed ------------------------------------------------------------------------------

def speed(variants: list[str], repeat: int) -> dict:
    out = {}
    for name in variants:
        variant = get_variant(name)
        position = initial_position(variant)
        engine = Engine(variant, clock=time.process_time)
        hint_times, rates = [], []
        for _ in range(repeat):
            started = time.process_time()
            result = engine.search(position, depth=6)
            spent = time.process_time() - started
            hint_times.append(spent)
        for _ in range(repeat):
            started = time.process_time()
            result = engine.search(position, depth=8)
            spent = time.process_time() - started
            rates.append(result.nodes / spent)
        out[name] = {"hint_depth6_seconds": round(statistics.median(hint_times), 3),
                     "nodes_per_second": round(statistics.median(rates)),
                     "depth8_nodes": result.nodes}
        print(f"speed {name}: {out[name]}", file=sys.stderr, flush=True)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", default="strength,scaling,scaling-nodes,tactics,speed")
    parser.add_argument("--variants", default=",".join(variant_names()))
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--scaling-games", type=int, default=20)
    parser.add_argument("--small-nodes", type=int, default=3000)
    parser.add_argument("--node-games", type=int, default=40)
    parser.add_argument("--budget", type=float, default=0.2)
    parser.add_argument("--max-plies", type=int, default=300)
    parser.add_argument("--tactics-seconds", type=float, default=1.0)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--level-games", type=int, default=40)
    parser.add_argument("--level-pairs", default="",
                        help="pairs to play, e.g. '2-1,10-1' (default: every level against "
                        "the next lower, and 10-1)")
    parser.add_argument("--adjudicate", default="auto", choices=["auto", "on", "off"],
                        help="level games: adjudicate single-piece games, play column "
                        "games out (auto), or adjudicate every game (on) or none (off)")
    parser.add_argument("--level-log", type=pathlib.Path, default=None,
                        help="JSON lines of level games: played games are read from it "
                        "(a stopped run resumes), new ones appended")
    parser.add_argument("--level-salt", default="",
                        help="other openings and game seeds (tune on one salt, confirm on "
                        "the default)")
    args = parser.parse_args()
    parts = args.part.split(",")
    variants = args.variants.split(",")
    report: dict = {"budget_seconds": args.budget, "clock": "process CPU time"}
    if "speed" in parts:
        report["speed"] = speed(variants, args.repeat)
    if "tactics" in parts:
        report["tactics"] = tactics(variants, args.tactics_seconds)
    if "strength" in parts:
        tasks = [(name, i, args.budget, args.max_plies) for name in variants
                 for i in range(args.games)]
        report["strength"] = summarise(run_games(strength_game, tasks, args.jobs, "strength"),
                                       variants)
    if "scaling" in parts:
        tasks = [(name, i, args.budget, args.max_plies) for name in variants
                 for i in range(args.scaling_games)]
        report["scaling"] = summarise(run_games(scaling_game, tasks, args.jobs, "scaling"),
                                      variants)
    if "scaling-nodes" in parts:
        tasks = [(name, i, args.small_nodes, args.max_plies) for name in variants
                 for i in range(args.node_games)]
        report["scaling_nodes"] = summarise(
            run_games(scaling_game, tasks, args.jobs, "scaling-nodes"), variants)
    if "levels" in parts:
        if args.level_pairs:
            pairs = [tuple(int(n) for n in pair.split("-")) for pair in
                     args.level_pairs.split(",")]
        else:
            pairs = [(n, n - 1) for n in range(2, 11)] + [(10, 1)]
        report["levels"] = levels(variants, args.level_games, args.max_plies,
                                  args.adjudicate, args.jobs, pairs, args.level_log,
                                  args.level_salt)
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
