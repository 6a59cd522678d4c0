"""Debouncing: a change counts after N identical scans; bounces are counted, not published."""

from __future__ import annotations

import pytest

from draughtsboard.hardware.debounce import Debouncer


def feed(debouncer: Debouncer, scans: list[int]) -> list[int]:
    return [debouncer.update(raw) for raw in scans]


def test_a_change_counts_after_n_identical_scans():
    d = Debouncer(3)
    feed(d, [0, 0, 0])
    assert feed(d, [0b101, 0b101, 0b101, 0b101]) == [0, 0, 0b101, 0]
    assert d.stable == 0b101 and d.changes == 2 and d.bounces == 0


def test_the_first_reading_is_not_counted_as_a_change():
    d = Debouncer(3)
    assert feed(d, [0b11, 0b11, 0b11]) == [0, 0, 0b11]
    assert d.stable == 0b11 and d.changes == 0 and d.changes_by_square == {}


def test_a_one_scan_blip_is_a_filtered_bounce():
    d = Debouncer(3)
    assert feed(d, [0b1, 0, 0, 0b10, 0b10, 0]) == [0, 0, 0, 0, 0, 0]
    assert d.stable == 0 and d.bounces == 2
    assert d.bounces_by_square == {1: 1, 2: 1}


def test_a_bouncing_placement_lands_once():
    d = Debouncer(3)
    changed = feed(d, [1, 0, 1, 0, 1, 1, 1, 1])
    assert changed == [0, 0, 0, 0, 0, 0, 1, 0]
    assert d.changes == 1 and d.bounces == 2 and d.changes_by_square == {1: 1}


def test_squares_debounce_independently():
    d = Debouncer(2)
    assert feed(d, [0b01, 0b11, 0b11, 0b10]) == [0, 0b01, 0b10, 0]
    assert feed(d, [0b10]) == [0b01]


def test_count_one_is_immediate_and_zero_is_refused():
    assert feed(Debouncer(1), [0b1, 0b0]) == [0b1, 0b1]
    with pytest.raises(ValueError):
        Debouncer(0)


def test_primed_after_the_first_n_scans():
    d = Debouncer(3)
    feed(d, [0, 0])
    assert not d.primed
    d.update(0)
    assert d.primed
