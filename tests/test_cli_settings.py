"""Each command's settings, resolved once into a frozen dataclass: the arguments first,
then the board config, then the environment; checked without starting anything."""

from __future__ import annotations

import dataclasses

import pytest

from draughtsboard import cli
from draughtsboard.addresses import HostPort
from draughtsboard.cli.errors import NoInputError, SettingError, UsageError
from draughtsboard.cli.hall import HallSettings, hall_settings
from draughtsboard.cli.play_settings import PlaySettings, play_settings
from draughtsboard.cli.speech import SpeechSettings
from draughtsboard.cli.venue import VenueSettings, venue_settings


def parsed(*argv: str):
    return cli.build_parser().parse_args(list(argv))


def test_play_settings_are_the_arguments_then_the_board_config_then_the_environment(
        tmp_path):
    config = tmp_path / "board.toml"
    config.write_text('language = "ru"\n')
    settings = play_settings(parsed("play", "--config", str(config), "--listen", "[::1]:0",
                                    "--tag", "Event=Club", "--tag", "White=A",
                                    "--speech", "moves", "--opponent", "engine"),
                             environ={"DRAUGHTSBOARD_ARBITER_TOKEN": "t0k"})
    assert settings == PlaySettings(
        listen=HostPort("::1", 0), config_path=config, language="ru",
        tags=(("Event", "Club"), ("White", "A")),
        speech=SpeechSettings("moves", "ru", 100, None), coach=frozenset({"white"}),
        token="t0k")
    assert settings.tag_map == {"Event": "Club", "White": "A"}
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.language = "en"  # type: ignore[misc]
    # the command line wins over the config; no token in the environment: the kept one
    again = play_settings(parsed("play", "--config", str(config), "--language", "nl"),
                          environ={})
    assert (again.language, again.token, again.speech) == (
        "nl", None, SpeechSettings(None, "nl", 100, None))


@pytest.mark.parametrize("argv, error", [
    (["--listen", "bad"], UsageError),
    (["--language", "xx"], SettingError),
    (["--tag", "TimeControl=soon"], UsageError),
    (["--speech-volume", "-1"], UsageError),
])
def test_play_settings_refuse_by_cause(argv, error):
    with pytest.raises(error):
        play_settings(parsed("play", *argv), environ={})


def test_hall_settings_take_the_token_and_the_mirrors_password_from_the_environment(
        tmp_path):
    secret = tmp_path / "mirror.password"
    secret.write_text("pw\n")
    settings = hall_settings(parsed("hall", "--broker", "mqtt://hall:x@10.0.0.1:1883",
                                    "--listen", "0.0.0.0:8090", "--delay", "2",
                                    "--language", "ru", "--rooms", "main:1-3",
                                    "--mirror", "mqtt://mirror@10.0.0.1:1883"),
                             environ={"DRAUGHTSBOARD_HALL_TOKEN": " chosen ",
                                      "DRAUGHTSBOARD_MIRROR_PASSWORD_FILE": str(secret)})
    assert isinstance(settings, HallSettings)
    assert (settings.listen, settings.delay, settings.language, settings.token) == (
        HostPort("0.0.0.0", 8090), 120.0, "ru", "chosen")
    assert [str(room) for room in settings.rooms] == ["main:1-3"]
    assert settings.mirror is not None and settings.mirror_delay == 15 * 60
    assert (settings.mirror.username, settings.mirror.password) == ("mirror", "pw")
    public = hall_settings(parsed("hall", "--broker", "mqtt://hall:x@h:1", "--public"),
                           environ={"DRAUGHTSBOARD_HALL_TOKEN": "chosen"})
    assert public.public and public.token is None and public.mirror is None


@pytest.mark.parametrize("argv, kind", [
    (["--boards", "3"], "single"),
    (["--rooms", "main:1-3"], "event"),
    (["--boards", "3", "--public-mirror"], "event"),
    (["--room", "main:1-3", "--event-broker", "h:1884", "--event-password-file", "f"], "room"),
    (["--public", "--event-broker", "h:1884", "--event-password-file", "f"], "public"),
    (["--match", "m1", "--seat", "white"], "town"),
    (["--match", "m1", "--seat", "black", "--host-town", "h:1888",
      "--town-password-file", "f"], "town"),
])
def test_venue_settings_say_which_venue_is_written(argv, kind):
    settings = venue_settings(parsed("venue", "--out", "v", *argv))
    assert isinstance(settings, VenueSettings) and settings.kind == kind
    assert settings.listen == HostPort("0.0.0.0", 1883)
    if kind in ("room", "public"):
        assert settings.event_broker == HostPort("h", 1884)


def test_a_password_file_that_is_not_there_is_no_input(tmp_path, capsys):
    status = cli.main(["venue", "--out", str(tmp_path / "v"), "--public", "--event-broker",
                       "h:1884", "--event-password-file", str(tmp_path / "none")])
    assert status == NoInputError.status == 66
    assert capsys.readouterr().err.strip() == (
        f"draughtsboard venue: {tmp_path / 'none'}: no such file, or it cannot be read")
