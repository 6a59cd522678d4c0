"""A match between towns, on real brokers: two `draughtsboard play` processes on the
simulated board, each the other's opponent (``--opponent board:...``), each through its
own town's mosquitto, the two brokers bridged as `draughtsboard.hall.towns` writes them
(``venue --match``). Hands play a whole game through /api/hands; each move shows on the
other board as the opponent's move to carry out; the bridging town's broker is killed in
the middle (a cut link) while a move is made, and started again. Both pages say the match
is paused while it is down; afterwards both journals hold the same game: the same PDN,
nothing lost, nothing twice."""

from __future__ import annotations

import getpass
import random
import signal
from contextlib import contextmanager

import pytest

from draughtsboard.board.game.pdn_writer import write_game
from draughtsboard.board.game.record import Game
from draughtsboard.board.message import Message
from draughtsboard.board.rules.fen import initial_position
from draughtsboard.board.rules.variants import get_variant
from draughtsboard.hall.towns import match_user, write_bridging_town, write_host_town
from draughtsboard.hall_protocol.topics import match_topic
from draughtsboard.recording import Recorder
from draughtsboard.words import english, words_for

from ..web.helpers import TOKEN, PlayProcess, wait_until
from .broker import ConfiguredBroker, free_port
from .test_bad_input import RawClient

pytestmark = pytest.mark.broker

RUSSIAN = get_variant("russian")
TAGS = ("--tag", "Event=Towns match", "--tag", "Round=1", "--tag", "TimeControl=600+5")
SEED = 169  # random legal moves that end the game (no move left) at ply 28
CUT_AT = 11  # the ply made while the link is cut


@pytest.fixture
def towns(tmp_path):
    """(white town, black town, their brokers): white's hosts, black's bridges to it."""
    with bridged_towns(tmp_path) as found:
        yield found


@contextmanager
def bridged_towns(tmp_path):
    """The two towns of match m1 and their brokers, started (stopped on the way out)."""
    user = getpass.getuser()
    white = write_host_town(tmp_path / "white-town", "m1", "white", host="127.0.0.1",
                            port=free_port(), log_file=tmp_path / "white.log",
                            autosave_interval=1, run_as=user)
    black = write_bridging_town(tmp_path / "black-town", "m1", "black", "127.0.0.1",
                                white.port, white.town_password, host="127.0.0.1",
                                port=free_port(), log_file=tmp_path / "black.log",
                                autosave_interval=1, run_as=user)
    brokers = [ConfiguredBroker(white.config, white.port, tmp_path / "white.log")]
    try:
        brokers.append(ConfiguredBroker(black.config, black.port, tmp_path / "black.log"))
        yield white, black, brokers
    finally:
        for broker in brokers:
            broker.stop()


def board(tmp_path, town, name: str, directory: str = "") -> PlayProcess:
    other = "black" if town.seat == "white" else "white"
    return PlayProcess(tmp_path / (directory or f"{town.seat}-board"), "--opponent",
                       town.board_url(),
                       "--opponent-side", other, *TAGS,
                       "--tag", f"{town.seat.capitalize()}={name}")


def hand_actions(move) -> list[tuple[str, int]]:
    actions = [("lift", move.path[0])]
    for landing in move.path[1:-1]:
        actions += [("place", landing), ("lift", landing)]
    actions.append(("place", move.path[-1]))
    return actions + [("lift", square) for square in move.captures]


def plies(play: PlayProcess) -> int:
    return len(play.state()["moves"])


def make_move(play: PlayProcess, move, ply: int) -> None:
    play.hands(*hand_actions(move))
    wait_until(lambda: plies(play) > ply, timeout=20, what=f"ply {ply + 1} recorded")


def carry_out(play: PlayProcess, ply: int) -> None:
    """The opponent's move, as the board's LEDs and page show it, carried out."""
    pending = wait_until(lambda: play.state()["opponent"]["pending"], timeout=30,
                         what=f"ply {ply + 1} shown as the opponent's move")
    play.hands(*hand_actions(type("Shown", (), {
        "path": pending["path"], "captures": pending["captures"]})))
    wait_until(lambda: plies(play) > ply, timeout=20, what=f"ply {ply + 1} carried out")


def paused(play: PlayProcess) -> str | None:
    """The page's headline while the match is paused, in English (None: not paused)."""
    view = play.state()
    if view["opponent"]["reachable"] is not False or \
            view["status"]["id"] != "match.headline.paused" or not view["clocks"]["suspended"]:
        return None
    return words_for("en")(Message.from_json(view["status"]))


def journal(directory) -> Game:
    recorder = Recorder(directory)
    try:
        ids = recorder.game_ids()
        assert len(ids) == 1, ids  # one game on each board, never a second
        return recorder.game(ids[0])
    finally:
        recorder.close()


def test_a_match_between_towns_through_a_cut_link(tmp_path, towns):
    white_town, black_town, (white_broker, black_broker) = towns
    with board(tmp_path, white_town, "Anna") as white, \
            board(tmp_path, black_town, "Boris") as black:
        wait_until(lambda: white.state()["tags"].get("Black") == "Boris"
                   and black.state()["tags"].get("White") == "Anna", timeout=30,
                   what="each board to know the other's player")
        rng = random.Random(SEED)
        game = Game(RUSSIAN, initial_position(RUSSIAN))
        while not game.position.is_game_over():
            ply = game.ply
            move = rng.choice(game.position.legal_moves())
            mover, other = (white, black) if ply % 2 == 0 else (black, white)
            if ply == CUT_AT:  # the bridging town's broker dies: the link is cut
                black_broker.kill()
                for side in (white, black):
                    shown = wait_until(lambda side=side: paused(side), timeout=20,
                                       what="the page to say the match is paused")
                    assert shown.startswith("Match paused: no link to ")
                make_move(mover, move, ply)  # played during the cut: it waits, once
                black_broker.start()
                for side in (white, black):
                    wait_until(lambda side=side: side.state()["opponent"]["reachable"],
                               timeout=30, what="the match to go on")
            else:
                make_move(mover, move, ply)
            carry_out(other, ply)
            game.play(move)
        for side in (white, black):
            wait_until(lambda side=side: side.state()["result"] is not None, timeout=10,
                       what="the result on both boards")
        for side in (white, black):
            assert side.stop(signal.SIGTERM) == 0
    white_game = journal(tmp_path / "white-board")
    black_game = journal(tmp_path / "black-board")
    played = [m.text for m in game.moves]
    assert [m.text for m in white_game.moves] == played  # 0 lost, 0 twice
    assert [m.text for m in black_game.moves] == played
    assert write_game(white_game, events=False) == write_game(black_game, events=False)
    assert white_game.result == black_game.result == game.outcome()[0]
    assert (white_game.tags["White"], white_game.tags["Black"]) == ("Anna", "Boris")
    assert all(m.clock is not None for m in white_game.moves)


def test_a_resignation_goes_across_and_the_name_is_used_up(tmp_path, towns):
    """Boris resigns on his own board (its arbiter's result entry): Anna's board takes
    it (a side concedes for itself), and both PDNs are the same text, result and reason
    included. A new game on Boris's side under the same match name is refused in one
    line: the finished game's record stays retained on the brokers."""
    white_town, black_town, _ = towns
    with board(tmp_path, white_town, "Anna") as white:
        with board(tmp_path, black_town, "Boris") as black:
            wait_until(lambda: white.state()["tags"].get("Black") == "Boris"
                       and black.state()["tags"].get("White") == "Anna", timeout=30,
                       what="each board to know the other's player")
            rng = random.Random(SEED)
            game = Game(RUSSIAN, initial_position(RUSSIAN))
            for ply in range(4):
                move = rng.choice(game.position.legal_moves())
                mover, other = (white, black) if ply % 2 == 0 else (black, white)
                make_move(mover, move, ply)
                carry_out(other, ply)
                game.play(move)
            black.post("/api/arbiter/result", {"result": "1-0", "reason": "resigned"},
                       token=TOKEN)
            wait_until(lambda: white.state()["result"] is not None, timeout=20,
                       what="the resignation taken on the white board")
            assert black.stop(signal.SIGTERM) == 0
        with board(tmp_path, black_town, "Boris", "black-again") as again:
            error = wait_until(lambda: again.state()["opponent"]["error"], timeout=30,
                               what="the new game refused")
            assert error["id"] == "match.stopped"
            assert error["params"]["detail"]["id"] == "match.stop.name_used.white"
            assert "new match name" in english(Message.from_json(error))
            assert "Traceback" not in again.stderr
            assert again.stop(signal.SIGTERM) == 0
        assert white.stop(signal.SIGTERM) == 0
    white_game = journal(tmp_path / "white-board")
    black_game = journal(tmp_path / "black-board")
    assert (white_game.result, white_game.result_reason) == ("1-0", "resigned")
    assert (black_game.result, black_game.result_reason) == ("1-0", "resigned")
    assert white_game.tags["Date"] == black_game.tags["Date"]
    assert write_game(white_game, events=False) == write_game(black_game, events=False)


def test_a_board_writes_only_its_own_seat(towns):
    """The broker's ACL is the authority: each board's user writes its own seat of its own
    match only, and the other town's bridge user on the hosting town only the other
    seat: a stolen password speaks for one seat of one match."""
    white_town, black_town, _ = towns
    bridge = f"mqtt://town-m1:{white_town.town_password}@{white_town.host}:{white_town.port}"
    users = [(f"mqtt://{match_user('m1', town.seat)}:{town.board_password}"
              f"@{town.host}:{town.port}", town.seat) for town in (white_town, black_town)]
    for url, seat in [*users, (bridge, "black")]:  # the other town's bridge: black only
        client = RawClient(url, f"forger-{seat}")
        try:
            own = client.publish(match_topic("m1", seat, "beat"), b"{}").value
            assert own in (0, 0x10)
            foreign = "white" if seat == "black" else "black"
            for topic in (match_topic("m1", foreign, "record"), "draughtsboard/v1/board/1/state",
                          "draughtsboard/v1/match/m2/white/record",
                          f"draughtsboard/v1/match/m1/{seat}/other",  # exactly its topics
                          f"draughtsboard/v1/match/m1/{seat}/record/more"):
                assert client.publish(topic, b"{}").value == 0x87, topic  # Not authorized
        finally:
            client.close()


def test_what_is_not_the_protocol_on_the_other_seat_is_one_line_and_changes_nothing(
        tmp_path, towns):
    """Garbage on black's topics (published with black's own password, as a broken or
    hostile board would) reaches the white board: each message is refused in one line of
    its log, never a traceback, and the white board still waits for the real black."""
    white_town, black_town, _ = towns
    with board(tmp_path, white_town, "Anna") as white:
        wait_until(lambda: white.state()["opponent"] is not None, what="the opponent seat")
        url = f"mqtt://{match_user('m1', 'black')}:{black_town.board_password}" \
              f"@{black_town.host}:{black_town.port}"
        forger = RawClient(url, "forger")
        try:  # (white says it is online once it listens to black's topics)
            forger.subscribe(match_topic("m1", "white", "presence"))
            wait_until(lambda: (match_topic("m1", "white", "presence"), b"online")
                       in forger.messages, timeout=20, what="the white board listening")
            for payload in (b"", b"\xff", b"[1]", b'{"v": 1}', b"{" * 10_000,
                            b'{"v":1,"match":"m1","seat":"black","name":"x",'
                            b'"variant":"russian","start":"W","tags":{},"plies":[{"ply":3}]}'):
                forger.publish(match_topic("m1", "black", "record"), payload)
            forger.publish(match_topic("m1", "black", "beat"), b"not a beat")
            wait_until(lambda: white.stderr.count("a message from black refused") >= 7,
                       timeout=30, what="each message refused in one line")
        finally:
            forger.close()
        assert "Traceback" not in white.stderr
        def shown_on_page() -> list[str]:
            return [entry["text"]["params"]["detail"] for entry in white.state()["log"]
                    if isinstance(entry["text"], dict)
                    and entry["text"]["id"] == "match.log.refused"]

        # on the page, not only in the log: each a line the log has
        shown = wait_until(shown_on_page, timeout=10, what="the refusals on the page")
        view = white.state()
        assert view["opponent"]["error"] is None and view["moves"] == []
        assert all("\n" not in line and white.stderr.count(line) >= shown.count(line)
                   for line in shown)
        assert white.stop(signal.SIGTERM) == 0


def test_a_board_waiting_for_the_other_stops_cleanly(tmp_path, towns):
    """SIGTERM while the other board has never come: the wait ends, play exits 0 and
    says nothing went wrong."""
    white_town, _, _ = towns
    with board(tmp_path, white_town, "Anna") as white:
        wait_until(lambda: white.state()["opponent"] is not None, what="the opponent seat")
        assert white.stop(signal.SIGTERM) == 0
        assert "Traceback" not in white.stderr and " ERROR " not in white.stderr, \
            white.stderr
