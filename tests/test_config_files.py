"""A board config is read the same by every part that reads it (the wiring, the board's
language, its hall): a UTF-8 BOM, which some Windows editors write, is not a key; a file
that is not UTF-8 or is nested too deeply is one line naming the file, never a
traceback."""

from __future__ import annotations

from importlib import resources

import pytest

from draughtsboard.cli import PlayConfigError, play_language
from draughtsboard.hall_link.config import HallConfigError, hall_settings
from draughtsboard.hardware.config import ConfigError, load_config

REFERENCE = resources.files("draughtsboard.hardware").joinpath("configs/8x8.toml").read_text()
WITH_LANGUAGE_AND_HALL = ('language = "ru"\n' + REFERENCE
                          + '\n[hall]\nbroker = "mqtt://board7:pw@hall.local:1883"\nboard = 7\n')


def test_a_config_saved_with_a_bom_is_read_by_every_part(tmp_path):
    path = tmp_path / "board.toml"
    path.write_bytes(b"\xef\xbb\xbf" + WITH_LANGUAGE_AND_HALL.encode("utf-8"))
    assert load_config(path).board == "8x8"
    assert play_language(None, path) == "ru"
    assert hall_settings(None, None, path).board == 7


@pytest.mark.parametrize("content", [
    b"language = \"ru\"\n\xff\xfe = 1\n",  # not UTF-8
    b"rows = " + b"[" * 5000 + b"]" * 5000 + b"\n",  # nested too deeply
    b"size = 1" + b"0" * 5000 + b"\n",  # an integer tomllib refuses to read
])
def test_a_config_no_part_can_read_is_one_line_from_each(tmp_path, content):
    path = tmp_path / "board.toml"
    path.write_bytes(content)
    for read, error in [(load_config, ConfigError),
                        (lambda p: play_language(None, p), PlayConfigError),
                        (lambda p: hall_settings(None, None, p), HallConfigError)]:
        with pytest.raises(error) as raised:
            read(path)
        assert "board.toml" in str(raised.value) and len(str(raised.value).splitlines()) == 1
