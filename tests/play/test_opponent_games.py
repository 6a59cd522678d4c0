"""Whole games against opponents that are other programs: the project's own engine as an
external Hub process (``hub:draughtsboard hub``) in virtual time, and pydraughts' DXP
implementation against ``draughtsboard play --opponent dxp...`` in both directions, and a
peer that talks as Scan 2.0 does (the board's process, its page's hands, real sockets).

In every game the person's moves are made by hand on the simulated board and the
opponent's moves are carried out by hand as the page shows them; the record is the board's
(checked against the peer's own rules at the end)."""

from __future__ import annotations

import random
import threading
import time

import draughts
import pytest
from draughts.engine import DXPEngine  # (its own module cannot be imported first)

from draughtsboard.board.rules import get_variant, initial_position
from draughtsboard.board.rules.notation import parse_move
from draughtsboard.opponents import BuiltinOpponent, Clocks
from draughtsboard.opponents.hub_client import default_hub_command

from ..opponents.scan_peer import ScanLikeFollower
from ..opponents.test_dxp import PydraughtsFollower, close_pydraughts
from ..web.helpers import TOKEN, PlayProcess, free_port, wait_until

pytestmark = pytest.mark.slow

MAX_PLIES = 300


def finish(play) -> dict:
    """The view once the game has its result; a draw the rules declare is accepted as the
    arbiter would."""
    view = play.view()
    if view["result"] is None and view["draw_claim"]:
        play.arbiter.accept_draw()
        view = play.view()
    return view


def test_a_whole_game_against_the_projects_engine_as_a_hub_process(start_play):
    play = start_play(mode="training", opponent=f"hub:{default_hub_command()}",
                      move_seconds=0.05)
    assert play.view()["opponent"]["name"] == "draughtsboard 0.1.0"  # its Hub id
    assert play.view()["tags"]["Black"] == "draughtsboard 0.1.0"
    rng = random.Random("hub game")
    view = play.view()
    while view["result"] is None and len(view["moves"]) < MAX_PLIES and not view["draw_claim"]:
        opponent = view["opponent"]
        assert opponent["error"] is None, opponent["error"]
        if opponent["pending"] is not None:
            view = play.carry_out_pending()
        else:
            move = rng.choice(play.game.tracker.position.legal_moves())
            view = play.carry_out(move.path, move.captures)
        assert view["state"] in ("ready", "game_over"), view["status"]
    view = finish(play)
    assert view["result"] is not None and len(view["moves"]) > 10
    pdn = play.export_pdn()
    assert '[Black "draughtsboard 0.1.0"]' in pdn


# -- DXP through `draughtsboard play` ------------------------------------------------------

INTERNATIONAL = get_variant("international")
REST = 0.15  # seconds a hand rests on each landing of a capture (the tracker needs 0.1)


class BoardGame:
    """The person at a board run by ``draughtsboard play``: its moves chosen by the
    built-in engine (level 3, so that the game ends), made with the page's hands."""

    def __init__(self, play: PlayProcess) -> None:
        self.play = play
        self.person = BuiltinOpponent(INTERNATIONAL, 3, seed="the person")
        self.position = initial_position(INTERNATIONAL)  # as the person sees the game

    def hand_move(self, path, captures) -> None:
        """One move by hand: the piece lifted, put down on each landing (resting there),
        the captured pieces taken off."""
        self.play.hands(("lift", path[0]))
        for index, square in enumerate(path[1:], start=1):
            self.play.hands(("place", square))
            if index < len(path) - 1:
                time.sleep(REST)  # the hand rests on the landing (time as the input)
                self.play.hands(("lift", square))
        if captures:
            self.play.hands(*[("lift", square) for square in captures])

    def wait_for(self, what, predicate, timeout: float = 60.0) -> dict:
        return wait_until(lambda: (v := self.play.state()) and predicate(v) and v,
                          timeout=timeout, what=what)

    def play_out(self) -> dict:
        """Play until the game has its result (a draw the rules declare is accepted)."""
        view = self.wait_for("the board to match", lambda v: v["state"] != "setup")
        self.person.start(self.position, opponent_is_white=self.play_white(view))
        while view["result"] is None and len(view["moves"]) < MAX_PLIES:
            opponent = view["opponent"]
            assert opponent["error"] is None, opponent["error"]
            plies = len(view["moves"])
            if view["draw_claim"]:
                self.play.post("/api/arbiter/accept-draw", {}, token=TOKEN)
                view = self.wait_for("the draw", lambda v: v["result"] is not None)
                break
            if view["white_to_move"] == self.play_white(view):
                move = self.person.move(Clocks())
                self.position = self.position.play(move)
                self.hand_move(move.path, move.captures)
            else:
                view = self.wait_for("the opponent's move", lambda v: v["opponent"][
                    "pending"] is not None or v["opponent"]["error"] or v["result"])
                if view["opponent"]["pending"] is None:
                    continue
                pending = view["opponent"]["pending"]
                self.hand_move(pending["path"], pending["captures"])
                move = parse_move(self.position, pending["notation"])
                self.position = self.position.play(move)
                self.person.other_side_moved(move)
            view = self.wait_for("the move to be recorded",
                                 lambda v, plies=plies: len(v["moves"]) > plies
                                 or v["result"] or v["opponent"]["error"])
            assert view["state"] in ("ready", "game_over"), view["status"]
        return view

    @staticmethod
    def play_white(view) -> bool:
        return view["opponent"]["side"] == "black"


def test_pydraughts_initiator_plays_a_whole_game_against_the_board_listening(tmp_path):
    port = free_port()
    moves: list[str] = []

    def peer() -> None:
        rng = random.Random("dxp initiator")
        engine = None
        for _ in range(100):  # the board listens once its process is up
            try:
                engine = DXPEngine(None, {"engine-opened": True, "ip": "127.0.0.1",
                                          "port": port})
                break
            except OSError:
                time.sleep(0.05)
        board = draughts.Board(variant="standard")
        try:
            while not board.is_over() and len(board.move_stack) < MAX_PLIES:
                board.push(rng.choice(board.legal_moves()))
                if board.is_over():
                    break
                answer = engine.play(board).move
                if answer is None:
                    break
                board.push(answer)
        finally:
            moves.extend(m.pdn_move for m in board.move_stack)
            close_pydraughts(engine)

    with PlayProcess(tmp_path / "data", "--variant", "international", "--mode", "training",
                     "--opponent", f"dxp-listen:127.0.0.1:{port}",
                     "--opponent-side", "white") as play:
        thread = threading.Thread(target=peer, daemon=True)
        thread.start()
        view = BoardGame(play).play_out()
        assert view["result"] is not None, view["status"]
        assert view["tags"]["White"] == "DXP Client"
        recorded = view["moves"]
        assert play.stop() == 0
    thread.join(30)
    assert not thread.is_alive()
    assert len(recorded) > 10
    # the initiator's own rules saw the same game (it may have one move more, sent as the
    # arbiter declared a draw)
    assert recorded == moves[:len(recorded)] and len(moves) - len(recorded) <= 1


def whole_game_against(peer, data, *options: str) -> dict:
    """The board's whole international game as the DXP initiator against the follower
    ``peer`` (``port``, ``thread``): its last view, once the board stopped cleanly, the
    peer's thread is done and more than ten moves were recorded."""
    with PlayProcess(data, "--variant", "international", *options,
                     "--opponent", f"dxp:127.0.0.1:{peer.port}") as play:
        view = BoardGame(play).play_out()
        assert view["result"] is not None, view["status"]
        assert play.stop() == 0
    peer.thread.join(30)
    assert len(view["moves"]) > 10
    return view


def test_the_board_as_dxp_initiator_plays_a_whole_game_against_a_pydraughts_follower(
        tmp_path):
    peer = PydraughtsFollower("dxp follower")
    view = whole_game_against(peer, tmp_path / "data", "--mode", "training",
                              "--opponent-side", "white")
    assert view["tags"]["White"] == "pydraughts follower"
    recorded = view["moves"]
    # the follower's own rules saw the same game
    theirs = [move.pdn_move for move in peer.board.move_stack]
    assert recorded == theirs[:len(recorded)] and len(theirs) - len(recorded) <= 1


def test_the_board_as_dxp_initiator_plays_a_whole_game_against_a_scan_like_follower(
        tmp_path):
    """The tester's game against Scan 2.0 (`scan dxp`, follower), as they started it: the
    opponent Black, no TimeControl, the person's hands on the page; Scan's answers as its
    DXP mode writes them (`scan_peer`)."""
    rng = random.Random("scan-like follower")
    peer = ScanLikeFollower(lambda position, n: (rng.choice(position.legal_moves()),
                                                 0.0 if n <= 3 else 12.0))
    view = whole_game_against(peer, tmp_path / "data")
    assert view["tags"]["Black"] == "Scan 2.0"
    assert peer.received[0].endswith("Z005000A")  # 5 minutes for the game, no move count
    assert sum(1 for m in peer.sent if m.startswith("M")) >= 4
    assert peer.exit_reason == "game end with stop code 1"
