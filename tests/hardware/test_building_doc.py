"""docs/building.md's wiring tables say what the shipped configs say."""

from __future__ import annotations

import pathlib
import re

import pytest

from draughtsboard.board.rules.geometry import board_geometry
from draughtsboard.hardware.config import builtin_config
from draughtsboard.hardware.pins import HEADER_PIN

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "building.md"
SECTIONS = {8: "### 8x8", 10: "### 10x10", 7: "### 7x7"}


def section(heading: str) -> str:
    text = DOC.read_text()
    start = text.index(heading)
    end = text.find("\n### ", start + 1)
    return text[start:end]


@pytest.mark.parametrize("size", list(SECTIONS))
def test_the_wiring_table_matches_the_shipped_config(size):
    config = builtin_config(board_geometry(size))
    text = section(SECTIONS[size])
    rows = re.findall(r"^\| (\d+) \| (\d+) \| (\d+) \| (.+) \|$", text, re.M)
    assert [(int(r), int(bcm), int(header)) for r, bcm, header, _ in rows] == [
        (r, pin, HEADER_PIN[pin]) for r, pin in enumerate(config.matrix.rows)]
    for (_, _, _, squares), row in zip(rows, config.matrix.squares, strict=True):
        assert [int(s) for s in re.findall(r"(\d+) \(", squares)] == [s for s in row if s]
    bcm = re.search(r"^\| BCM \| (.+) \|$", text, re.M).group(1)
    header = re.search(r"^\| header pin \| (.+) \|$", text, re.M).group(1)
    assert [int(p) for p in bcm.split(" | ")] == list(config.matrix.columns)
    assert [int(p) for p in header.split(" | ")] == [HEADER_PIN[p] for p in config.matrix.columns]
    ask = dict(config.buttons)["ask"]
    assert re.search(rf"^\| ask button \| {ask} \| {HEADER_PIN[ask]} \|", text, re.M)


def test_the_common_pins_match_every_config():
    text = section("### Common to all three boards")
    for size in SECTIONS:
        leds = builtin_config(board_geometry(size)).leds
        buttons = dict(builtin_config(board_geometry(size)).buttons)
        for name, pin in (("LED data", leds.data), ("LED clock", leds.clock),
                          ("LED latch", leds.latch), ("LED enable", leds.enable),
                          ("hint button", buttons["hint"])):
            assert re.search(rf"^\| {name}[^|]* \| {pin} \| {HEADER_PIN[pin]} \|", text, re.M)
