"""The record model: every record through the one codec and back (hypothesis), its
bounds and versions, and the rules that live in its one `apply`."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from draughtsboard.board.game import records as r
from draughtsboard.board.game.apply import RecordMismatchError, apply, rebuild, start_of
from draughtsboard.board.game.codec import (
    MAX_BYTES,
    NewerRecordError,
    RecordFormatError,
    decode,
    encode,
    from_json,
    to_json,
)
from draughtsboard.board.game.pdn_writer import write_game
from draughtsboard.board.game.reasons import OLD_WORDS, message, words
from draughtsboard.board.message import Message
from draughtsboard.board.mode import Mode
from draughtsboard.board.rules.draws import NO_MOVE, Reason, ReasonCode
from draughtsboard.board.rules.variants import get_variant

texts = st.text(max_size=40)
plies = st.integers(0, 500)
numbers = st.floats(allow_nan=False, allow_infinity=False, width=32)
times = st.builds(r.Times, st.none() | numbers, st.none() | numbers)
squares = st.lists(st.integers(1, 50), max_size=6).map(tuple)
clocks = st.none() | st.tuples(numbers, numbers)
messages = st.none() | st.sampled_from([Message.of("pdn.text.resume"),
                                        Message.of("pdn.text.taken_back", move="c3-d4")])
tags = st.dictionaries(st.sampled_from(["Event", "Round", "White"]), texts, max_size=3)
switches = st.builds(r.CoachSwitch, st.sampled_from(list(r.CoachAid)), st.booleans())
rule_reasons = st.builds(Reason, st.sampled_from(list(ReasonCode)),
                        st.none() | st.integers(1, 99))
reasons = texts | st.sampled_from(sorted(OLD_WORDS)) | rule_reasons \
    | st.lists(rule_reasons, min_size=1, max_size=8).map(tuple)  # a draw accepted

records = st.one_of(
    st.builds(r.Start, st.sampled_from(["russian", "international", "lasca"]), tags,
              st.none() | texts, st.sampled_from(list(Mode)), st.none() | texts, times),
    st.builds(r.MoveMade, plies, squares, squares, texts, times, clocks),
    st.builds(r.IrregularMove, plies, squares, squares, texts, texts, texts, texts, times),
    st.builds(r.Takeback, st.none() | plies, st.sampled_from(list(r.TakebackKind)), texts,
              messages, times),
    st.builds(r.TakebackTo, plies, texts, messages, times),
    st.builds(r.Correction, st.none() | plies, texts, texts, times),
    st.builds(r.Event, st.sampled_from(sorted(r.EVENT_KINDS - {r.RecordKind.NOTE,
                                                          r.RecordKind.COACH})),
              st.none() | plies, texts, messages, times),
    st.builds(r.Event, st.just(r.RecordKind.NOTE), st.none() | plies, texts, messages, times,
              st.none() | tags),
    st.builds(r.Event, st.just(r.RecordKind.COACH), st.none() | plies, texts, messages, times,
              st.none(), switches),
    st.builds(r.ClockEvent, st.sampled_from(sorted(r.CLOCK_KINDS)), st.none() | plies, clocks,
              texts, messages, times),
    st.builds(r.Result, st.sampled_from(["1-0", "0-1", "1/2-1/2", "*", "2-0"]), reasons,
              st.sampled_from(list(r.Setter)), times),
    st.builds(r.ResultWithdrawn, st.none() | plies, texts, messages, times,
              st.none() | st.builds(r.Declined, texts, st.sampled_from(["white", "black"]),
                                    texts, st.integers(0, 99))),
    st.builds(r.MatchStop, st.none() | plies, texts, messages, times),
)


@settings(max_examples=300, deadline=None)
@given(records)
def test_every_record_goes_through_the_codec_and_back(record):
    assert from_json(to_json(record)) == record
    assert decode(json.loads(json.dumps(encode(record)))) == record


def test_a_record_of_a_newer_format_is_one_line_that_says_so():
    newer = {"type": "move", "v": 2, "ply": 0, "path": [22, 18], "captures": [], "text": ""}
    with pytest.raises(NewerRecordError) as raised:
        decode(newer)
    assert "format 2, newer than this release reads (format 1)" in str(raised.value)
    assert "\n" not in str(raised.value)
    with pytest.raises(NewerRecordError):
        decode({"type": "start", "version": 7, "variant": "russian"})


@pytest.mark.parametrize("text, why", [
    ("[1, 2]", "a JSON object"),
    ('{"type": "move"', "not JSON"),
    ('{"type": "castle"}', "unknown record type"),
    ('{"type": "move", "ply": "one", "path": [], "captures": []}', "ply"),
    ('{"type": "move", "ply": 1, "path": [1, true], "captures": []}', "path"),
    ('{"type": "result", "result": "1-0", "by": "the cat"}', "by"),
    ('{"type": "clock-start", "clock": [1, "x"]}', "clock"),
    ('{"type": "coach", "switch": {"aid": "music", "on": true}}', "switch"),
    ('{"type": "note", "a": ' + "[" * 40 + "]" * 40 + "}", "nested"),
])
def test_a_record_that_does_not_read_is_one_line_naming_the_field(text, why):
    with pytest.raises(RecordFormatError, match=why):
        from_json(text)


def test_a_record_over_the_size_bound_is_refused_before_it_is_parsed():
    with pytest.raises(RecordFormatError, match="bytes"):
        from_json('{"type": "note", "text": "' + "x" * MAX_BYTES + '"}')


def test_a_coach_switch_is_data_and_an_old_sentence_reads_as_its_switch():
    off = r.Event(r.RecordKind.COACH, 3, "anything at all", switch=r.CoachSwitch(r.CoachAid.HINTS,
                                                                          False))
    assert decode(encode(off)).switch == r.CoachSwitch(r.CoachAid.HINTS, False)
    old = {"type": "coach", "ply": 3, "text": "blunder warnings switched off for this game"}
    assert decode(old).switch == r.CoachSwitch(r.CoachAid.WARNINGS, False)
    assert decode({"type": "coach", "ply": 3, "text": "blunder warning: ..."}).switch is None


def test_a_rules_reason_is_typed_and_an_old_sentence_reads_as_its_reason():
    """A rule's reason is kept as its code and count; its English words are what PDN
    and the release before read; a journal of that release held only the words, read
    once by the codec. Words a person gave stay words, even the same words."""
    kings_only = Reason(ReasonCode.KINGS_ONLY, 15)
    data = encode(r.Result("1/2-1/2", kings_only, r.Setter.ARBITER))
    assert data["rule"] == {"code": "kings_only", "count": 15}
    assert data["reason"] == "draw: 15 moves with kings only, no man moved and no capture"
    assert decode(data).reason == kings_only
    assert message(kings_only) == Message.of("guide.reason.kings_only", count=15)
    old = {"type": "result", "result": "1-0", "reason": "Black has no legal move"}
    assert decode(old).reason == NO_MOVE[False]
    assert decode({**old, "reason": "resigned"}).reason == "resigned"
    typed_words = encode(r.Result("1-0", "Black has no legal move", r.Setter.ARBITER))
    assert typed_words["rule"] is None and decode(typed_words).reason == \
        "Black has no legal move"
    with pytest.raises(RecordFormatError, match="rule"):
        decode({**old, "rule": {"code": "checkmate"}})


def test_the_rules_reasons_keep_the_words_pdn_has_always_shown():
    assert words(Reason(ReasonCode.REPETITION)) == "draw: threefold repetition"
    assert words(Reason(ReasonCode.KING_AND_MEN, 20)) == \
        "draw: 20 two kings and a man, or a king and two men, against a king"
    assert words(NO_MOVE[True]) == "White has no legal move"
    assert all(OLD_WORDS[words(reason)] == reason for reason in OLD_WORDS.values())


RUSSIAN = get_variant("russian")


def test_a_game_closed_unfinished_without_a_reason_is_abandoned():
    game = rebuild(start_of(RUSSIAN, {}, None, "tournament", None, r.Times()),
                   [r.MoveMade(0, (22, 18), (), "c3-d4"), r.Result("*")])
    assert game.result is None and game.result_reason == "abandoned"
    assert game.result_text() == "*"


def test_apply_refuses_what_does_not_fit_and_leaves_the_game_as_it_was():
    game = rebuild(start_of(RUSSIAN, {}, None, "training", None, r.Times()), [])
    with pytest.raises(RecordMismatchError):
        apply(game, r.Takeback(0, r.TakebackKind.TAKEBACK, "no move"))
    with pytest.raises(RecordMismatchError):
        apply(game, r.MoveMade(1, (22, 18), (), "c3-d4"))
    with pytest.raises(RecordMismatchError):
        apply(game, r.ResultWithdrawn(0, "nothing to withdraw"))
    assert game.ply == 0 and game.events == []


def test_the_coach_switch_and_a_declined_result_reach_the_game_as_data():
    declined = r.Declined("club-1", "black", "0-1", 2)
    game = rebuild(start_of(RUSSIAN, {}, None, "training", None, r.Times()), [
        r.Event(r.RecordKind.COACH, 0, "hints off", switch=r.CoachSwitch(r.CoachAid.HINTS, False)),
        r.Result("0-1", "resigned", r.Setter.MATCH),
        r.ResultWithdrawn(0, "withdrawn", declined=declined),
    ])
    assert [(e.kind, e.switch, e.declined) for e in game.events] == [
        ("coach", r.CoachSwitch(r.CoachAid.HINTS, False), None),
        ("result-withdrawn", None, declined)]


def test_a_match_stop_has_its_own_label_in_pdn_in_every_language():
    """A match stop is labelled as one in PDN (before, its kind was written as the
    label: "match-stop"), in each catalog; the Russian says «судья» for the arbiter."""
    from draughtsboard.board.game.pdn_writer import EVENT_LABELS, write_game
    from draughtsboard.words import catalog_languages, load_catalog, words_for

    assert EVENT_LABELS[r.RecordKind.MATCH_STOP] == "pdn.event.match_stop"
    game = rebuild(start_of(RUSSIAN, {}, None, "tournament", None, r.Times()), [
        r.MoveMade(0, (22, 18), (), "c3-d4"),
        r.MatchStop(1, "the boards hold different games", at=r.Times(5.0, 1_700_000_000.0)),
    ])
    assert "{match stopped, for the arbiter at 22:13:20 UTC: the boards hold different " \
        "games}" in write_game(game)
    assert "match-stop" not in write_game(game)
    for language in catalog_languages():
        assert "pdn.event.match_stop" in load_catalog(language).messages, language
    assert "судья" in load_catalog("ru").messages["pdn.event.match_stop"]
    assert "{матч остановлен, решает судья в 22:13:20 UTC: the boards hold different " \
        "games}" in write_game(game, say=words_for("ru"))


def _draw_accepted_game(result: r.Result):
    """Kings shuttling to a threefold repetition (a kings-only count running too), then
    ``result``."""
    moves = [(29, 25), (12, 16), (25, 29), (16, 12)] * 2
    records = [r.MoveMade(ply, path, (), f"{path[0]}-{path[1]}")
               for ply, path in enumerate(moves)]
    start = start_of(RUSSIAN, {}, "W:WK29,31,32:BK12,1,2", "tournament", None, r.Times())
    return rebuild(start, [*records, result])


def test_a_draw_the_arbiter_accepted_keeps_its_rules_reasons_and_the_words_pdn_has_shown():
    """The arbiter's accepted draw is the rules' typed reasons with the arbiter as the
    setter; its words (PDN, the journal's ``reason`` the release before reads) are the
    sentence the journal has always held for it."""
    kings_only = Reason(ReasonCode.KINGS_ONLY, 15)
    both = (Reason(ReasonCode.REPETITION), kings_only)
    data = encode(r.Result("1/2-1/2", both, r.Setter.ARBITER))
    assert data["reason"] == "draw: threefold repetition; draw: 15 moves with kings only, " \
        "no man moved and no capture (accepted by the arbiter)"
    assert data["rule"] is None  # a reader of ``rule`` alone reads the words
    assert data["rules"] == [{"code": "repetition"}, {"code": "kings_only", "count": 15}]
    back = decode(json.loads(json.dumps(data)))
    assert back == r.Result("1/2-1/2", both, r.Setter.ARBITER)
    game = _draw_accepted_game(back)
    assert (game.result_why, game.result_by) == (both, r.Setter.ARBITER)
    assert game.result_reason == data["reason"]
    with pytest.raises(RecordFormatError, match="rules"):
        decode({**data, "rules": [{"code": "checkmate"}]})
    with pytest.raises(RecordFormatError, match="rules"):
        decode({**data, "rules": []})


@pytest.mark.parametrize("old", [
    # the release before the typed reason; the one before this change (``rule`` null)
    {"type": "result", "result": "1/2-1/2", "by": "arbiter",
     "reason": "draw: threefold repetition (accepted by the arbiter)"},
    {"type": "result", "result": "1/2-1/2", "by": "arbiter", "rule": None,
     "reason": "draw: threefold repetition (accepted by the arbiter)"},
])
def test_an_old_accepted_draw_exports_the_same_pdn_as_a_new_one(old):
    new = encode(r.Result("1/2-1/2", (Reason(ReasonCode.REPETITION),), r.Setter.ARBITER))
    assert new["reason"] == old["reason"]
    old_game, new_game = _draw_accepted_game(decode(old)), _draw_accepted_game(decode(new))
    assert old_game.result_why == old["reason"]  # words: never looked up as a rule's
    assert write_game(old_game) == write_game(new_game)
    assert "{draw: threefold repetition (accepted by the arbiter)}" in write_game(new_game)
