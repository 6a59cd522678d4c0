"""`draughtsboard hub`: the engine's side of the protocol, line by line, then as a process
played against by pydraughts' Hub driver and by our own Hub client."""

import io
import pathlib
import random
import re
import subprocess
import sys
import threading

import draughts
import pytest
from draughts.engine import HubEngine, Limit

from draughtsboard.board.game.record import Game
from draughtsboard.board.rules import get_variant
from draughtsboard.commands.hub import serve
from draughtsboard.opponents import BuiltinOpponent, Clocks, HubOpponent
from draughtsboard.opponents.hub_client import default_hub_command
from draughtsboard.opponents.hub_engine import HubEngineSession, run_search
from draughtsboard.opponents.hub_text import parse_line, parse_move

from .games import play_whole_game


def start_session(variant="normal"):
    session = HubEngineSession()
    hello = session.receive("hub").lines
    assert hello[-1] == "wait"
    assert session.receive(f"set-param name=variant value={variant}").lines == []
    assert session.receive("init").lines == ["ready"]
    return session


def test_the_handshake_declares_every_variant_and_the_levels():
    lines = HubEngineSession().receive("hub").lines
    params = [parse_line(line) for line in lines if line.startswith("param")]
    variant = next(p for p in params if p.get("name") == "variant")
    assert variant.get("values").split() == ["normal", "russian", "lasca", "column",
                                             "column-7x7"]
    level = next(p for p in params if p.get("name") == "level")
    assert (level.get("min"), level.get("max")) == ("1", "10")


@pytest.mark.parametrize("line, message", [
    ("pos pos=Wxyz", "must start|squares|unknown"),
    ("pos pos=" + "W" + "b" * 20 + "e" * 10 + "w" * 20 + ' moves="32-27 46-41"', "not legal"),
    ("set-param name=variant value=killer", "unknown variant"),
    ("set-param name=level value=11", "not 1-10"),
    ("level time=abc", "not a number"),
    ("level", "without a limit"),
    ('pos pos="Wbb', "quote"),
])
def test_bad_input_is_answered_with_an_error_line_and_changes_nothing(line, message):
    session = start_session()
    reply = session.receive(line)
    assert len(reply.lines) == 1 and reply.lines[0].startswith("error message=")
    assert re.search(message, parse_line(reply.lines[0]).get("message"))
    assert reply.search is None


def test_go_needs_init_and_a_position_with_a_legal_move():
    session = HubEngineSession()
    assert "before init" in session.receive("go think").lines[0]
    session.receive("init")
    assert "without a position" in session.receive("go think").lines[0]
    session.receive("pos pos=W" + "bbbbb" + "e" * 45)  # White has no piece: no move
    assert "no legal move" in session.receive("go think").lines[0]


def test_a_search_in_russian_at_level_3_gives_a_legal_move():
    session = start_session("russian")
    session.receive("set-param name=level value=3")
    session.receive("pos pos=W" + "b" * 12 + "e" * 8 + "w" * 12 + ' moves="22-17 9-13"')
    session.receive("level move-time=1")
    order = session.receive("go think").search
    assert order.level == 3 and len(order.history) == 2
    lines = run_search(order, threading.Event())
    done = parse_line(lines[-1])
    assert done.command == "done"
    parse_move(order.position, done.get("move"))  # legal, or it raises


def test_during_a_search_only_ping_stop_and_ponder_hit_are_taken():
    session = start_session()
    session.receive("pos pos=W" + "b" * 20 + "e" * 10 + "w" * 20)
    session.receive("level depth=2")
    assert session.receive("go think").search is not None
    assert session.receive("ping").lines == ["pong"]
    assert "during a search" in session.receive("pos pos=W").lines[0]
    assert session.receive("stop").stop
    session.search_done()
    assert session.receive("ping").lines == ["pong"]


def test_serve_answers_a_whole_conversation_and_quit_waits_for_the_done():
    start = "W" + "b" * 20 + "e" * 10 + "w" * 20
    conversation = ["hub", "init", f"pos pos={start}", "level nodes=500", "go think",
                    "ping", "quit"]
    out = io.StringIO()
    assert serve(io.StringIO("\n".join(conversation) + "\n"), out) == 0
    lines = out.getvalue().splitlines()
    assert lines[4] == "ready"
    assert "pong" in lines
    assert lines[-1].startswith("done move=") or lines[-2].startswith("done move=")


def test_end_of_input_ends_the_command():
    assert serve(io.StringIO("hub\n"), io.StringIO()) == 0


# -- against independent and external peers -------------------------------------------------

@pytest.mark.slow
def test_pydraughts_hub_driver_plays_a_whole_game_against_draughtsboard_hub():
    """pydraughts starts ``draughtsboard hub`` and plays both sides through it (level 10
    with a node budget for White, level 2 for Black, set between searches is not allowed
    by the protocol, so two engines); every move is checked by pydraughts' rules and ours."""
    # pydraughts resolves symbolic links in the command: the virtual environment's own
    # script, not its python (a link to the system one, without our dependencies)
    command = [str(pathlib.Path(sys.executable).parent / "draughtsboard"), "hub"]
    white = HubEngine(command)
    black = HubEngine(command)
    try:
        white.init()
        black.setoption("level", "2")
        black.init()
        board = draughts.Board(variant="standard")
        ours = Game(get_variant("international"))
        while not board.is_over() and ours.outcome() is None and ours.ply < 400:
            engine = white if board.turn == draughts.WHITE else black
            played = engine.play(board, Limit(nodes=300), ponder=False).move
            assert any(m.board_move == played.board_move for m in board.legal_moves())
            board.push(played)
            ours.play(parse_move(ours.position, played.hub_move))
        assert board.is_over() or ours.outcome() is not None
        assert ours.ply >= 20
    finally:
        for engine in (white, black):
            engine.quit()
            engine.p.wait(timeout=10)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["russian", "lasca", "column-7x7"])
def test_our_hub_client_plays_a_whole_game_against_draughtsboard_hub_as_a_process(name):
    variant = get_variant(name)
    hub = HubOpponent(variant, default_hub_command())
    try:
        game = play_whole_game(hub, variant, opponent_is_white=True,
                               clocks=Clocks(move_seconds=0.05), level=2, seed="hub-test")
        assert game.outcome() is not None
        assert hub.name.startswith("draughtsboard")
    finally:
        hub.close()
        hub.close()  # safe twice


def test_the_hub_command_runs_from_the_command_line():
    conversation = "hub\ninit\nquit\n"
    done = subprocess.run([sys.executable, "-m", "draughtsboard", "hub"], input=conversation,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    assert done.stdout.splitlines()[-1] == "ready"


def test_a_level_plays_the_same_game_for_the_same_seed():
    variant = get_variant("russian")
    games = []
    for seed in ("a", "a", "b"):
        player = BuiltinOpponent(variant, 1, seed=seed)
        game = Game(variant)
        player.start(game.position, True)
        rng = random.Random(0)
        while game.ply < 20 and game.outcome() is None:
            if game.position.white_to_move:
                game.play(player.move(Clocks()))
            else:
                reply = rng.choice(game.position.legal_moves())
                player.other_side_moved(reply)
                game.play(reply)
        games.append([played.move for played in game.moves])
    assert games[0] == games[1]
    assert games[0] != games[2]
