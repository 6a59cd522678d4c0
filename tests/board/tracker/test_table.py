"""The tracker's table is the whole truth: every transition the tracker takes is a row of
`TRANSITIONS` (time-outs included), the rows are exactly the pairs its classification can
return, a pair the table does not list raises, and ``--print-table`` prints every row.
The classification itself changes nothing: asking what a board shows, as often as one
likes, leaves the tracker as it was."""

import pathlib
import random

import pytest

from draughtsboard.board.game.pdn_reader import decode_pdn, read_pdn
from draughtsboard.board.ports import Snapshot
from draughtsboard.board.replay import replay_game
from draughtsboard.board.rules import initial_position
from draughtsboard.board.rules.variants import get_variant
from draughtsboard.board.tracker import (
    FMJD,
    RESTORE,
    TRANSITIONS,
    Mode,
    Observation,
    State,
    Tracker,
    UnlistedTransition,
    format_transition_table,
    next_state,
)
from draughtsboard.board.tracker import tracker as tracker_module
from draughtsboard.board.tracker.states import Action, Transition
from draughtsboard.board.tracker.tracker import Seen
from draughtsboard.cli import replay_on_simulated_board

from ..hand import TrackerHand

DATA = pathlib.Path(__file__).resolve().parents[2] / "data"
PRINTED = set(format_transition_table().splitlines()[1:])

O = Observation
# What the classification can return in each state (read from its branches: `_classify`
# and the helpers it calls, and `_classify_held` for time passing). Written out here, apart
# from the table, so that a row added or lost on either side shows.
_MATCHING = {O.MATCHES, O.MATCHES_AT_END}
_PLAYING = _MATCHING | {
    O.COMPLETES_MOVE, O.ENDS_GAME, O.COMPLETES_AMBIGUOUS, O.AMENDS_MOVE, O.AMENDS_TO_END,
    O.MOVE_THEN_MORE, O.TAKES_BACK, O.TAKES_BACK_TO_END, O.IN_PROGRESS, O.LIFTED,
    O.WRONG_PLACEMENT, O.PLACED_AND_PLAYED_ON, O.PLACED_AND_PLAYED_ON_TO_END, O.UNEXPLAINED}
CAN_SHOW = {
    State.SETUP: _MATCHING | {O.OTHER},
    State.READY: _PLAYING,
    State.MOVING: _PLAYING | {O.HELD_TOO_LONG, O.HELD_IRREGULAR},
    State.AMBIGUOUS: _MATCHING | {O.RESOLVES, O.RESOLVES_TO_END, O.OTHER},
    State.ILLEGAL: _MATCHING | {O.PLAYED_ON, O.PLAYED_ON_TO_END, O.COMPLETES_MOVE,
                                O.ENDS_GAME, O.OTHER},
    State.DISTURBED: _MATCHING | {O.OTHER},
    State.GAME_OVER: {O.MATCHES, O.OTHER, O.AMENDS_MOVE, O.AMENDS_TO_END, O.TAKES_BACK,
                      O.TAKES_BACK_TO_END},
}


def line(row):
    return next(printed for printed in PRINTED if printed.split()[0] == row.state.value
                and row.observation.value in printed and row.target.value in printed
                and printed.endswith(row.action.value))


@pytest.fixture
def taken(monkeypatch):
    """Every row the tracker takes while the test runs."""
    rows = []
    real = tracker_module.transition

    def spy(state, observation):
        row = real(state, observation)
        rows.append(row)
        return row

    monkeypatch.setattr(tracker_module, "transition", spy)
    return rows


def test_every_row_is_printed_once():
    assert len(PRINTED) == len(TRANSITIONS) == len(format_transition_table().splitlines()) - 1
    assert len({line(row) for row in TRANSITIONS}) == len(TRANSITIONS)
    assert {row.action for row in TRANSITIONS} == set(Action)


def test_the_rows_are_exactly_the_pairs_the_classification_can_return():
    listed = {(row.state, row.observation) for row in TRANSITIONS}
    for state in State:
        for observation in Observation:
            if observation in CAN_SHOW[state]:
                assert (state, observation) in listed
                next_state(state, observation)
            else:
                assert (state, observation) not in listed
                with pytest.raises(UnlistedTransition):
                    next_state(state, observation)


def test_a_pair_the_table_does_not_list_raises_in_the_tracker(monkeypatch):
    tracker = Tracker(initial_position(get_variant("russian")))
    monkeypatch.setattr(Tracker, "_classify",
                        lambda self, occupied, now: Seen(Observation.COMPLETES_MOVE))
    with pytest.raises(UnlistedTransition, match="COMPLETES_MOVE in state SETUP"):
        tracker.feed(Snapshot(0, 0.1))
    assert tracker.state is State.SETUP and tracker.moves == []


def test_pieces_kept_off_too_long_are_a_row_keyed_by_time(taken):
    position = initial_position(get_variant("russian"))
    hand = TrackerHand(Tracker(position, check_start=False, hold_timeout=3.0))
    hand.lift("h6")  # Black's piece on White's turn: no move starts with it
    assert hand.tracker.state is State.MOVING
    hand.tracker.tick(hand.now + 3.5)
    assert hand.tracker.state is State.DISTURBED
    assert taken[-1] == Transition(State.MOVING, Observation.HELD_TOO_LONG,
                                   Action.FLAG_KEPT_OFF, State.DISTURBED)


def _walk(seed, variant, mode, policy, opponent, steps=250):
    """A seeded random walk: legal moves made square by square (landings shown, captured
    pieces taken off in any order) or seen at once, switches flipped, the board put back
    or back before the last move, time passing; the tracker, and the snapshots fed (a
    number: a tick at that time)."""
    rng = random.Random(seed)
    position = initial_position(get_variant(variant))
    tracker = Tracker(position, mode, policy=policy, check_start=rng.random() < 0.5,
                      hold_timeout=rng.choice((1.0, 3.0)))
    if opponent is not None:
        tracker.set_opponent(opponent)
    squares = position.variant.geometry.square_count
    occupied, now = position.occupancy(), 0.0
    snapshots, earlier = [], []

    def feed(board):
        nonlocal now
        now += rng.choice((0.01, 0.05, 0.12, 0.2, 0.5, 1.1))
        snapshots.append(Snapshot(board, now))
        tracker.feed(snapshots[-1])

    def bit(square):
        return 1 << (square - 1)

    feed(occupied)
    for _ in range(steps):
        roll = rng.random()
        if tracker.is_opponents_turn and tracker.expectation is None and roll < 0.6:
            moves = tracker.position.legal_moves()
            if moves:
                tracker.expect(tracker.position, rng.choice(moves), now)
        if roll < 0.4 and tracker.table.shapes:  # a legal move, square by square
            shape = rng.choice(tracker.table.shapes)
            earlier.append(tracker.table.occupancy)
            occupied = tracker.table.occupancy & ~shape.start_bit
            feed(occupied)
            if rng.random() < 0.3:
                for square in shape.landings[:-1]:
                    feed(occupied | bit(square))
            occupied |= shape.end_bit
            feed(occupied)
            emptied = list(shape.emptied)
            if rng.random() < 0.3:
                rng.shuffle(emptied)
            for square in emptied:
                occupied &= ~bit(square)
                feed(occupied)
        elif roll < 0.55 and tracker.table.shapes:  # a move seen at once
            earlier.append(tracker.table.occupancy)
            occupied = rng.choice(tracker.table.shapes).after_occupancy
            feed(occupied)
        elif roll < 0.8:  # a switch or two flip
            for _ in range(rng.choice((1, 1, 2))):
                occupied ^= bit(rng.randrange(squares) + 1)
            feed(occupied)
        elif roll < 0.88:  # the board put back
            occupied = tracker.table.occupancy
            feed(occupied)
        elif roll < 0.9 and earlier:  # the board as it was before the last move
            occupied = earlier.pop()
            feed(occupied)
        else:
            now += rng.choice((0.05, 0.2, 0.5, 1.2, 2.5, 4.0))
            snapshots.append(now)  # time passing, no change
            tracker.tick(now)
    return tracker, snapshots


CONFIGS = [(seed, variant, mode, policy, opponent)
           for seed, (variant, mode, policy, opponent) in enumerate([
               ("russian", Mode.TOURNAMENT, RESTORE, None),
               ("russian", Mode.TRAINING, FMJD, None),
               ("russian", Mode.FREE, FMJD, None),
               ("international", Mode.TOURNAMENT, FMJD, None),
               ("international", Mode.TRAINING, RESTORE, True),
               ("column-7x7", Mode.TOURNAMENT, RESTORE, None),
               ("russian", Mode.TRAINING, RESTORE, False),
           ])]


def test_random_walks_take_only_printed_rows(taken):
    for config in CONFIGS:
        _walk(*config)
    assert taken and {line(row) for row in taken} <= PRINTED
    assert {row.state for row in taken} >= {State.SETUP, State.READY, State.MOVING,
                                            State.ILLEGAL, State.DISTURBED}


@pytest.mark.slow
def test_replayed_games_take_only_printed_rows(taken):
    for name, variant in (("russian-ussr-championship-part1.pdn", get_variant("russian")),
                          ("international-wk2003.pdn", None)):
        result = read_pdn(decode_pdn((DATA / name).read_bytes()), variant=variant, source=name)
        game = result.games[0].game
        report = replay_game(name, game.positions[0], [p.move for p in game.moves],
                             lambda position: replay_on_simulated_board(position, None),
                             noise_seed=1)
        assert (report.mismatches, report.false_alarms) == (0, 0)
    assert {row.observation for row in taken} >= {Observation.COMPLETES_MOVE,
                                                  Observation.IN_PROGRESS}
    assert {line(row) for row in taken} <= PRINTED


@pytest.mark.parametrize("config", CONFIGS[:4])  # (no opponent: its choices are not replayed)
def test_classifying_a_board_changes_nothing(config):
    """A twin tracker asked, before every snapshot, what it shows (twice) ends exactly
    where the one only fed does, with the same events."""
    _, snapshots = _walk(*config)
    seed, variant, mode, policy, opponent = config
    rng = random.Random(seed)
    check_start, hold_timeout = rng.random() < 0.5, rng.choice((1.0, 3.0))
    fed, asked = (Tracker(initial_position(get_variant(variant)), mode, policy=policy,
                          check_start=check_start, hold_timeout=hold_timeout)
                  for _ in range(2))
    for snapshot in snapshots:
        if not isinstance(snapshot, Snapshot):
            assert asked.tick(snapshot) == fed.tick(snapshot)
            continue
        first, second = asked.classify(snapshot), asked.classify(snapshot)
        assert first.observation is second.observation and first.shape is second.shape
        assert asked.feed(snapshot) == fed.feed(snapshot)
        assert (asked.state, asked.position, asked.intents) == \
            (fed.state, fed.position, fed.intents)
