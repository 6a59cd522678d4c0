"""The replay harness end to end: games played by the scripted hand on the simulated board,
through the real reed-matrix driver and the real tracker, with and without noise.
(`draughtsboard replay` over every game and seed is the full run; these are samples.)"""

import json
import pathlib
import random

import pytest

from draughtsboard.board.game.pdn_reader import decode_pdn, read_pdn
from draughtsboard.board.replay import random_game, replay_game
from draughtsboard.board.rules import initial_position
from draughtsboard.board.rules.variants import get_variant
from draughtsboard.cli import main, replay_on_simulated_board

DATA = pathlib.Path(__file__).resolve().parents[2] / "data"


def _board(position):
    return replay_on_simulated_board(position, None)


def _games(name, variant, count):
    result = read_pdn(decode_pdn((DATA / name).read_bytes()), variant=variant, source=name)
    return [(g.game.positions[0], [p.move for p in g.game.moves]) for g in result.games[:count]]


@pytest.mark.slow
@pytest.mark.parametrize("name,variant", [
    ("international-wk2003.pdn", None),
    ("international-candidate95.pdn", None),
    ("russian-ussr-championship-part1.pdn", get_variant("russian")),
])
@pytest.mark.parametrize("noise", [None, 1, 2])
def test_recorded_games_replay_exactly(name, variant, noise):
    for start, moves in _games(name, variant, 1):
        report = replay_game(name, start, moves, _board, noise_seed=noise)
        assert (report.mismatches, report.false_alarms) == (0, 0), report.line()
        assert report.recorded == len(moves)


@pytest.mark.slow
@pytest.mark.parametrize("variant_name", ["lasca", "column", "column-7x7"])
def test_random_column_games_replay_exactly_with_noise(variant_name):
    start = initial_position(get_variant(variant_name))
    rng = random.Random(7)
    for seed in (1, 2):
        moves = random_game(start, rng, max_plies=60)
        report = replay_game(variant_name, start, moves, _board, noise_seed=seed)
        assert (report.mismatches, report.false_alarms) == (0, 0), report.line()


def test_replay_command_summary_json(capsys):
    status = main(["replay", "--random", "2", "--seed", "3", "--variant", "russian",
                   "--noise", "4", "--summary-json"])
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert status == 0
    assert summary["games"] == 2 and summary["mismatches"] == 0
    assert summary["false_alarms"] == 0 and summary["rejected"] == 0
    assert summary["recorded"] == summary["plies"] > 0
    assert {"p50_ms", "p99_ms"} <= set(summary)


def test_replay_command_reports_a_file_it_cannot_read(capsys, tmp_path):
    status = main(["replay", str(tmp_path / "missing.pdn"), "--summary-json"])
    out = capsys.readouterr().out
    assert "rejected:" in out
    assert json.loads(out.strip().splitlines()[-1])["rejected"] == 1
    assert status == 0


def test_replay_summary_counts_stalls_and_asks(capsys):
    main(["replay", "--random", "2", "--seed", "3", "--variant", "lasca", "--noise", "4",
          "--summary-json"])
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["stalls"] == 0 and "asks" in summary and "asks_per_1000_plies" in summary


@pytest.mark.slow
def test_replay_with_irregular_moves_injected(capsys):
    status = main(["replay", "--random", "3", "--seed", "12", "--variant", "russian",
                   "--irregular-rate", "0.2", "--summary-json"])
    out = capsys.readouterr().out.strip().splitlines()
    summary = json.loads(out[-1])
    irregular = summary["irregularities"]
    assert status == 0, out
    assert irregular["injected"] > 3 and irregular["flagged"] == irregular["injected"]
    assert irregular["stood"] + irregular["restored"] == irregular["injected"]
    assert irregular["stood_with_comment"] == irregular["stood"]
    assert (summary["mismatches"], summary["stalls"], summary["false_alarms"]) == (0, 0, 0)


def test_irregular_moves_are_injected_only_in_random_games(capsys, tmp_path):
    status = main(["replay", str(DATA / "international-wk2003.pdn"), "--irregular-rate",
                   "0.1"])
    assert status == 2


def test_the_noisy_hand_never_lifts_a_prisoner_left_on_the_board():
    """A capture made with its prisoner left on (d4, after c3:e5), and the opponent
    playing on: the noisy hand lifted d4 for a moment on his way, which on the switches
    *is* the capture finished (the board showed exactly c3:e5), and d4 coming back was a
    disturbed position nobody put right: the game stalled at ply 18. The injection never
    lets the opponent touch such a piece (the switches cannot tell); neither may the noise.
    (Random game 19 of the replay command's random games from 74, noise 74, at
    --irregular-rate 0.15.)"""
    from draughtsboard.board.replay.irregular_play import play_irregular_game
    from draughtsboard.board.tracker.policy import FMJD

    start = initial_position(get_variant("russian"))
    report, stats = play_irregular_game("russian 19", start, _board, seed=74 * 100003 + 19,
                                        rate=0.15, policy=FMJD, noise_seed=74)
    assert (report.mismatches, report.false_alarms, report.stalls) == (0, 0, 0), \
        report.line()
    assert stats.injected["not_removed"] and stats.unflagged == []


@pytest.mark.parametrize("variant,index,policy", [("lasca", 8, "restore"),
                                                   ("column", 8, "fmjd")])
def test_a_column_piece_moved_out_of_turn_is_flagged_not_read_as_two_moves(variant, index,
                                                                           policy):
    """A man of the side not on turn moved onto the square next to a column: the switches
    showed the same board as the side to move's piece stepping there and the other side
    capturing it (the column's rest stays on the square), and the tracker recorded both,
    the first never played; the game stalled. (Random games of the replay command's random
    games from 53 at --irregular-rate 0.05.)"""
    from draughtsboard.board.replay.irregular_play import play_irregular_game
    from draughtsboard.board.tracker.policy import policy_for

    start = initial_position(get_variant(variant))
    report, stats = play_irregular_game(f"{variant} {index}", start, _board,
                                        seed=53 * 100003 + index, rate=0.05,
                                        policy=policy_for(variant, policy))
    assert (report.mismatches, report.false_alarms, report.stalls) == (0, 0, 0), \
        report.line()
    assert stats.injected["not_on_turn"] and stats.unflagged == []


def test_a_king_stopped_on_the_way_of_its_capture_is_no_irregularity_until_played_on():
    """The king on c5 had to take f2 (c5xg1) and was put down on e3 instead: the switches
    show the capture under way, and the board can tell it stopped only when the opponent
    begins his reply (tests/board/tracker/test_irregularities.py); the opponent objected at once,
    with nothing on the board to see, and the irregularity counted as unflagged. Such a
    move is injected as a capture stopped half-way is: the opponent begins his reply
    first, and where he has none but to take a piece the king could still take, nobody
    would ever see it. (Random game 189 of the column-7x7 replay from seed 53 at
    --irregular-rate 0.05.)"""
    from draughtsboard.board.replay.irregular_play import play_irregular_game
    from draughtsboard.board.tracker.policy import RESTORE

    start = initial_position(get_variant("column-7x7"))
    report, stats = play_irregular_game("column-7x7 189", start, _board,
                                        seed=53 * 100003 + 189, rate=0.05, policy=RESTORE)
    assert (report.mismatches, report.false_alarms, report.stalls) == (0, 0, 0), \
        report.line()
    assert stats.unflagged == []


def test_the_recorded_games_pdn_is_compared_with_the_files():
    from draughtsboard.commands.replay import recorded_pdn_differs

    (start, moves), = _games("international-candidate95.pdn", None, 1)
    result = read_pdn(decode_pdn((DATA / "international-candidate95.pdn").read_bytes()))
    texts = [played.text for played in result.games[0].game.moves]
    assert not recorded_pdn_differs(start, moves, texts)
    assert recorded_pdn_differs(start, moves[:-1], texts)  # a move missing
    assert recorded_pdn_differs(start, moves[1:], texts)  # not legal from the start


def test_replay_of_a_file_counts_games_whose_pdn_differs(capsys, tmp_path):
    source = decode_pdn((DATA / "international-candidate95.pdn").read_bytes())
    first = source[:source.index("[White", 10)]
    (tmp_path / "one.pdn").write_text(first)
    status = main(["replay", str(tmp_path / "one.pdn"), "--summary-json"])
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert status == 0 and summary["games"] == 1 and summary["pdn_differs"] == 0
    assert summary["wrong"] == summary["missing"] == 0 and summary["share_recorded"] == 1.0
