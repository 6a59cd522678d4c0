"""A public mirror on real brokers: the venue hall publishes each board's game as it
stood a delay ago (`hall.mirror`) on the event's broker, a public broker's bridge takes
that one way into its own board tree, and a public hall there serves it. The public side
never holds a move younger than the delay, and nothing published at the public broker
reaches a board or the venue's hall."""

from __future__ import annotations

import getpass
import logging
import random
import threading
import types

import pytest

from draughtsboard.board.game.record import Game
from draughtsboard.board.rules.variants import get_variant
from draughtsboard.hall.ingest import Ingest
from draughtsboard.hall.mirror import Mirror
from draughtsboard.hall.rooms import write_event_venue, write_public_venue
from draughtsboard.hall.service import HallService
from draughtsboard.hall.store import HallStore
from draughtsboard.hall_protocol import parse_broker_url
from draughtsboard.hall_protocol.games import game_record
from draughtsboard.hall_protocol.messages import (
    MoveRecord,
    PlyMessage,
    StateMessage,
    StatusMessage,
)
from draughtsboard.hall_protocol.topics import board_topic, public_topic

from ..web.helpers import wait_until
from .broker import ConfiguredBroker, free_port
from .conftest import LinkedBoard
from .test_bad_input import RawClient
from .test_live import board_moves, hall_moves

DELAY = 2.0  # seconds (a venue's is minutes)
NOT_AUTHORIZED = 0x87


def event_venue(tmp_path):
    event = write_event_venue(tmp_path / "event", [], boards=1, public=True,
                              port=free_port(), log_file=tmp_path / "event.log",
                              autosave_interval=1, run_as=getpass.getuser())
    return event, ConfiguredBroker(event.config, event.port, tmp_path / "event.log")


@pytest.fixture
def mirrored(tmp_path):
    event, event_broker = event_venue(tmp_path)
    public = write_public_venue(tmp_path / "public", "127.0.0.1", event.port,
                                event.public_password, host="127.0.0.1", port=free_port(),
                                log_file=tmp_path / "public.log", autosave_interval=1,
                                run_as=getpass.getuser())
    started: list = [event_broker]
    try:
        started.append(ConfiguredBroker(public.config, public.port, tmp_path / "public.log"))
        venue_hall = HallService(parse_broker_url(event.hall_url()), tmp_path / "hall",
                                 sync=False, reply_timeout=5)
        venue_hall.start()
        started.append(venue_hall)
        mirror = Mirror(venue_hall.store, parse_broker_url(
            event.url("mirror", event.mirror_password)), DELAY, wall=venue_hall.wall,
            interval=0.1, online=venue_hall.board_online)
        mirror.start()
        venue_hall.mirror_state = mirror.state  # as `draughtsboard hall --mirror` does
        started.append(mirror)
        public_hall = HallService(parse_broker_url(public.hall_url()),  # as hall --public
                                  tmp_path / "public-hall", sync=False, reply_timeout=1,
                                  venue_record=True)
        public_hall.start()
        started.append(public_hall)
        wait_until(lambda: venue_hall.connected and public_hall.connected,
                   what="both halls connected")
        at_event = types.SimpleNamespace(
            board_url=lambda n: event.url(f"board{n}", event.board_passwords[n]))
        board = LinkedBoard(tmp_path, types.SimpleNamespace(venue=at_event), 1)
        started.append(board)
        yield types.SimpleNamespace(event=event, public=public, venue_hall=venue_hall,
                                    public_hall=public_hall, board=board, mirror=mirror,
                                    event_broker=event_broker)
    finally:
        for part in reversed(started):
            if isinstance(part, LinkedBoard):
                part.close()
            else:
                part.stop()


def public_ply(service) -> int:
    with service.store.lock:
        latest = service.store.latest(1)
        return latest.ply if latest else 0


def received(service) -> list[float]:
    with service.store.lock:
        latest = service.store.latest(1)
        return list(latest.received) if latest else []


@pytest.mark.broker
def test_the_public_side_never_shows_a_move_younger_than_the_delay(mirrored):
    venue_hall, public_hall, board = mirrored.venue_hall, mirrored.public_hall, mirrored.board
    young: list[str] = []
    looks = [0]
    done = threading.Event()

    def watch() -> None:  # the public hall's game, looked at as often as it can be
        while not done.is_set():
            shown = public_ply(public_hall)
            now = venue_hall.wall()  # after the look: the move was older than this
            times = received(venue_hall)
            if shown and (shown > len(times) or times[shown - 1] > now - DELAY):
                young.append(f"move {shown} shown {now - times[shown - 1]:.2f} s after it "
                             f"reached the venue's hall")
            looks[0] += 1
            done.wait(0.02)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        rng = random.Random(4)
        for _ in range(6):
            board.play(rng.choice(board.legal()))
            wait_until(lambda: hall_moves(venue_hall, 1) == board_moves(board),
                       what="the move in the venue's hall")
        wait_until(lambda: hall_moves(public_hall, 1) == board_moves(board),
                   timeout=DELAY + 20, what="every move in the public hall, late")
    finally:
        done.set()
        watcher.join()
    assert young == []
    assert looks[0] > 50


@pytest.mark.broker
def test_nothing_published_at_the_public_broker_reaches_the_venue(mirrored):
    venue_hall, board, public = mirrored.venue_hall, mirrored.board, mirrored.public
    board.play(board.legal()[0])
    wait_until(lambda: hall_moves(mirrored.public_hall, 1) == board_moves(board),
               timeout=DELAY + 20, what="the move in the public hall")
    outsider = RawClient(public.hall_url(), "spectator")  # the public hall's password
    try:
        forged = b'{"v": 1, "id": "x1", "cmd": "set_tags", "tags": {"Site": "forged"}}'
        assert outsider.publish(board_topic(1, "command"), forged).value == NOT_AUTHORIZED
        assert outsider.publish(board_topic(1, "state"), b"{}").value == NOT_AUTHORIZED
        assert outsider.publish(public_topic(1, "command"), forged).value == NOT_AUTHORIZED
    finally:
        outsider.close()
    # the public hall's own commands go nowhere either
    mirrored.public_hall.set_tags(1, {"Annotator": "forged"})
    # then a command from the venue's hall, through the venue's broker: once the board
    # has it, nothing sent before it from the public side has come
    assert venue_hall.set_tags(1, {"Site": "Venue"})["ok"] is True
    tags = board.recorder.game(board.session.game.game_id).tags
    assert tags["Site"] == "Venue" and "Annotator" not in tags
    with venue_hall.store.lock:
        assert venue_hall.ingest.claims.of(1) == {} and venue_hall.bad_messages == 0


@pytest.mark.broker
def test_the_public_password_reads_the_delayed_tree_and_writes_nothing(tmp_path):
    event, broker = event_venue(tmp_path)
    try:
        hall = RawClient(event.hall_url(), "hall")
        mirror = RawClient(event.url("mirror", event.mirror_password), "mirror")
        stolen = RawClient(event.url("public", event.public_password), "public")
        try:
            assert hall.publish(board_topic(1, "command"), b"{}").value in (0, 0x10)
            assert mirror.publish(public_topic(1, "state"), b"{}", retain=True).value \
                in (0, 0x10)
            assert mirror.publish(board_topic(1, "command"), b"{}").value == NOT_AUTHORIZED
            for topic in (board_topic(1, "command"), board_topic(1, "state"),
                          public_topic(1, "state")):
                assert stolen.publish(topic, b"{}").value == NOT_AUTHORIZED, topic
            board = RawClient(event.url("board1", event.board_passwords[1]), "board1")
            try:
                board.publish(board_topic(1, "state"), b"{}", retain=True)  # live, retained
            finally:
                board.close()
            stolen.subscribe("draughtsboard/v1/#")
            wait_until(lambda: stolen.messages, what="the delayed state")
            assert [topic for topic, _ in stolen.messages] == [public_topic(1, "state")]
        finally:
            for client in (hall, mirror, stolen):
                client.close()
    finally:
        broker.stop()


def public_game(service):
    with service.store.lock:
        latest = service.store.latest(1)
        if latest is None:
            return None, {}, []
        return (latest.game.result if latest.finished else None, dict(latest.game.tags),
                list(service.ingest.claims.of(1)))


@pytest.mark.broker
def test_what_the_venues_arbiter_settled_is_settled_on_the_public_side(mirrored):
    """A resignation (a result no position proves) and names the venue's arbiter set:
    the venue's hall recorded them, so the public hall, which reads only the venue's
    mirror, shows them as settled, with no claim waiting for an arbiter it does not
    have; the moves are still checked by the rules there."""
    venue_hall, public_hall, board = mirrored.venue_hall, mirrored.public_hall, mirrored.board
    rng = random.Random(7)
    for _ in range(4):
        board.play(rng.choice(board.legal()))
    wait_until(lambda: hall_moves(venue_hall, 1) == board_moves(board),
               what="the moves in the venue's hall")
    venue_hall.set_tags(1, {"White": "Ann", "Black": "Bea"})
    venue_hall.declare_result(1, "0-1", "resigned")
    wait_until(lambda: public_game(public_hall)[0] == "0-1", timeout=DELAY + 20,
               what="the venue's result on the public side")
    result, tags, claims = public_game(public_hall)
    assert (tags.get("White"), tags.get("Black")) == ("Ann", "Bea")
    assert claims == [] and hall_moves(public_hall, 1) == board_moves(board)


def _state(game: Game, game_id: str) -> bytes:
    return StateMessage(game_record(game_id, game)).to_json()


def test_each_boards_presence_goes_out_delayed_and_again_when_it_changes(tmp_path):
    """A board the venue hall sees go offline is shown offline on the public side once
    the delay has passed since (not before: a board switched off as its game ends would
    tell the public the game is over), and online again the same way; the game itself is
    not sent again for it."""
    store = HallStore(tmp_path, sync=False)
    ingest = Ingest(store)
    game = Game(get_variant("russian"), tags={"Round": "1"})
    gid = "00001-20261130-120000"
    ingest.handle(1, "state", _state(game, gid), now=1000.0)
    played = game.play("c3-d4")
    ingest.handle(1, "ply", PlyMessage(gid, 1, 1, MoveRecord(
        played.text, played.move.path, played.move.captures)).to_json(), now=1001.0)
    clock = {"now": 1200.0}
    online = {1: True}
    mirror = Mirror(store, None, 100.0, wall=lambda: clock["now"], online=online.get)

    def due_at(now: float) -> list[tuple[str, bool | None]]:
        clock["now"] = now
        return [(m.topic.rsplit("/", 1)[1],
                 StatusMessage.from_json(m.payload).online if m.topic.endswith("status")
                 else None) for m in mirror.due()]

    assert due_at(1200.0) == [("status", True), ("state", None)]
    online[1] = False  # the venue hall sees it go at 1210
    assert due_at(1210.0) == []
    assert due_at(1309.0) == []  # 99 s later: still online on the public side
    assert due_at(1311.0) == [("status", False)]
    assert due_at(1312.0) == []
    online[1] = True
    assert due_at(1320.0) == []
    assert due_at(1421.0) == [("status", True)]
    assert due_at(1500.0) == []


@pytest.mark.broker
def test_a_board_gone_offline_is_shown_offline_on_the_public_side_late(mirrored):
    venue_hall, public_hall, board = mirrored.venue_hall, mirrored.public_hall, mirrored.board
    board.play(board.legal()[0])
    wait_until(lambda: hall_moves(public_hall, 1) == board_moves(board), timeout=DELAY + 20,
               what="the move in the public hall")
    assert public_hall.board_online(1)
    board.link.stop()  # says offline: the venue's hall has it at once
    wait_until(lambda: not venue_hall.board_online(1), what="the board offline at the venue")
    assert public_hall.board_online(1)  # the delay has not passed yet
    wait_until(lambda: not public_hall.board_online(1), timeout=DELAY + 20,
               what="the board offline on the public side")


@pytest.mark.broker
def test_the_mirrors_link_is_on_the_venue_halls_page_and_in_its_log(mirrored, caplog):
    venue_hall, mirror = mirrored.venue_hall, mirrored.mirror
    wait_until(lambda: venue_hall.hall_info()["mirror"] == {"connected": True, "error": None},
               what="the mirror connected")
    caplog.set_level(logging.INFO, logger="draughtsboard.hall.mirror")
    mirrored.event_broker.kill()
    wait_until(lambda: venue_hall.hall_info()["mirror"]["error"] is not None,
               what="the mirror's lost broker on the page")
    assert venue_hall.hall_info()["mirror"]["connected"] is False
    assert venue_hall.hall_info()["mirror"]["error"]["id"] in ("hall.mirror.lost",
                                                                 "hall.mirror.unreachable")
    mirrored.event_broker.start()
    wait_until(lambda: mirror.state() == {"connected": True, "error": None}, timeout=20,
               what="the mirror back")
    said = [r.getMessage() for r in caplog.records if r.name == "draughtsboard.hall.mirror"]
    assert [line for line in said if line.startswith("public mirror: lost ")], said
    assert [line for line in said if line.startswith("public mirror: on ")], said


@pytest.mark.broker
def test_a_refused_login_is_said_once_and_shown(tmp_path, caplog):
    """A wrong mirror password: the broker refuses it every second or two; the hall says
    so once (then at most once a minute) and shows why on its page."""
    event, broker = event_venue(tmp_path)
    caplog.set_level(logging.INFO, logger="draughtsboard.hall.mirror")
    store = HallStore(tmp_path / "hall", sync=False)
    told = threading.Event()
    mirror = Mirror(store, parse_broker_url(event.url("mirror", "wrong-password")), DELAY,
                    wall=lambda: 0.0, interval=0.1, on_change=told.set)
    try:
        mirror.start()
        wait_until(lambda: broker.log.count("not authorised") >= 3 and mirror.error is not None,
                   timeout=20, what="three refused logins")
        assert mirror.state() == {"connected": False, "error": {
            "id": "hall.mirror.refused", "params": {"reason": mirror.error.as_json()[
                "params"]["reason"]}}}
        refused = [r for r in caplog.records if "refused the mirror's login" in r.getMessage()]
        assert len(refused) == 1 and refused[0].levelno == logging.ERROR
        assert told.is_set()  # the venue hall's pages are woken to show it
    finally:
        mirror.stop()
        broker.stop()


def public_needs(service) -> list[str]:
    """Why the public hall's page shows board 1 as needing attention (message ids)."""
    return [need["id"] for need in service.summaries()[1][1]["needs"]]


@pytest.mark.broker
def test_the_public_side_shows_the_boards_cut_off_while_the_venues_feed_is_down(mirrored):
    """The public hall's boards said online by their last status: once the venue hall's
    mirror is gone (its Will, or a clean stop) or the bridge to the venue drops, they are
    shown cut off, not online, until the feed is back."""
    public_hall, board = mirrored.public_hall, mirrored.board
    board.play(board.legal()[0])
    wait_until(lambda: hall_moves(public_hall, 1) == board_moves(board), timeout=DELAY + 20,
               what="the move in the public hall")
    assert public_hall.board_online(1)

    mirror = mirrored.mirror  # the venue hall killed: no goodbye, the broker sends its Will
    mirror.client.loop_stop()  # (its network thread gone, as in a killed process)
    mirror.client.socket().close()
    wait_until(lambda: not public_hall.board_online(1), timeout=20,
               what="the boards cut off on the public side")
    assert "hall.need.feed_cut" in public_needs(public_hall)
    assert hall_moves(public_hall, 1) == board_moves(board)  # its last state stays

    venue_hall = mirrored.venue_hall
    again = Mirror(venue_hall.store, mirror.address, DELAY, wall=venue_hall.wall,
                   interval=0.1, online=venue_hall.board_online)
    again.start()
    try:
        wait_until(lambda: public_hall.board_online(1), timeout=20, what="the feed back")
        assert "hall.need.feed_cut" not in public_needs(public_hall)
        mirrored.event_broker.kill()  # the bridge drops: the public broker says so itself
        wait_until(lambda: not public_hall.board_online(1), timeout=30,
                   what="the boards cut off when the bridge drops")
        mirrored.event_broker.start()
        wait_until(lambda: public_hall.board_online(1), timeout=40,
                   what="the feed back with the bridge")
    finally:
        again.stop()
    wait_until(lambda: not public_hall.board_online(1), timeout=20,
               what="the boards cut off after the mirror's clean stop")
