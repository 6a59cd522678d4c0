"""The board's buttons that answer a player's questions (docs/accessibility.md, "Asking
the board"), wired to the session, the coach and the voice."""

from __future__ import annotations

from draughtsboard.board.message import Message


def wire_hint_button(source, session, coach, log, voice=None) -> None:
    """The board's buttons named ``hint`` and ``ask`` in its config answer a player's
    questions (docs/accessibility.md, "Asking the board"): a short press of the hint
    button asks the coach for a hint (in every mode but tournament), of the ask button
    the last move; a long press the clocks, a double press the position. ``voice`` (the
    speaker, ``None`` when the board does not speak) says each answer aloud."""
    from draughtsboard.speech.answers import HINT, question_for, spoken_text
    from draughtsboard.speech.presses import ButtonPresses
    from draughtsboard.web.ask_routes import NotReady, answer_now, ask_hint

    buttons = getattr(source, "buttons", {})

    def say(message) -> None:
        if voice is not None:
            voice.say(spoken_text(voice.words, message), answer=True)

    def told(future) -> None:
        error = future.exception()
        if error is None:
            say(future.result())
            if future.result().id == "ask.hint.thinking" and voice is not None:
                voice.want_hint()  # said when the coach has it
            return
        log.info("hint button: %s", error)
        message = getattr(error, "message", None)
        if isinstance(message, Message):
            say(message)  # the coach's refusal, said: hints off, the game over

    def answer(name: str, press: str) -> None:
        _, _, view = session.published()
        question = question_for(press, name, str(view.get("mode", "")))
        if question == HINT:
            if coach is not None:
                session.submit(lambda: ask_hint(coach)).add_done_callback(told)
            return
        try:
            say(answer_now(session, question))
        except NotReady:
            pass  # the game is not open yet: nothing to tell

    def pressed(name: str):
        return lambda press: answer(name, press)

    for name in ("hint", "ask"):
        button = buttons.get(name)
        if button is not None:
            ButtonPresses(button, pressed(name))
    if "hint" in buttons:
        log.info("%s", session.words(hint_button_line(session, coach)))


def hint_button_line(session, coach) -> Message:
    """play's start-up line for a wired hint button: that its short press asks the coach
    only where it really does (`question_for`: every mode but tournament, and a coach
    attached); in tournament mode it says the last move, and the line says so instead
    of promising a hint the coach would refuse."""
    from draughtsboard.speech.answers import HINT, question_for
    from draughtsboard.speech.presses import SHORT

    _, _, view = session.published()
    if coach is not None and question_for(SHORT, "hint", str(view.get("mode", ""))) == HINT:
        return Message.of("cli.hint_button")
    return Message.of("cli.hint_button.last_move")


