"""The hall's clocks: a board's reading kept with the time the hall received it (the
hall's own clock), and sent by the views as of now, the running side aged by the hall's
clock alone (the board's stated moment is never used for the age)."""

from __future__ import annotations

from draughtsboard.board.game.record import Game
from draughtsboard.board.rules.variants import get_variant
from draughtsboard.hall.ingest import BoardLive, Ingest
from draughtsboard.hall.store import HallStore
from draughtsboard.hall.views import board_summary, clock_now, with_clock_now
from draughtsboard.hall_protocol.games import game_record
from draughtsboard.hall_protocol.messages import ClockStatus, StateMessage

GID = "00001-20261207-120000"
OTHER = "00001-20261207-130000"
# the board's wall clock is a day off the hall's: it must not matter
READING = ClockStatus(300.0, 297.5, "black", "running", "300+5", (), at=1_800_086_400.0)


def live(reading: ClockStatus = READING, received: float = 1_800_000_000.0) -> BoardLive:
    return BoardLive(clock=reading, clock_received=received, clock_game=GID)


def test_the_running_side_is_aged_by_the_halls_clock_from_receipt():
    board = live()
    assert clock_now(board, GID, 1_800_000_000.0) == {
        "white": 300.0, "black": 297.5, "running": "black", "status": "running",
        "control": "300+5", "flagged": []}
    later = clock_now(board, GID, 1_800_000_012.25)
    assert later is not None and (later["white"], later["black"]) == (300.0, 285.25)


def test_never_below_zero_and_never_more_if_the_halls_clock_steps_back():
    board = live()
    gone = clock_now(board, GID, 1_800_001_000.0)
    assert gone is not None and gone["black"] == 0.0
    back = clock_now(board, GID, 1_799_999_990.0)
    assert back is not None and back["black"] == 297.5


def test_a_paused_clock_stands():
    paused = ClockStatus(300.0, 297.5, None, "paused", "300+5")
    reading = clock_now(live(paused), GID, 1_800_000_100.0)
    assert reading is not None and (reading["black"], reading["running"]) == (297.5, None)


def test_no_reading_or_another_games_reading_gives_no_clock():
    assert clock_now(BoardLive(), GID, 0.0) is None  # an older board: the move's clocks
    assert clock_now(live(), OTHER, 1_800_000_000.0) is None
    assert clock_now(live(), None, 1_800_000_000.0) is None


def test_the_hall_keeps_the_reading_with_its_own_receive_time(tmp_path):
    ingest = Ingest(HallStore(tmp_path, sync=False))
    game = Game(get_variant("russian"), tags={"Round": "1", "TimeControl": "300+5"})
    waiting = ClockStatus(300.0, 300.0, None, "waiting", "300+5", at=5.0)
    ingest.handle(1, "state", StateMessage(game_record(GID, game), clock=waiting).to_json(),
                  1_800_000_000.0)
    board = ingest.live(1)
    assert board.clock == waiting and board.clock_received == 1_800_000_000.0
    assert board.clock_game == GID
    summary = with_clock_now(board_summary(1, board, ingest.store.game(1, GID)), board,
                             1_800_000_050.0)
    # before the first move: the clocks show, standing
    assert summary["clock"]["white"] == 300.0 and summary["clock"]["status"] == "waiting"
    assert summary["clocks"] is None
    ingest.handle(1, "state", StateMessage(game_record(GID, game)).to_json(),
                  1_800_000_060.0)
    assert ingest.live(1).clock is None  # the board no longer sends one: none shown
