"""Messages as values: their JSON both ways, and what a hostile one gets."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from draughtsboard.board.message import MAX_DEPTH, MAX_LIST, Listed, Message


def test_a_message_round_trips_through_json():
    message = Message.of("guide.take_off", squares=["c5", "e3"], count=2,
                         side=Message.of("side.white"))
    assert Message.from_json(message.as_json()) == message
    assert message.param("squares") == Listed(("c5", "e3"))


def test_equal_messages_compare_and_hash_equal_whatever_the_order_of_parameters():
    assert Message.of("a.b", x="1", y="2") == Message.of("a.b", y="2", x="1")
    assert len({Message.of("a.b", x="1", y="2"), Message.of("a.b", y="2", x="1")}) == 1


@pytest.mark.parametrize("data", [
    None, "text", 3, [], {}, {"id": 3}, {"id": "Bad Id"}, {"id": "a." * 60 + "b"},
    {"id": "a.b", "params": []}, {"id": "a.b", "params": {"Bad": "x"}},
    {"id": "a.b", "params": {"x": True}}, {"id": "a.b", "params": {"x": 1.5}},
    {"id": "a.b", "params": {"x": "y" * 401}},
    {"id": "a.b", "params": {f"p{i}": "x" for i in range(17)}},
    {"id": "a.b", "params": {"x": {"list": ["a"] * (MAX_LIST + 1)}}},
    {"id": "a.b", "params": {"x": {"list": ["a"], "style": "xor"}}},
    {"id": "a.b", "params": {"x": {"nope": 1}}},
])
def test_a_malformed_message_is_one_value_error(data):
    with pytest.raises(ValueError):
        Message.from_json(data)


def test_a_message_nested_too_deep_is_refused():
    data: dict = {"id": "a.b"}
    for _ in range(MAX_DEPTH + 2):
        data = {"id": "a.b", "params": {"inner": data}}
    with pytest.raises(ValueError, match="deep"):
        Message.from_json(data)


names = st.sampled_from(["id", "params", "list", "style", "x", "count", "Bad"])
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=6)
    | st.sampled_from(["a.b", "side.white", "and", "or"]),
    lambda children: st.lists(children, max_size=3)
    | st.dictionaries(names, children, max_size=3), max_leaves=12)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.dictionaries(names, json_values, max_size=4))
def test_any_json_is_a_message_or_a_value_error(data):
    try:
        message = Message.from_json(data)
    except ValueError:
        return
    assert Message.from_json(message.as_json()) == message
