"""The files of a match between towns, as `draughtsboard venue --match` writes them: each
board's user writes its own seat only, the other town's bridge the other seat only; the
bridge sends one seat out and takes the other in; a wrong plan is one line, exit 2. And
``play --opponent board:...`` refused in one line when it names no match or no broker."""

from __future__ import annotations

import pytest

from draughtsboard.cli import EXIT_NOINPUT, EXIT_USAGE, main
from draughtsboard.hall_protocol.topics import MATCH_NAME, match_topic
from draughtsboard.opponents.spec import MATCH_ID


def test_venue_writes_two_towns_of_a_match(open_folder):
    assert main(["venue", "--match", "m1", "--seat", "white", "--out",
                 str(open_folder / "north"), "--listen", "127.0.0.1:1888"]) == 0
    acl = (open_folder / "north" / "acl").read_text()
    def exactly(user: str, writes: str, reads: str) -> str:
        """A seat's user writes exactly its three topics and reads the other's three."""
        return "".join([f"user {user}\n",
                        *(f"topic write draughtsboard/v1/match/m1/{writes}/{kind}\n"
                          for kind in ("record", "beat", "presence")),
                        *(f"topic read draughtsboard/v1/match/m1/{reads}/{kind}\n"
                          for kind in ("record", "beat", "presence"))])

    assert exactly("match-m1-white", "white", "black") in acl
    assert exactly("town-m1", "black", "white") in acl
    assert "#" not in acl.replace("# draughtsboard", "")
    assert main(["venue", "--match", "m1", "--seat", "black", "--host-town",
                 "127.0.0.1:1888", "--town-password-file",
                 str(open_folder / "north" / "town.password"),
                 "--out", str(open_folder / "south"), "--listen", "127.0.0.1:1889"]) == 0
    config = (open_folder / "south" / "mosquitto.conf").read_text()
    bridge = config.split("connection town-m1\n")[1].splitlines()
    assert [line for line in bridge if line.startswith("topic ")] == [
        "topic draughtsboard/v1/match/m1/black/# out 1",
        "topic draughtsboard/v1/match/m1/white/# in 1"]
    assert "remote_password " + (open_folder / "north" / "town.password").read_text() \
        in config
    south = (open_folder / "south" / "acl").read_text()
    assert exactly("match-m1-black", "black", "white") in south
    assert "town-m1" not in south


@pytest.mark.parametrize("args", [
    ["--match", "M1", "--seat", "white"],
    ["--match", "m1"],
    ["--match", "m1", "--seat", "white", "--boards", "3"],
    ["--match", "m1", "--seat", "white", "--host-town", "h:1888"],
    ["--match", "m1", "--seat", "white", "--host-town", "h:1888",
     "--town-password-file", "/nope"],
    ["--match", "m1", "--seat", "white", "--town-password-file", "/nope"],
    ["--match", "m1/x", "--seat", "black"],
    ["--seat", "white", "--boards", "2"],
])
def test_a_wrong_match_plan_gets_one_line(tmp_path, capsys, args):
    expected = EXIT_NOINPUT if args[-1] == "/nope" and "--host-town" in args else EXIT_USAGE
    assert main(["venue", "--out", str(tmp_path / "v"), *args]) == expected
    err = capsys.readouterr().err
    assert err.startswith("draughtsboard venue: ") and err.count("\n") == 1, err
    assert not (tmp_path / "v").exists()


def test_the_match_name_is_the_same_rule_on_both_sides():
    assert MATCH_ID.pattern == MATCH_NAME.pattern
    assert match_topic("m-1", "white", "record") == "draughtsboard/v1/match/m-1/white/record"
    for match, seat, kind in (("m/1", "white", "beat"), ("#", "white", "beat"),
                              ("m1", "red", "beat"), ("m1", "white", "command")):
        with pytest.raises(ValueError):
            match_topic(match, seat, kind)


@pytest.mark.parametrize("opponent, status", [
    ("board:", 65),
    ("board:Match", 65),
    ("board:mqtt://u:secret@h:1/", 65),
    ("board:m1", 64),  # no broker named, no --hall
    ("board:ftp://u:secret@h:1/m1", 64),
])
def test_play_refuses_a_board_opponent_it_cannot_reach_in_one_line(tmp_path, capsys,
                                                                    opponent, status):
    code = main(["play", "--backend", "sim", "--data", str(tmp_path / "data"),
                 "--listen", "127.0.0.1:0", "--opponent", opponent])
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.startswith("draughtsboard play:")]
    assert code == status and len(lines) == 1, err
    assert "Traceback" not in err and "secret" not in err
