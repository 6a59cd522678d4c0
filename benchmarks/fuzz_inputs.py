"""Fuzz every command's input: FEN, the `track` stream, PDN, the TOML board config and the
web page's request bodies, with seeded mutations of valid inputs and a few known
adversarial shapes (deep nesting, huge numbers, NaN, long runs of one character).

Each input goes through the code a user reaches (``draughtsboard moves --fen``,
``draughtsboard track``, ``draughtsboard pdn check``, `parse_config`, the HTTP app of a
live simulated session) in this process. Counted as failures: a traceback (an exception
that escapes the command's top-level handler, exit status 70 "internal error", an
exception other than `ConfigError` from the config reader, an HTTP 5xx or a 4xx without a
one-line reason), a hang (an input taking more than ``--timeout`` seconds), and memory
(the process's peak RSS is printed, with the largest input).

    .venv/bin/python -m benchmarks.fuzz_inputs --inputs 12000

The last line is JSON: ``{"inputs": N, "tracebacks": 0, "hangs": 0, "peak_rss_mb": ...}``.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
import resource
import signal
import sys
import tempfile
import time
import warnings
from pathlib import Path

import draughtsboard.board.rules.variants  # noqa: F401  (registers every variant)
from draughtsboard import cli
from draughtsboard.board.rules import initial_position
from draughtsboard.board.rules.geometry import board_geometry
from draughtsboard.board.rules.variants import VARIANTS, get_variant
from draughtsboard.hardware.config import ConfigError, parse_config

ROOT = Path(__file__).resolve().parent.parent
SPECIAL = ["NaN", "Infinity", "-Infinity", "1e400", "9" * 5000, "(" * 2000, ")" * 50, "{",
           "}", "[", "]", '"', "\\", "\x00", "\r\n", "\r", "é", "€", "\ufeff", "0" * 300,
           "-1", "99999999999999999999", "true", "null", "[]", "{}", "x" * 3000, "\t",
           "[" * 3000, "1." * 500, "$1 " * 200, "%", ";"]
MAX_INPUT = 300_000


class Hang(Exception):
    pass


def mutate(rng: random.Random, text: str) -> str:
    """A few random edits of ``text``: deletions, insertions of odd characters and
    special tokens, duplications, truncation, swaps."""
    for _ in range(rng.randint(1, 4)):
        n = len(text)
        pos = rng.randrange(n + 1)
        op = rng.randrange(8)
        if op == 0 and n:
            text = text[:pos] + text[pos + rng.randint(1, 20):]
        elif op == 1:
            text = text[:pos] + "".join(chr(rng.choice([rng.randrange(32, 127),
                                                        rng.randrange(0, 0x3000)]))
                                        for _ in range(rng.randint(1, 5))) + text[pos:]
        elif op == 2:
            text = text[:pos] + rng.choice(SPECIAL) + text[pos:]
        elif op == 3 and n:
            span = text[pos:pos + rng.randint(1, 40)]
            text = text[:pos] + span * rng.choice([2, 10, 100, 1000]) + text[pos:]
        elif op == 4:
            text = text[:pos]
        elif op == 5 and n > 2:
            a, b = sorted(rng.sample(range(n), 2))
            text = text[:a] + text[b:] + text[a:b]
        elif op == 6 and n:
            text = text[:pos] + text[pos:pos + 30].swapcase() + text[pos + 30:]
        else:
            text = text + rng.choice(SPECIAL)
    return text[:MAX_INPUT]


JSON_VALUES = [float("nan"), float("inf"), -float("inf"), 10 ** 400, -1, 0, 2.5, 1e300, True,
               None, "", "tökén", "\u2028", [], {}, [[[[[]]]]], {"a": 1}, "x" * 5000,
               [1] * 5000, 2 ** 64, "W:W99:B1", ["lift"], [["lift", "22"]]]


def mutate_json(rng: random.Random, text: str) -> str:
    """Replace one value anywhere in a JSON text by an odd one (NaN, Infinity, huge
    numbers, wrong types, deep nesting), then serialise it again; falls back to `mutate`
    for text that is not JSON."""
    try:
        data = json.loads(text)
    except ValueError:
        return mutate(rng, text)
    slots = []

    def walk(node):
        if isinstance(node, dict):
            for key in node:
                slots.append((node, key))
                walk(node[key])
        elif isinstance(node, list):
            for index in range(len(node)):
                slots.append((node, index))
                walk(node[index])

    walk(data)
    if slots:
        holder, key = rng.choice(slots)
        holder[key] = rng.choice(JSON_VALUES)
    elif rng.random() < 0.5:
        data = rng.choice(JSON_VALUES)
    if rng.random() < 0.1:
        data = [data] if rng.random() < 0.5 else {"wrapped": data}
    try:
        return json.dumps(data)
    except (ValueError, OverflowError):
        return mutate(rng, text)


def mutate_lines(rng: random.Random, text: str) -> str:
    lines = text.splitlines()
    index = rng.randrange(len(lines))
    lines[index] = mutate_json(rng, lines[index])
    return "\n".join(lines) + "\n"


# -- seeds ------------------------------------------------------------------------------

def fen_seeds(rng: random.Random) -> list[tuple[str, str]]:
    seeds = []
    for name in VARIANTS:
        position = initial_position(get_variant(name))
        for _ in range(8):
            seeds.append((name, position.fen()))
            legal = sorted(position.legal_moves(), key=lambda m: (m.path, m.captures))
            if not legal:
                break
            position = position.play(rng.choice(legal))
    return seeds


def track_seed(rng: random.Random) -> str:
    variant = get_variant("russian")
    position = initial_position(variant)
    squares = set(n for n in variant.geometry.numbers if position.occupancy() >> (n - 1) & 1)
    t = 0
    lines = [json.dumps({"t": t, "occupied": sorted(squares)})]
    for _ in range(rng.randint(1, 6)):
        legal = sorted(position.legal_moves(), key=lambda m: (m.path, m.captures))
        move = rng.choice(legal)
        squares.discard(move.path[0])
        t += 300
        lines.append(json.dumps({"t": t, "occupied": sorted(squares)}))
        squares.difference_update(move.captures)
        squares.add(move.path[-1])
        t += 300
        lines.append(json.dumps({"t": t, "occupied": sorted(squares)}))
        position = position.play(move)
    return "\n".join(lines) + "\n"


def pdn_seeds() -> list[str]:
    texts = []
    for path in sorted((ROOT / "tests" / "data").glob("*.pdn")):
        text = path.read_bytes().decode("utf-8", "replace")
        texts.append(text[:20_000])
    return texts


def toml_seeds() -> list[str]:
    folder = ROOT / "draughtsboard" / "hardware" / "configs"
    return [path.read_text("utf-8") for path in sorted(folder.glob("*.toml"))]


HTTP_SEEDS = [
    ("/api/hands", '{"actions": [["lift", 22], ["place", 18]]}'),
    ("/api/hands", '{"actions": [["setup", null]]}'),
    ("/api/arbiter/check", "{}"),
    ("/api/arbiter/tags", '{"tags": {"White": "Ann", "Round": "3"}}'),
    ("/api/arbiter/result", '{"result": "1-0", "reason": "resigned"}'),
    ("/api/arbiter/new-game", '{"tags": {"Event": "Club"}, "fen": "W:W22:B18"}'),
    ("/api/arbiter/acknowledge", "{}"),
    ("/api/arbiter/repair", '{"action": "resume"}'),
]


# -- running one input ------------------------------------------------------------------

def run_cli(argv: list[str], stdin: str | None = None) -> str | None:
    """``None`` if the command behaved, else what went wrong."""
    out, err = io.StringIO(), io.StringIO()
    saved_stdin = sys.stdin
    try:
        if stdin is not None:
            sys.stdin = io.StringIO(stdin)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = cli.main(argv)
    except SystemExit as done:  # argparse: a usage error, one line
        status = done.code
    except Hang:
        raise
    except BaseException as error:  # noqa: BLE001 - what this benchmark counts
        return f"{type(error).__name__}: {str(error)[:120]}"
    finally:
        sys.stdin = saved_stdin
    if status == getattr(cli, "EXIT_SOFTWARE", 70) or "Traceback" in err.getvalue():
        return err.getvalue().strip().splitlines()[-1][:160]
    return None


def run_fen(rng, seeds):
    variant, fen = rng.choice(seeds)
    text = mutate(rng, fen)
    if "\x00" in text:
        text = text.replace("\x00", "")  # an argv string cannot hold NUL
    return text, run_cli(["moves", "--variant", variant, "--fen", text])


def run_track(rng, _seeds):
    seed = track_seed(rng)
    text = mutate_lines(rng, seed) if rng.random() < 0.6 else mutate(rng, seed)
    return text, run_cli(["track"], stdin=text)


def run_pdn(rng, seeds, folder: Path):
    text = mutate(rng, rng.choice(seeds))
    path = folder / "fuzz.pdn"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    return text, run_cli(["pdn", "check", str(path)])


def run_toml(rng, seeds):
    text = mutate(rng, rng.choice(seeds))
    try:
        parse_config(text, "fuzz.toml")
    except ConfigError as error:
        if "\n" in f"{error.source}: {error.problems[0] if error.problems else ''}":
            return text, "multi-line config error"
    except Hang:
        raise
    except BaseException as error:  # noqa: BLE001
        return text, f"{type(error).__name__}: {str(error)[:120]}"
    return text, None


def run_http(rng, client, token):
    path, body = rng.choice(HTTP_SEEDS)
    roll = rng.random()
    text = mutate_json(rng, body) if roll < 0.5 else mutate(rng, body) if roll < 0.95 else body
    headers = {"content-type": rng.choice(["application/json"] * 8 + ["text/plain", ""])}
    if path.startswith("/api/arbiter") and rng.random() < 0.9:
        headers["authorization"] = f"Bearer {token}"
    response = client.post(path, content=text.encode("utf-8", "surrogatepass"),
                           headers=headers)
    if response.status_code >= 500:
        return text, f"HTTP {response.status_code} on {path}: {response.text[:100]}"
    if response.status_code >= 400:
        try:
            reason = response.json()["error"]
        except (ValueError, KeyError, TypeError):
            return text, f"HTTP {response.status_code} without a JSON reason on {path}"
        if not reason or "\n" in reason:
            return text, f"HTTP {response.status_code} reason not one line on {path}"
    return text, None


def open_http():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from draughtsboard.hardware.backends import open_simulated_board
    from draughtsboard.play import PlaySession
    from draughtsboard.recording import Recorder
    from draughtsboard.web.app import create_app

    data = Path(tempfile.mkdtemp(prefix="fuzz-http-"))
    variant = get_variant("russian")
    occupied = [n for n in variant.geometry.numbers
                if initial_position(variant).occupancy() >> (n - 1) & 1]
    board = open_simulated_board(board_geometry(8), occupied=occupied, real_time=True)
    recorder = Recorder(data, sync=False)
    token = "fuzz-token"
    session = PlaySession("russian", board, board, recorder, hands=board.simulation,
                          token=token, backend="sim")
    session.start()
    client = TestClient(create_app(session), raise_server_exceptions=False,
                        client=("127.0.0.1", 50000))
    client.__enter__()

    def close():
        client.__exit__(None, None, None)
        session.stop()
        board.close()
        recorder.close()

    return client, token, close


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=12_000, help="inputs in all")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=int, default=10, help="seconds before a hang")
    parser.add_argument("--show", type=int, default=5, help="failures shown per kind")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    folder = Path(tempfile.mkdtemp(prefix="fuzz-"))
    seeds = {"fen": fen_seeds(rng), "pdn": pdn_seeds(), "toml": toml_seeds()}
    client, token, close_http = open_http()
    kinds = {
        "fen": lambda: run_fen(rng, seeds["fen"]),
        "track": lambda: run_track(rng, None),
        "pdn": lambda: run_pdn(rng, seeds["pdn"], folder),
        "toml": lambda: run_toml(rng, seeds["toml"]),
        "http": lambda: run_http(rng, client, token),
    }
    share = {"fen": 0.25, "track": 0.15, "pdn": 0.2, "toml": 0.15, "http": 0.25}

    def alarm(signum, frame):
        raise Hang()

    signal.signal(signal.SIGALRM, alarm)
    counts = {kind: {"inputs": 0, "tracebacks": 0, "hangs": 0, "slowest_s": 0.0}
              for kind in kinds}
    shown: list[str] = []
    largest = 0
    started = time.perf_counter()
    logging_off()
    try:
        for kind, fraction in share.items():
            for _ in range(round(args.inputs * fraction)):
                begun = time.perf_counter()
                signal.alarm(args.timeout)
                try:
                    text, problem = kinds[kind]()
                except Hang:
                    text, problem = "", "hang"
                finally:
                    signal.alarm(0)
                took = time.perf_counter() - begun
                entry = counts[kind]
                entry["inputs"] += 1
                entry["slowest_s"] = max(entry["slowest_s"], round(took, 3))
                largest = max(largest, len(text))
                if problem == "hang":
                    entry["hangs"] += 1
                elif problem:
                    entry["tracebacks"] += 1
                if problem and sum(1 for s in shown if s.startswith(kind)) < args.show:
                    shown.append(f"{kind}: {problem} <- {text[:80]!r}")
    finally:
        close_http()
    for line in shown:
        print(line, file=sys.stderr)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    report = {"inputs": sum(c["inputs"] for c in counts.values()),
              "tracebacks": sum(c["tracebacks"] for c in counts.values()),
              "hangs": sum(c["hangs"] for c in counts.values()),
              "peak_rss_mb": round(peak, 1), "largest_input_chars": largest,
              "per_kind": counts, "seconds": round(time.perf_counter() - started, 1)}
    print(json.dumps(report))
    return 0 if report["tracebacks"] == 0 and report["hangs"] == 0 else 1


def logging_off() -> None:
    import logging

    logging.disable(logging.CRITICAL)  # the session's own log lines are not the subject


if __name__ == "__main__":
    sys.exit(main())
