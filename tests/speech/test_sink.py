"""The speaker: a move never waits for speech, the newest announcement wins when speech
lags, a hung engine is killed and the speaker goes on, a missing or failing engine is
said once in the log. Synchronised by events and the speaker's own `wait_idle`, never
by sleeping; the clock is injected."""

from __future__ import annotations

import errno
import json
import logging
import os
import pathlib
import stat
import subprocess
import threading
import time
import wave

import pytest

from draughtsboard.speech.sink import INDEX, Speaker, run_engine

WAIT = 10.0  # seconds: only a broken speaker waits this long


def write_wav(path, frames=2205, written=None):
    """A WAV of ``frames`` silent samples; ``written``: cut to that many bytes."""
    with wave.open(str(path), "wb") as sound:
        sound.setnchannels(1)
        sound.setsampwidth(2)
        sound.setframerate(22050)
        sound.writeframes(b"\0\0" * frames)
    if written is not None:
        data = path.read_bytes()[:written]
        path.write_bytes(data)


class HeldRunner:
    """An engine the test holds: each call waits until the test lets it finish. With
    ``-w FILE`` it writes a WAV there, as espeak-ng does (``wav``: how, or None)."""

    def __init__(self, answer=(0, ""), wav=write_wav):
        self.calls: list[tuple[list[str], str]] = []
        self.entered = threading.Event()
        self.release = threading.Event()
        self.answer = answer
        self.wav = wav

    def __call__(self, argv, text, timeout):
        self.calls.append((list(argv), text))
        self.entered.set()
        assert self.release.wait(WAIT)
        if "-w" in argv and self.wav is not None:
            self.wav(pathlib.Path(argv[argv.index("-w") + 1]))
        return self.answer


def started(speaker: Speaker) -> Speaker:
    speaker.start()
    return speaker


def test_when_speech_lags_the_newest_announcement_wins_and_say_never_waits():
    runner = HeldRunner()
    speaker = started(Speaker("ru", runner=runner, clock=lambda: 100.0))
    try:
        speaker.say("цэ 3 — дэ 4.", recorded_at=99.9)
        assert runner.entered.wait(WAIT)  # the engine is busy with the first
        speaker.say("дэ 6 — цэ 5.")  # waits ...
        speaker.say("е 3 — эф 4.", recorded_at=99.95)  # ... and is dropped for this one
        runner.release.set()
        assert speaker.wait_idle(WAIT)
    finally:
        speaker.close()
    assert [text for _, text in runner.calls] == ["цэ 3 — дэ 4.", "е 3 — эф 4."]
    assert speaker.dropped == 1
    assert speaker.delays() == pytest.approx([0.1, 0.05])
    argv = runner.calls[0][0]
    assert argv[:5] == ["espeak-ng", "-v", "ru", "-a", "100"] and "-w" not in argv


@pytest.fixture
def hung_engine(tmp_path):
    """A fake espeak-ng that never ends (it writes its pid first)."""
    script = tmp_path / "espeak-ng"
    pid_file = tmp_path / "pid"
    script.write_text(f"#!/bin/sh\necho $$ > {pid_file}\nexec sleep 1000\n")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script, pid_file


def test_a_hung_engine_is_killed_and_the_speaker_goes_on(hung_engine, caplog):
    script, pid_file = hung_engine
    speaker = started(Speaker("en", program=str(script), timeout=0.5))
    try:
        with caplog.at_level(logging.WARNING, logger="draughtsboard.speech"):
            speaker.say("c3 to d4.")
            assert speaker.wait_idle(WAIT)
            speaker.say("d6 to c5.")
            assert speaker.wait_idle(WAIT)
    finally:
        speaker.close()
    assert [(s.text, s.ok) for s in speaker.spoken] == [("c3 to d4.", False),
                                                       ("d6 to c5.", False)]
    pid = int(pid_file.read_text())
    with pytest.raises(ProcessLookupError):  # killed and reaped
        os.kill(pid, 0)
    (line,) = [r.getMessage() for r in caplog.records]  # once, though it failed twice
    assert line == f"{script} could not speak (no answer in 0.5 s: stopped); the board plays on"


def test_an_injected_time_out_is_the_same_as_a_hung_engine(caplog):
    def timing_out(argv, text, timeout):
        raise subprocess.TimeoutExpired(argv, timeout)

    speaker = started(Speaker("fr", runner=timing_out, timeout=3))
    with caplog.at_level(logging.WARNING, logger="draughtsboard.speech"):
        for text in ("c3 va en d4.", "d6 va en c5."):
            speaker.say(text)
            assert speaker.wait_idle(WAIT)
    speaker.close()
    assert [r.getMessage() for r in caplog.records] == [
        "espeak-ng ne peut pas parler (no answer in 3 s: stopped) ; le damier continue"]


def test_a_missing_engine_is_said_once_in_the_boards_language(tmp_path, caplog):
    speaker = started(Speaker("ru", program=str(tmp_path / "no-espeak-ng")))
    with caplog.at_level(logging.WARNING, logger="draughtsboard.speech"):
        for text in ("цэ 3 — дэ 4.", "дэ 6 — цэ 5.", "Ничья."):
            speaker.say(text)
            assert speaker.wait_idle(WAIT)
    speaker.close()
    assert len(speaker.spoken) == 3 and not any(s.ok for s in speaker.spoken)
    (line,) = [r.getMessage() for r in caplog.records]
    assert line.startswith("Озвучивание выключено:") and "no-espeak-ng" in line


def test_no_audio_device_is_a_failure_though_espeak_exits_0(caplog):
    runner = HeldRunner(answer=(0, "ALSA lib pcm.c: Unknown PCM default\n"
                                   "error: No such file or directory\n"))
    runner.release.set()
    speaker = started(Speaker("en", runner=runner))
    with caplog.at_level(logging.WARNING, logger="draughtsboard.speech"):
        speaker.say("c3 to d4.")
        assert speaker.wait_idle(WAIT)
        speaker.say("d6 to c5.")
        assert speaker.wait_idle(WAIT)
    speaker.close()
    assert [s.ok for s in speaker.spoken] == [False, False]
    assert [r.getMessage() for r in caplog.records] == [
        "espeak-ng could not speak (error: No such file or directory); the board plays on"]


def test_to_a_directory_each_announcement_is_a_numbered_wav_listed_with_its_delay(tmp_path):
    runner = HeldRunner()
    runner.release.set()
    times = iter([10.0, 20.0])
    speaker = started(Speaker("nl", volume=150, to_dir=tmp_path / "wav", runner=runner,
                              clock=lambda: next(times)))
    speaker.say("c3 naar d4.", recorded_at=9.75)
    assert speaker.wait_idle(WAIT)
    speaker.say("Remise.")
    assert speaker.wait_idle(WAIT)
    speaker.close()
    assert [argv[argv.index("-w") + 1] for argv, _ in runner.calls] == [
        str(tmp_path / "wav" / "0001.wav"), str(tmp_path / "wav" / "0002.wav")]
    assert runner.calls[0][0][:5] == ["espeak-ng", "-v", "nl", "-a", "150"]
    index = [json.loads(line) for line in (tmp_path / "wav" / INDEX).read_text().splitlines()]
    assert index == [
        {"number": 1, "file": "0001.wav", "text": "c3 naar d4.", "language": "nl",
         "delay": 0.25, "ok": True},
        {"number": 2, "file": "0002.wav", "text": "Remise.", "language": "nl",
         "delay": None, "ok": True}]


def test_a_volume_out_of_range_is_refused():
    with pytest.raises(ValueError, match="0 to 200"):
        Speaker("en", volume=201)


def test_closing_drops_what_waits_and_is_safe_twice():
    runner = HeldRunner()
    speaker = started(Speaker("en", runner=runner))
    speaker.say("one.")
    assert runner.entered.wait(WAIT)
    speaker.say("two.")
    speaker.close(timeout=0)  # "two." is dropped while "one." is still being said
    runner.release.set()
    speaker.close()
    speaker.say("three.")
    assert [text for _, text in runner.calls] == ["one."]


def test_run_engine_gives_the_status_and_what_the_engine_said(tmp_path):
    script = tmp_path / "engine"
    script.write_text("#!/bin/sh\ncat >/dev/null\necho 'error: no voice' >&2\nexit 3\n")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    assert run_engine([str(script)], "hello", 10.0) == (3, "error: no voice\n")


@pytest.fixture
def forking_engine(tmp_path):
    """A fake espeak-ng that hangs in a child it started (a shell that does not exec):
    killing the shell alone would leave the child holding the output pipe open."""
    script = tmp_path / "espeak-ng"
    pid_file = tmp_path / "pid"
    script.write_text(f"#!/bin/bash\nsleep 100000 &\necho $! > {pid_file}\nwait\n")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script, pid_file


def gone(pid: int) -> bool:
    """Whether ``pid`` is no process, or one that has ended (a zombie, for init to
    reap: it was not our child)."""
    try:
        state = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return True
    return state in ("Z", "X")


def test_a_hung_engine_is_killed_with_its_children_and_speech_goes_on(forking_engine,
                                                                     caplog):
    script, pid_file = forking_engine
    speaker = started(Speaker("en", program=str(script), timeout=0.5))
    try:
        with caplog.at_level(logging.WARNING, logger="draughtsboard.speech"):
            speaker.say("c3 to d4.")
            assert speaker.wait_idle(WAIT)  # before the fix: blocked on the pipe forever
            child = int(pid_file.read_text())
            speaker.say("d6 to c5.")
            assert speaker.wait_idle(WAIT)
    finally:
        speaker.close()
    assert [s.text for s in speaker.spoken] == ["c3 to d4.", "d6 to c5."]
    assert gone(child)
    assert [r.getMessage() for r in caplog.records] == [
        f"{script} could not speak (no answer in 0.5 s: stopped); the board plays on"]


def test_closing_stops_an_engine_still_speaking_and_its_children(forking_engine):
    script, pid_file = forking_engine
    speaker = started(Speaker("en", program=str(script), timeout=WAIT * 10))
    speaker.say("c3 to d4.")
    deadline = time.monotonic() + WAIT
    while not pid_file.exists() or not pid_file.read_text().strip():
        assert time.monotonic() < deadline  # polls for the engine's pid, no sleep
    child = int(pid_file.read_text())
    begun = time.monotonic()
    speaker.close(timeout=0)
    assert speaker.wait_idle(0)  # the worker is no longer saying it
    assert time.monotonic() - begun < WAIT
    assert gone(child)


def test_cannot_write_to_is_a_failure_though_espeak_exits_0(tmp_path, caplog):
    """espeak-ng says it on its standard output, writes no WAV, and exits 0."""
    runner = HeldRunner(answer=(0, f"Can't write to: '{tmp_path}/wav/0001.wav'"), wav=None)
    runner.release.set()
    speaker = started(Speaker("en", runner=runner, to_dir=tmp_path / "wav"))
    with caplog.at_level(logging.WARNING, logger="draughtsboard.speech"):
        speaker.say("c3 to d4.")
        assert speaker.wait_idle(WAIT)
    speaker.close()
    assert [s.ok for s in speaker.spoken] == [False]
    (line,) = [r.getMessage() for r in caplog.records]
    assert "Can't write to" in line


@pytest.mark.parametrize("wav", [None, lambda path: path.write_bytes(b""),
                                 lambda path: write_wav(path, written=1000),
                                 lambda path: write_wav(path, frames=0)],
                         ids=["none", "empty", "truncated", "silent"])
def test_a_missing_or_short_wav_is_a_failure_said_once_until_it_works_again(
        tmp_path, caplog, wav):
    runner = HeldRunner(wav=wav)
    runner.release.set()
    speaker = started(Speaker("en", runner=runner, to_dir=tmp_path / "wav"))
    with caplog.at_level(logging.WARNING, logger="draughtsboard.speech"):
        for text in ("c3 to d4.", "d6 to c5."):
            speaker.say(text)
            assert speaker.wait_idle(WAIT)
        runner.wav = write_wav  # the disk has room again
        speaker.say("Draw.")
        assert speaker.wait_idle(WAIT)
        runner.wav = wav  # and is full again: said again
        speaker.say("White wins.")
        assert speaker.wait_idle(WAIT)
    speaker.close()
    index = [json.loads(line) for line in (tmp_path / "wav" / INDEX).read_text().splitlines()]
    assert [entry["ok"] for entry in index] == [False, False, True, False]
    lines = [r.getMessage() for r in caplog.records]  # once, and again after it worked
    assert len(lines) == 2 and "0001.wav" in lines[0] and "0004.wav" in lines[1]


def test_an_index_that_cannot_be_written_is_one_line_not_a_traceback(tmp_path, caplog,
                                                                    monkeypatch):
    runner = HeldRunner()
    runner.release.set()
    speaker = started(Speaker("ru", runner=runner, to_dir=tmp_path / "wav"))
    real_open = open

    def full_disk(file, *args, **kwargs):
        if str(file).endswith(INDEX):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr("builtins.open", full_disk)
    with caplog.at_level(logging.WARNING, logger="draughtsboard.speech"):
        for text in ("цэ 3 — дэ 4.", "дэ 6 — цэ 5.", "Ничья."):
            speaker.say(text)
            assert speaker.wait_idle(WAIT)
    speaker.close()
    assert [s.ok for s in speaker.spoken] == [True, True, True]
    (record,) = caplog.records
    assert record.exc_info is None
    assert record.getMessage().startswith(f"Не удаётся записать {tmp_path / 'wav' / INDEX}")


def test_news_waiting_is_never_dropped_for_an_answer():
    runner = HeldRunner()
    speaker = started(Speaker("en", runner=runner))
    try:
        assert speaker.say("Ready.")
        assert runner.entered.wait(WAIT)
        speaker.say("c3 to d4.", recorded_at=1.0)  # a move waits ...
        for _ in range(5):  # ... and a player asks again and again
            speaker.say("Last move of White: c3 to d4.", answer=True)
        speaker.say("Position: ...", answer=True)
        runner.release.set()
        assert speaker.wait_idle(WAIT)
    finally:
        speaker.close()
    assert [text for _, text in runner.calls] == ["Ready.", "c3 to d4.", "Position: ..."]
    assert speaker.dropped == 5


def test_say_tells_whether_an_engine_works(tmp_path):
    missing = started(Speaker("en", program=str(tmp_path / "no-espeak-ng")))
    assert missing.say("c3 to d4.") is False
    assert missing.wait_idle(WAIT)
    missing.close()
    assert missing.say("after closing") is False
