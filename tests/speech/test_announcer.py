"""The announcer follows a board in play as the hall link does: woken by a publication,
it reads the latest one and says what is new, at its level, by the game's mode."""

from __future__ import annotations

import threading

from draughtsboard.board.game.record import Game
from draughtsboard.board.mode import Mode
from draughtsboard.board.rules.variants import get_variant
from draughtsboard.speech.announcer import Announcer
from draughtsboard.subscribers import Subscribers

WAIT = 10.0


class FakeSession:
    """Publishes as `PlaySession` does: the game id, a read-only game, the view."""

    def __init__(self, mode: Mode = Mode.TRAINING) -> None:
        self.game = Game(get_variant("russian"), mode=mode)
        self.subscribers = Subscribers()
        self.extra: dict = {}
        self._published = ("g1", self.game.read_only_copy(), self.view())

    def view(self) -> dict:
        return {"mode": self.game.mode.value, **self.extra}

    def subscribe(self, wake):
        return self.subscribers.subscribe(wake)

    def published(self):
        return self._published

    def publish(self, **extra) -> None:
        self.extra = extra
        self._published = ("g1", self.game.read_only_copy(), self.view())
        self.subscribers.notify()

    def play(self, text: str, at: float) -> None:
        self.game.play(text, t_monotonic=at)
        self.publish()


class Voice:
    def __init__(self) -> None:
        self.said: list[tuple[str, float | None]] = []
        self.heard = threading.Condition()

    def say(self, text, recorded_at=None, *, answer=False):
        with self.heard:
            self.said.append((text, recorded_at) if not answer else (text, "answer"))
            self.heard.notify_all()
        return True

    def wait_for(self, count: int) -> bool:
        with self.heard:
            return self.heard.wait_for(lambda: len(self.said) >= count, WAIT)


def test_in_training_it_says_it_speaks_then_each_move_with_its_recording_time():
    session, voice = FakeSession(), Voice()
    announcer = Announcer(session, voice, "ru")
    announcer.check()
    session.play("c3-d4", at=5.0)
    announcer.check()
    session.publish(intents={"must_capture": [22]})  # a flag: not at the level "moves"
    announcer.check()
    assert voice.said == [("Доска говорит.", None), ("цэ три — дэ четыре.", 5.0)]


def test_a_tournament_game_is_silent_unless_speech_was_asked_for():
    session, voice = FakeSession(Mode.TOURNAMENT), Voice()
    silent = Announcer(session, voice, "en")
    silent.check()
    session.play("c3-d4", at=1.0)
    silent.check()
    assert voice.said == []
    asked = Announcer(session, voice, "en", level="flags")
    asked.check()
    session.publish(intents={"illegal": [17], "restore": [17, 21]})
    asked.check()
    assert [text for text, _ in voice.said] == [
        "The board speaks.", "Illegal move. Put right squares b4 and a3."]


def test_on_its_own_thread_it_follows_every_publication():
    session, voice = FakeSession(), Voice()
    announcer = Announcer(session, voice, "en", level="all").start()
    try:
        assert voice.wait_for(1)
        session.play("c3-d4", at=1.0)
        assert voice.wait_for(2)
        session.publish(draw_claim={"result": "1/2-1/2"})
        assert voice.wait_for(3)
    finally:
        announcer.stop()
        announcer.stop()
    assert [text for text, _ in voice.said] == [
        "The board speaks.", "c3 to d4.", "A draw can be claimed."]


def test_a_failure_on_one_publication_does_not_stop_the_announcer(caplog):
    session, voice = FakeSession(), Voice()
    real, failed = session.published, threading.Event()

    def failing_once():
        if not failed.is_set():
            failed.set()
            raise RuntimeError("a bad moment")
        return real()

    announcer = Announcer(session, voice, "en").start()
    try:
        assert voice.wait_for(1)
        session.published = failing_once
        session.play("c3-d4", at=1.0)
        assert failed.wait(WAIT)
        session.play("d6-c5", at=2.0)
        assert voice.wait_for(2)
    finally:
        announcer.stop()
    assert voice.said[-1] == ("c3 to d4. d6 to c5.", 2.0)
    assert "the announcer failed" in caplog.text


def test_a_hint_asked_while_the_coach_thinks_is_said_once_when_it_comes():
    session, voice = FakeSession(), Voice()
    announcer = Announcer(session, voice, "ru")
    announcer.check()
    session.publish(coach={"hint": {"stage": 0, "squares": [], "thinking": True}})
    announcer.check()
    announcer.want_hint()  # the player heard "the coach is thinking"
    announcer.check()
    assert voice.said == [("Доска говорит.", None)]
    session.publish(coach={"hint": {"stage": 1, "squares": [22], "thinking": False}})
    announcer.check()
    announcer.check()
    session.publish(coach={"hint": {"stage": 1, "squares": [22], "thinking": False}},
                    draw_claim=None)
    announcer.check()
    assert voice.said == [("Доска говорит.", None),
                          ("Подсказка: ходите шашкой с цэ три.", "answer")]


def test_a_hint_wanted_is_forgotten_when_the_position_moves_on():
    session, voice = FakeSession(), Voice()
    announcer = Announcer(session, voice, "en")
    announcer.check()
    announcer.want_hint()
    session.play("c3-d4", at=1.0)
    announcer.check()
    session.publish(coach={"hint": {"stage": 1, "squares": [9], "thinking": False}})
    announcer.check()
    assert [text for text, _ in voice.said] == ["The board speaks.", "c3 to d4."]


def test_the_announcer_says_answers_as_answers():
    session, voice = FakeSession(), Voice()
    announcer = Announcer(session, voice, "nl")
    assert announcer.language == "nl"
    assert announcer.say("Remise.") is True
    assert voice.said == [("Remise.", "answer")]
