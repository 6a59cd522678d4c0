"""How the old-file fixtures (``tests/data/old-records/``) were made, and how to read
them back.

The fixtures are the board journals, a hall store and the PDN of each game as the code
of the release before the typed record model wrote them (the package at commit de624b5):
the record model must read every one of them back to the same game, PDN byte for byte.
They were written once, by this module on that code, and committed; they are never
written again (a fixture written by the new code would prove nothing). To see how they
were made, read `make`; to make a fresh set elsewhere (for another release), run::

    python -m tests.recording.old_records DIRECTORY

Every time is given (no clock is read), so the same code makes the same files.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from draughtsboard.board.game.pdn_writer import write_game
from draughtsboard.board.game.record import Game
from draughtsboard.board.message import Message
from draughtsboard.board.ports import Snapshot
from draughtsboard.board.rules import initial_position
from draughtsboard.board.rules.variants import get_variant
from draughtsboard.board.tracker import FMJD, Mode, Tracker
from draughtsboard.hall.store import HallStore
from draughtsboard.hall_protocol.games import game_record, move_records
from draughtsboard.recording import Recorder
from draughtsboard.recording.tracker_events import record_tracker_event

from ..board.hand import TrackerHand

FIXTURES = Path(__file__).resolve().parent.parent / "data" / "old-records"
T0 = 1_780_000_000.0  # the wall clock of the first game (2026)
TAGS = {"Event": "Club championship", "Site": "Utrecht", "Date": "2026.05.28",
        "Round": "3", "White": "Anna", "Black": "Bram"}


class JournalledHand(TrackerHand):
    """A hand whose tracker events are journalled as ``play`` journals them, at the wall
    time ``wall`` plus the hand's own clock."""

    def __init__(self, tracker, recorder, game_id, wall=1000.0, **kwargs):
        self.recorder, self.game_id, self.wall = recorder, game_id, wall
        super().__init__(tracker, **kwargs)

    def _feed(self):
        self.now += self.step
        events = self.tracker.feed(Snapshot(self.occupied, self.now))
        for event in events:
            if event.kind != "leds":
                record_tracker_event(self.recorder, self.game_id, event, self.wall + self.now)
        self.events.extend(events)


def _moves(recorder: Recorder, game_id: str, texts: list[str], t: float,
           clock: tuple[float, float] | None = None) -> float:
    """Record ``texts`` a few seconds apart from ``t`` (monotonic; the wall clock is
    ``T0`` later); with ``clock``, each move carries both clocks, the mover's less."""
    for index, text in enumerate(texts):
        t += 7.0 + index % 3
        figures = None
        if clock is not None:
            white, black = clock
            if index % 2 == 0:
                white -= 7.0 + index
            else:
                black -= 7.0 + index
            clock = figures = (white, black)
        recorder.record_move(game_id, text, t, T0 + t, clock=figures)
    return t


def tournament_game(recorder: Recorder) -> str:
    """Russian, tournament: clock start, pause and resume with figures, clocks on moves,
    an illegal attempt and an irregularity (with messages), tags set mid-game, a note, a
    flag fall, a draw offer, an arbiter result with its reason, withdrawn, and the
    game's last result."""
    game_id = recorder.start_game("russian", TAGS | {"TimeControl": "600+5"},
                                  t_monotonic=10.0, t_wall=T0 + 10.0)
    recorder.record_clock(game_id, "start", (600.0, 600.0), t_monotonic=11.0,
                          t_wall=T0 + 11.0)
    t = _moves(recorder, game_id, ["c3-b4", "h6-g5"], 11.0, (600.0, 600.0))
    recorder.record_illegal(game_id, "g3-f5", "not a legal move", t + 1, T0 + t + 1,
                            message=Message.of("log.illegal", move="g3-f5"))
    recorder.record_irregularity(game_id, "captured pieces removed out of the order taken",
                                 t + 2, T0 + t + 2,
                                 message=Message.of("log.note.out_of_order"))
    recorder.record_clock(game_id, "pause", (581.25, 590.5), "clock paused by the arbiter",
                          t + 3, T0 + t + 3)
    recorder.record_tags(game_id, {"Round": "3.1", "Annotator": "arbiter"}, t + 4,
                         T0 + t + 4)
    recorder.record_clock(game_id, "resume", (581.25, 590.5), t_monotonic=t + 5,
                          t_wall=T0 + t + 5)
    t = _moves(recorder, game_id, ["b4-c5", "b6:d4", "e3:c5", "d6:b4"], t + 5,
               (581.25, 590.5))
    recorder.record_note(game_id, "the players asked for the light to be dimmed", t + 1,
                         T0 + t + 1)
    recorder.record_flag_fall(game_id, (0.0, 412.0), "White's flag fell", t + 2, T0 + t + 2)
    recorder.record_draw_offer(game_id, "draw: threefold repetition", t + 3, T0 + t + 3)
    recorder.record_result(game_id, "0-1", "White lost on time", t + 4, T0 + t + 4)
    recorder.record_result_withdrawn(game_id, t_monotonic=t + 5, t_wall=T0 + t + 5)
    t = _moves(recorder, game_id, ["a3:c5"], t + 5)
    recorder.record_result(game_id, "1/2-1/2", "agreed by the players", t + 1, T0 + t + 1)
    return game_id


def training_game(recorder: Recorder) -> str:
    """Russian, training: the coach's switches (hints off and on, warnings off), a hint
    and a blunder warning, a takeback, a slid move amended, a takeback with the
    caller's words, and the game abandoned (``*``, no reason)."""
    game_id = recorder.start_game("russian", {"White": "Trainee", "Date": "2026.05.29"},
                                  mode="training", t_monotonic=5.0, t_wall=T0 + 86400)
    wall = T0 + 86400 - 5.0
    recorder.record_coach_note(game_id, "hints switched off for this game", 6.0, wall + 6)
    t = _moves(recorder, game_id, ["c3-d4", "f6-g5"], 6.0)
    recorder.record_coach_note(game_id, "hints switched on", t + 1, wall + t + 1)
    recorder.record_hint(game_id, "hint 1 (the piece): d4", t + 2, wall + t + 2)
    t = _moves(recorder, game_id, ["d4-c5"], t + 2)
    recorder.record_coach_note(game_id, "blunder warning: d4-c5 loses a piece (-1.20)",
                               t + 1, wall + t + 1)
    recorder.record_takeback(game_id, t + 2, wall + t + 2)
    recorder.record_coach_note(game_id, "blunder warnings switched off for this game",
                               t + 3, wall + t + 3)
    t = _moves(recorder, game_id, ["g3-f4"], t + 3)
    recorder.record_takeback(game_id, t + 1, wall + t + 1, amended_by="g3-h4")
    t = _moves(recorder, game_id, ["g3-h4", "b6-a5"], t + 1)
    recorder.record_takeback(game_id, t + 1, wall + t + 1,
                             irregularity="the piece was put back by hand")
    recorder.record_coach_note(game_id, "blunder warnings switched on", t + 2, wall + t + 2)
    recorder.record_result(game_id, "*", "", t + 3, wall + t + 3)
    return game_id


def resumed_game(directory: Path) -> str:
    """Russian, free play: moves, the power goes (the recorder is dropped), a new
    recorder finds the game unfinished, notes the resume (monotonic times start again)
    and play goes on; left unfinished."""
    recorder = Recorder(directory, sync=False)
    game_id = recorder.start_game("russian", {"White": "Cees", "Black": "Dora",
                                              "Date": "2026.05.30"},
                                  mode="free", t_monotonic=100.0, t_wall=T0 + 2 * 86400)
    wall = T0 + 2 * 86400 - 100.0
    for index, text in enumerate(["e3-f4", "b6-c5", "f4-g5"]):
        recorder.record_move(game_id, text, 110.0 + 10 * index, wall + 110.0 + 10 * index)
    recorder.close()
    recorder = Recorder(directory, sync=False)
    found_id, _ = recorder.unfinished_game()
    assert found_id == game_id
    wall += 500.0  # after the restart: monotonic time from 0 again
    recorder.record_resume(game_id, 1.0, wall + 1.0)
    for index, text in enumerate(["h6:f4", "g3:e5"]):
        recorder.record_move(game_id, text, 5.0 + 10 * index, wall + 5.0 + 10 * index)
    recorder.close()
    return game_id


def irregular_game(recorder: Recorder) -> str:
    """Russian, tournament under FMJD's irregularity policy, played by the tracker: an
    irregular move that stood (with its position), then the arbiter's take-back to an
    earlier ply, a correction of the position, and a result with the rules' reason."""
    wall = T0 + 3 * 86400
    game_id = recorder.start_game("russian", {"Irregularities": "fmjd",
                                              "Date": "2026.05.31"},
                                  t_monotonic=0.0, t_wall=wall)
    hand = JournalledHand(Tracker(initial_position(get_variant("russian")),
                                  Mode.TOURNAMENT, check_start=False, policy=FMJD),
                          recorder, game_id, wall)
    hand.move("c3", "e5")  # irregular
    hand.move("d6", "f4").lift("e5")  # Black plays on: it stands
    hand.move("g3", "e5").lift("f4")
    hand.move("f6", "d4").lift("e5")
    recorder.record_takeback_to(game_id, 2, "taken back by the arbiter to ply 2", 20.0,
                                wall + 20.0)
    position = recorder.game(game_id).position
    recorder.record_correction(game_id, position.fen(), "position accepted by the arbiter",
                               21.0, wall + 21.0)
    move = sorted(position.legal_moves(), key=lambda m: (m.path, m.captures))[0]
    recorder.record_move(game_id, move, 25.0, wall + 25.0)
    recorder.record_result(game_id, "1-0", "Black has no legal move", 26.0, wall + 26.0)
    return game_id


def lasca_game(recorder: Recorder) -> str:
    """Lasca (columns): captures that take and free pieces, a result."""
    wall = T0 + 4 * 86400
    game_id = recorder.start_game("lasca", {"White": "Emma", "Black": "Fenna",
                                            "Date": "2026.06.01"},
                                  t_monotonic=0.0, t_wall=wall)
    t = _moves(recorder, game_id, ["e3-f4", "g5xe3", "f2xd4", "a5-b4", "c3xa5", "e5xc3",
                                   "d2xb4", "d4xf2", "g1xe3", "c5-d4", "c3xe5",
                                   "d6xf4xd2"], 0.0)
    recorder.record_result(game_id, "0-1", "White resigned", t + 1, wall + t + 1)
    return game_id


def international_game(recorder: Recorder) -> str:
    """International, from a set-up position (a FEN start), clocks, a draw the rules
    declare offered to the arbiter, and the arbiter's draw. The moves are the first
    legal move each time, in the rules' order."""
    wall = T0 + 5 * 86400
    fen = "W:W28,32,33,K45:B8,12,K3"
    game = Game.from_fen(get_variant("international"), fen)
    texts = []
    for _ in range(6):
        move = sorted(game.position.legal_moves(), key=lambda m: (m.path, m.captures))[0]
        texts.append(game.play(move).text)
    game_id = recorder.start_game("international", TAGS | {"Date": "2026.06.02"},
                                  start_fen=fen, t_monotonic=0.0, t_wall=wall)
    recorder.record_clock(game_id, "start", (300.0, 300.0), t_monotonic=0.5,
                          t_wall=wall + 0.5)
    t = _moves(recorder, game_id, texts, 0.5, (300.0, 300.0))
    recorder.record_draw_offer(game_id, "draw: 16 moves with kings only, no man moved "
                               "and no capture", t + 1, wall + t + 1)
    recorder.record_result(game_id, "1-1", "draw declared by the arbiter", t + 2,
                           wall + t + 2)
    return game_id


def hall_store(directory: Path, board_dir: Path) -> None:
    """A hall store of the board's games as the hall takes them in: each game created,
    its moves in two records, confirmed; one with a board's takeback, one with the
    arbiter's correction and tags, results from the rules, the arbiter and the board,
    one reopened; one game left open."""
    board = Recorder(board_dir, sync=False)
    store = HallStore(directory, sync=False)
    received = T0 + 10 * 86400
    regular = [game_id for game_id in board.game_ids()
               if not any(played.after is not None for played in board.game(game_id).moves)]
    for number, game_id in enumerate(regular, 1):  # the hall takes no irregular move
        game = board.game(game_id)
        record = game_record(game_id, game)
        hall_game = store.create(number, record, received)
        moves = move_records(game)
        half = len(moves) // 2
        store.add_moves(hall_game, moves[:half], half, received + 1)
        store.confirm(hall_game, half)
        store.add_moves(hall_game, moves[half:], len(moves), received + 2)
        if number == 2 and hall_game.ply >= 2:
            store.truncate(hall_game, hall_game.ply - 1, len(moves) + 2, received + 3)
        if number == 3:
            store.set_tags(hall_game, {**hall_game.game.tags, "Round": "7"})
            store.correct(hall_game, hall_game.game.position.fen(), received + 4, "arbiter")
        store.confirm(hall_game, hall_game.ply)
        if number == 1:
            store.set_result(hall_game, "1-0", "", received + 5, "board")
            store.reopen(hall_game, received + 6)
            store.set_result(hall_game, "1/2-1/2", "agreed", received + 7, "arbiter")
        elif number == 2:
            store.set_result(hall_game, "*", "", received + 5, "board")
        elif number == 4:
            store.set_result(hall_game, "1-0", "Black has no legal move", received + 5,
                             "rules")
        elif number == 5:
            store.set_result(hall_game, "0-1", "White resigned", received + 5, "venue")
            store.withdraw_result(hall_game, received + 6)
        received += 100.0
    store.close()
    board.close()


def hall_summary(store: HallStore) -> dict:
    """What the hall store holds of each game, for comparing one read with another."""
    out = {}
    for hall_game in store.all_games():
        out[f"{hall_game.board}/{hall_game.game_id}"] = {
            "pdn": write_game(hall_game.game), "finished": hall_game.finished,
            "result_source": hall_game.result_source, "confirmed": hall_game.confirmed,
            "changes": hall_game.changes, "received": hall_game.received,
            "started_received": hall_game.started_received,
            "result_received": hall_game.result_received,
            "result_reason": hall_game.game.result_reason,
            "corrections": {str(k): v for k, v in hall_game.corrections.items()},
        }
    return out


def make(directory: Path) -> None:
    """Write the whole fixture set into ``directory``: ``board/games/*.jsonl`` (the
    board's journals), ``board/pdn/<game id>.pdn`` (what the board exports of each),
    ``hall/boards/<n>/*.jsonl`` (a hall store of the same games) and ``hall.json`` (what
    the hall store reads back)."""
    board_dir = directory / "board"
    recorder = Recorder(board_dir, sync=False)
    tournament_game(recorder)
    training_game(recorder)
    recorder.close()
    resumed_game(board_dir)
    recorder = Recorder(board_dir, sync=False)
    irregular_game(recorder)
    lasca_game(recorder)
    international_game(recorder)
    (board_dir / "pdn").mkdir(exist_ok=True)
    for game_id in recorder.game_ids():
        (board_dir / "pdn" / f"{game_id}.pdn").write_text(recorder.export_pdn(game_id),
                                                         encoding="utf-8")
    recorder.close()
    (board_dir / "lock").unlink(missing_ok=True)
    hall_store(directory / "hall", board_dir)
    (directory / "hall" / "lock").unlink(missing_ok=True)
    (directory / "hall.json").write_text(
        json.dumps(hall_summary(_loaded(directory / "hall")), indent=1, sort_keys=True)
        + "\n", encoding="utf-8")


def _loaded(directory: Path) -> HallStore:
    store = HallStore(directory, sync=False)
    store.load()
    return store


if __name__ == "__main__":
    if len(sys.argv) != 2 or Path(sys.argv[1]).resolve() == FIXTURES:
        sys.exit("usage: python -m tests.recording.old_records DIRECTORY (not the committed "
                 "fixtures: they are the old release's, never written again)")
    make(Path(sys.argv[1]))
