"""What the hall believes a board for, without a broker: each case below was a way one
board's password could bend the hall's record, or a restart could lose a game. The hall
takes a move when the rules accept it as the next one, a takeback only where the game's
mode allows one, a result only when the position proves it; anything else is a claim
shown to the arbiter, and the feed stays as the rules left it."""

from __future__ import annotations

import errno
import json
import os

import pytest

from draughtsboard.board.game.pdn_reader import read_pdn
from draughtsboard.board.game.reasons import words
from draughtsboard.board.game.record import Game
from draughtsboard.board.game.records import Setter
from draughtsboard.board.rules.draws import NO_MOVE, REPETITION, Reason, ReasonCode
from draughtsboard.board.rules.variants import get_variant
from draughtsboard.hall import claims as claims_module
from draughtsboard.hall import ingest as ingest_module
from draughtsboard.hall.feed import round_games
from draughtsboard.hall.ingest import ClaimError, Ingest, Resend
from draughtsboard.hall.said import said_reason
from draughtsboard.hall.store import HallStore
from draughtsboard.hall.views import board_summary
from draughtsboard.hall_protocol.games import game_record
from draughtsboard.hall_protocol.messages import (
    MessageError,
    MoveRecord,
    PlyMessage,
    StateMessage,
    StatusMessage,
)
from tests.hall.board_side import move_record, ply_message
from tests.hall.words_check import in_english

GID = "00002-20261130-120000"
# White king a1 and men e1, g1; Black king h6 and men b8, d8: the kings shuttle
KINGS = "W:WK29,31,32:BK12,1,2"
REPEATED = ("a1-b2", "h6-g5", "b2-a1", "g5-h6") * 2


class Board:
    """A board's side of the protocol: a real game, its messages as the link sends them."""

    def __init__(self, ingest: Ingest, number: int = 1, game_id: str = GID,
                 mode: str = "tournament", variant: str = "russian", tags=None) -> None:
        self.ingest, self.number, self.game_id = ingest, number, game_id
        self.game = Game(get_variant(variant), tags=dict({"Round": "1"} if tags is None
                                                         else tags), mode=mode)
        self.now = 100.0

    def send(self, kind: str, payload: bytes) -> list[Resend]:
        self.now += 1.0
        return self.ingest.handle(self.number, kind, payload, self.now)

    def state(self) -> list[Resend]:
        return self.send("state", StateMessage(game_record(self.game_id, self.game)).to_json())

    def play(self, *texts: str) -> None:
        for text in texts:
            self.send("ply", ply_message(self.game_id, self.game, text))
        self.state()

    def takeback(self) -> None:
        self.game.undo()
        self.state()


def move(game: Game, text: str) -> MoveRecord:
    return move_record(Game(game.variant, game.position), text)


def settle(ingest: Ingest, action: str, board: int, kind: str, game_id: str,
           now: float = 300.0) -> str:
    """The arbiter confirms or dismisses the claim they read (its id)."""
    claim = ingest.claims.get(board, kind, game_id)
    assert claim is not None, f"no {kind} claim about {game_id}"
    if action == "confirm":
        return ingest.confirm(board, kind, game_id, claim.id, now)
    return ingest.dismiss(board, kind, game_id, claim.id)


def hall_texts(ingest: Ingest, board: int = 1, game_id: str = GID) -> list[str]:
    return [p.text for p in ingest.store.game(board, game_id).game.moves]


def feed(ingest: Ingest, round_name: str = "1") -> list:
    return [read_pdn(g.pdn).games[0].game for g in round_games(ingest.store, round_name, None)]


@pytest.fixture
def ingest(tmp_path):
    store = HallStore(tmp_path, sync=False)
    yield Ingest(store)
    store.close()


# -- a restart loses nothing -----------------------------------------------------------------

@pytest.mark.parametrize("mode", ["training", "tournament"])
def test_every_record_kind_is_read_back_after_a_restart(tmp_path, mode):
    store = HallStore(tmp_path)
    ingest = Ingest(store)
    board = Board(ingest, mode=mode, tags={} if mode == "training" else None)
    board.state()
    board.play("c3-d4", "f6-g5")
    board.game.set_tags({"White": "Ann"})  # a tag corrected, then moves
    board.state()
    board.play("g3-f4")
    if mode == "training":
        board.takeback()
        board.play("e3-f4", "g5:c5")
    else:
        board.play("g7-f6")
    board.game.set_result("0-1", "White resigned")
    board.state()
    settle(ingest, "confirm", 1, "result", GID, 200.0)
    before = store.game(1, GID)
    expected = ([p.text for p in before.game.moves], dict(before.game.tags),
                before.game.result, before.changes, list(before.received))
    store.close()
    again = HallStore(tmp_path)
    assert again.load() == 1 and again.set_aside_games == {}
    after = again.game(1, GID)
    assert ([p.text for p in after.game.moves], dict(after.game.tags), after.game.result,
            after.changes, list(after.received)) == expected
    assert after.finished and after.result_source == "arbiter"
    again.close()


def test_a_journal_of_the_earlier_format_is_read_back(tmp_path):
    """Before, a move record's number was overwritten by the journal's own ``seq``; such
    journals are read in file order and lose nothing."""
    from draughtsboard.recording import Journal

    path = tmp_path / "boards" / "1" / f"{GID}.jsonl"
    path.parent.mkdir(parents=True)
    game = Game(get_variant("russian"))
    with Journal(path) as journal:
        journal.append({"type": "start", "game": GID, "variant": "russian", "fen": None,
                        "tags": {"Round": "1"}, "mode": "tournament", "received": 1.0})
        journal.append({"type": "tags", "tags": {"Round": "1", "White": "A"}})
        for text in ("c3-d4", "f6-g5"):
            played = game.play(text)
            journal.append({"type": "move", "seq": 99, "text": played.text,
                            "path": list(played.move.path), "captures": [],
                            "changes": game.ply, "received": 2.0})
    store = HallStore(tmp_path)
    assert store.load() == 1 and store.set_aside_games == {}
    assert [p.text for p in store.game(1, GID).game.moves] == ["c3-d4", "f6-g5"]
    store.close()


def test_a_hall_record_of_a_newer_format_is_one_line_and_the_journal_is_kept(tmp_path):
    """The hall's journal has the record model's versions: a record of a newer format
    is one line, and the journal is left as it is, nothing lost."""
    import json
    import zlib

    store = HallStore(tmp_path)
    ingest = Ingest(store)
    board = Board(ingest)
    board.state()
    board.play("c3-d4", "f6-g5")
    store.close()
    path = tmp_path / "boards" / "1" / f"{GID}.jsonl"
    lines = path.read_bytes().splitlines(keepends=True)
    record = json.loads(lines[-1].split(b" ", 1)[1])
    record["v"] = 2
    body = json.dumps(record, separators=(",", ":")).encode()
    lines[-1] = f"{zlib.crc32(body):08x} ".encode() + body + b"\n"
    path.write_bytes(b"".join(lines))
    before = path.read_bytes()
    again = HallStore(tmp_path)
    assert again.load() == 0
    why = again.set_aside_games[(1, GID)]
    assert "format 2, newer than this release reads (format 1)" in why and "\n" not in why
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]
    assert path.read_bytes() == before
    again.close()


def test_a_journal_set_aside_is_asked_for_again_and_shown(tmp_path):
    board_dir = tmp_path / "boards" / "1"
    board_dir.mkdir(parents=True)
    for _ in range(2):  # twice: the second copy does not overwrite the first
        (board_dir / f"{GID}.jsonl").write_bytes(b"00000000 garbage\n")
        store = HallStore(tmp_path)
        assert store.load() == 0
        store.close()
    assert sorted(p.name for p in board_dir.iterdir()) == \
        [f"{GID}.jsonl.damaged-1", f"{GID}.jsonl.damaged-2"]
    ingest = Ingest(store)
    assert GID in ingest.wanted(1)
    ingest.handle(1, "status", StatusMessage(True, "t", 1.0, GID).to_json(), 0.0)
    assert ingest.missing(1.0) == [Resend(1, GID)]
    board = Board(ingest)
    board.game.play("c3-d4")
    board.state()  # the board's answer: the game is whole again
    assert hall_texts(ingest) == ["c3-d4"] and ingest.wanted(1) == {}


# -- a board's password cannot rewrite the record ------------------------------------------------

def test_a_forged_next_move_never_reaches_the_feed_and_gives_way_to_the_boards_game(ingest):
    board = Board(ingest)
    board.state()
    board.play("c3-d4", "f6-g5")
    forged = move(board.game, "g3-h4")
    board.send("ply", PlyMessage(GID, 3, 10_000_000, forged).to_json())
    assert hall_texts(ingest) == ["c3-d4", "f6-g5", "g3-h4"]  # legal: on the page, for now
    assert ingest.store.game(1, GID).changes == 3  # changes as far as the moves go
    assert [p.text for p in feed(ingest)[0].moves] == ["c3-d4", "f6-g5"]  # no state said so
    board.play("g3-f4")  # the board's own move 3, and its whole game
    assert hall_texts(ingest) == ["c3-d4", "f6-g5", "g3-f4"]  # a move no state confirmed
    assert ingest.claims.of(1) == {}  # gave way: nothing for the arbiter to settle
    board.play("g7-f6")  # and real moves go on reaching the hall and the feed
    assert [p.text for p in feed(ingest)[0].moves] == ["c3-d4", "f6-g5", "g3-f4", "g7-f6"]


def test_a_forged_game_that_plays_itself_out_is_disputed_when_the_board_speaks(ingest):
    """A forged state with the board's moves and a legal play-out to a result the rules
    prove: taken (no board message can be told from the board's), until the real board's
    next message disagrees; then the arbiter is asked, the feed goes back to the moves
    both agree on, and confirming follows the board, result taken back."""
    board = Board(ingest)
    board.state()
    board.play("c3-d4", "f6-g5")
    forged = Game(board.game.variant, board.game.start, dict(board.game.tags),
                  moves=list(board.game.moves))
    import random
    rng = random.Random(3)
    while not forged.position.is_game_over():
        forged.play(rng.choice(forged.position.legal_moves()))
    forged.set_result(*forged.outcome())
    board.send("state", StateMessage(game_record(GID, forged)).to_json())
    assert ingest.store.game(1, GID).finished
    board.play("g3-f4")  # the real board goes on
    assert ("moves", GID) in ingest.claims.of(1)
    shown = feed(ingest)[0]
    assert [p.text for p in shown.moves] == ["c3-d4", "f6-g5"] and shown.result_text() == "*"
    settle(ingest, "confirm", 1, "moves", GID)
    hall_game = ingest.store.game(1, GID)
    assert hall_texts(ingest) == ["c3-d4", "f6-g5", "g3-f4"] and not hall_game.finished
    board.play("g7-f6")
    assert hall_texts(ingest)[-1] == "g7-f6"


def test_a_forged_takeback_cannot_cut_a_tournament_game(ingest):
    board = Board(ingest)
    board.state()
    board.play("c3-d4", "f6-g5", "g3-f4", "g7-f6")
    other = move(Game(get_variant("russian")), "a3-b4")
    assert board.send("ply", PlyMessage(GID, 1, 1000, other).to_json()) == [Resend(1, GID)]
    assert len(hall_texts(ingest)) == 4  # nothing cut
    assert ("moves", GID) in ingest.claims.of(1)
    board.state()  # the board answers with its whole game: it agrees with the hall ...
    assert ingest.claims.of(1) == {}  # ... so the dispute is over
    assert len(feed(ingest)[0].moves) == 4


def test_in_training_a_takeback_is_followed_but_changes_only_as_far_as_moves_go(ingest):
    board = Board(ingest, mode="training", tags={})
    board.state()
    board.play("c3-d4", "f6-g5")
    board.takeback()
    board.play("b6-a5")
    assert hall_texts(ingest) == ["c3-d4", "b6-a5"]
    assert ingest.store.game(1, GID).changes == 4  # two moves, one taken back (two)
    forged = move(board.game, "g3-f4")
    board.send("ply", PlyMessage(GID, 3, 10_000_000, forged).to_json())
    assert ingest.store.game(1, GID).changes == 5  # not ten million
    board.play("g3-h4")  # the real move 3, and the board's game: the forged move gives way
    assert hall_texts(ingest) == ["c3-d4", "b6-a5", "g3-h4"] and ingest.claims.of(1) == {}


def test_a_result_the_position_does_not_prove_is_a_claim_and_the_arbiters_stands(ingest):
    board = Board(ingest)
    board.state()
    board.play("c3-d4", "f6-g5")
    forged = Game(board.game.variant, tags=dict(board.game.tags),
                  moves=list(board.game.moves))
    forged.set_result("0-1", "forged")
    board.send("state", StateMessage(game_record(GID, forged)).to_json())
    assert not ingest.store.game(1, GID).finished
    assert feed(ingest)[0].result_text() == "*"
    assert "claims 0-1" in ingest.claims.of(1)[("result", GID)].text
    ingest.arbiter_result(1, GID, "1-0", "adjudicated", 200.0)
    board.send("state", StateMessage(game_record(GID, forged)).to_json())  # again
    hall_game = ingest.store.game(1, GID)
    assert (hall_game.game.result, hall_game.result_source) == ("1-0", "arbiter")
    assert feed(ingest)[0].result_text() == "1-0"
    with pytest.raises(ClaimError):
        ingest.confirm(1, "result", GID, "any", 300.0)  # nothing left to confirm


def test_a_result_the_position_proves_is_taken_at_once(ingest):
    board = Board(ingest)  # White's man takes Black's last: Black has no move
    board.game = Game.from_fen(get_variant("russian"), "W:Wh2:Bg3", tags={"Round": "1"})
    board.state()
    board.play("h2:f4")
    board.game.set_result("1-0", "Black has no legal move")
    board.state()
    hall_game = ingest.store.game(1, GID)
    assert (hall_game.game.result, hall_game.result_source) == ("1-0", "rules")
    assert ingest.claims.of(1) == {}


def test_a_rules_reason_the_hall_proves_is_kept_typed_and_read_back(ingest, tmp_path):
    board = Board(ingest)  # White's man takes Black's last: Black has no move
    board.game = Game.from_fen(get_variant("russian"), "W:Wh2:Bg3", tags={"Round": "1"})
    board.state()
    board.play("h2:f4")
    board.game.set_result("1-0", NO_MOVE[False])
    board.state()
    hall_game = ingest.store.game(1, GID)
    assert hall_game.game.result_why == NO_MOVE[False]  # typed, not words
    assert hall_game.game.result_reason == "Black has no legal move"  # PDN's English
    # the hall's pages receive the message, rendered in each reader's language
    summary = board_summary(1, ingest.live(1), hall_game)
    assert summary["result_reason"] == said_reason(NO_MOVE[False]).as_json()
    ingest.store.close()
    again = HallStore(tmp_path, sync=False)  # a restart reads the typed reason back
    again.load()
    assert again.game(1, GID).game.result_why == NO_MOVE[False]
    again.close()


def test_a_drawn_position_s_rule_is_believed_only_as_far_as_the_hall_proves_it(ingest):
    board = Board(ingest)
    board.game = Game.from_fen(get_variant("russian"), KINGS, tags={"Round": "1"})
    board.state()
    board.play(*REPEATED)
    board.game.set_result("1/2-1/2", REPETITION)
    board.state()  # the hall counts the repetition itself: the board's reason stands
    hall_game = ingest.store.game(1, GID)
    assert (hall_game.game.result_why, hall_game.result_source) == (REPETITION, "rules")


def test_a_draw_the_boards_arbiter_accepted_reads_in_the_hall_as_on_the_board(ingest):
    board = Board(ingest)
    board.game = Game.from_fen(get_variant("russian"), KINGS, tags={"Round": "1"})
    board.state()
    board.play(*REPEATED)
    board.game.set_result("1/2-1/2", (REPETITION,), Setter.ARBITER)
    board.state()  # the rules prove the draw; who accepted it is the board's to say
    hall_game = ingest.store.game(1, GID)
    assert hall_game.result_source == "rules"
    assert hall_game.game.result_reason == board.game.result_reason == \
        "draw: threefold repetition (accepted by the arbiter)"


def test_a_rules_reason_the_hall_cannot_prove_is_only_the_boards_words(ingest):
    board = Board(ingest)
    board.state()
    board.play("c3-d4", "f6-g5")
    forged = Reason(ReasonCode.KINGS_ONLY, 15)  # no king on the board
    board.game.set_result("1/2-1/2", forged)
    board.state()
    assert not ingest.store.game(1, GID).finished
    claim = ingest.claims.of(1)[("result", GID)]
    assert "15 moves with kings only" in claim.text  # the board's claim, in words
    settle(ingest, "confirm", 1, "result", GID)  # the arbiter follows the board
    hall_game = ingest.store.game(1, GID)
    assert hall_game.game.result == "1/2-1/2" and hall_game.result_source == "arbiter"
    assert hall_game.game.result_why == words(forged)  # words, never a rule's reason


def test_a_result_the_rules_prove_keeps_their_reason_over_a_forged_one(ingest):
    board = Board(ingest)  # Black has no move, the board says a draw rule ended it
    board.game = Game.from_fen(get_variant("russian"), "W:Wh2:Bg3", tags={"Round": "1"})
    board.state()
    board.play("h2:f4")
    board.game.set_result("1-0", Reason(ReasonCode.KINGS_ONLY, 15))
    board.state()
    hall_game = ingest.store.game(1, GID)
    assert (hall_game.game.result_why, hall_game.result_source) == (NO_MOVE[False], "rules")


def test_tags_changed_by_a_board_are_a_claim_those_of_the_halls_arbiter_are_not(ingest):
    board = Board(ingest, tags={"Round": "1", "White": "Ann"})
    board.state()
    board.game.set_tags({"Round": "7"})  # would take the game out of round 1's feed
    board.state()
    assert ingest.store.game(1, GID).round == "1" and len(feed(ingest)) == 1
    assert "Round '1' -> '7'" in ingest.claims.of(1)[("tags", GID)].text
    board.game.set_tags({"Round": "1"})
    board.state()  # put back on the board: nothing left to claim
    assert ingest.claims.of(1) == {}
    ingest.arbiter_tags(1, GID, {"White": "Anna"})  # the hall's console: recorded first
    board.game.set_tags({"White": "Anna"})  # then done on the board, which agrees
    board.state()
    assert ingest.store.game(1, GID).game.tags["White"] == "Anna"
    assert ingest.claims.of(1) == {}


def test_an_invalid_result_is_refused_before_anything_is_written(ingest, tmp_path):
    board = Board(ingest)
    board.state()
    payload = StateMessage(game_record(GID, board.game)).to_json().replace(
        b'"result":null', b'"result":"9-9"')
    with pytest.raises(MessageError, match="9-9"):
        board.send("state", payload)
    path = tmp_path / "boards" / "1" / f"{GID}.jsonl"
    assert b"9-9" not in path.read_bytes()


def test_a_made_up_game_never_replaces_the_rounds_game(ingest, tmp_path):
    board = Board(ingest)
    board.state()
    board.play("c3-d4")
    made_up = Game.from_fen(get_variant("russian"), "W:W21:B1", tags={"Round": "1"})
    fake = "999999999-20991231-235959"
    board.send("state", StateMessage(game_record(fake, made_up)).to_json())
    board.send("status", StatusMessage(True, "x", 1.0, fake).to_json())
    assert ingest.store.game(1, fake) is None and ingest.live(1).current is None
    assert ("game", fake) in ingest.claims.of(1)
    board.play("f6-g5")  # the real game goes on, in the record and the feed
    assert ingest.live(1).current == GID
    assert [p.text for p in feed(ingest)[0].moves] == ["c3-d4", "f6-g5"]
    assert not (tmp_path / "boards" / "1" / f"{fake}.jsonl").exists()


def test_thousands_of_made_up_games_leave_no_file_and_little_memory(ingest, tmp_path):
    board = Board(ingest)
    board.state()
    for number in range(3, 2003):
        fake = f"{number * 7 + 100:05d}-20261201-120000"
        board.send("state", StateMessage(game_record(fake, Game(
            get_variant("russian"), tags={"Round": "1"}))).to_json())
        board.send("ply", PlyMessage(fake, 1, 1, move(board.game, "c3-d4")).to_json())
    assert len(list((tmp_path / "boards" / "1").iterdir())) == 1
    claims = ingest.claims.of(1)
    assert len([k for k in claims if k[0] == "game"]) == claims_module.UNEXPECTED_KEPT
    assert ingest.missing(5000.0) == []  # and none of them is asked for


def test_a_board_starts_at_most_so_many_games_in_a_round(ingest):
    for number in range(1, ingest_module.MAX_GAMES_PER_ROUND + 2):
        game_id = f"{number:05d}-20261201-120000"
        Board(ingest, game_id=game_id).state()
    games = ingest.store.board_games(1)
    assert len(games) == ingest_module.MAX_GAMES_PER_ROUND
    assert any("games in round 1" in c.text for c in ingest.claims.of(1).values())


def test_a_bad_retained_state_makes_the_hall_ask_for_the_boards_game(ingest):
    """A fresh hall, and garbage retained on the board's state topic: the game the
    board's status names is asked for whole."""
    ingest.handle(1, "status", StatusMessage(True, "t", 1.0, GID).to_json(), 0.0)
    with pytest.raises(MessageError):
        ingest.handle(1, "state", b'{"v":1,"game":"x"}', 0.5)
    assert ingest.missing(1.0) == [Resend(1, GID)]


def test_tags_that_could_break_a_pdn_line_make_the_message_bad(ingest):
    board = Board(ingest)
    for bad in ('x"]\n[Result "0-1"]', "a\rb", "a\x0bb", "a\u2028b"):
        payload = StateMessage(game_record(GID, board.game)).to_json().replace(
            b'"Round":"1"', b'"Round":"1","White":' + json.dumps(bad).encode())
        with pytest.raises(MessageError, match="tags"):
            board.send("state", payload)
    assert ingest.store.game(1, GID) is None


# -- a full disk ---------------------------------------------------------------------------------

@pytest.fixture
def full_disk(monkeypatch):
    """``os.write`` of the journal failing with ENOSPC while ``full["on"]``."""
    from draughtsboard.recording import journal

    real_write = os.write
    full = {"on": False}

    def write(fd, data):
        if full["on"]:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(fd, data)

    monkeypatch.setattr(journal.os, "write", write)
    return full


def open_descriptors() -> int:
    return len(os.listdir("/proc/self/fd"))


def test_a_full_disk_is_shown_and_the_game_asked_for_again_once_it_is_freed(ingest,
                                                                            full_disk):
    board = Board(ingest)
    board.state()
    board.play("c3-d4")
    full_disk["on"] = True
    with pytest.raises(OSError):
        board.play("f6-g5")
    assert "No space left" in in_english(ingest.store.write_error)
    board.game.set_result("1/2-1/2", "agreed")
    with pytest.raises(OSError):
        board.state()
    descriptors = open_descriptors()
    for _ in range(10):  # a new game while full, again and again: nothing left open
        with pytest.raises(OSError):
            Board(ingest, game_id="00003-20261201-120000").state()
    assert open_descriptors() == descriptors
    full_disk["on"] = False
    board.send("status", StatusMessage(True, "t", 1.0, GID).to_json())
    assert Resend(1, GID) in ingest.missing(500.0)
    board.state()  # the board's answer
    assert hall_texts(ingest) == ["c3-d4", "f6-g5"]
    assert ingest.store.write_error is None
    assert ("result", GID) in ingest.claims.of(1)  # an agreed draw: the arbiter confirms


def test_the_rounds_game_is_the_one_the_board_started_for_the_pairing(tmp_path):
    """A game the board's password starts with the round's tags, even the next of the
    board, does not replace the game the board started when the hall asked it to."""
    from draughtsboard.hall.arbiter_log import ArbiterLog
    from draughtsboard.hall.pairings import parse_pairings

    store = HallStore(tmp_path, sync=False)
    ingest = Ingest(store)
    log = ArbiterLog(tmp_path / "arbiter.jsonl", sync=False)
    log.import_pairings(parse_pairings("round,board,white,black\n1,1,Ann,Bob\n"), 1.0)
    paired = Board(ingest, tags={"Round": "1", "White": "Ann", "Black": "Bob"})
    log.note("command", 2.0, board=1, id="hall-1", cmd="new_game",
             tags={"Round": "1", "White": "Ann", "Black": "Bob"})
    paired.state()
    log.note("reply", 3.0, board=1, id="hall-1", ok=True, result=GID)
    paired.play("c3-d4")
    forged = Board(ingest, game_id="00003-20261201-120000",
                   tags={"Round": "1", "White": "Mallory", "Black": "Bob"})
    forged.state()  # the next of the board: taken into the record, not into the feed
    games = [read_pdn(g.pdn).games[0].game
             for g in round_games(store, "1", None, log.round_games)]
    assert [(g.tags["White"], g.ply) for g in games] == [("Ann", 1)]
    log.close()
    again = ArbiterLog(tmp_path / "arbiter.jsonl", sync=False)  # read back after a restart
    assert again.round_games == {(1, "1"): GID}
    again.close()
    store.close()


def test_tag_values_with_quotes_and_backslashes_pass_both_readers(ingest):
    """What a tag may hold reaches the feed escaped: the feed reads back with the
    project's reader, `pdn check` and pydraughts, the values intact."""
    draughts_pdn = pytest.importorskip("draughts.PDN")
    odd = 'O\'Neil "the \\ quiet" Ivanov — Иванов'
    board = Board(ingest, tags={"Round": "1", "White": odd, "Black": "x]["})
    board.state()
    board.play("c3-d4")
    text = round_games(ingest.store, "1", None)[0].pdn
    ours = read_pdn(text)
    assert ours.errors == [] and ours.games[0].game.tags["White"] == odd
    assert ours.games[0].game.tags["Black"] == "x]["
    theirs = draughts_pdn.PDNReader(pdn_text=text).games
    assert len(theirs) == 1 and theirs[0].moves == ["c3-d4"]
    assert sum(line.startswith("[Result ") for line in text.splitlines()) == 1


def test_a_record_holding_a_line_break_still_writes_one_line_per_tag():
    """The writer never trusts what a game holds: a value that is not printable (from a
    journal written by hand, or an older version) is written on one line."""
    from draughtsboard.board.game.pdn_writer import write_game

    game = Game(get_variant("russian"), tags={"Event": 'x"]\r\n[Result "0-1"]\u2028y',
                                              'Bad"]': "1"})
    lines = write_game(game).splitlines()
    assert sum(line.startswith("[Result ") for line in lines) == 1
    assert not any(line.startswith('[Bad') for line in lines)
    assert read_pdn(write_game(game)).errors == []


def test_a_move_sent_alone_is_broadcast_only_once_the_boards_state_confirms_it(ingest):
    """A board sends each move, then its whole game: a ply nobody's state confirms (a
    forged one, the moment before the real board says otherwise) stays off the feed,
    and after a while the hall asks the board for its game."""
    board = Board(ingest)
    board.state()
    board.play("c3-d4")
    forged = move(board.game, "f6-g5")
    board.send("ply", PlyMessage(GID, 2, 2, forged).to_json())
    assert hall_texts(ingest) == ["c3-d4", "f6-g5"]  # on the hall's page, live
    assert [p.text for p in feed(ingest)[0].moves] == ["c3-d4"]  # not broadcast
    board.send("status", StatusMessage(True, "t", 1.0, GID).to_json())
    assert ingest.missing(board.now + 1.0) == []
    assert ingest.missing(board.now + 6.0) == [Resend(1, GID)]
    board.state()  # the board's whole game has one move: the lone ply gives way
    assert hall_texts(ingest) == ["c3-d4"] and ingest.claims.of(1) == {}
    assert [p.text for p in feed(ingest)[0].moves] == ["c3-d4"]


# -- what an adversarial review found next ---------------------------------------------------

def paired_ingest(tmp_path, round_name: str = "1", game_id: str = GID):
    """A hall whose arbiter's log made ``game_id`` round 1's game on board 1."""
    store = HallStore(tmp_path, sync=False)
    paired = {(1, round_name): game_id}
    return Ingest(store, paired=paired), paired


def test_a_forged_abandon_never_closes_the_rounds_game(tmp_path):
    ingest, _ = paired_ingest(tmp_path)
    board = Board(ingest)
    board.state()
    board.play("c3-d4", "f6-g5")
    Board(ingest, game_id="00003-20261201-120000", tags={"Round": "1"}).state()  # "next"
    abandoned = Game(board.game.variant, board.game.start, dict(board.game.tags),
                     moves=list(board.game.moves))
    abandoned.result_reason = "abandoned: forged"
    board.send("state", StateMessage(game_record(GID, abandoned)).to_json())
    assert not ingest.store.game(1, GID).finished
    assert ("result", GID) in ingest.claims.of(1)
    assert ("round", "00003-20261201-120000") in ingest.claims.of(1)  # and the other game
    board.play("g3-f4")  # the real game goes on, in the record and the feed
    assert [p.text for p in feed(ingest)[0].moves] == ["c3-d4", "f6-g5", "g3-f4"]
    ingest.store.close()


def test_a_later_game_for_a_round_is_the_arbiters_question_not_the_feeds(ingest):
    board = Board(ingest, tags={"Round": "2", "White": "Ann"})
    board.state()
    board.play("c3-d4")
    other = Board(ingest, game_id="00003-20261201-120000",
                  tags={"Round": "2", "White": "Mallory"})
    other.state()
    assert [g.tags["White"] for g in feed(ingest, "2")] == ["Ann"]
    assert "another game for round 2" in ingest.claims.get(
        1, "round", "00003-20261201-120000").text


def test_the_arbiter_confirms_the_claim_they_read_not_one_put_in_its_place(ingest):
    board = Board(ingest)
    board.state()
    board.play("c3-d4")
    board.game.set_result("1-0", "Black resigned")
    board.state()
    read = ingest.claims.get(1, "result", GID)  # what the arbiter reads: 1-0
    swapped = Game(board.game.variant, board.game.start, dict(board.game.tags),
                   moves=list(board.game.moves))
    swapped.set_result("0-1", "forged")
    board.send("state", StateMessage(game_record(GID, swapped)).to_json())
    with pytest.raises(ClaimError, match="changed since you read it"):
        ingest.confirm(1, "result", GID, read.id, 300.0)
    assert not ingest.store.game(1, GID).finished


def test_one_high_game_number_does_not_set_where_the_boards_games_go_on(ingest):
    fake = "999999999-20991231-235959"
    Board(ingest, game_id=fake, tags={}).state()  # before the board's first game: taken
    real = Board(ingest, game_id="00003-20261201-120000", tags={})
    real.state()
    assert ("game", real.game_id) in ingest.claims.of(1)
    settle(ingest, "confirm", 1, "game", real.game_id)
    Board(ingest, game_id="00004-20261201-130000", tags={}).state()  # the board's next
    assert ingest.store.game(1, "00004-20261201-130000") is not None
    assert ingest.claims.of(1) == {}


def test_a_board_records_every_game_it_plays_without_a_round(ingest):
    for number in range(1, 16):  # a trainee's evening: no Round tag
        Board(ingest, game_id=f"{number:05d}-20261201-120000", mode="training",
              tags={}).state()
    assert len(ingest.store.board_games(1)) == 15 and ingest.claims.of(1) == {}


def test_a_training_game_follows_at_most_so_many_changes(ingest, monkeypatch):
    monkeypatch.setattr(ingest_module, "MAX_CHANGES", 20)
    board = Board(ingest, mode="training", tags={})
    board.state()
    board.play("c3-d4")
    for _ in range(12):
        board.takeback()
        board.play("c3-d4")
    board.takeback()
    hall_game = ingest.store.game(1, GID)
    assert hall_game.changes <= 22 and hall_game.ply == 1  # it stopped following ...
    assert ("moves", GID) in ingest.claims.of(1)  # ... and the arbiter is told


def test_ids_and_clocks_a_board_sends_are_ascii_and_bounded():
    bad_ids = ["٠٠٠٠٢-20261201-120000", "００００２-20261201-120000",
               "00002-20261201-120000\n"]
    for game_id in bad_ids:
        payload = PlyMessage(GID, 1, 1, MoveRecord("c3-d4", (22, 18))).to_json().replace(
            GID.encode(), json.dumps(game_id)[1:-1].encode())
        with pytest.raises(MessageError, match="game id"):
            PlyMessage.from_json(payload)
    huge_clock = MoveRecord("c3-d4", (22, 18), clock=(1e308, 5.0))
    with pytest.raises(MessageError, match="clock"):
        PlyMessage.from_json(PlyMessage(GID, 1, 1, huge_clock).to_json())


# -- a second round of review ------------------------------------------------------------------

def test_two_answers_naming_two_games_leave_the_round_to_the_arbiter(tmp_path):
    from draughtsboard.hall.arbiter_log import ArbiterLog

    store = HallStore(tmp_path, sync=False)
    log = ArbiterLog(tmp_path / "arbiter.jsonl", sync=False)
    ingest = Ingest(store, paired=log.round_games)
    tags = {"Round": "1", "White": "Ann", "Black": "Bob"}
    log.note("command", 1.0, board=1, id="hall-1", cmd="new_game", tags=tags)
    forged, real = "00002-20261201-120000", "00003-20261201-120000"
    log.note("reply", 2.0, board=1, id="hall-1", ok=True, result=forged)  # first, forged
    Board(ingest, game_id=forged, tags=tags).state()
    log.note("reply", 3.0, board=1, id="hall-1", ok=True, result=real)  # the board's own
    board = Board(ingest, game_id=real, tags=tags)
    board.state()
    ingest.round_changed(1, "1", 4.0)
    board.play("c3-d4")
    contested = ingest.contested_rounds()
    assert (1, "1") in contested
    assert round_games(ingest.store, "1", None, log.round_games, contested) == []
    assert {k for k in ingest.claims.of(1) if k[0] == "round"} == \
        {("round", forged), ("round", real)}
    log.close()
    store.close()


def test_a_rounds_game_the_board_tagged_itself_is_never_closed_by_a_board(ingest):
    board = Board(ingest, tags={"Round": "3"})  # no pairing: the first game of round 3
    board.state()
    board.play("c3-d4", "f6-g5")
    Board(ingest, game_id="00003-20261201-120000", tags={}).state()  # a "next" game
    abandoned = Game(board.game.variant, board.game.start, dict(board.game.tags),
                     moves=list(board.game.moves))
    abandoned.result_reason = "abandoned: forged"
    board.send("state", StateMessage(game_record(GID, abandoned)).to_json())
    assert not ingest.store.game(1, GID).finished and ("result", GID) in ingest.claims.of(1)


def test_a_closed_game_whose_board_claims_another_result_is_the_arbiters_question(ingest):
    board = Board(ingest, tags={})
    board.state()
    board.play("c3-d4")
    Board(ingest, game_id="00003-20261201-120000", tags={}).state()
    board.game.result_reason = "abandoned"  # closed unfinished when the next game began
    board.state()
    assert ingest.store.game(1, GID).finished
    board.game.result, board.game.result_reason = None, ""
    board.game.set_result("0-1", "White resigned")  # the board says otherwise later
    board.state()
    assert "claims 0-1" in ingest.claims.get(1, "result", GID).text
    settle(ingest, "confirm", 1, "result", GID)
    assert ingest.store.game(1, GID).game.result == "0-1"


def test_the_game_the_pairing_named_is_taken_whatever_the_caps(tmp_path):
    ingest, paired = paired_ingest(tmp_path, game_id="00020-20261201-120000")
    for number in range(2, 2 + ingest_module.MAX_GAMES_PER_ROUND):  # forged "next" games
        Board(ingest, game_id=f"{number:05d}-20261201-120000",
              tags={"Round": "1", "White": "Mallory"}).state()
    Board(ingest, game_id="00020-20261201-120000", tags={"Round": "1", "White": "Ann"}).state()
    assert ingest.store.game(1, "00020-20261201-120000") is not None
    shown = round_games(ingest.store, "1", None, paired, ingest.contested_rounds())
    assert [read_pdn(g.pdn).games[0].game.tags["White"] for g in shown] == ["Ann"]
    ingest.store.close()


def test_a_boards_games_may_take_so_many_records_an_hour(ingest, monkeypatch):
    monkeypatch.setattr(ingest_module, "MAX_RECORDS_PER_HOUR", 30)
    board = Board(ingest, mode="training", tags={})
    board.state()
    with pytest.raises(MessageError, match="in an hour"):
        for _ in range(40):
            board.play("c3-d4")
            board.takeback()
    board.now += 3600  # an hour later the board is followed again
    board.state()
    assert hall_texts(ingest) == [p.text for p in board.game.moves]


def test_what_the_feed_broadcast_survives_a_restart_and_no_more(tmp_path):
    """A ply nobody's state confirmed, and a move the board disputed, stay off the feed
    after a restart too (the board may be away: nothing else would say so)."""
    store = HallStore(tmp_path)
    ingest = Ingest(store)
    board = Board(ingest)
    board.state()
    board.play("c3-d4", "f6-g5")
    board.send("ply", PlyMessage(GID, 3, 3, move(board.game, "g3-h4")).to_json())
    store.close()
    again = HallStore(tmp_path)
    again.load()
    shown = [read_pdn(g.pdn).games[0].game for g in round_games(again, "1", None)]
    assert [p.text for p in shown[0].moves] == ["c3-d4", "f6-g5"]
    assert [p.text for p in again.game(1, GID).game.moves][-1] == "g3-h4"  # on the page
    again.close()
