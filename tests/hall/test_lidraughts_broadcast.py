"""The round feed polled as lidraughts polls it (tests/hall/lidraughts_relay.py follows
its relay's rules): a round with a late board, a dispute, a Russian game from a set-up
position, a column game and a takeback is broadcast whole on every poll, in board
order, and each game shows every move the hall has (docs/hall.md, "Broadcasting on
lidraughts")."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from starlette.testclient import TestClient

from draughtsboard.board.game.pdn_reader import read_pdn
from draughtsboard.board.game.record import Game
from draughtsboard.board.rules.fen import initial_position, parse_fen
from draughtsboard.board.rules.variants import get_variant
from draughtsboard.hall.app import create_app
from draughtsboard.hall.arbiter_log import ArbiterLog
from draughtsboard.hall.ingest import Ingest
from draughtsboard.hall.pairings import Pairing
from draughtsboard.hall.store import HallStore
from draughtsboard.hall_protocol.games import game_record
from draughtsboard.hall_protocol.messages import StateMessage

from .board_side import ply_message
from .lidraughts_relay import Broadcast, RelayError, games_of, guess_format

SET_UP = "W:W21-32:B1-9,11-13"  # a ballot opening's start: square 10 empty
EVENT = "Open"


class Hall:
    """A hall without a broker: its store, ingest and arbiter's log, and its app."""

    def __init__(self, tmp_path) -> None:
        self.store = HallStore(tmp_path / "hall", sync=False)
        self.arbiter = ArbiterLog(tmp_path / "arbiter.jsonl", sync=False)
        self.ingest = Ingest(self.store, paired=self.arbiter.round_games)
        self.now = 1000.0
        self.client = TestClient(create_app(self, token="tok"))

    def wall(self) -> float:
        return self.now

    def pair(self, *rows: tuple[int, str, str], event: str = EVENT,
             time_control: str = "") -> None:
        self.arbiter.import_pairings([Pairing("1", board, white, black, event, time_control)
                                      for board, white, black in rows], self.now)

    def close(self) -> None:
        self.store.close()
        self.arbiter.close()


class Board:
    """A board's side: its game, sent as the link sends it."""

    def __init__(self, hall: Hall, number: int, white: str, black: str, *,
                 variant: str = "russian", start: str | None = None, game_number: int = 1,
                 event: str = EVENT, tags: dict | None = None) -> None:
        self.hall, self.number = hall, number
        self.game_id = f"{game_number:05d}-20261207-100000"
        chosen = get_variant(variant)
        position = parse_fen(chosen, start) if start else initial_position(chosen)
        if tags is None:
            tags = {"Event": event, "Round": "1", "Board": str(number), "White": white,
                    "Black": black}
        self.game = Game(chosen, position, dict(tags))

    def send(self, kind: str, payload: bytes) -> None:
        self.hall.now += 1.0
        self.hall.ingest.handle(self.number, kind, payload, self.hall.now)

    def state(self) -> None:
        self.send("state", StateMessage(game_record(self.game_id, self.game)).to_json())

    def play(self, *texts: str) -> None:
        for text in texts:
            self.send("ply", ply_message(self.game_id, self.game, text))
        self.state()

    def takeback(self, to_ply: int) -> None:
        """The arbiter's takeback, carried out by the board."""
        while self.game.ply > to_ply:
            self.game.undo()
        self.hall.ingest.order(self.number, self.game_id, "takeback", to_ply)
        self.state()

    def hall_moves(self) -> list[str]:
        return [p.text for p in self.hall.store.game(self.number, self.game_id).game.moves]


@pytest.fixture
def hall(tmp_path):
    made = Hall(tmp_path)
    yield made
    made.close()


def poll(hall: Hall, broadcast: Broadcast, fmt: str) -> list[dict]:
    """One poll of the round's feed; what the broadcast shows after it."""
    body = hall.client.get(f"/round/1/games.{fmt}").text
    broadcast.poll(body)
    assert not any(game.cut for game in broadcast.last), "a game was cut short"
    return broadcast.shown()


def names(shown: list[dict]) -> list[tuple[str | None, str | None]]:
    return [(c["white"], c["black"]) for c in shown]


# -- the round as a story, polled after every step -------------------------------------------------

@pytest.mark.parametrize("fmt", ["pdn", "json"])
def test_lidraughts_broadcasts_the_whole_round_on_every_poll(hall, fmt, tmp_path):
    hall.pair((1, "Ann", "Bob"), (2, "Cid", "Dan"), (3, "Eve", "Fay"), (4, "Gus", "Hal"),
              (5, "Ivy", "Jon"), time_control="5400+30")
    broadcast = Broadcast()
    lidraughts_boards = [(1, "Ann", "Bob"), (2, "Cid", "Dan"), (3, "Eve", "Fay"),
                         (4, "Gus", "Hal"), (5, "Ivy", "Jon")]  # board 4: column draughts
    polls = 0

    def check(expect_moves: dict[int, list[str]], starts: dict[int, str] | None = None):
        nonlocal polls
        shown = poll(hall, broadcast, fmt)
        polls += 1
        assert names(shown) == [(w, b) for _, w, b in lidraughts_boards], f"poll {polls}"
        for chapter, (board, _, _) in zip(shown, lidraughts_boards, strict=True):
            assert chapter["variant"] == "russian", f"board {board} on the wrong board"
            if board in expect_moves:
                assert chapter["moves"] == expect_moves[board], f"board {board}, poll {polls}"
            fen = (starts or {}).get(board)
            if fen is not None:
                assert chapter["start"] == parse_fen(get_variant("russian"), fen)
        assert shown[3]["moves"] == [], "a column game's moves went out"

    # boards 1, 3, 4 and 5 begin the round's games (board 3 from a ballot's position, as
    # a micro-match does); board 2 is still off
    one = Board(hall, 1, "Ann", "Bob")
    three = Board(hall, 3, "Eve", "Fay", start=SET_UP)
    four = Board(hall, 4, "Gus", "Hal", variant="column")
    five = Board(hall, 5, "Ivy", "Jon")
    for board in (one, three, four, five):
        board.state()
    check({1: [], 2: [], 3: [], 4: [], 5: []}, {3: SET_UP})  # board 2: its pairing alone
    one.play("c3-d4", "f6-e5", "d4:f6", "g7:e5")
    three.play("c3-d4", "h6-g5")
    four.play("c3-d4")
    five.play("e3-f4")
    check({1: ["c3-d4", "f6-e5", "d4:f6", "g7:e5"], 3: ["c3-d4", "h6-g5"], 5: ["e3-f4"]},
          {3: SET_UP})
    two = Board(hall, 2, "Cid", "Dan")  # the late board
    two.state()
    two.play("a3-b4")
    check({1: ["c3-d4", "f6-e5", "d4:f6", "g7:e5"], 2: ["a3-b4"], 3: ["c3-d4", "h6-g5"]})
    # board 5's game is disputed: two answers of the board to its pairing name two games
    log = hall.arbiter
    tags = dict(five.game.tags)
    log.note("command", hall.now, board=5, id="hall-5", cmd="new_game", tags=tags)
    log.note("reply", hall.now, board=5, id="hall-5", ok=True, result="00007-20261207-100000")
    Board(hall, 5, "Ivy", "Jon", game_number=7).state()
    log.note("reply", hall.now, board=5, id="hall-5", ok=True, result=five.game_id)
    hall.ingest.round_changed(5, "1", hall.now)
    five.play("f6-g5")
    assert (5, "1") in hall.ingest.contested_rounds()
    check({2: ["a3-b4"], 5: ["e3-f4"]})  # board 5 kept its place and what it had shown
    claim = hall.ingest.claims.get(5, "round", five.game_id)
    hall.ingest.confirm(5, "round", five.game_id, claim.id, hall.now)
    log.note("round_game", hall.now, board=5, round="1", game=five.game_id)
    hall.ingest.round_changed(5, "1", hall.now)
    check({5: ["e3-f4", "f6-g5"]})
    # the arbiter takes back a move on board 1; play goes on from there
    one.takeback(3)
    check({1: ["c3-d4", "f6-e5", "d4:f6", "g7:e5"]})  # lidraughts keeps it until a move
    one.play("e7:g5")
    check({1: ["c3-d4", "f6-e5", "d4:f6", "e7:g5"]})
    assert one.hall_moves() == ["c3-d4", "f6-e5", "d4:f6", "e7:g5"]
    # results come from the Result tag
    three.game.set_result("1-0", "Black resigned")
    three.state()
    claim = hall.ingest.claims.get(3, "result", three.game_id)
    hall.ingest.confirm(3, "result", three.game_id, claim.id, hall.now)
    check({3: ["c3-d4", "h6-g5"]})
    assert [c["result"] for c in broadcast.shown()] == ["*", "*", "1-0", "*", "*"]
    assert polls == 8 and len(broadcast.chapters) == 5  # the figures in docs/hall.md
    # the hall's own file of the round keeps the column game
    own = read_pdn(hall.client.get("/round/1/hall.pdn").text)
    assert own.errors == [] and [g.game.tags["Board"] for g in own.games] == \
        ["1", "2", "3", "4", "5"]
    assert own.games[3].game.variant.name == "column"
    if fmt == "pdn":
        # games.pdn, hall.pdn, the JSON's, <board>.pdn, <board>.PDN
        assert pdn_check(hall, tmp_path) == 5 + 5 + 5 + 5 + 5


def pdn_check(hall: Hall, folder) -> int:
    """``draughtsboard pdn check`` on every file of the round's feeds; the games read."""
    get = hall.client.get
    files = {"games.pdn": get("/round/1/games.pdn").text,
             "hall.pdn": get("/round/1/hall.pdn").text,
             "json.pdn": "".join(g["pdn"] for g in get("/round/1/games.json").json()["games"])}
    for board in range(1, 6):
        for extension in ("pdn", "PDN"):
            answer = get(f"/round/1/{board}.{extension}")
            if answer.status_code == 200:
                files[f"{board}-{extension}.pdn"] = answer.text
    paths = []
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
        paths.append(str(folder / name))
    done = subprocess.run([sys.executable, "-m", "draughtsboard", "pdn", "check", *paths],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return len(done.stdout.strip().splitlines())


# -- each way today's feed stops a broadcast ------------------------------------------------------

def test_a_late_board_keeps_the_later_games_in_their_places(hall):
    hall.pair((1, "Ann", "Bob"), (2, "Cid", "Dan"), (3, "Eve", "Fay"))
    broadcast = Broadcast()
    for number, white, black in ((1, "Ann", "Bob"), (3, "Eve", "Fay")):
        board = Board(hall, number, white, black)
        board.state()
        board.play("c3-d4")
    poll(hall, broadcast, "pdn")
    late = Board(hall, 2, "Cid", "Dan")
    late.state()
    late.play("e3-f4")
    shown = poll(hall, broadcast, "pdn")  # lidraughts: "Game 3 matches with Chapter 2"
    assert names(shown) == [("Ann", "Bob"), ("Cid", "Dan"), ("Eve", "Fay")]
    assert [c["moves"] for c in shown] == [["c3-d4"], ["e3-f4"], ["c3-d4"]]


def test_a_board_the_arbiter_is_asked_about_keeps_its_place(hall):
    hall.pair((1, "Ann", "Bob"), (2, "Cid", "Dan"))
    broadcast = Broadcast()
    one, two = Board(hall, 1, "Ann", "Bob"), Board(hall, 2, "Cid", "Dan")
    for board in (one, two):
        board.state()
        board.play("c3-d4")
    poll(hall, broadcast, "json")
    log = hall.arbiter
    log.note("command", hall.now, board=2, id="hall-2", cmd="new_game",
             tags=dict(two.game.tags))
    log.note("reply", hall.now, board=2, id="hall-2", ok=True, result="00009-20261207-100000")
    Board(hall, 2, "Cid", "Dan", game_number=9).state()
    log.note("reply", hall.now, board=2, id="hall-2", ok=True, result=two.game_id)
    hall.ingest.round_changed(2, "1", hall.now)
    assert (2, "1") in hall.ingest.contested_rounds()
    shown = poll(hall, broadcast, "json")  # lidraughts: "Missing game for Chapter 2"
    assert names(shown) == [("Ann", "Bob"), ("Cid", "Dan")]
    assert shown[1]["moves"] == ["c3-d4"]  # what it had shown stays


def test_a_game_from_a_set_up_position_is_read_square_by_square(hall):
    hall.pair((1, "Eve", "Fay"))
    board = Board(hall, 1, "Eve", "Fay", start=SET_UP)
    board.state()
    board.play("c3-d4", "h6-g5", "g3-h4")
    broadcast = Broadcast()
    shown = poll(hall, broadcast, "pdn")  # ranges: lidraughts sees an empty board
    assert shown[0]["start"] == parse_fen(get_variant("russian"), SET_UP)
    assert shown[0]["moves"] == ["c3-d4", "h6-g5", "g3-h4"]
    text = hall.client.get("/round/1/games.pdn").text
    assert "21-32" not in text.split("\n\n")[0]  # no range in the tags
    game = read_pdn(text).games[0].game  # and it reads back the same with our reader
    assert game.start == parse_fen(get_variant("russian"), SET_UP) and game.ply == 3


def test_a_chapter_made_before_its_game_keeps_the_start_it_was_made_with(hall):
    """lidraughts fixes a chapter's start when it makes it: a board listed by its pairing
    alone, whose game then begins from a set-up position, shows its moves on a chapter
    that starts from the initial position (docs/hall.md says so)."""
    hall.pair((1, "Eve", "Fay"))
    Board(hall, 1, "", "", tags={}).state()  # on, with its last game: a Russian board
    broadcast = Broadcast()
    poll(hall, broadcast, "pdn")
    board = Board(hall, 1, "Eve", "Fay", start=SET_UP, game_number=2)
    board.state()
    board.play("c3-d4", "h6-g5")
    shown = poll(hall, broadcast, "pdn")
    assert shown[0]["moves"] == ["c3-d4", "h6-g5"]
    assert shown[0]["start"] == initial_position(get_variant("russian"))
    assert [g.start for g in broadcast.last] == [parse_fen(get_variant("russian"), SET_UP)]


@pytest.mark.parametrize("variant", ["column", "lasca"])
def test_column_games_and_lasca_keep_their_place_without_their_moves(hall, variant):
    """lidraughts has no column variant: a column game's moves stay out of its feeds, and
    its board is listed by its players alone, so that the boards after it keep their
    places whatever it plays."""
    hall.pair((1, "Ann", "Bob"), (2, "Gus", "Hal"), (3, "Eve", "Fay"))
    for number, white, black, plays in ((1, "Ann", "Bob", "russian"),
                                        (2, "Gus", "Hal", variant),
                                        (3, "Eve", "Fay", "russian")):
        board = Board(hall, number, white, black, variant=plays)
        board.state()
        board.play("c3-d4")
    for fmt in ("pdn", "json"):
        broadcast = Broadcast()
        shown = poll(hall, broadcast, fmt)
        assert names(shown) == [("Ann", "Bob"), ("Gus", "Hal"), ("Eve", "Fay")]
        assert all(c["variant"] == "russian" for c in shown)
        assert [c["moves"] for c in shown] == [["c3-d4"], [], ["c3-d4"]]
    published = hall.client.get("/round/1/2.PDN")  # lidraughts' own URL: the players
    assert published.status_code == 200 and read_pdn(published.text).games[0].game.ply == 0
    own = hall.client.get("/round/1/2.pdn")  # the hall's own: the board's game
    assert own.status_code == 200 and read_pdn(own.text).games[0].game.variant.name == variant


@pytest.mark.parametrize("first, then", [("column", "russian"), ("russian", "column")])
def test_a_board_that_changes_variant_keeps_the_places(hall, first, then):
    """A paired board's last game (another round's) was ``first``; its game of the round
    is ``then``: the boards after it stay in their places (lidraughts: "Game 3 matches
    with Chapter 2", "Missing game for Chapter 3")."""
    Board(hall, 2, "Xan", "Yul", variant=first,
          tags={"Event": EVENT, "Round": "0", "White": "Xan", "Black": "Yul"}).state()
    hall.pair((1, "Ann", "Bob"), (2, "Cid", "Dan"), (3, "Eve", "Fay"))
    for number, white, black in ((1, "Ann", "Bob"), (3, "Eve", "Fay")):
        board = Board(hall, number, white, black)
        board.state()
        board.play("c3-d4")
    broadcast = Broadcast()
    assert names(poll(hall, broadcast, "pdn")) == [("Ann", "Bob"), ("Cid", "Dan"),
                                                  ("Eve", "Fay")]
    two = Board(hall, 2, "Cid", "Dan", variant=then, game_number=2)
    two.state()
    two.play("c3-d4")
    shown = poll(hall, broadcast, "pdn")
    assert names(shown) == [("Ann", "Bob"), ("Cid", "Dan"), ("Eve", "Fay")]
    assert shown[1]["moves"] == ([] if then == "column" else ["c3-d4"])


def test_a_board_without_a_pairing_goes_after_the_others(hall):
    """A board that plays a game of the round without being paired in it (a spare board,
    a password's game; every board of the public hall, which has no pairings) is listed
    after those already listed, in the order its game came in: a late board moves no
    one (lidraughts: "Game 4 matches with Chapter 3")."""
    hall.pair((1, "Ann", "Bob"), (3, "Eve", "Fay"), (5, "Ivy", "Jon"))
    for number, white, black in ((1, "Ann", "Bob"), (3, "Eve", "Fay"), (5, "Ivy", "Jon")):
        board = Board(hall, number, white, black)
        board.state()
        board.play("c3-d4")
    broadcast = Broadcast()
    poll(hall, broadcast, "json")
    for number, white in ((7, "Kim"), (4, "Lou")):
        spare = Board(hall, number, white, "Max")
        spare.state()
        spare.play("e3-f4")
        poll(hall, broadcast, "json")
    shown = poll(hall, broadcast, "json")
    assert names(shown) == [("Ann", "Bob"), ("Eve", "Fay"), ("Ivy", "Jon"), ("Kim", "Max"),
                            ("Lou", "Max")]


def test_without_pairings_a_late_board_moves_no_one(hall):
    """The public hall has no pairings: its boards are listed in the order their games
    came in, so a late board with a low number goes last."""
    broadcast = Broadcast()
    for number, white in ((3, "Eve"), (5, "Ivy"), (1, "Ann")):
        board = Board(hall, number, white, "Bob")
        board.state()
        board.play("c3-d4")
        poll(hall, broadcast, "pdn")
    assert names(broadcast.shown()) == [("Eve", "Bob"), ("Ivy", "Bob"), ("Ann", "Bob")]


def test_a_bracket_in_a_tag_value_drops_no_tag(hall):
    hall.pair((1, "Ann [Club]", "Bob"), event="Open [A]")
    board = Board(hall, 1, "Ann [Club]", "Bob", event="Open [A]")
    board.state()
    board.play("c3-d4")
    for fmt in ("pdn", "json"):
        broadcast = Broadcast()
        shown = poll(hall, broadcast, fmt)  # GameType lost: a Russian move on 10x10
        assert shown[0]["variant"] == "russian" and shown[0]["moves"] == ["c3-d4"]
        assert shown[0]["tags"]["Event"] == "Open (A)" and shown[0]["white"] == "Ann (Club)"


# -- the smaller things ------------------------------------------------------------------------

def test_an_empty_round_is_not_taken_for_pdn_and_games_follow(hall):
    body = hall.client.get("/round/1/games.json").text
    assert guess_format(body) == "json"
    broadcast = Broadcast()
    broadcast.poll(body)
    assert broadcast.format == "json" and broadcast.chapters == []
    hall.pair((1, "Ann", "Bob"))
    board = Board(hall, 1, "Ann", "Bob")
    board.state()
    board.play("c3-d4")
    assert poll(hall, broadcast, "json")[0]["moves"] == ["c3-d4"]


def test_the_time_control_is_base_plus_increment(hall):
    hall.pair((1, "Ann", "Bob"), time_control="900")
    board = Board(hall, 1, "Ann", "Bob", tags={"Round": "1", "White": "Ann", "Black": "Bob",
                                                "Board": "1", "Event": EVENT,
                                                "TimeControl": "900"})
    board.state()
    text = hall.client.get("/round/1/games.pdn").text
    games = games_of(text, "pdn")
    assert games[0].tags["TimeControl"] == "900+0" and games[0].clock == (900, 0)


def test_a_round_past_64_boards_is_whole_in_json_and_cut_in_pdn(hall):
    hall.pair(*[(n, f"White {n}", f"Black {n}") for n in range(1, 71)])
    pdn = games_of(hall.client.get("/round/1/games.pdn").text, "pdn")
    as_json = games_of(hall.client.get("/round/1/games.json").text, "json")
    assert len(pdn) == 64 and len(as_json) == 70  # lidraughts' limit, docs/hall.md
    assert [g.tags["White"] for g in as_json] == [f"White {n}" for n in range(1, 71)]


def test_the_reader_fails_where_lidraughts_would():
    """The reader's own rules, on texts written by hand."""
    assert guess_format('{"games":[]}') == "pdn"  # a comment and no moves: lidraughts' guess
    with pytest.raises(RelayError, match="empty PDN"):
        games_of("", "pdn")
    bracket = '[Event "A [B]"]\n[GameType "25"]\n\n1. c3-d4 *\n'
    with pytest.raises(RelayError, match="Cannot parse move"):
        games_of(bracket, "pdn")  # GameType dropped: c3 is no square of 10x10
    ranges = '[GameType "25"]\n[FEN "W:W21-32:B1-12"]\n\n1. c3-d4 *\n'
    assert games_of(ranges, "pdn")[0].cut
    assert len(games_of("\n\n".join(['[Round "1"]\n\n*'] * 70), "pdn")) == 64
    assert json.loads('{"games":[],"round":{"name":"1"}}')  # valid JSON
    assert guess_format('{"games":[],"round":{"name":"1"}}') == "json"
