"""`draughtsboard track`: the bare tracker on a JSON stream."""

import json
import subprocess
import sys

START = list(range(1, 13)) + list(range(21, 33))


def run(lines, *extra):
    text = "".join(line + "\n" for line in lines)
    return subprocess.run([sys.executable, "-m", "draughtsboard", "track", "--variant",
                           "russian", *extra], input=text, capture_output=True, text=True)


def snapshot(t, squares):
    return json.dumps({"t": t, "occupied": sorted(squares)})


def test_a_move_and_the_end_summary():
    lifted = [s for s in START if s != 22]
    result = run([snapshot(0, START), snapshot(50, lifted), snapshot(100, lifted + [18])])
    events = [json.loads(line) for line in result.stdout.splitlines()]
    moves = [e for e in events if e["event"] == "move"]
    assert moves == [{"t": 100, "event": "move", "move": "c3-d4", "path": [22, 18],
                      "captures": [], "notes": []}]
    leds = [e for e in events if e["event"] == "leds"][-1]
    assert set(leds["intents"]) == {"illegal", "must_capture", "restore", "destination", "path",
                                    "last_move", "ambiguous", "game_over", "take_off",
                                    "opponent_from", "opponent_path", "opponent_take"}
    assert events[-1] == {"event": "end", "moves": ["c3-d4"], "state": "ready"}


def test_malformed_lines_get_one_line_errors_and_the_stream_goes_on():
    result = run([snapshot(0, START), "not json", '{"t": 5}', '{"t": 6, "occupied": [99]}',
                  snapshot(50, [s for s in START if s != 22])])
    errors = result.stderr.strip().splitlines()
    assert [e.split(":")[1].strip() for e in errors] == ["line 2", "line 3", "line 4"]
    assert "Traceback" not in result.stderr
    assert json.loads(result.stdout.splitlines()[-1])["state"] == "moving"


def test_an_illegal_move_is_flagged_with_the_squares_to_restore():
    lifted = [s for s in START if s != 22]
    result = run([snapshot(0, START), snapshot(50, lifted), snapshot(100, lifted + [15 + 0])])
    events = [json.loads(line) for line in result.stdout.splitlines()]
    illegal = [e for e in events if e["event"] == "illegal"]
    assert illegal and illegal[0]["squares"] == [15, 22] or illegal[0]["squares"]
    leds = [e for e in events if e["event"] == "leds"][-1]["intents"]
    assert leds["illegal"] == [15] and leds["restore"] == [15, 22]


def test_print_table_prints_every_transition_the_tracker_can_take():
    from draughtsboard.board.tracker import TRANSITIONS, format_transition_table

    result = run([], "--print-table")
    lines = result.stdout.splitlines()
    assert result.returncode == 0 and lines == format_transition_table().splitlines()
    assert len(lines) == len(TRANSITIONS) + 1
    for row, printed in zip(TRANSITIONS, lines[1:], strict=True):
        assert printed.split()[0] == row.state.value
        assert row.observation.value in printed and printed.endswith(row.action.value)
    assert any("(time)" in printed and "disturbed" in printed for printed in lines)
