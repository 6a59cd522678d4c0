"""The hall's decisions on each message, without a broker: duplicates, gaps asked for
again, stale messages, a takeback, and the hall's journal read back after a crash."""

from __future__ import annotations

import pytest

from draughtsboard.board.game.record import Game
from draughtsboard.board.rules.variants import get_variant
from draughtsboard.hall.ingest import Ingest, Resend
from draughtsboard.hall.store import HallStore
from draughtsboard.hall_protocol import messages
from draughtsboard.hall_protocol.broker import BrokerURLError, parse_broker_url
from draughtsboard.hall_protocol.games import game_record
from tests.hall.board_side import move_record
from tests.hall.words_check import in_english

GID = "00002-20261130-120000"
MOVES = ["c3-d4", "f6-g5", "g3-f4", "g7-f6", "b2-c3"]


def moves_of(texts):
    game = Game(get_variant("russian"))
    return [move_record(game, text) for text in texts]


def ply(seq: int, move: messages.MoveRecord, changes: int | None = None) -> bytes:
    return messages.PlyMessage(GID, seq, changes or seq, move).to_json()


def start(ingest: Ingest, now: float = 0.0, mode: str = "tournament") -> None:
    """A game begins; a tournament game for round 1, a training game for no round (a
    round's game is a tournament game whatever its mode)."""
    tags = {"Round": "1"} if mode == "tournament" else {}
    game = Game(get_variant("russian"), tags=tags, mode=mode)
    ingest.handle(1, "state", messages.StateMessage(game_record(GID, game)).to_json(), now)


def texts(store: HallStore) -> list[str]:
    return [p.text for p in store.game(1, GID).game.moves]


@pytest.fixture
def ingest(tmp_path):
    store = HallStore(tmp_path, sync=False)
    yield Ingest(store)
    store.close()


def test_duplicates_are_dropped_and_a_gap_is_asked_for_then_filled(ingest):
    start(ingest)
    moves = moves_of(MOVES)
    assert ingest.handle(1, "ply", ply(1, moves[0]), 1.0) == []
    assert ingest.handle(1, "ply", ply(1, moves[0]), 1.1) == []  # QoS 1 twice
    assert ingest.handle(1, "ply", ply(4, moves[3]), 2.0) == [Resend(1, GID, 2, 3)]
    assert ingest.handle(1, "ply", ply(5, moves[4]), 2.5) == []  # asked a moment ago
    assert texts(ingest.store) == MOVES[:1]
    assert ingest.missing(5.0) == [Resend(1, GID, 2, 3)]  # asked again later
    ingest.handle(1, "ply", ply(3, moves[2]), 6.0)
    assert ingest.handle(1, "ply", ply(2, moves[1]), 6.1) == []
    assert texts(ingest.store) == MOVES  # the held moves follow at once
    assert ingest.missing(20.0) == []


def test_a_takeback_in_training_replaces_the_move_and_a_stale_message_is_ignored(ingest):
    start(ingest, mode="training")
    moves = moves_of(MOVES[:3])
    other = moves_of(MOVES[:2] + ["e3-f4"])[2]
    for seq, move in enumerate(moves, 1):
        ingest.handle(1, "ply", ply(seq, move), float(seq))
    ingest.handle(1, "ply", ply(3, other, changes=5), 4.0)  # taken back, then e3-f4
    assert texts(ingest.store) == MOVES[:2] + ["e3-f4"]
    ingest.handle(1, "ply", ply(3, moves[2], changes=3), 5.0)  # late copy of the old one
    assert texts(ingest.store) == MOVES[:2] + ["e3-f4"]


def test_an_illegal_move_is_refused_and_nothing_is_recorded(ingest):
    start(ingest)
    wrong = messages.MoveRecord("a1-h8", (29, 4))
    with pytest.raises(messages.MessageError, match="a1-h8"):
        ingest.handle(1, "ply", ply(1, wrong), 1.0)
    assert texts(ingest.store) == []


def test_the_hall_journal_is_read_back_after_a_crash(tmp_path):
    store = HallStore(tmp_path, sync=True)
    ingest = Ingest(store)
    start(ingest)
    for seq, move in enumerate(moves_of(MOVES), 1):
        ingest.handle(1, "ply", ply(seq, move), 10.0 + seq)
    store.close()
    again = HallStore(tmp_path)
    assert again.load() == 1
    assert texts(again) == MOVES
    assert again.game(1, GID).received == [11.0, 12.0, 13.0, 14.0, 15.0]
    # a torn last record (power cut mid-write) is dropped, the rest kept
    path = tmp_path / "boards" / "1" / f"{GID}.jsonl"
    again.close()
    path.write_bytes(path.read_bytes()[:-7])
    third = HallStore(tmp_path)
    assert third.load() == 1 and texts(third) == MOVES[:4]
    third.close()


@pytest.mark.parametrize("payload", [
    b'{"v":1,"id":"x","cmd":"launch"}', b'{"v":1,"id":"x","cmd":"resend"}',
    b'{"v":1,"cmd":"acknowledge"}', b'{"v":1,"id":"x","cmd":"new_game","tags":{"a":1}}',
])
def test_bad_commands_are_refused_by_cause(payload):
    with pytest.raises(messages.MessageError):
        messages.Command.from_json(payload)


def test_a_broker_url_never_shows_its_password():
    address = parse_broker_url("mqtt://board7:s3cret@hall.local:1884")
    assert (address.username, address.password, address.port) == ("board7", "s3cret", 1884)
    assert "s3cret" not in str(address) and "s3cret" not in repr(address)
    env = {"DRAUGHTSBOARD_HALL_USER": "b", "DRAUGHTSBOARD_HALL_PASSWORD": "p"}
    assert parse_broker_url("mqtt://h", environ=env).password == "p"
    for bad in ("http://h", "mqtt://", "mqtt://h:99999", "mqtt://h/x", "mqtt://:pw@h"):
        with pytest.raises(BrokerURLError) as raised:
            parse_broker_url(bad, environ={})
        assert "pw" not in str(raised.value) or bad == "mqtt://:pw@h" and \
            "pw@" not in str(raised.value)


def test_a_missing_broker_fails_with_a_clear_message(monkeypatch):
    from draughtsboard.hall import venue

    from . import broker

    monkeypatch.setattr(venue.shutil, "which", lambda name: None)
    monkeypatch.setattr(broker, "MOSQUITTO_PATHS", ("/nonexistent/mosquitto",))
    with pytest.raises(pytest.fail.Exception, match="apt-get install mosquitto"):
        broker.mosquitto_or_fail()


def test_the_venue_command_writes_the_broker_files(open_folder):
    from draughtsboard.cli import main

    assert main(["venue", "--boards", "3", "--out", str(open_folder), "--listen",
                 "127.0.0.1:18830"]) == 0
    acl = (open_folder / "acl").read_text()
    assert "user board2\ntopic write draughtsboard/v1/board/2/status" in acl
    assert "topic read draughtsboard/v1/board/2/command" in acl
    assert "board2:$7$" in (open_folder / "passwords").read_text()  # hashed, not plain
    assert (open_folder / "boards" / "3.password").stat().st_mode & 0o077 == 0


def test_a_board_finds_its_hall_in_the_command_line_or_its_config(tmp_path):
    from draughtsboard.hall_link.config import HallConfigError, hall_settings

    secret = tmp_path / "hall-password"
    secret.write_text("from-a-file\n")
    config = tmp_path / "board.toml"
    config.write_text(f'[hall]\nbroker = "mqtt://hall.local:1884"\nboard = 7\n'
                      f'user = "board7"\npassword_file = "{secret}"\n')
    settings = hall_settings(None, None, config, environ={})
    assert settings.board == 7 and settings.address.port == 1884
    assert (settings.address.username, settings.address.password) == ("board7", "from-a-file")
    override = hall_settings("mqtt://other:1883", 9, config, environ={})
    assert override.board == 9 and override.address.host == "other"
    assert hall_settings(None, None, tmp_path / "absent.toml", environ={}) is None
    for url, board, words in [(None, 3, "--board needs --hall"), ("mqtt://h", None, "number"),
                              ("mqtt://h", 0, "number"), ("ftp://h", 1, "hall broker")]:
        with pytest.raises(HallConfigError, match=words):
            hall_settings(url, board, None, environ={})
    config.write_text("[hall\n")
    with pytest.raises(HallConfigError, match="board.toml"):
        hall_settings(None, None, config, environ={})


def test_an_older_game_left_unfinished_is_asked_for_less_and_less_often_until_refused(ingest):
    start(ingest)  # game 00002, never finished
    newer = "00003-20261130-130000"
    ingest.handle(1, "status", messages.StatusMessage(True, "t", 1.0, newer).to_json(), 0.0)
    # the status names the board's next game, which the hall lacks: asked for whole
    assert ingest.missing(1.0) == [Resend(1, newer)]
    game = Game(get_variant("russian"), tags={"Round": "2"})
    ingest.handle(1, "state", messages.StateMessage(game_record(newer, game)).to_json(), 2.0)
    asked = [t for t in range(3, 400) if ingest.missing(float(t)) == [Resend(1, GID)]]
    gaps = [b - a for a, b in zip(asked, asked[1:], strict=False)]
    assert gaps[:3] == [2, 2, 2] and gaps[3:6] == [4, 8, 16]  # then it backs off ...
    assert max(gaps) == 60 and len(asked) < 14  # ... to once a minute
    ingest.give_up(1, GID, "no game here")
    assert ingest.missing(500.0) == []
    assert "cannot be completed" in in_english(ingest.live(1).problems[-1])


class _BoardsWithAThreadBetween(dict):
    """The ingest's boards, where ``meanwhile`` (the ingest thread's work) runs once,
    right after the next look-up: where a reader on another thread that loses the CPU
    between its look-up and what follows would let that thread run."""

    def __init__(self, meanwhile) -> None:
        super().__init__()
        self.meanwhile = meanwhile

    def get(self, key, default=None):
        found = super().get(key, default)
        meanwhile, self.meanwhile = self.meanwhile, None
        if meanwhile is not None:
            meanwhile()
        return found


def test_a_look_from_another_thread_never_erases_what_the_hall_knows_of_a_board(ingest):
    """The page (and the live tests) read `Ingest.live` on their own thread; a first look
    at a board may come just as the ingest thread takes its first status and state. Were
    the blank entry for a board not seen yet put in place after that thread's, the hall
    would forget the board's game and that it is online until its next status (half a
    minute): a test waiting 10 s for it failed now and then on a loaded machine."""
    def ingest_thread():
        ingest.handle(1, "status", messages.StatusMessage(True, "t", 1.0, GID).to_json(), 0.0)
        start(ingest)

    ingest.boards = _BoardsWithAThreadBetween(ingest_thread)
    ingest.live(1)  # the reader's look, with the ingest thread's two messages in between
    live = ingest.live(1)
    assert live.online and live.current == GID and ingest.store.game(1, GID) is not None


def test_the_game_a_status_named_is_current_once_it_comes_at_the_halls_asking(ingest):
    """A board's status names a game whose state the hall never took (lost, unreadable,
    refused by the disk): the hall asks for it whole, and when it comes it is the board's
    current game at once, not at the board's next status half a minute later. Another
    of its games sent whole (an older one asked for again) does not become current."""
    older = "00001-20261130-110000"
    game = Game(get_variant("russian"), tags={"Round": "1"})
    ingest.handle(1, "state", messages.StateMessage(game_record(older, game)).to_json(), 0.0)
    ingest.handle(1, "status", messages.StatusMessage(True, "t", 1.0, GID).to_json(), 1.0)
    assert ingest.missing(2.0) == [Resend(1, GID)] and ingest.live(1).current is None
    ingest.handle(1, "game", messages.StateMessage(game_record(GID, game)).to_json(), 3.0)
    assert ingest.live(1).current == GID
    ingest.handle(1, "game", messages.StateMessage(game_record(older, game)).to_json(), 4.0)
    assert ingest.live(1).current == GID


def test_a_password_file_that_never_ends_is_refused_in_one_line(tmp_path):
    """/dev/zero or a log given by mistake is read no further than a password file's
    length, then refused (it was read for ever)."""
    with pytest.raises(BrokerURLError, match="longer than 1024 bytes"):
        parse_broker_url("mqtt://board1@127.0.0.1:1883", password_file="/dev/zero")
    binary = tmp_path / "binary"
    binary.write_bytes(b"\xff\xfe\n")
    with pytest.raises(BrokerURLError, match="not UTF-8"):
        parse_broker_url("mqtt://board1@127.0.0.1:1883", password_file=str(binary))


def test_a_finished_game_disputed_by_a_stale_state_is_settled_when_the_board_agrees(ingest):
    """A broker killed and restarted gives back the retained state of its last save: for a
    game that ended just before, one without its last move. The hall shows the game up to
    the disputed move while that is all it knows; the board's own state, sent again once
    it is back on the broker, agrees with the hall: the claim goes and the whole game is
    shown again (a finished game is not left short of its last move and its result)."""
    from draughtsboard.board.rules.fen import parse_fen

    russian = get_variant("russian")
    begun = Game(russian, parse_fen(russian, "W:W22:B18"), tags={"Round": "1"})
    ingest.handle(1, "state", messages.StateMessage(game_record(GID, begun)).to_json(), 0.0)
    ended = Game(russian, parse_fen(russian, "W:W22:B18"), tags={"Round": "1"})
    ended.play("c3:e5")
    ended.set_result(*ended.outcome())
    assert ended.result == "1-0"
    ingest.handle(1, "state", messages.StateMessage(game_record(GID, ended)).to_json(), 1.0)
    hall_game = ingest.store.game(1, GID)
    assert hall_game.finished and hall_game.confirmed == 1

    stale = messages.StateMessage(game_record(GID, begun)).to_json()
    ingest.handle(1, "state", stale, 2.0)
    assert [c.kind for c in ingest.claims.of(1).values()] == ["moves"]
    assert ingest.store.game(1, GID).confirmed == 0  # shown up to the disputed move

    ingest.handle(1, "state", messages.StateMessage(game_record(GID, ended)).to_json(), 3.0)
    assert list(ingest.claims.of(1).values()) == []
    hall_game = ingest.store.game(1, GID)
    assert hall_game.confirmed == 1 and hall_game.game.result == "1-0"
