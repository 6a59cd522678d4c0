"""The files of a venue in rooms, as `draughtsboard venue --rooms` and `--room` write
them: which user may do what on the event's broker, what the room's bridge sends out and
takes in, and one-line refusals of a plan that cannot be."""

from __future__ import annotations

import getpass
import stat

import pytest

from draughtsboard.cli import EXIT_CONFIG, EXIT_NOINPUT, EXIT_USAGE, main
from draughtsboard.hall.rooms import (
    Room,
    RoomError,
    parse_room,
    parse_rooms,
    read_room_secret,
    write_event_venue,
    write_room_venue,
)


def test_a_room_is_a_name_and_its_boards():
    assert parse_room("main:1-30") == Room("main", 1, 30)
    assert parse_room("annex:31") == Room("annex", 31, 31)
    assert [str(r) for r in parse_rooms("a:1-2, b:3-4")] == ["a:1-2", "b:3-4"]


@pytest.mark.parametrize("text", ["Main:1-3", "main", "main:0-3", "main:3-1", "main:1-10000",
                                  "a b:1", "a:1-2,a:3-4", "a:1-3,b:3-4", ""])
def test_a_plan_that_cannot_be_is_refused(text):
    with pytest.raises(RoomError):
        parse_rooms(text)


def test_boards_on_the_event_broker_are_in_no_room():
    with pytest.raises(RoomError, match="board 3 is in room a"):
        parse_rooms("a:3-4", direct_boards=3)


def test_the_event_broker_lets_each_room_publish_its_boards_and_read_their_commands(tmp_path):
    event = write_event_venue(tmp_path / "event", parse_rooms("a:1-2,b:3-3"),
                              run_as=getpass.getuser())
    acl = (tmp_path / "event" / "acl").read_text()
    block = acl.split("user room-a\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert "topic write draughtsboard/v1/board/2/state" in block
    assert "topic read draughtsboard/v1/board/1/command" in block
    assert not [line for line in block if "/3/" in line or "write" in line and "command" in line]
    assert not [line for line in block if line.startswith("topic readwrite")]
    password = event.room_password_file("a")
    assert password.read_text() == f"{event.room_passwords['a']}\nroom a:1-2\n"
    assert read_room_secret(password) == (event.room_passwords["a"], Room("a", 1, 2))
    assert not password.stat().st_mode & stat.S_IRWXO
    assert "room-b:" in (tmp_path / "event" / "passwords").read_text()


def test_the_room_bridges_its_boards_out_and_their_commands_in(tmp_path):
    room = parse_room("a:5-6")
    written = write_room_venue(tmp_path / "a", room, "event.local", 1884, "secret-word",
                               run_as=getpass.getuser())
    config = written.config.read_text()
    general, bridge = config.split("connection room-a\n")
    assert "listener 1883 0.0.0.0" in general  # every general option before the bridge
    lines = bridge.splitlines()
    for expected in ("address event.local:1884", "remote_username room-a",
                     "remote_password secret-word", "cleansession false",
                     "topic draughtsboard/v1/board/5/ply out 1",
                     "topic draughtsboard/v1/board/6/command in 1"):
        assert expected in lines
    assert [line for line in lines if line.endswith(" in 1")] == [
        "topic draughtsboard/v1/board/5/command in 1",
        "topic draughtsboard/v1/board/6/command in 1"]
    assert not written.config.stat().st_mode & (stat.S_IRWXO | stat.S_IRWXG)  # a password
    assert sorted(p.name for p in (tmp_path / "a" / "boards").iterdir()) == [
        "5.password", "6.password"]
    acl = (tmp_path / "a" / "acl").read_text()
    assert "user board5" in acl and "user hall" not in acl


def test_venue_writes_an_event_and_its_room(open_folder, capsys):
    assert main(["venue", "--out", str(open_folder / "event"), "--listen", "127.0.0.1:1884",
                 "--rooms", "main:1-3,annex:4-6"]) == 0
    assert main(["venue", "--room", "main:1-3", "--event-broker", "127.0.0.1:1884",
                 "--event-password-file", str(open_folder / "event/rooms/main.password"),
                 "--out", str(open_folder / "main"), "--listen", "127.0.0.1:1885"]) == 0
    password = (open_folder / "event/rooms/main.password").read_text().splitlines()[0]
    assert f"remote_password {password}\n" in (open_folder / "main" / "mosquitto.conf").read_text()


@pytest.mark.parametrize("other", ["main:1-2", "main:1-4", "annex:1-3"])
def test_a_room_written_with_other_boards_than_the_events_plan_is_refused(
        open_folder, capsys, other):
    """The event's ACL lets room main publish boards 1-3 only: a room's broker for 1-4
    would acknowledge board 4's messages and the event's broker drop them unseen."""
    assert main(["venue", "--out", str(open_folder / "event"), "--rooms", "main:1-3"]) == 0
    capsys.readouterr()
    assert main(["venue", "--room", other, "--event-broker", "127.0.0.1:1884",
                 "--event-password-file", str(open_folder / "event/rooms/main.password"),
                 "--out", str(open_folder / "main")]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(
        f"draughtsboard venue: --room {other}: the event's broker has main:1-3 for this "
        "password"), err
    assert not (open_folder / "main").exists()


def test_a_password_file_of_one_line_is_still_taken(open_folder):
    """A room's password file as written before the plan was kept beside it."""
    secret = open_folder / "main.password"
    secret.write_text("s3cret\n")
    assert read_room_secret(secret) == ("s3cret", None)
    assert main(["venue", "--room", "main:1-3", "--event-broker", "127.0.0.1:1884",
                 "--event-password-file", str(secret), "--out", str(open_folder / "m")]) == 0


@pytest.mark.parametrize("option", ["--room", "--public"])
def test_a_password_file_that_never_ends_is_refused_in_one_line(tmp_path, capsys, option):
    """/dev/zero, or a file far too long to be a password: read no further than 1 KiB."""
    args = ["venue", "--out", str(tmp_path / "v"), "--event-broker", "127.0.0.1:1884",
            "--event-password-file", "/dev/zero"]
    args += ["--room", "main:1-2"] if option == "--room" else ["--public"]
    assert main(args) == EXIT_USAGE
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "/dev/zero is longer than 1024 bytes" in err, err


def test_a_room_of_more_than_500_boards_is_refused_in_one_line(tmp_path, capsys):
    assert parse_room("big:1-500").boards == range(1, 501)
    assert main(["venue", "--out", str(tmp_path / "v"), "--rooms", "big:1-9999"]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert err == ("draughtsboard venue: --rooms: room 'big:1-9999': at most 500 boards in a "
                   "room (its bridge carries each board's topics one by one): split it into "
                   "rooms\n")
    assert not (tmp_path / "v").exists()


@pytest.mark.parametrize("args", [
    ["--rooms", "main:1-3,annex:3-4"],
    ["--room", "main:1-3"],
    ["--room", "main:1-3", "--event-broker", "h:1884", "--event-password-file", "/nope"],
    ["--room", "main:1-3", "--event-broker", "h\nx:1884", "--event-password-file", "/nope"],
    ["--rooms", "main:1-3", "--event-broker", "h:1884"],
    ["--room", "main:1-3", "--boards", "3"],
    ["--room", "main:1-3", "--event-broker", "::1:1884", "--event-password-file", "/nope"],
    ["--public", "--event-broker", "::1:1884", "--event-password-file", "/nope"],
    ["--rooms", ""],
])
def test_a_wrong_plan_gets_one_line(tmp_path, capsys, args):
    # a usage error, but for a password file that is not there (once the rest is right)
    missing = args[-1] == "/nope" and args[args.index("--event-broker") + 1] == "h:1884"
    assert main(["venue", "--out", str(tmp_path / "v"), *args]) == (
        EXIT_NOINPUT if missing else EXIT_USAGE)
    err = capsys.readouterr().err
    assert err.startswith("draughtsboard venue: ") and err.count("\n") == 1
    assert "--rooms: --rooms" not in err
    if "::1" in args:
        assert "an IPv6 address cannot be a bridge's address" in err, err


def test_a_rooms_link_topic_is_read_back():
    from draughtsboard.hall_protocol.topics import parse_room_link, room_link_topic

    assert parse_room_link(room_link_topic("main")) == "main"
    for other in ("draughtsboard/v1/board/1/state", "draughtsboard/v1/room//link",
                  "draughtsboard/v1/room/a/b/link"):
        assert parse_room_link(other) is None


def test_venue_writes_a_public_mirror_one_way(open_folder):
    assert main(["venue", "--out", str(open_folder / "event"), "--boards", "2",
                 "--public-mirror"]) == 0
    acl = (open_folder / "event" / "acl").read_text()
    assert "user public\ntopic read draughtsboard/v1/public/#\n" in acl
    assert "user mirror\ntopic write draughtsboard/v1/public/board/+/status\n" in acl
    assert "public/board/+/command" not in acl
    assert main(["venue", "--public", "--event-broker", "10.0.0.2:1883",
                 "--event-password-file", str(open_folder / "event" / "public.password"),
                 "--out", str(open_folder / "public")]) == 0
    bridge = (open_folder / "public" / "mosquitto.conf").read_text().split(
        "connection public-mirror\n")[1].splitlines()
    assert [line for line in bridge if line.startswith("topic ")] == [
        "topic board/# in 1 draughtsboard/v1/ draughtsboard/v1/public/",
        "topic room/public_feed/link in 1 draughtsboard/v1/ draughtsboard/v1/public/"]
    # the bridge's state goes on the public broker only, where the mirror's presence goes
    assert "notifications_local_only true" in bridge
    assert "notification_topic draughtsboard/v1/room/public_feed/link" in bridge
    assert "topic write draughtsboard/v1/public/room/public_feed/link" in (
        open_folder / "event" / "acl").read_text()
    acl = (open_folder / "public" / "acl").read_text()
    assert "write" not in acl.replace("nobody writes", "")
    assert "topic read draughtsboard/v1/room/public_feed/link" in acl


@pytest.mark.parametrize("args", [
    ["--public"],
    ["--public", "--rooms", "a:1", "--event-broker", "h:1", "--event-password-file", "f"],
    ["--public-mirror"],
])
def test_a_wrong_mirror_gets_one_line(tmp_path, capsys, args):
    assert main(["venue", "--out", str(tmp_path / "v"), *args]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert err.startswith("draughtsboard venue: ") and err.count("\n") == 1


@pytest.mark.parametrize("args", [
    ["--mirror", "mqtt://mirror@h:1883", "--public"],
    ["--mirror", "mqtt://mirror@h:1883", "--mirror-delay", "-1"],
    ["--mirror", "http://h"],
])
def test_a_wrong_mirror_of_the_hall_gets_one_line(tmp_path, capsys, monkeypatch, args):
    secret = tmp_path / "mirror.password"
    secret.write_text("pw\n")
    monkeypatch.setenv("DRAUGHTSBOARD_MIRROR_PASSWORD_FILE", str(secret))
    assert main(["hall", "--broker", "mqtt://hall:x@127.0.0.1:1", "--data",
                 str(tmp_path / "hall"), *args]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert err.startswith("draughtsboard hall: ") and err.count("\n") == 1


@pytest.mark.parametrize("args, password, words", [
    (["--mirror", "mqtt://mirror@127.0.0.1:1"], None,
     "--mirror needs its password: DRAUGHTSBOARD_MIRROR_PASSWORD_FILE=FILE"),
    (["--mirror", "mqtt://mirror@127.0.0.1:1"], "",
     "expected one password on one line"),
    (["--mirror", "mqtt://hall@127.0.0.1:1"], "pw",
     "--mirror logs in as 'hall', the hall's own user on 127.0.0.1:1"),
    (["--mirror-delay", "5"], "pw", "--mirror-delay goes with --mirror"),
])
def test_a_mirror_that_could_never_publish_is_refused(tmp_path, capsys, monkeypatch, args,
                                                      password, words):
    """Without its password, or as the hall's own user (each knocking the other off the
    broker every second), the mirror would fail unseen: refused before the hall starts."""
    monkeypatch.delenv("DRAUGHTSBOARD_MIRROR_PASSWORD_FILE", raising=False)
    if password is not None:
        secret = tmp_path / "mirror.password"
        secret.write_text(password)
        monkeypatch.setenv("DRAUGHTSBOARD_MIRROR_PASSWORD_FILE", str(secret))
    # a setting refused (no password, the hall's own user) 78; an argument that cannot be 64
    expected = EXIT_CONFIG if "password:" in words or "logs in as" in words else EXIT_USAGE
    assert main(["hall", "--broker", "mqtt://hall:x@127.0.0.1:1", "--data",
                 str(tmp_path / "hall"), *args]) == expected
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("draughtsboard hall: ") and words in err, err
