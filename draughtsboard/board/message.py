"""What the board has to say, as data: a message id with named parameters, never a sentence.

The core and the play layer say *what* happened ("the piece on e3 goes back to c5") as a
`Message`: an id from the message catalogs (docs/languages.md) and its parameters. One
renderer at the edge (`draughtsboard.words`) turns it into words in a language, in
Python for the command line, PDN comments and the hall, in the browser for the pages:
the same catalog serves both, so no sentence is written twice and a person reading in
Russian and one reading in English see the same thing said.

A parameter is one of:

- a ``str``, shown as it is: notation (``c3:e5``, ``32-28``), a square's name, a player's
  name, a PDN result code;
- an ``int``, a number; the parameter named ``count`` picks the plural form;
- a `Message`, rendered in the same language first (a piece's name, a side);
- a `Listed`: several values joined as a list in the language ("c5, e3 and d4"; with
  ``style="or"``, "c5 or e3").

Messages are plain frozen values with a JSON form (`Message.as_json`, `Message.from_json`)
that travels to the page, into the journal and over the hall's link. What comes back from
outside is checked by `from_json`: a bounded shape, or a `ValueError` that says why.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Union

Param = Union[str, int, "Message", "Listed"]

ID_PATTERN = re.compile(r"[a-z0-9_]+(\.[a-z0-9_]+)*")
PARAM_NAME = re.compile(r"[a-z_][a-z0-9_]*")
LIST_STYLES = ("and", "or")

# What a message read from outside may hold: deeper or longer is refused, not rendered.
MAX_DEPTH = 6
MAX_PARAMS = 16
MAX_LIST = 64
MAX_TEXT = 400


@dataclass(frozen=True)
class Listed:
    """Values to be read as one list: "c5, e3 and d4" (``style="or"``: "c5 or e3")."""

    items: tuple[Param, ...]
    style: str = "and"

    def __post_init__(self) -> None:
        if self.style not in LIST_STYLES:
            raise ValueError(f"a list's style is 'and' or 'or', not {self.style!r}")

    def as_json(self) -> dict[str, Any]:
        return {"list": [_param_json(item) for item in self.items], "style": self.style}


@dataclass(frozen=True)
class Message:
    """A message id (dotted, lower case: ``guide.restore.back``) and its parameters, kept
    sorted by name so that equal messages compare and hash equal."""

    id: str
    params: tuple[tuple[str, Param], ...] = ()

    @classmethod
    def of(cls, message_id: str, /, **params: Param | list | tuple) -> Message:
        """``Message.of("guide.restore.back", square="e3", home="c5")``; a list or tuple
        value becomes a `Listed` joined with "and"."""
        if not ID_PATTERN.fullmatch(message_id):
            raise ValueError(f"not a message id: {message_id!r}")
        return cls(message_id, tuple(sorted(
            (name, Listed(tuple(value)) if isinstance(value, list | tuple) else value)
            for name, value in params.items())))

    def param(self, name: str, default: Param | None = None) -> Param | None:
        for key, value in self.params:
            if key == name:
                return value
        return default

    @property
    def mapping(self) -> dict[str, Param]:
        return dict(self.params)

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id}
        if self.params:
            data["params"] = {name: _param_json(value) for name, value in self.params}
        return data

    @classmethod
    def from_json(cls, data: Any) -> Message:
        """The message a JSON value describes (what `as_json` wrote), checked: an id of
        the catalogs' shape, at most `MAX_PARAMS` parameters, `MAX_LIST` items, `MAX_TEXT`
        characters a text and `MAX_DEPTH` levels; anything else is a `ValueError`."""
        return _message_from_json(data, 0)


def is_message_json(data: Any) -> bool:
    """Whether ``data`` has the shape of a message's JSON (a dict with an ``id``): how a
    reader tells a message from an older record's plain text."""
    return isinstance(data, Mapping) and isinstance(data.get("id"), str)


def _param_json(value: Param) -> Any:
    if isinstance(value, Message | Listed):
        return value.as_json()
    return value


def _message_from_json(data: Any, depth: int) -> Message:
    if depth > MAX_DEPTH:
        raise ValueError("a message nests too deep")
    if not is_message_json(data):
        raise ValueError("a message is an object with an 'id'")
    message_id = data["id"]
    if len(message_id) > 100 or not ID_PATTERN.fullmatch(message_id):
        raise ValueError(f"not a message id: {message_id[:100]!r}")
    raw = data.get("params", {})
    if not isinstance(raw, Mapping) or len(raw) > MAX_PARAMS:
        raise ValueError("a message's params are an object of at most "
                         f"{MAX_PARAMS} names")
    params = []
    for name, value in raw.items():
        if not isinstance(name, str) or not PARAM_NAME.fullmatch(name):
            raise ValueError(f"not a parameter name: {str(name)[:40]!r}")
        params.append((name, _param_from_json(value, depth + 1)))
    return Message(message_id, tuple(sorted(params)))


def _param_from_json(value: Any, depth: int) -> Param:
    if isinstance(value, bool):
        raise ValueError("a parameter is text, a number, a message or a list")
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        if len(value) > MAX_TEXT:
            raise ValueError(f"a parameter's text is longer than {MAX_TEXT} characters")
        return value
    if isinstance(value, Mapping) and "list" in value:
        items = value["list"]
        style = value.get("style", "and")
        if not isinstance(items, list) or len(items) > MAX_LIST or style not in LIST_STYLES:
            raise ValueError(f"a list is at most {MAX_LIST} items, style 'and' or 'or'")
        if depth > MAX_DEPTH:
            raise ValueError("a message nests too deep")
        return Listed(tuple(_param_from_json(item, depth + 1) for item in items), style)
    if is_message_json(value):
        return _message_from_json(value, depth)
    raise ValueError("a parameter is text, a number, a message or a list")
