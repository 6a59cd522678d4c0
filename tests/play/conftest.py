from __future__ import annotations

import pytest

from .virtual import VirtualPlay

XSS = "<script>alert(1)</script>"


@pytest.fixture
def start_play(tmp_path):
    """Games in play in virtual time: ``start_play(variant, fen=..., **options)`` returns a
    `VirtualPlay` on a board set up and scanned once (data in ``tmp_path/data`` unless
    ``data`` is given); all are closed afterwards."""
    opened = []

    def start(variant: str = "russian", *, data=None, **options) -> VirtualPlay:
        play = VirtualPlay(data or tmp_path / "data", variant, **options)
        opened.append(play)
        return play

    yield start
    for play in reversed(opened):
        play.close()


@pytest.fixture
def play(start_play) -> VirtualPlay:
    """A new Russian tournament game in virtual time, its players' tags set."""
    return start_play(tags={"White": XSS, "Black": "Bea"})
