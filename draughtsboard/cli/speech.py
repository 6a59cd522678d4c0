"""``play``'s speech (docs/accessibility.md): the options, checked once into
`SpeechSettings` before play starts, then the speaker and the announcer started."""

from __future__ import annotations

from dataclasses import dataclass

from draughtsboard.board.message import Message

from .errors import UsageError


@dataclass(frozen=True)
class SpeechSettings:
    """What the board says aloud: the level (``None``: by the mode), the language, the
    volume, and the directory WAV files go to instead of the speaker (``None``: play)."""

    level: str | None
    language: str
    volume: int
    directory: str | None


def add_speech_options(parser) -> None:
    from draughtsboard.speech import LEVELS
    from draughtsboard.words import catalog_languages

    parser.add_argument("--speech", choices=LEVELS, default=None,
                        help="say the game aloud through espeak-ng: moves (the moves, the "
                        "opponent's move, the result), flags (and the flags: an illegal "
                        "move, a required capture), all (and the rest: a draw to claim, a "
                        "new game, a takeback); default off in tournament mode, moves in "
                        "the others")
    parser.add_argument("--speech-volume", type=int, default=100, metavar="0-200",
                        help="espeak-ng's amplitude (default 100)")
    parser.add_argument("--speech-to", metavar="DIR",
                        help="write each announcement to a numbered WAV file in DIR instead "
                        "of playing it (implies speech on: moves, unless --speech says)")
    parser.add_argument("--speech-language", choices=catalog_languages(), default=None,
                        help="the language the board speaks (default: the board's "
                        "language, else en)")


def speech_settings(args, board_language: str = "en") -> SpeechSettings | None:
    """The speech asked for, checked (each option whatever the level, before anything
    starts; the directory is made); ``None`` when it is switched off. The board speaks
    its own language unless ``--speech-language`` says otherwise."""
    if not 0 <= args.speech_volume <= 200:
        raise UsageError(Message.of("cli.error.speech_volume", volume=args.speech_volume))
    if args.speech_to:
        _check_speech_dir(args.speech_to)
    level = args.speech
    if args.speech_to and level is None:
        level = "moves"
    if level == "off":
        return None
    language = args.speech_language or board_language
    return SpeechSettings(level, language, args.speech_volume, args.speech_to)


def _check_speech_dir(path: str) -> None:
    """``--speech-to``'s directory, made if need be; one line if it cannot be."""
    import pathlib

    directory = pathlib.Path(path)
    if directory.exists() and not directory.is_dir():
        raise UsageError(Message.of("cli.error.speech_to_file", path=path))
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UsageError(Message.of("cli.error.speech_to", path=path,
                                    reason=error.strerror or str(error))) from None


def espeak_voice(language: str, log, program: str = "espeak-ng") -> str:
    """espeak-ng's voice for ``language``: its own, else English (the pseudo-language
    ``qps`` has none), said in one log line. Asks the engine which voices it has; an
    engine that cannot tell (not installed) keeps the language's own."""
    import subprocess

    from draughtsboard.speech.sink import voice_for
    from draughtsboard.words import words_for

    try:
        listed = subprocess.run([program, "--voices"], capture_output=True, text=True,
                                timeout=10, check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return language
    voice = voice_for(language, listed)
    if voice != language:
        log.warning("%s", words_for(language)(Message.of(
            "speech.voice_fallback", language=language, voice=voice)))
    return voice


def start_speech(settings: SpeechSettings | None, session, log):
    """Start the speaker and the announcer following ``session``; returns the board's
    voice for answers (the announcer; ``None`` without speech) and what stops them."""
    if settings is None:
        return None, lambda: None
    from draughtsboard.speech import Announcer, Speaker

    speaker = Speaker(settings.language, volume=settings.volume, to_dir=settings.directory,
                      voice=espeak_voice(settings.language, log),
                      clock=session.game.clock).start()
    announcer = Announcer(session, speaker, settings.language, settings.level).start()

    def stop() -> None:
        announcer.stop()
        speaker.close()

    return announcer, stop
