"""The speaker: one worker thread that hands each announcement to Debian's ``espeak-ng``.

A move never waits for speech. `Speaker.say` only leaves the text in a one-place slot
and returns; the worker takes it when it is free. When speech lags (a long capture still
being said while the next move is made), the newest announcement wins: one that was
waiting and not yet said is dropped, and counted, since what a listener needs is the
board as it is now.

The engine runs as a child process with a time limit: a hung engine is killed and the
worker goes on to the next announcement. A missing ``espeak-ng``, or one that cannot
speak (no audio device: it says ``error:`` and still exits 0), is said once in the log,
in the board's language, and the board plays on; the speaker keeps trying, so a speaker
plugged in later is heard.

With a directory (``play --speech-to DIR``) each announcement is written to a numbered
WAV file (``espeak-ng -w``) instead of played, and ``announcements.jsonl`` there lists
each one: its text and its delay. For tests, and for anyone without speakers.

The process runner and the clock are injected: the tests run a fake engine (one that
never ends) and a runner they hold back, without sleeping.
"""

from __future__ import annotations

import json
import logging
import pathlib
import subprocess
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from draughtsboard.words import words_for

PROGRAM = "espeak-ng"
TIMEOUT = 30.0  # seconds one announcement may take before its engine is killed
KEPT = 1000  # the announcements remembered (`Speaker.spoken`)
INDEX = "announcements.jsonl"

log = logging.getLogger("draughtsboard.speech")

# argv, the text for its standard input, the time limit -> (exit status, standard error);
# raises FileNotFoundError (no such program) or subprocess.TimeoutExpired (killed).
Runner = Callable[[Sequence[str], str, float], tuple[int, str]]


def run_engine(argv: Sequence[str], text: str, timeout: float) -> tuple[int, str]:
    """Run the engine, the text on its standard input; kill it past ``timeout``."""
    process = subprocess.Popen(list(argv), stdin=subprocess.PIPE,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        _, errors = process.communicate(text.encode("utf-8"), timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        raise
    return process.returncode, errors.decode("utf-8", "replace")


@dataclass(frozen=True)
class Spoken:
    """One announcement said (or tried): its number, its text, when the engine started
    (the speaker's clock), the delay from the move's recording to then (``None`` for
    what no move caused), whether the engine spoke, and the WAV file written."""

    number: int
    text: str
    started: float
    delay: float | None
    ok: bool
    file: str | None = None


class Speaker:
    """Says texts in ``language`` (a catalog's code, also espeak-ng's voice) at
    ``volume`` (espeak-ng's amplitude, 0-200; 100 is its default); with ``to_dir``,
    into numbered WAV files there (see the module doc). ``program`` is the engine's
    command, ``runner`` how it is run, ``clock`` the board's monotonic clock (the one
    moves are recorded by), ``timeout`` the most one announcement may take."""

    def __init__(self, language: str, *, volume: int = 100,
                 to_dir: pathlib.Path | str | None = None, program: str = PROGRAM,
                 runner: Runner = run_engine, clock: Callable[[], float] = time.monotonic,
                 timeout: float = TIMEOUT) -> None:
        if not 0 <= volume <= 200:
            raise ValueError(f"the speech volume is 0 to 200, not {volume}")
        self.language = language
        self.volume = volume
        self.to_dir = pathlib.Path(to_dir) if to_dir is not None else None
        self.program = program
        self.runner = runner
        self.clock = clock
        self.timeout = timeout
        self.words = words_for(language)
        self.spoken: deque[Spoken] = deque(maxlen=KEPT)
        self.dropped = 0
        self._number = 0
        self._pending: tuple[str, float | None] | None = None
        self._busy = False
        self._closing = False
        self._complained: set[str] = set()
        self._changed = threading.Condition()
        self._thread: threading.Thread | None = None

    # -- any thread ------------------------------------------------------------------------

    def start(self) -> Speaker:
        if self.to_dir is not None:
            self.to_dir.mkdir(parents=True, exist_ok=True)
        self._thread = threading.Thread(target=self._run, daemon=True, name="speaker")
        self._thread.start()
        return self

    def say(self, text: str, recorded_at: float | None = None) -> None:
        """Say ``text`` as soon as the engine is free; never waits. A text still waiting
        is dropped for this one (the newest wins)."""
        with self._changed:
            if self._closing:
                return
            if self._pending is not None:
                self.dropped += 1
            self._pending = (text, recorded_at)
            self._changed.notify_all()

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until nothing is waiting or being said; False if ``timeout`` passed."""
        with self._changed:
            return self._changed.wait_for(
                lambda: self._pending is None and not self._busy, timeout)

    def close(self, timeout: float = 5.0) -> None:
        """Stop after the announcement being said (one waiting is dropped). Safe twice."""
        with self._changed:
            self._closing = True
            self._pending = None
            self._changed.notify_all()
        if self._thread is not None:
            self._thread.join(timeout)

    def delays(self) -> list[float]:
        """The delays from a move's recording to its speech starting, in order."""
        return [s.delay for s in list(self.spoken) if s.delay is not None]

    # -- the worker ----------------------------------------------------------------------------

    def _run(self) -> None:
        while True:
            with self._changed:
                self._changed.wait_for(lambda: self._pending is not None or self._closing)
                if self._closing:
                    self._changed.notify_all()
                    return
                pending, self._pending = self._pending, None
                if pending is None:
                    continue
                text, recorded_at = pending
                self._busy = True
            try:
                self._speak(text, recorded_at)
            except Exception:  # noqa: BLE001 - the speaker must outlive any one failure
                log.exception("speech failed (the board plays on)")
            finally:
                with self._changed:
                    self._busy = False
                    self._changed.notify_all()

    def _speak(self, text: str, recorded_at: float | None) -> None:
        self._number += 1
        argv = [self.program, "-v", self.language, "-a", str(self.volume), "--stdin"]
        file = None
        if self.to_dir is not None:
            file = f"{self._number:04d}.wav"
            argv += ["-w", str(self.to_dir / file)]
        started = self.clock()
        ok = False
        try:
            status, errors = self.runner(argv, text, self.timeout)
        except FileNotFoundError:
            self._complain("missing", "speech.engine_missing", program=self.program)
        except subprocess.TimeoutExpired:
            self._complain("failed", "speech.engine_failed", program=self.program,
                           reason=f"no answer in {self.timeout:g} s: stopped")
        else:
            failure = _failure(status, errors)
            if failure:
                self._complain("failed", "speech.engine_failed", program=self.program,
                               reason=failure)
            else:
                ok = True
        spoken = Spoken(self._number, text, started,
                        None if recorded_at is None else started - recorded_at, ok, file)
        self.spoken.append(spoken)
        if self.to_dir is not None:
            with open(self.to_dir / INDEX, "a", encoding="utf-8") as index:
                index.write(json.dumps({
                    "number": spoken.number, "file": file, "text": text,
                    "language": self.language, "delay": spoken.delay, "ok": ok},
                    ensure_ascii=False) + "\n")

    def _complain(self, cause: str, message_id: str, **params: str) -> None:
        if cause in self._complained:
            return
        self._complained.add(cause)
        log.warning("%s", self.words.text(message_id, **params))


def _failure(status: int, errors: str) -> str:
    """What went wrong by the engine's exit status and standard error ("" if nothing):
    espeak-ng without an audio device says ``error: ...`` and still exits 0."""
    said = [line.strip() for line in errors.splitlines()
            if line.strip().lower().startswith("error")]
    if status != 0:
        return said[-1] if said else f"exit status {status}"
    return said[-1] if said else ""
