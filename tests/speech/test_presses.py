"""The press classifier: short, long and double presses told from edges and times alone
(time is an input: no thread, no sleep)."""

from __future__ import annotations

import pytest

from draughtsboard.speech.presses import DOUBLE, LONG, SHORT, PressClassifier


def run(*steps):
    """Feed ``("p"|"r"|"t", time)`` steps; every press decided, with the step's time."""
    classifier = PressClassifier()
    told = []
    for kind, now in steps:
        step = {"p": classifier.pressed, "r": classifier.released, "t": classifier.tick}[kind]
        told += [(press, now) for press in step(now)]
    return told


def test_a_short_press_is_told_once_its_window_for_a_second_press_has_passed():
    assert run(("p", 0.0), ("r", 0.1), ("t", 0.49)) == []
    assert run(("p", 0.0), ("r", 0.1), ("t", 0.5)) == [(SHORT, 0.5)]


def test_a_long_press_is_told_while_still_held_and_its_release_says_nothing():
    assert run(("p", 0.0), ("t", 0.79)) == []
    assert run(("p", 0.0), ("t", 0.8), ("r", 2.0), ("t", 3.0)) == [(LONG, 0.8)]


def test_a_long_press_is_told_at_its_release_when_no_tick_came():
    assert run(("p", 0.0), ("r", 1.0), ("t", 5.0)) == [(LONG, 1.0)]


def test_a_double_press_is_told_at_the_second_release_and_nothing_else():
    assert run(("p", 0.0), ("r", 0.1), ("p", 0.3), ("r", 0.4), ("t", 5.0)) == [(DOUBLE, 0.4)]


def test_a_press_during_the_double_window_makes_a_double_not_a_short():
    told = run(("p", 0.0), ("r", 0.1), ("t", 0.2), ("p", 0.45), ("t", 0.6), ("r", 0.7),
               ("t", 2.0))
    assert told == [(DOUBLE, 0.7)]


def test_a_press_after_the_window_is_a_new_press():
    told = run(("p", 0.0), ("r", 0.1), ("p", 0.6), ("r", 0.7), ("t", 1.2))
    assert told == [(SHORT, 0.6), (SHORT, 1.2)]


def test_a_tap_then_a_hold_is_a_long_press():
    assert run(("p", 0.0), ("r", 0.1), ("p", 0.3), ("t", 1.1), ("r", 1.5)) == [(LONG, 1.1)]


def test_bounce_like_edges_are_one_press():
    # the contact bounces on pressing and on letting go: one short press
    told = run(("p", 0.0), ("r", 0.005), ("p", 0.01), ("r", 0.2), ("p", 0.21),
               ("r", 0.215), ("t", 0.7))
    assert told == [(SHORT, 0.7)]
    # repeated edges (pressed while down, released while up) are ignored
    assert run(("p", 0.0), ("p", 0.05), ("r", 0.1), ("r", 0.12), ("t", 1.0)) == [(SHORT, 1.0)]
    assert run(("r", 0.0), ("t", 1.0)) == []


def test_a_bouncing_release_after_a_double_or_a_long_press_adds_no_press():
    # the second release of a double bounces: no phantom short press after it
    told = run(("p", 0.0), ("r", 0.1), ("p", 0.3), ("r", 0.4), ("p", 0.41), ("r", 0.415),
               ("t", 5.0))
    assert told == [(DOUBLE, 0.4)]
    told = run(("p", 0.0), ("t", 0.8), ("r", 1.0), ("p", 1.01), ("r", 1.02), ("t", 5.0))
    assert told == [(LONG, 0.8)]
    # a press well after the bounce time is a press
    told = run(("p", 0.0), ("r", 0.1), ("p", 0.3), ("r", 0.4), ("p", 0.5), ("r", 0.6),
               ("t", 5.0))
    assert told == [(DOUBLE, 0.4), (SHORT, 5.0)]


def test_the_deadline_says_when_to_tick():
    classifier = PressClassifier()
    assert classifier.deadline() is None
    classifier.pressed(1.0)
    assert classifier.deadline() == pytest.approx(1.8)
    classifier.released(1.1)
    assert classifier.deadline() == pytest.approx(1.5)
    assert classifier.tick(1.49) == []
    assert classifier.tick(1.51) == [SHORT]
    assert classifier.deadline() is None


def test_timings_that_cannot_work_are_refused_in_one_line():
    with pytest.raises(ValueError, match="press timing"):
        PressClassifier(long=0.3, double=0.4)
