"""The ``--opponent`` text and what each kind of opponent supports per variant.

``engine[:LEVEL]`` (the built-in engine, level 1-10, default 10), ``hub:COMMAND`` (a Hub
engine started with COMMAND), ``dxp:HOST:PORT`` (the board connects to a DXP peer),
``dxp-listen:HOST:PORT`` (the board waits for a DXP initiator), ``board:MATCH`` (another
board elsewhere, through the hall's MQTT broker: a match between towns, `board_match`;
``board:mqtt://USER:PASS@HOST:PORT/MATCH`` names the broker itself). `parse_opponent` reads
it; `check_supported` refuses, in one line, a kind that cannot play the variant (the
table is `SUPPORT`, and docs/opponents.md says the same).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from draughtsboard.addresses import AddressError, parse_host_port
from draughtsboard.board.rules.engine.levels import LEVEL_NUMBERS
from draughtsboard.board.rules.variants import Variant, variant_names

from .base import OpponentSpecError, OpponentUnsupportedError

KINDS = ("engine", "hub", "dxp", "dxp-listen", "board")
MATCH_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")  # a match's name in its topics
ALL = frozenset(variant_names())
# What each kind plays. A Hub engine is asked for a variant other than 10x10 only when it
# declares that variant (`hub_client`): the table says what our side can ask for.
SUPPORT: dict[str, frozenset[str]] = {
    "engine": ALL,
    "hub": ALL,
    "dxp": frozenset({"international"}),
    "dxp-listen": frozenset({"international"}),
    "board": ALL,
}


@dataclass(frozen=True)
class OpponentSpec:
    """A parsed ``--opponent``: its kind and its argument (the level, the command, the
    host and port, or a match and its broker's URL, "" for the board's hall broker)."""

    kind: str
    level: int | None = None
    command: str = ""
    host: str = ""
    port: int = 0
    match: str = ""
    broker: str = field(default="", repr=False)  # (its URL may hold a password)

    def text(self) -> str:
        if self.kind == "engine":
            return f"engine:{self.level}"
        if self.kind == "hub":
            return f"hub:{self.command}"
        if self.kind == "board":  # (never the broker's URL: it may hold a password)
            return f"board:{self.match}"
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{self.kind}:{host}:{self.port}"


def parse_opponent(text: str) -> OpponentSpec:
    """The opponent a text names; `OpponentSpecError` (one line) otherwise."""
    kind, _, rest = text.strip().partition(":")
    if kind == "engine":
        if not rest:
            return OpponentSpec("engine", level=max(LEVEL_NUMBERS))
        if not rest.isdigit() or int(rest) not in LEVEL_NUMBERS:
            raise OpponentSpecError(f"--opponent {text!r}: the engine's level is 1-10")
        return OpponentSpec("engine", level=int(rest))
    if kind == "hub":
        if not rest.strip():
            raise OpponentSpecError(f"--opponent {text!r}: give the Hub engine's command, "
                                    f"e.g. 'hub:./scan hub'")
        return OpponentSpec("hub", command=rest.strip())
    if kind in ("dxp", "dxp-listen"):
        host, port = _host_port(text, rest)
        return OpponentSpec(kind, host=host, port=port)
    if kind == "board":
        return _board_spec(text, rest.strip())
    raise OpponentSpecError(f"--opponent {text!r}: expected engine[:LEVEL], hub:COMMAND, "
                            f"dxp:HOST:PORT, dxp-listen:HOST:PORT or board:MATCH")


def _board_spec(text: str, rest: str) -> OpponentSpec:
    """``board:MATCH`` or ``board:mqtt[s]://...@HOST:PORT/MATCH``."""
    broker, match = "", rest
    if "://" in rest:
        broker, _, match = rest.rpartition("/")
        if broker.endswith("/") or broker.count("/") != 2:
            match = ""
    if not MATCH_ID.match(match):
        shown = text if not broker else f"board:.../{match}"  # (a URL may hold a password)
        raise OpponentSpecError(f"--opponent {shown!r}: expected board:MATCH or "
                                f"board:mqtt://HOST:PORT/MATCH, MATCH of lower-case letters, "
                                f"digits and dashes (at most 40)")
    return OpponentSpec("board", match=match, broker=broker)


def _host_port(text: str, rest: str) -> tuple[str, int]:
    """The peer's ``HOST:PORT``, read as every option's is (`draughtsboard.addresses`)."""
    try:
        address = parse_host_port(rest, "--opponent")
    except AddressError:
        raise OpponentSpecError(f"--opponent {text!r}: expected HOST:PORT with a port "
                                f"1-65535 (DXP's usual port is 27531)") from None
    return address.host, address.port


def check_supported(spec: OpponentSpec, variant: Variant) -> None:
    """`OpponentUnsupportedError` (one line) when the kind cannot play the variant."""
    if variant.name not in SUPPORT[spec.kind]:
        plays = ", ".join(sorted(SUPPORT[spec.kind]))
        raise OpponentUnsupportedError(
            f"--opponent {spec.kind} cannot play {variant.title}: it plays {plays} "
            f"(docs/opponents.md)")
