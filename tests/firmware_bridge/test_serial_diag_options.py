"""``diag --backend serial`` refuses the options of the other backends in one line: the
microcontroller has its own wiring, so a board config or a simulated fault means nothing
there and must not be silently ignored."""

import argparse

import pytest

from draughtsboard.firmware_bridge import diag as serial_diag
from draughtsboard.hardware.board_map import empty_board_report, render_map
from draughtsboard.hardware.diag import add_arguments, walk_leds


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return parser.parse_args(["--backend", "serial", "--port", "/dev/nonexistent", *argv])


@pytest.mark.parametrize(("argv", "named"), [
    (("--config", "board.toml"), "--config"),
    (("--sweep",), "--sweep"),
    (("--sim-fault", "stuck:3", "--occupied", "1,2"), "--sim-fault, --occupied"),
])
def test_the_other_backends_options_are_refused(capsys, argv, named):
    assert serial_diag.run(parse(*argv), render_map, walk_leds, empty_board_report) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"draughtsboard diag: {named}: not with --backend serial (give --board and --port)"]
