"""``play``'s settings, resolved once: the arguments first, then the board config, then
the environment, into one frozen `PlaySettings` that the wiring (`cli.play`) reads and
a test can check without starting anything.

What needs the machine looked at (is there a GPIO chip?) stays a function of its own,
`choose_backend`, since it logs what it found.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from draughtsboard.addresses import HostPort, is_loopback
from draughtsboard.board.message import Message

from .common import address_option, language_option
from .errors import SettingError, UsageError
from .speech import SpeechSettings, speech_settings

PLAY_BACKENDS = ("auto", "gpio", "serial", "serial-emulated", "sim")
SIMULATED_BACKENDS = ("sim", "serial-emulated")
DEFAULT_CONFIG_HINT = "/etc/draughtsboard/board.toml or ~/.config/draughtsboard/board.toml"
ENV_TOKEN = "DRAUGHTSBOARD_ARBITER_TOKEN"


@dataclass(frozen=True)
class PlaySettings:
    """What ``play`` was asked for, checked: where its page listens, the board config's
    path (``None``: none found), the board's language, a new game's tags (in order), the
    speech (``None``: off), the sides the coach follows, and the arbiter's token when the
    environment sets it (``None``: the one kept in the data directory)."""

    listen: HostPort
    config_path: Path | None
    language: str
    tags: tuple[tuple[str, str], ...]
    speech: SpeechSettings | None
    coach: frozenset[str]
    token: str | None

    @property
    def tag_map(self) -> dict[str, str]:
        return dict(self.tags)


def play_settings(args, environ: Mapping[str, str] | None = None) -> PlaySettings:
    """``args`` (parsed ``play`` arguments) resolved: the arguments, then the board config
    (its top-level ``language``), then the environment (``DRAUGHTSBOARD_ARBITER_TOKEN``).
    Refused in one line, before anything is touched, by the first setting that cannot be
    used."""
    from draughtsboard.board.game.tags import parse_tag_options
    from draughtsboard.play.clock import TimeControl

    env = os.environ if environ is None else environ
    listen = address_option(args.listen, "--listen", any_port=True)
    config_path = default_config_path(args)
    language = play_language(args.language, config_path)
    try:
        tags = parse_tag_options(args.tag)
        if tags.get("TimeControl", "").strip() not in ("", "-", "?"):
            TimeControl.parse(tags["TimeControl"])
    except ValueError as error:
        raise UsageError(str(error)) from None
    return PlaySettings(listen=listen, config_path=config_path, language=language,
                        tags=tuple(tags.items()), speech=speech_settings(args, language),
                        coach=coach_sides(args), token=env.get(ENV_TOKEN) or None)


def default_config_path(args) -> Path | None:
    """``--config``, else the first board config found where one is looked for."""
    from platformdirs import user_config_dir

    if args.config:
        return Path(args.config)
    for candidate in (Path("/etc/draughtsboard/board.toml"),
                      Path(user_config_dir("draughtsboard", appauthor=False)) / "board.toml"):
        if candidate.is_file():
            return candidate
    return None


def coach_sides(args) -> frozenset[str]:
    """The sides the coach follows: ``--coach``, else the person's side against an
    opponent, else both."""
    if args.coach == "both" or (args.coach is None and not args.opponent):
        return frozenset({"white", "black"})
    if args.coach is not None:
        return frozenset({args.coach})
    return frozenset({"black" if args.opponent_side == "white" else "white"})


def irregularity_options(args, config) -> tuple[str | None, bool]:
    """The irregularity policy (``None``: the variant's) and whether the board's LEDs show
    irregularities: the command line first, then the board config."""
    irregular = args.irregular or (config.irregular if config else None)
    if args.irregularity_leds is not None:
        return irregular, args.irregularity_leds == "on"
    return irregular, config.irregularity_leds if config else True


def choose_backend(args, log, say=None) -> str:
    """The backend ``play`` uses: the one asked for, or for ``auto`` gpio where a GPIO chip
    and a board config exist, else the simulator (with a warning; refused on a
    non-loopback address without --allow-remote-hands, see `check_hands_exposure`).
    ``say`` puts the line it logs into words (default: English)."""
    import glob

    from draughtsboard.words import english

    say = say or english

    if args.backend != "auto":
        return args.backend
    chips = glob.glob("/dev/gpiochip*")
    config = default_config_path(args)
    if chips and config is not None and config.is_file():
        log.info("%s", say(Message.of("cli.backend.gpio", chip=chips[0], config=str(config))))
        return "gpio"
    if not chips:
        log.warning("%s", say(Message.of("cli.backend.simulator.no_chip")))
    else:
        looked = str(config) if config is not None else DEFAULT_CONFIG_HINT
        log.warning("%s", say(Message.of("cli.backend.simulator.no_config", config=looked)))
    return "sim"


def play_language(asked: str | None, config_path) -> str:
    """The board's language: ``asked`` (``--language``), else the board config's
    top-level ``language``, else English; one that has no catalog is refused in one line
    (`SettingError`, the config status)."""
    from draughtsboard.words import SOURCE_LANGUAGE

    where = "--language"
    if asked is None:
        asked = _config_language(config_path)
        where = f"{config_path}: language"
    if asked is None:
        return SOURCE_LANGUAGE
    return language_option(asked, where)


def _config_language(path) -> str | None:
    """The top-level ``language = "ru"`` of the board config at ``path`` (``None``
    without a file or the key); a ``language`` under a table is refused, saying where it
    goes, since TOML would read it as that table's."""
    import tomllib

    if path is None or not path.is_file():
        return None
    try:  # utf-8-sig: a BOM some editors write is not the file's first key
        data = tomllib.loads(path.read_bytes().decode("utf-8-sig"))
    except (OSError, tomllib.TOMLDecodeError, ValueError, RecursionError) as error:
        raise SettingError(f"{path}: {error}") from None
    value = data.get("language")
    if value is None:
        for name, table in data.items():
            if isinstance(table, dict) and "language" in table:
                raise SettingError(Message.of("cli.error.config_language_table", path=str(path),
                                              table=name))
        return None
    if not isinstance(value, str):
        raise SettingError(Message.of("cli.error.config_language_code", path=str(path)))
    return value



def check_hands_exposure(backend: str, host: str, allow_remote_hands: bool) -> None:
    """A simulated board's hands move pieces: refused on an address other machines reach,
    unless asked for (a board that falls back to the simulator must not be open to the
    whole network)."""
    if backend in SIMULATED_BACKENDS and not is_loopback(host) and not allow_remote_hands:
        raise SettingError(Message.of("cli.error.open_hands", backend=backend, host=host))
