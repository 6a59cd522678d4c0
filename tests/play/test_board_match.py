"""A match between two boards, in virtual time: two games in play (`VirtualPlay`), each
with the other board as its opponent (`BoardOpponent`), joined by an in-memory pair of
transports that can be cut. Each side's move shows on the other board as the opponent's
move to carry out, both journals hold the same game (moves, tags and clocks), a cut link
pauses the match clock on both boards and their pages say so, and what was played during
the cut arrives once, after it."""

from __future__ import annotations

import random

from draughtsboard.board.game.pdn_writer import write_game
from draughtsboard.board.message import Message
from draughtsboard.board.rules.notation import format_move
from draughtsboard.board.rules.variants import get_variant
from draughtsboard.opponents import BoardOpponent
from draughtsboard.opponents.match_state import digest
from draughtsboard.words import english

from .virtual import STEP, DeferredAnalyst, VirtualPlay

TAGS = {"Event": "Towns match", "Round": "1", "TimeControl": "300+2"}


class Wire:
    """Two seats' transports: what one publishes reaches the other at once while the
    wire is up; records are kept (retained) and what was published while it was cut
    arrives when it is back, as through bridged brokers."""

    def __init__(self) -> None:
        self.up = True
        self.ends: dict[str, WireEnd] = {}
        self.retained: dict[tuple[str, str], bytes] = {}
        self.queued: list[tuple[str, str, bytes]] = []

    def end(self, seat: str) -> WireEnd:
        self.ends[seat] = WireEnd(self, seat)
        return self.ends[seat]

    def send(self, seat: str, kind: str, payload: bytes) -> None:
        if kind == "record":
            self.retained[(seat, kind)] = payload
        if not self.up:
            if kind != "beat":
                self.queued.append((seat, kind, payload))
            return
        self.deliver(seat, kind, payload)

    def deliver(self, seat: str, kind: str, payload: bytes) -> None:
        other = self.ends.get("black" if seat == "white" else "white")
        if other is not None and other.deliver is not None:
            other.deliver(kind, payload)

    def cut(self) -> None:
        self.up = False

    def mend(self) -> None:
        self.up = True
        queued, self.queued = self.queued, []
        for seat, kind, payload in queued:
            self.deliver(seat, kind, payload)


class WireEnd:
    def __init__(self, wire: Wire, seat: str) -> None:
        self.wire, self.seat = wire, seat
        self.deliver = None
        self.sent: list[tuple[str, bytes]] = []

    def open(self, deliver) -> None:
        self.deliver = deliver
        peer = "black" if self.seat == "white" else "white"
        if self.wire.up and (peer, "record") in self.wire.retained:
            deliver("record", self.wire.retained[(peer, "record")])

    def publish(self, kind: str, payload: bytes) -> None:
        self.sent.append((kind, payload))
        self.wire.send(self.seat, kind, payload)

    def close(self) -> None:
        self.deliver = None


class WhenReady(DeferredAnalyst):
    """The opponent's worker in virtual time: a job that would wait for the other board
    (its start, its move) runs only once what it waits for is there."""

    def __init__(self) -> None:
        super().__init__()
        self.opponent: BoardOpponent | None = None

    def run_one(self) -> bool:
        state = self.opponent.state if self.opponent is not None else None
        ready = state is not None and state.theirs is not None and (
            len(state.theirs.plies) > len(state.ours) or state.conflict is not None)
        for entry in sorted(self.jobs, key=lambda entry: entry[:2]):
            job = entry[2]
            if job.name == "opponent: think" and not ready:
                continue
            if job.name == "opponent: start" and (state is None or state.theirs is None):
                continue
            self.jobs.remove(entry)
            if not job.stale():
                answer = job.work(job.stale)
                if not job.stale():
                    job.done(answer)
            return True
        return False


def board(tmp_path, wire: Wire, seat: str, name: str, *, tags: dict[str, str] = TAGS,
          fen: str | None = None) -> VirtualPlay:
    """The board of ``seat`` in a match across ``wire`` (a game with ``tags``, from
    ``fen`` or the start), the other board its opponent, in virtual time."""
    opponent = BoardOpponent(get_variant("russian"), "m1", seat, wire.end(seat), name=name,
                             tags=tags, beat_every=None, lost_after=3.0)
    runner = WhenReady()
    runner.opponent = opponent
    play = VirtualPlay(tmp_path / seat, fen=fen, tags={**tags, seat.capitalize(): name},
                       opponent=opponent, thinker=runner,
                       opponent_side="black" if seat == "white" else "white")
    opponent.clock = play.clock
    return play


def two_boards(tmp_path, **kwargs) -> tuple[Wire, VirtualPlay, VirtualPlay]:
    """The wire and the two boards of a match on it (Anna's white, Boris's black; the
    keywords go to `board`), settled: each knows the other."""
    wire = Wire()
    white = board(tmp_path, wire, "white", "Anna", **kwargs)
    black = board(tmp_path, wire, "black", "Boris", **kwargs)
    settle_both(white, black)
    return wire, white, black


def mend(wire: Wire, white: VirtualPlay, black: VirtualPlay) -> None:
    """The link is back: both boards beat, a step passes on each, and they settle."""
    wire.mend()
    beats(white, black)
    for play in (white, black):
        play.wait(STEP)
    settle_both(white, black)


def close_both(white: VirtualPlay, black: VirtualPlay) -> None:
    white.close()
    black.close()


def settle_both(white: VirtualPlay, black: VirtualPlay) -> None:
    for _ in range(3):
        white.settle()
        black.settle()


def beats(*plays: VirtualPlay) -> None:
    for play in plays:
        play.seat.opponent.beat()


def play_own_move(me: VirtualPlay, rng: random.Random) -> None:
    move = rng.choice(me.game.tracker.position.legal_moves())
    ply = me.game.moves_recorded
    me.carry_out(move.path, move.captures)
    assert me.game.moves_recorded == ply + 1


def carry_out_theirs(me: VirtualPlay) -> None:
    ply = me.game.moves_recorded
    me.carry_out_pending()
    assert me.game.moves_recorded == ply + 1


def exchange(white: VirtualPlay, black: VirtualPlay, rng: random.Random) -> None:
    """A move each way: White plays and Black's board carries it out, then Black plays
    and White's board carries it out."""
    for mover, other in ((white, black), (black, white)):
        beats(white, black)
        play_own_move(mover, rng)
        settle_both(white, black)
        carry_out_theirs(other)
        settle_both(white, black)


def test_a_whole_match_between_two_boards_with_a_cut_in_the_middle(tmp_path):
    wire, white, black = two_boards(tmp_path)
    assert white.view()["opponent"]["name"] == "Boris"
    assert black.view()["opponent"]["name"] == "Anna"
    rng = random.Random(7)
    plies = 0
    cut_at, mended = 12, False
    while plies < 60 and not white.game.tracker.position.is_game_over():
        mover, other = (white, black) if plies % 2 == 0 else (black, white)
        if plies == cut_at:
            wire.cut()
            for play in (white, black):
                play.wait(4.0)
            for play in (white, black):
                view = play.view()
                assert view["opponent"]["reachable"] is False
                assert view["status"]["id"] == "match.headline.paused"
                assert any(f["kind"] == "paused" for f in view["guidance"])
                assert view["clocks"]["suspended"] and view["clocks"]["since"] is None
            # the mover plays on during the cut: it goes across once the link is back
            play_own_move(mover, rng)
            plies += 1
            settle_both(white, black)
            assert other.view()["opponent"]["pending"] is None
            mover.wait(60.0)  # a long cut: nobody's time goes
            other.wait(60.0)
            mend(wire, white, black)
            for play in (white, black):
                view = play.view()
                assert view["opponent"]["reachable"] is True
                assert view["status"]["id"] != "match.headline.paused"
            mended = True
            carry_out_theirs(other)
            continue
        beats(white, black)
        play_own_move(mover, rng)
        settle_both(white, black)
        assert other.view()["opponent"]["pending"] is not None  # the LEDs show it
        other.wait(1.5)
        carry_out_theirs(other)
        settle_both(white, black)
        plies += 1
    assert mended
    white_game = white.recorder.game(white.game.game_id)
    black_game = black.recorder.game(black.game.game_id)
    assert [m.text for m in white_game.moves] == [m.text for m in black_game.moves]
    assert len(white_game.moves) == plies  # none lost, none twice
    assert [m.clock for m in white_game.moves] == [m.clock for m in black_game.moves]
    assert white_game.tags["White"] == black_game.tags["White"] == "Anna"
    assert white_game.tags["Black"] == black_game.tags["Black"] == "Boris"
    # no time was charged for the cut: at most the few seconds the boards played
    assert min(white_game.moves[-1].clock) > 300 - 2 * 60
    # the game's PDN is the same text on both boards (each board's arbiter's events, at
    # its own times, stay in its own journal)
    assert write_game(white_game, events=False) == write_game(black_game, events=False)
    for play in (white, black):
        log = [entry["text"]["id"] for entry in play.view()["log"]
               if isinstance(entry["text"], dict)]
        assert "match.log.paused" in log and "match.log.resumed" in log
    close_both(white, black)


def test_a_move_carried_out_during_a_pause_leaves_the_clock_running_once_the_link_is_back(
        tmp_path):
    wire, white, black = two_boards(tmp_path)
    beats(white, black)
    white.move(22, 18)  # c3-d4: the clocks start
    settle_both(white, black)
    carry_out_theirs(black)
    beats(white, black)
    black.move(11, 15)  # its LEDs now show 11-15 on the white board: White's time holds
    settle_both(white, black)
    assert white.view()["opponent"]["pending"] is not None
    wire.cut()
    for play in (white, black):
        play.wait(4.0)
        assert play.view()["clocks"]["suspended"]
    carry_out_theirs(white)  # the white player carries 11-15 out during the pause
    white.wait(30.0)
    assert white.view()["clocks"]["held"]  # (still paused: nobody's time goes)
    mend(wire, white, black)
    for play in (white, black):
        clocks = play.view()["clocks"]
        assert not clocks["suspended"], play
        assert not clocks["held"] and clocks["since"] is not None, clocks  # White's runs
    before = white.game.game_clock.left(white.recorder.game(white.game.game_id), "white")
    white.wait(10.0)
    after = white.game.game_clock.left(white.recorder.game(white.game.game_id), "white")
    assert 9.0 <= before - after <= 11.0  # White's time goes again, and only from now
    close_both(white, black)


def forge_last_clock(play: VirtualPlay, clock: tuple[float, float]) -> bytes:
    """``play``'s record with its last ply's clocks replaced by ``clock``."""
    record = play.seat.opponent.state.record()
    last = record.plies[-1]
    plies = (*record.plies[:-1], type(last)(last.index, last.move, last.before, clock))
    return type(record)(record.match, record.seat, record.name, record.variant,
                        record.start, record.tags, plies).to_json()


def test_a_forged_clock_changes_only_what_the_mover_could_have_had(tmp_path):
    """The other seat's password can publish any clock: its figure for this board's own
    player is never believed, and its own above what it had plus the increment is
    refused in the log (this board's measurement is recorded)."""
    wire, white, black = two_boards(tmp_path)
    beats(white, black)
    rng = random.Random(3)
    for mover, other in ((white, black), (black, white)):
        play_own_move(mover, rng)
        settle_both(white, black)
        other.wait(1.0)
        carry_out_theirs(other)
        settle_both(white, black)
    game = black.recorder.game(black.game.game_id)
    black_had, white_had = game.moves[-1].clock[1], game.moves[-1].clock[0]

    # White's move whose record says Black has one second left: Black's own figure stays
    beats(white, black)
    play_own_move(white, rng)
    sent = white.recorder.game(white.game.game_id).moves[-1].clock
    wire.deliver("white", "record", forge_last_clock(white, (sent[0], 1.0)))
    settle_both(white, black)
    black.wait(1.0)
    carry_out_theirs(black)
    recorded = black.recorder.game(black.game.game_id).moves[-1].clock
    assert recorded[1] == black_had  # this board's own player's time, not the forged 1.0
    assert recorded[0] == sent[0]  # the mover's figure, as its board measured it

    # Black answers; White's next move claims an hour more than White had
    settle_both(white, black)
    beats(white, black)
    play_own_move(black, rng)
    settle_both(white, black)
    white.wait(1.0)
    carry_out_theirs(white)
    settle_both(white, black)
    beats(white, black)
    play_own_move(white, rng)
    wire.deliver("white", "record", forge_last_clock(white, (white_had + 3600, 300.0)))
    settle_both(white, black)
    black.wait(1.0)
    carry_out_theirs(black)
    game = black.recorder.game(black.game.game_id)
    assert game.moves[-1].clock[0] <= game.moves[-3].clock[0] + 2  # at most the increment
    assert game.moves[-1].clock[1] == game.moves[-2].clock[1]  # Black's own, unchanged
    log = [entry["text"]["id"] for entry in black.view()["log"]
           if isinstance(entry["text"], dict)]
    assert log.count("match.log.clock_refused") == 1
    assert black.view()["opponent"]["error"] is None  # the match plays on
    close_both(white, black)


def test_boards_started_with_other_tags_refuse_the_match_in_one_line(tmp_path):
    wire = Wire()
    white = board(tmp_path, wire, "white", "Anna")
    opponent = BoardOpponent(get_variant("russian"), "m1", "black", wire.end("black"),
                             name="Boris", tags={**TAGS, "Round": "2"}, beat_every=None)
    runner = WhenReady()
    runner.opponent = opponent
    black = VirtualPlay(tmp_path / "black", tags={**TAGS, "Round": "2", "Black": "Boris"},
                        opponent=opponent, thinker=runner, opponent_side="white")
    settle_both(white, black)
    errors = [play.view()["opponent"]["error"] for play in (white, black)]
    for play, error in zip((white, black), errors, strict=True):
        assert error["id"] == "match.stopped"
        assert error["params"]["detail"] == {
            "id": "match.stop.tag", "params": {"tag": "Round", "white": "1", "black": "2"}}
        assert play.view()["moves"] == []
    close_both(white, black)


def test_a_ply_that_differs_stops_the_match_with_one_line_on_the_page(tmp_path):
    wire, white, black = two_boards(tmp_path)
    white.move(22, 18)  # c3-d4 on the white board
    settle_both(white, black)
    carry_out_theirs(black)
    black.move(11, 15)
    settle_both(white, black)
    # a forged record at black's seat: another first move than the one both hold
    forged = black.seat.opponent.state.record()
    first = forged.plies[0]
    forged = type(forged)(forged.match, forged.seat, forged.name, forged.variant,
                          forged.start, forged.tags,
                          (type(first)(0, "c3-b4", first.before, first.clock),
                           *forged.plies[1:]))
    wire.deliver("black", "record", forged.to_json())
    view = white.wait(STEP)
    assert view["opponent"]["error"]["id"] == "match.stopped"
    assert view["opponent"]["error"]["params"]["detail"]["id"] == "match.stop.ply_differs"
    assert "move 1 differs" in english(Message.from_json(view["opponent"]["error"]))
    assert view["opponent"]["pending"] is None  # black's 11-15 is not played on
    assert view["moves"] == ["c3-d4"]
    close_both(white, black)


def test_a_record_with_a_move_this_board_never_played_stops_the_match_at_once(tmp_path):
    wire, white, black = two_boards(tmp_path)
    white.move(22, 18)  # c3-d4
    settle_both(white, black)
    carry_out_theirs(black)
    black.move(11, 15)
    settle_both(white, black)
    carry_out_theirs(white)  # White to play ply 3 on its own board
    settle_both(white, black)
    # a forged record at black's seat that says White played ply 3 already
    forged = black.seat.opponent.state.record()
    position = white.game.tracker.position
    move = position.legal_moves()[0]
    extra = type(forged.plies[0])(2, format_move(position, move), digest(position), None)
    forged = type(forged)(forged.match, forged.seat, forged.name, forged.variant,
                          forged.start, forged.tags, (*forged.plies, extra))
    wire.deliver("black", "record", forged.to_json())
    view = white.wait(STEP)  # noticed at once, not at White's next move
    assert view["opponent"]["error"]["id"] == "match.stopped"
    detail = view["opponent"]["error"]["params"]["detail"]
    assert detail["id"] == "match.stop.unrecorded.white"
    assert "never recorded" in english(Message.from_json(detail))
    assert len(view["moves"]) == 2  # nothing invented
    close_both(white, black)


def test_a_board_restarted_mid_match_catches_up_and_plays_nothing_twice(tmp_path):
    """The black board goes away (its process ends) after white's move was published but
    before black carried it out; started again on its journal, it reads white's record
    (kept retained), shows the same move to carry out, and the match goes on."""
    wire, white, black = two_boards(tmp_path)
    rng = random.Random(2)
    for _ in range(2):  # white, black
        play_own_move(white, rng)
        settle_both(white, black)
        carry_out_theirs(black)
        settle_both(white, black)
        play_own_move(black, rng)
        settle_both(white, black)
        carry_out_theirs(white)
        settle_both(white, black)
    play_own_move(white, rng)  # ply 5, published; black has not carried it out
    settle_both(white, black)
    shown = black.view()["opponent"]["pending"]
    black = restart(tmp_path, wire, black, "black", "Boris")  # the same journal, resumed
    settle_both(white, black)
    assert black.view()["opponent"]["pending"] == shown
    carry_out_theirs(black)
    settle_both(white, black)
    play_own_move(black, rng)
    settle_both(white, black)
    carry_out_theirs(white)
    white_game = white.recorder.game(white.game.game_id)
    black_game = black.recorder.game(black.game.game_id)
    assert len(white_game.moves) == 6
    assert [m.text for m in white_game.moves] == [m.text for m in black_game.moves]
    close_both(white, black)


def play_plies(white: VirtualPlay, black: VirtualPlay, count: int, seed: int) -> None:
    rng = random.Random(seed)
    for ply in range(count):
        mover, other = (white, black) if ply % 2 == 0 else (black, white)
        beats(white, black)
        play_own_move(mover, rng)
        settle_both(white, black)
        carry_out_theirs(other)
        settle_both(white, black)


def games(white: VirtualPlay, black: VirtualPlay):
    return (white.recorder.game(white.game.game_id), black.recorder.game(black.game.game_id))


def black_resigns(white: VirtualPlay, black: VirtualPlay) -> None:
    """Boris resigns: his board's arbiter records 1-0, and a step later Anna's board has
    heard it."""
    black.arbiter.declare_result("1-0", "resigned")
    settle_both(white, black)
    white.wait(STEP)


def both_end_with(white: VirtualPlay, black: VirtualPlay, result: str,
                  reason: str | None = None) -> None:
    """The story's close: both boards hold ``result`` (for ``reason``, where given) and
    write the same PDN; then both are closed."""
    white_game, black_game = games(white, black)
    for game in (white_game, black_game):
        assert game.result == result
        if reason is not None:
            assert game.result_reason == reason
    assert write_game(white_game, events=False) == write_game(black_game, events=False)
    close_both(white, black)


def test_a_resignation_on_the_losing_board_ends_the_game_on_both(tmp_path):
    _, white, black = two_boards(tmp_path)
    play_plies(white, black, 6, seed=4)
    # Boris resigns: his board's arbiter records his loss; Anna's board takes it
    assert black.arbiter.declare_result("1-0", "resigned") == "1-0"
    settle_both(white, black)
    white.wait(STEP)
    log = [entry["text"]["id"] for entry in white.view()["log"]
           if isinstance(entry["text"], dict)]
    assert "match.log.result_taken" in log
    for play in (white, black):
        assert play.view()["opponent"]["claim"] is None
        assert play.view()["opponent"]["error"] is None
    both_end_with(white, black, "1-0", "resigned")


def test_an_agreed_draw_needs_both_boards_and_a_win_one_board_gives_itself_is_a_claim(
        tmp_path):
    _, white, black = two_boards(tmp_path)
    play_plies(white, black, 4, seed=9)
    # Anna's board says Anna won: Boris's board shows it, never records it by itself
    white.arbiter.declare_result("1-0", "Black's flag fell")
    settle_both(white, black)
    view = black.wait(30.0)
    assert games(white, black)[1].result is None
    claim = view["opponent"]["claim"]
    assert claim["id"] == "match.flag.claim" and claim["params"]["result"] == "1-0"
    assert any(flag["kind"] == "claim" for flag in view["guidance"])
    # Anna's arbiter withdraws it; a draw is offered there (agreed), shown on Boris's
    white.arbiter.withdraw_result()
    white.arbiter.declare_result("1/2-1/2", "agreed")
    settle_both(white, black)
    view = black.wait(STEP)
    assert view["opponent"]["claim"]["params"]["result"] == "1/2-1/2"
    assert games(white, black)[1].result is None
    # Boris's board records the same draw (its reason left empty: the other board's)
    black.arbiter.declare_result("1/2-1/2")
    settle_both(white, black)
    for play in (white, black):
        assert play.wait(STEP)["opponent"]["claim"] is None
    both_end_with(white, black, "1/2-1/2", "agreed")


def test_the_black_board_records_the_white_boards_date(tmp_path):
    """Boards in two time zones (or started across midnight) write one Date: White's."""
    wire = Wire()
    white = board(tmp_path, wire, "white", "Anna")
    opponent = BoardOpponent(get_variant("russian"), "m1", "black", wire.end("black"),
                             name="Boris", tags=TAGS, beat_every=None)
    runner = WhenReady()
    runner.opponent = opponent
    black = VirtualPlay(tmp_path / "black", tags={**TAGS, "Black": "Boris",
                                                  "Date": "1999.01.01"},
                        opponent=opponent, thinker=runner, opponent_side="white")
    opponent.clock = black.clock
    settle_both(white, black)
    black.wait(STEP)
    white_game, black_game = games(white, black)
    assert black_game.tags["Date"] == white_game.tags["Date"] != "1999.01.01"
    play_plies(white, black, 2, seed=1)
    black_resigns(white, black)
    both_end_with(white, black, "1-0", "resigned")


def test_a_new_game_under_a_finished_matchs_name_is_refused_in_one_line(tmp_path):
    wire, white, black = two_boards(tmp_path)
    play_plies(white, black, 2, seed=3)
    black_resigns(white, black)
    black.close()
    wire.ends.pop("black")
    # Boris's board begins a new game (its journal's game is over) under the same name
    black = board(tmp_path / "again", wire, "black", "Boris")
    settle_both(white, black)
    error = black.view()["opponent"]["error"]
    assert error["id"] == "match.stopped"
    detail = error["params"]["detail"]
    assert detail["id"] == "match.stop.name_used.white"
    assert "new match name" in english(Message.from_json(detail))
    assert black.view()["moves"] == []
    close_both(white, black)


def restart(tmp_path, wire: Wire, play: VirtualPlay, seat: str, name: str) -> VirtualPlay:
    """The board's process ends and starts again on the same journal (a fresh seat and
    session); the other board's record is still retained on the broker."""
    play.close()
    wire.ends.pop(seat)
    return board(tmp_path, wire, seat, name)


def test_a_board_restarted_after_a_result_was_agreed_takes_nothing_again(tmp_path):
    """A finished game is not resumed: the restarted board begins a new game, which the
    used match name refuses in one line; the finished game stays as both boards hold it."""
    wire, white, black = two_boards(tmp_path)
    play_plies(white, black, 4, seed=5)
    black_resigns(white, black)
    finished_id = white.game.game_id
    assert games(white, black)[0].result == "1-0"
    white = restart(tmp_path, wire, white, "white", "Anna")
    settle_both(white, black)
    error = white.view()["opponent"]["error"]
    assert error["id"] == "match.stopped"
    assert "new match name" in english(Message.from_json(error))
    old = white.recorder.game(finished_id)
    assert (old.result, old.result_reason) == ("1-0", "resigned")
    assert [e.kind for e in old.events].count("result-withdrawn") == 0
    black_game = black.recorder.game(black.game.game_id)
    assert write_game(old, events=False) == write_game(black_game, events=False)
    close_both(white, black)


def test_a_board_restarted_after_its_arbiter_withdrew_the_others_result_does_not_retake_it(
        tmp_path):
    """Black resigns, white's board takes it, white's arbiter withdraws it, and white's
    board restarts before black's board has looked: the journal says the result was
    withdrawn at this ply, so the restarted board shows black's 1-0 as a claim, never
    takes it again; black's board shows the withdrawal as a claim (results go one way:
    never carried out by itself) until black's arbiter withdraws it too; play goes on,
    and a new resignation is taken."""
    wire, white, black = two_boards(tmp_path)
    play_plies(white, black, 4, seed=6)
    black_resigns(white, black)
    assert games(white, black)[0].result == "1-0"  # taken
    white.arbiter.withdraw_result()  # (before black's board has even looked)
    white = restart(tmp_path, wire, white, "white", "Anna")
    view = white.wait(STEP)  # (black's retained record says 1-0)
    assert games(white, black)[0].result is None
    assert view["opponent"]["claim"]["params"]["result"] == "1-0"
    black.wait(STEP)
    settle_both(white, black)
    view = black.wait(STEP)
    assert games(white, black)[1].result == "1-0"  # not by itself: shown as a claim
    assert view["opponent"]["claim"]["id"] == "match.flag.claim_withdrawal"
    black.arbiter.withdraw_result()  # black's arbiter agrees
    settle_both(white, black)
    white.wait(STEP)
    assert games(white, black)[1].result is None  # both open again
    for play in (white, black):
        assert play.wait(STEP)["opponent"]["claim"] is None
    play_plies(white, black, 2, seed=8)
    black_resigns(white, black)
    both_end_with(white, black, "1-0")


def test_a_board_restarted_after_following_the_others_withdrawal_plays_on(tmp_path):
    """White's board claims a win, black's arbiter accepts it, white's arbiter withdraws
    it and black's arbiter follows; black's board restarted then resumes the open game,
    takes nothing, and the match goes on to one result on both boards."""
    wire, white, black = two_boards(tmp_path)
    play_plies(white, black, 4, seed=10)
    white.arbiter.declare_result("1-0", "Black's flag fell")
    settle_both(white, black)
    black.wait(STEP)
    black.arbiter.declare_result("1-0")  # accepted: both hold it
    settle_both(white, black)
    black.wait(STEP)
    white.arbiter.withdraw_result()
    settle_both(white, black)
    black.wait(STEP)
    assert games(white, black)[1].result == "1-0"  # a claim there, until its arbiter
    black.arbiter.withdraw_result()  # agrees
    settle_both(white, black)
    black.wait(STEP)
    assert games(white, black)[1].result is None  # followed
    black = restart(tmp_path, wire, black, "black", "Boris")
    settle_both(white, black)
    view = black.wait(STEP)
    assert view["opponent"]["error"] is None and view["opponent"]["claim"] is None
    assert games(white, black)[1].result is None
    play_plies(white, black, 2, seed=12)
    black_resigns(white, black)
    both_end_with(white, black, "1-0")


def test_a_finished_board_restarted_while_the_other_withdraws_stops_in_one_line(tmp_path):
    """What a restart cannot mend: black's game is finished (both hold white's claimed
    win), black's board is stopped, white's arbiter withdraws the win; black's board
    restarted begins a new game (a finished one is not resumed), and the match stops in
    one line instead of playing a game the other board does not hold."""
    wire, white, black = two_boards(tmp_path)
    play_plies(white, black, 4, seed=10)
    white.arbiter.declare_result("1-0", "Black's flag fell")
    settle_both(white, black)
    black.wait(STEP)
    black.arbiter.declare_result("1-0")
    settle_both(white, black)
    black.close()
    wire.ends.pop("black")
    white.arbiter.withdraw_result()
    black = board(tmp_path, wire, "black", "Boris")
    settle_both(white, black)
    error = black.view()["opponent"]["error"]
    assert error["id"] == "match.stopped"
    assert error["params"]["detail"] == {"id": "match.stop.apart",
                                         "params": {"white": 4, "black": 0}}
    assert black.view()["moves"] == []
    close_both(white, black)
