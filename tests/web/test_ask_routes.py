"""A player's questions over HTTP (``/api/ask/...``): each answer as a message and in the
reader's words, said aloud on a POST when the board speaks, a hint refused in tournament
mode, hostile input answered in one line."""

from __future__ import annotations

import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from draughtsboard.board.game.record import Game
from draughtsboard.board.rules.fen import parse_fen
from draughtsboard.board.rules.variants import get_variant
from draughtsboard.web.app import create_app
from draughtsboard.web.ask_routes import AnswerPace

from .helpers import wait_until
from .test_coach_routes import coach_view, open_session

RUSSIAN = get_variant("russian")
START = parse_fen(RUSSIAN, "W:WKc3,e5,a1,c1,g7:Bd6,h8")
CLOCKS = {"control": "300", "white": 246.0, "black": 61.0, "status": "running",
          "running": "black", "since": 1000.0, "held": False, "flagged": []}


class Published:
    """What the routes need of a session: its publication and its wall clock."""

    def __init__(self, mode="training", hint=None, wall=1000.0):
        self.game = Game(RUSSIAN, start=START)
        (move,) = START.legal_moves()
        self.game.play(move, t_monotonic=1.0)
        self.view = {"mode": mode, "clocks": CLOCKS, "coach": {"hint": hint}}
        self.now = wall
        self.calls = 0

    def published(self):
        return "game-1", self.game.read_only_copy(), self.view

    def wall(self):
        return self.now

    def call(self, action, timeout=5.0):
        self.calls += 1
        return action()


class Coach:
    def __init__(self, position):
        self.asked = 0
        self._position = position

    def request_hint(self):
        self.asked += 1
        return {"stage": 1, "squares": [15], "text": None, "thinking": False}

    def position(self):
        return self._position


class Voice:
    language = "ru"

    def __init__(self, works=True):
        self.said = []
        self.works = works
        self.hints_wanted = 0

    def say(self, text, recorded_at=None, *, answer=False):
        assert answer  # a player's answer, never the board's news
        self.said.append(text)
        return self.works

    def want_hint(self):
        self.hints_wanted += 1


class Clock:
    def __init__(self, now=0.0):
        self.now = now

    def __call__(self):
        return self.now


def client_for(session, coach=None, voice=None, language="en", clock=None):
    app = create_app(session, coach=coach, language=language)
    app.state.voice = voice
    app.state.ask_pace = AnswerPace(clock=clock or Clock())
    if clock is None:
        app.state.ask_pace.every = 0.0  # no pace unless the test is about it
    return TestClient(app)


def test_get_answers_in_the_readers_language_and_says_nothing():
    session, voice = Published(), Voice()
    with client_for(session, voice=voice) as client:
        last = client.get("/api/ask/last-move?lang=ru")
        assert last.status_code == 200
        assert last.json()["text"] == "Последний ход белых: е 5 бьёт цэ 7, взята 1 шашка"
        assert last.json()["message"]["id"] == "ask.last_move.white"
        english = client.get("/api/ask/position", headers={"accept-language": "en-GB,ru;q=0.5"})
        assert english.json()["text"] == (
            "Black to move. White: 1 king: c3; 4 men: a1, c1, c7, and g7. Black: 1 man: h8")
        session.now = 1004.0
        clocks = client.get("/api/ask/clocks", headers={"accept-language": "ru"})
        assert clocks.json()["text"] == "У белых 4 минуты 6 секунд, у чёрных 57 секунд"
        assert clocks.headers["content-language"] == "ru"
        assert client.get("/api/ask/clocks").json()["text"].startswith("White: 4 minutes")
    assert voice.said == []


def test_the_boards_language_without_lang_or_accept_language():
    with client_for(Published(), language="nl") as client:
        assert client.get("/api/ask/last-move").json()["text"] == \
            "Laatste zet van wit: e5 slaat c7, 1 schijf"


def test_post_says_the_answer_on_the_board_in_the_speakers_language():
    session, voice = Published(), Voice()
    with client_for(session, voice=voice) as client:
        answer = client.post("/api/ask/clocks?lang=en")
        assert answer.json()["spoken"] is True
        assert answer.json()["text"] == "White: 4 minutes 6 seconds. Black: 1 minute 1 second"
    assert voice.said == ["У белых четыре минуты шесть секунд, у чёрных одна минута одна секунда."]
    with client_for(Published()) as client:  # a board that does not speak
        assert client.post("/api/ask/position").json()["spoken"] is False


def test_the_hint_get_tells_the_standing_hint_and_post_asks_the_coach():
    session, voice = Published(hint={"stage": 1, "squares": [15]}), Voice()
    coach = Coach(session.game.position)
    with client_for(session, coach=coach, voice=voice) as client:
        standing = client.get("/api/ask/hint?lang=ru")
        assert standing.json()["text"] == "Подсказка: ходите шашкой с е 5"
        assert coach.asked == 0 and session.calls == 0  # GET changes nothing
        asked = client.post("/api/ask/hint?lang=en")
        assert asked.status_code == 200 and coach.asked == 1
        assert asked.json()["text"] == "Hint: move the piece on e5"
    assert voice.said == ["Подсказка: ходите шашкой с е пять."]


def test_a_hint_in_tournament_mode_is_refused_as_the_coach_refuses_it():
    session = Published(mode="tournament")
    coach = Coach(session.game.position)
    with client_for(session, coach=coach, voice=Voice()) as client:
        for method in (client.get, client.post):
            refused = method("/api/ask/hint")
            assert refused.status_code == 409
            assert refused.json()["message"] == {"id": "coach.refused.tournament_hints"}
            assert "\n" not in refused.json()["error"]
        assert client.get("/api/ask/clocks").status_code == 200  # the rest is answered
    assert coach.asked == 0
    with client_for(Published()) as client:  # no coach at all
        assert client.get("/api/ask/hint").status_code == 404


@pytest.mark.parametrize("path", ["/api/ask/colour", "/api/ask/%3Cscript%3E",
                                  "/api/ask/" + "x" * 500, "/api/ask/LAST-MOVE"])
def test_an_unknown_question_is_404_in_one_line(path):
    with client_for(Published()) as client:
        answer = client.get(path)
        assert answer.status_code == 404
        assert answer.json()["message"]["id"] == "ask.refused.unknown"
        assert answer.json()["error"].startswith("No such question: ")
        assert answer.json()["error"].endswith("ask last-move, clocks, position, or hint")
        assert "\n" not in answer.json()["error"] and len(answer.json()["error"]) < 200


@pytest.mark.parametrize("lang", ["xx", "", "<script>", "r" * 5000, "ru-RU"])
def test_a_language_no_catalog_has_is_400_in_one_line(lang):
    with client_for(Published()) as client:
        answer = client.get("/api/ask/clocks", params={"lang": lang})
        assert answer.status_code == 400
        assert answer.json()["message"]["id"] == "ask.refused.language"
        assert "\n" not in answer.json()["error"] and len(answer.json()["error"]) < 200


def test_pseudo_language_and_wrong_methods():
    with client_for(Published()) as client:
        assert client.get("/api/ask/clocks?lang=qps").json()["text"].startswith("⟦")
        assert client.put("/api/ask/clocks").status_code == 405


def test_a_board_not_started_yet_answers_503():
    session = Published()
    session.published = lambda: ("", None, {})
    with client_for(session) as client:
        answer = client.get("/api/ask/position")
        assert answer.status_code == 503
        assert answer.json()["message"] == {"id": "ask.refused.not_ready"}


def test_a_real_board_in_training_answers_and_gives_the_hint(tmp_path):
    session, board, recorder, coach = open_session(tmp_path)
    voice = Voice()
    try:
        with client_for(session, coach=coach, voice=voice) as client:
            assert client.get("/api/ask/last-move?lang=en").json()["text"] == \
                "No move has been played yet"
            assert client.get("/api/ask/clocks?lang=en").json()["text"] == \
                "This game has no clock"
            position = client.get("/api/ask/position?lang=en").json()["text"]
            assert position.startswith("White to move. White: 12 men: a1, c1, e1, g1, b2,")
            first = client.post("/api/ask/hint?lang=en").json()["text"]
            # the coach searches first, or answers at once when its search was quick
            if first == "The coach is thinking: ask again in a moment":
                wait_until(lambda: coach_view(session)["hint"]["stage"] == 1)
                assert client.get("/api/ask/hint?lang=en").json()["text"].startswith(
                    "Hint: move the piece on ")
            else:
                assert first.startswith("Hint: move the piece on ")
    finally:
        session.stop()
        board.close()
        recorder.close()


def test_spoken_answers_are_paced_per_board_and_a_refusal_is_429_in_one_line():
    clock, voice = Clock(100.0), Voice()
    with client_for(Published(), voice=voice, clock=clock) as client:
        assert client.post("/api/ask/position").status_code == 200
        clock.now = 100.5
        refused = client.post("/api/ask/clocks?lang=ru")
        assert refused.status_code == 429
        assert refused.json()["message"] == {"id": "ask.refused.too_often",
                                             "params": {"seconds": "1"}}
        assert "\n" not in refused.json()["error"]
        assert client.get("/api/ask/clocks").status_code == 200  # reading is not paced
        clock.now = 101.0
        assert client.post("/api/ask/clocks").status_code == 200
    assert len(voice.said) == 2


def test_spoken_is_the_truth_when_the_engine_does_not_work():
    with client_for(Published(), voice=Voice(works=False)) as client:
        assert client.post("/api/ask/position").json()["spoken"] is False


def test_a_hint_the_coach_still_thinks_about_is_said_when_it_comes():
    session, voice = Published(), Voice()

    class Thinking(Coach):
        def request_hint(self):
            self.asked += 1
            return {"stage": 0, "squares": [], "text": None, "thinking": True}

    coach = Thinking(session.game.position)
    with client_for(session, coach=coach, voice=voice) as client:
        answer = client.post("/api/ask/hint?lang=en")
        assert answer.json()["text"] == "The coach is thinking: ask again in a moment"
    assert voice.hints_wanted == 1
