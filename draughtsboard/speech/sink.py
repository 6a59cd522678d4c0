"""The speaker: one worker thread that hands each announcement to Debian's ``espeak-ng``.

A move never waits for speech. `Speaker.say` only leaves the text in one of two
one-place slots and returns; the worker takes it when it is free. The board's news (a
move, a flag, the result) has one slot, a player's answer (`Speaker.say` with
``answer=True``) the other: when speech lags (a long capture still being said while the
next move is made), the newest of each kind wins (one that was waiting and not yet said
is dropped, and counted), since what a listener needs is the board as it is now; and
news waiting is said before an answer waiting, so that no number of questions can push
a move out.

The engine runs as a child process in a session (process group) of its own, with a time
limit: a hung engine is killed with everything it started (a shell script's children
too), the worker never waits on its pipes after that, and goes on to the next
announcement. A missing ``espeak-ng``, or one that cannot speak (no audio device: it
says ``error:`` and still exits 0; a WAV it could not write: ``Can't write to:`` on its
standard output, exit 0; a missing or short WAV file), is said once in the log, in the
board's language, until it works again; the board plays on and the speaker keeps
trying, so a speaker plugged in later is heard. Closing the speaker stops an engine
still speaking after a short grace, so a board that stops leaves no engine behind.

With a directory (``play --speech-to DIR``) each announcement is written to a numbered
WAV file (``espeak-ng -w``) instead of played, and ``announcements.jsonl`` there lists
each one: its text and its delay. For tests, and for anyone without speakers. The
engine is given the text with the words it would stress wrongly in its phoneme input
(`pronounce`); the list keeps the words. A list
that cannot be written (a full or read-only disk) is said once in the log too.

The process runner and the clock are injected: the tests run a fake engine (one that
never ends) and a runner they hold back, without sleeping.
"""

from __future__ import annotations

import json
import logging
import os
import pathlib
import shutil
import signal
import subprocess
import threading
import time
import wave
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from draughtsboard.words import words_for

from .pronounce import for_engine

PROGRAM = "espeak-ng"
TIMEOUT = 30.0  # seconds one announcement may take before its engine is killed
KEPT = 1000  # the announcements remembered (`Speaker.spoken`)
INDEX = "announcements.jsonl"
GRACE = 2.0  # seconds `Speaker.close` lets the announcement being said finish
WAV_HEADER = 44  # bytes of a WAV file's header before its samples

log = logging.getLogger("draughtsboard.speech")

# argv, the text for its standard input, the time limit -> (exit status, what the engine
# wrote on its standard output and error); raises FileNotFoundError (no such program) or
# subprocess.TimeoutExpired (killed).
Runner = Callable[[Sequence[str], str, float], tuple[int, str]]


class EngineRunner:
    """Runs the engine (a `Runner`): in a process group of its own, so that a hung one
    is killed with every process it started, and `stop` (from another thread) kills the
    one running now."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._process: subprocess.Popen[bytes] | None = None
        self._stopped = False

    def __call__(self, argv: Sequence[str], text: str, timeout: float) -> tuple[int, str]:
        with self._lock:
            if self._stopped:
                return -signal.SIGKILL, "stopped"
            process = subprocess.Popen(list(argv), stdin=subprocess.PIPE,
                                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                       start_new_session=True)
            self._process = process
        try:
            output, _ = process.communicate(text.encode("utf-8"), timeout=timeout)
        except subprocess.TimeoutExpired:
            _kill(process)
            raise
        finally:
            with self._lock:
                self._process = None
        return process.returncode, output.decode("utf-8", "replace")

    def stop(self) -> None:
        """Kill the engine running now, and start none after. Safe twice."""
        with self._lock:
            self._stopped = True
            process = self._process
        if process is not None:
            _kill_group(process)


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass  # gone already


def _kill(process: subprocess.Popen[bytes]) -> None:
    """Kill the engine's whole group, close its pipes (a child it left would hold them
    open: no read after this) and reap it."""
    _kill_group(process)
    for pipe in (process.stdin, process.stdout, process.stderr):
        if pipe is not None:
            try:
                pipe.close()
            except OSError:
                pass
    process.wait()


def run_engine(argv: Sequence[str], text: str, timeout: float) -> tuple[int, str]:
    """Run the engine once, the text on its standard input; kill it past ``timeout``."""
    return EngineRunner()(argv, text, timeout)


FALLBACK_VOICE = "en"


def voice_for(language: str, listed: str) -> str:
    """espeak-ng's voice for a catalog's ``language``, from what ``espeak-ng --voices``
    lists (``listed``): the language itself when a voice speaks it, else English."""
    codes = set()
    for line in listed.splitlines()[1:]:
        fields = line.split()
        if len(fields) >= 2:
            codes.add(fields[1].lower())
    if any(code == language or code.startswith(language + "-") for code in codes):
        return language
    return FALLBACK_VOICE


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
    """Says texts in ``language`` (a catalog's code) with espeak-ng's ``voice`` (its
    voice's name; the language by default) at ``volume`` (espeak-ng's amplitude,
    0-200; 100 is its default); with ``to_dir``, into numbered WAV files there (see the
    module doc). ``program`` is the engine's command, ``runner`` how it is run (an
    `EngineRunner` by default), ``clock`` the board's monotonic clock (the one moves are
    recorded by), ``timeout`` the most one announcement may take."""

    def __init__(self, language: str, *, volume: int = 100,
                 to_dir: pathlib.Path | str | None = None, program: str = PROGRAM,
                 runner: Runner | None = None, clock: Callable[[], float] = time.monotonic,
                 timeout: float = TIMEOUT, voice: str | None = None) -> None:
        if not 0 <= volume <= 200:
            raise ValueError(f"the speech volume is 0 to 200, not {volume}")
        self.language = language
        self.voice = voice or language
        self.volume = volume
        self.to_dir = pathlib.Path(to_dir) if to_dir is not None else None
        self.program = program
        self.runner: Runner = runner if runner is not None else EngineRunner()
        self.clock = clock
        self.timeout = timeout
        self.words = words_for(language).spoken()  # what it says: numbers in words
        self.spoken: deque[Spoken] = deque(maxlen=KEPT)
        self.dropped = 0
        self.working = runner is not None or shutil.which(program) is not None
        self._number = 0
        self._news: tuple[str, float | None] | None = None
        self._answer: tuple[str, float | None] | None = None
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

    def say(self, text: str, recorded_at: float | None = None, *,
            answer: bool = False) -> bool:
        """Say ``text`` as soon as the engine is free; never waits. A text of the same
        kind (news, or a player's ``answer``) still waiting is dropped for this one (the
        newest wins); news waiting is said first. Returns whether it is to be said by
        an engine that works, as far as the speaker knows (False when closed, or when
        the engine is missing or failed last time)."""
        with self._changed:
            if self._closing:
                return False
            if answer:
                if self._answer is not None:
                    self.dropped += 1
                self._answer = (text, recorded_at)
            else:
                if self._news is not None:
                    self.dropped += 1
                self._news = (text, recorded_at)
            self._changed.notify_all()
            return self.working

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until nothing is waiting or being said; False if ``timeout`` passed."""
        with self._changed:
            return self._changed.wait_for(
                lambda: self._news is None and self._answer is None and not self._busy,
                timeout)

    def close(self, timeout: float = GRACE) -> None:
        """Stop: what waits is dropped; the announcement being said may finish within
        ``timeout`` seconds, then its engine is killed. Safe twice."""
        with self._changed:
            self._closing = True
            self._news = self._answer = None
            self._changed.notify_all()
        if self._thread is not None:
            self._thread.join(timeout)
            if self._thread.is_alive():
                stop = getattr(self.runner, "stop", None)
                if stop is not None:
                    stop()
                self._thread.join(GRACE)

    def delays(self) -> list[float]:
        """The delays from a move's recording to its speech starting, in order."""
        return [s.delay for s in list(self.spoken) if s.delay is not None]

    # -- the worker ----------------------------------------------------------------------------

    def _run(self) -> None:
        pending: tuple[str, float | None] | None
        while True:
            with self._changed:
                self._changed.wait_for(lambda: self._news is not None
                                       or self._answer is not None or self._closing)
                if self._closing:
                    self._changed.notify_all()
                    return
                if self._news is not None:
                    pending, self._news = self._news, None
                else:
                    pending, self._answer = self._answer, None
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
        argv = [self.program, "-v", self.voice, "-a", str(self.volume), "--stdin"]
        file = None
        wav = None  # the file spoken into, when speech is kept in a directory
        if self.to_dir is not None:
            file = f"{self._number:04d}.wav"
            wav = self.to_dir / file
            argv += ["-w", str(wav)]
        started = self.clock()
        ok = False
        try:
            status, output = self.runner(argv, for_engine(text, self.language),
                                         self.timeout)
        except FileNotFoundError:
            self._complain("missing", "speech.engine_missing", program=self.program)
        except subprocess.TimeoutExpired:
            self._complain("failed", "speech.engine_failed", program=self.program,
                           reason=f"no answer in {self.timeout:g} s: stopped")
        else:
            failure = _failure(status, output)
            if not failure and wav is not None:
                failure = _wav_problem(wav)
            if failure:
                if not self._closing:
                    self._complain("failed", "speech.engine_failed",
                                   program=self.program, reason=failure)
            else:
                ok = True
                self._complained -= {"missing", "failed"}  # said again if it fails again
        self.working = ok
        spoken = Spoken(self._number, text, started,
                        None if recorded_at is None else started - recorded_at, ok, file)
        self.spoken.append(spoken)
        if self.to_dir is not None:
            self._list(spoken)

    def _list(self, spoken: Spoken) -> None:
        """Add ``spoken`` to the directory's list; a disk that refuses is said once in
        the log until the list can be written again."""
        line = json.dumps({
            "number": spoken.number, "file": spoken.file, "text": spoken.text,
            "language": self.language, "delay": spoken.delay, "ok": spoken.ok},
            ensure_ascii=False) + "\n"
        assert self.to_dir is not None  # called only when speech is kept in a directory
        path = self.to_dir / INDEX
        try:
            with open(path, "a", encoding="utf-8") as index:
                index.write(line)
        except OSError as error:
            self._complain("index", "speech.index_failed", path=str(path),
                           reason=error.strerror or str(error))
        else:
            self._complained.discard("index")

    def _complain(self, cause: str, message_id: str, **params: str) -> None:
        if cause in self._complained:
            return
        self._complained.add(cause)
        log.warning("%s", self.words.text(message_id, **params))


def _failure(status: int, output: str) -> str:
    """What went wrong by the engine's exit status and what it wrote ("" if nothing):
    espeak-ng without an audio device says ``error: ...`` and still exits 0, and one
    that cannot write its WAV says ``Can't write to: ...`` (on its standard output) and
    exits 0 too."""
    lines = [line.strip() for line in output.splitlines()]
    said = [line for line in lines if line.lower().startswith("error")
            or "can't write to" in line.lower()]
    if status != 0:
        return said[-1] if said else f"exit status {status}"
    return said[-1] if said else ""


def _wav_problem(path: pathlib.Path) -> str:
    """What is wrong with a WAV file the engine said it wrote ("" if nothing): none
    there, no samples, or fewer bytes than its header counts (a full disk)."""
    try:
        size = path.stat().st_size
        with wave.open(str(path), "rb") as sound:
            expected = sound.getnframes() * sound.getsampwidth() * sound.getnchannels()
    except FileNotFoundError:
        return f"{path.name}: not written"
    except (OSError, EOFError, wave.Error):
        return f"{path.name}: not a WAV file"
    if expected == 0:
        return f"{path.name}: no sound in it"
    if size < WAV_HEADER + expected:
        return f"{path.name}: {size} bytes, short of {WAV_HEADER + expected}"
    return ""
