"""A game read from disk is the game that was recorded: after every step of a random
session of recorder calls (moves, takebacks, amendments, irregular moves, corrections,
take-backs to a ply, events, tags, clocks, results and their withdrawal, refused calls
and writes that fail on a full disk among them), the recorder's live game and the game
rebuilt from its journal are the same (hypothesis, derandomized)."""

from __future__ import annotations

import errno
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from draughtsboard.board.game.record import Game
from draughtsboard.board.rules.errors import DraughtsError
from draughtsboard.recording import Recorder, rebuild_game
from draughtsboard.recording import journal as journal_module
from draughtsboard.recording.journal import load_journal

SESSIONS = settings(max_examples=30, derandomize=True, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow,
                                           HealthCheck.function_scoped_fixture])
STEPS = 40


def _same(game: Game) -> tuple:
    """Everything a game says, in plain values."""
    return (game.variant.name, game.start, dict(game.tags), game.draw_preset,
            list(game.moves), list(game.events), game.result, game.result_reason,
            game.mode, game.start_monotonic, game.start_wall, game.positions,
            game.draw_counters)


def _full_disk(fd, data):
    raise OSError(errno.ENOSPC, "No space left on device")


def _step(recorder: Recorder, game_id: str, rng: random.Random, t: float) -> None:
    game = recorder.game(game_id)
    legal = game.position.legal_moves()
    choice = rng.choice(["move", "move", "move", "move", "takeback", "amend", "irregular",
                         "correct", "takeback_to", "event", "tags", "clock", "flag",
                         "result", "withdraw", "bad"])
    if game.result is not None and rng.random() < 0.5:
        choice = "withdraw"  # a finished game refuses the rest: go on with it sooner
    if choice == "move" and legal:
        recorder.record_move(game_id, rng.choice(legal), t, 1000 + t,
                             clock=(rng.uniform(0, 300), rng.uniform(0, 300)))
    elif choice == "takeback":
        recorder.record_takeback(game_id, t, 1000 + t)
    elif choice == "amend":
        recorder.record_takeback(game_id, t, 1000 + t, amended_by="c3-b4")
    elif choice == "irregular" and legal:
        move = rng.choice(legal)
        after = game.position.play(move)
        recorder.record_irregular_move(game_id, move.path, move.captures, "x-y",
                                       "a piece too many taken", "irregular",
                                       after.fen(), t, 1000 + t)
    elif choice == "correct":
        recorder.record_correction(game_id, game.position.fen(), "corrected", t, 1000 + t)
    elif choice == "takeback_to":
        recorder.record_takeback_to(game_id, rng.randint(0, game.ply + 1), "back", t,
                                    1000 + t)
    elif choice == "event":
        kind = rng.choice(["illegal", "irregularity", "note", "draw_offer", "hint",
                           "coach_note"])
        getattr(recorder, f"record_{kind}")(game_id, f"{kind} {t}", t_monotonic=t,
                                            t_wall=1000 + t)
    elif choice == "tags":
        recorder.record_tags(game_id, {"Event": f"Round {int(t)}"}, t, 1000 + t)
    elif choice == "clock":
        recorder.record_clock(game_id, rng.choice(["start", "pause", "resume"]),
                              (rng.uniform(0, 300), rng.uniform(0, 300)), "", t, 1000 + t)
    elif choice == "flag":
        recorder.record_flag_fall(game_id, (0.0, 12.5), "White's flag fell", t, 1000 + t)
    elif choice == "result":
        recorder.record_result(game_id, rng.choice(["1-0", "0-1", "1-1", "1-0", "*"]), "why", t,
                               1000 + t)
    elif choice == "withdraw":
        recorder.record_result_withdrawn(game_id, "", t, 1000 + t)
    elif choice == "bad":
        recorder.record_move(game_id, "h8-a1", t, 1000 + t)


@pytest.mark.slow  # seconds: runs in the full suite, not the fast loop
@SESSIONS
@given(seed=st.integers(0, 2**32 - 1))
def test_the_live_game_is_the_game_rebuilt_from_its_journal(tmp_path_factory, seed):
    rng = random.Random(seed)
    with Recorder(tmp_path_factory.mktemp("data"), sync=False) as recorder:
        game_id = recorder.start_game("russian", {"White": "Ann"}, mode="training",
                                      t_monotonic=0.0, t_wall=1000.0)
        refused = 0
        for step in range(1, STEPS + 1):
            full = rng.random() < 0.1
            try:
                with pytest.MonkeyPatch.context() as patch:
                    if full:
                        patch.setattr(journal_module.os, "write", _full_disk)
                    _step(recorder, game_id, rng, float(step))
            except (DraughtsError, OSError):
                refused += 1
            live = recorder.game(game_id)
            rebuilt = rebuild_game(load_journal(recorder.path_of(game_id)).records)
            assert _same(live) == _same(rebuilt), f"after step {step} (seed {seed})"
        assert refused < STEPS
