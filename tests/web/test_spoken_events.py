"""The live stream tells the page what the board says aloud: after a view that brings
something new, an ``event: spoken`` with the board's own sentences (spoken.*) as message
JSON, each thing once per stream; what stood when the stream opened is not news."""

from __future__ import annotations

import json
import urllib.request

import pytest

from .helpers import PlayProcess, wait_until


def events(stream):
    """The stream's events as (name, data), one at a time (a blank line ends each)."""
    name, data = "message", []
    while True:
        line = stream.readline().decode()
        assert line, "the stream ended"
        line = line.rstrip("\n")
        if not line:
            if data:
                yield name, "\n".join(data)
            name, data = "message", []
        elif line.startswith("event: "):
            name = line[7:]
        elif line.startswith("data: "):
            data.append(line[6:])


def spoken_after(stream_events, count: int) -> list[dict]:
    """The next ``count`` announcements of the spoken events (views and clocks in
    between)."""
    said: list[dict] = []
    for name, data in stream_events:
        if name == "spoken":
            said += json.loads(data)
            if len(said) >= count:
                return said
    raise AssertionError("no spoken event")


@pytest.mark.slow
def test_the_stream_says_each_new_thing_once_and_not_what_stood(tmp_path):
    with PlayProcess(tmp_path / "data", "--irregular", "restore") as play:
        play.hands(("lift", 22), ("place", 18))  # before the stream: not news to it
        wait_until(lambda: play.state()["moves"] == ["c3-d4"], what="c3-d4 recorded")
        with urllib.request.urlopen(play.url + "/api/events", timeout=10) as stream:
            stream_events = events(stream)
            first = [next(stream_events) for _ in range(2)]
            assert [name for name, _ in first] == ["message", "now"]
            play.hands(("lift", 11), ("place", 16))  # f6-g5
            move, = spoken_after(stream_events, 1)
            play.hands(("lift", 21), ("place", 13))  # a3-a5: illegal
            flag, = spoken_after(stream_events, 1)
    square = {"id": "spoken.square", "params": {"file": {"id": "spoken.file.f"}, "rank": "6"}}
    assert move == {"kind": "move", "messages": [{"id": "spoken.move.step", "params": {
        "start": square, "end": {"id": "spoken.square", "params": {
            "file": {"id": "spoken.file.g"}, "rank": "5"}}}}]}
    assert flag["kind"] == "flag"
    assert flag["messages"][0]["id"] == "spoken.flag.illegal"
    assert flag["messages"][0]["params"]["count"] == 2
