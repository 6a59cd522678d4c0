"""A Hub engine that misbehaves on purpose, one way per mode (the first argument).

Run as ``python fake_hub.py MODE``. Every mode does the handshake like a real engine
(unless the mode is about the handshake) and then, asked for a move:

* ``good``: plays the first legal move of the position (by our rules);
* ``malformed``: answers with a line that cannot be read;
* ``illegal``: answers ``done move=1-2``;
* ``silent``: never answers;
* ``die``: exits (status 3) at the second search;
* ``exit-at-start``: exits (status 2) before saying anything;
* ``no-variants``: declares no variant parameter (plays only 10x10);
* ``error``: answers ``error message="out of memory"``;
* ``long-line``: writes a line of 100,000 characters.
"""

import sys

from draughtsboard.board.rules.variants import get_variant
from draughtsboard.opponents.hub_text import (
    format_move,
    hub_variant,
    parse_line,
    parse_move,
    parse_position,
)


def main() -> int:
    mode = sys.argv[1]
    if mode == "exit-at-start":
        return 2
    variant = get_variant("international")
    searches = 0
    position = None
    for text in sys.stdin:
        line = parse_line(text)
        if line is None:
            continue
        out = []
        if line.command == "hub":
            out.append("id name=Fake version=1")
            if mode != "no-variants":
                out.append('param name=variant value=normal type=enum '
                           'values="normal russian lasca column column-7x7"')
            out.append("wait")
        elif line.command == "set-param" and line.get("name") == "variant":
            variant = hub_variant(line.get("value"))
        elif line.command == "init":
            out.append("ready")
        elif line.command == "pos":
            position = parse_position(variant, line.get("pos"))
            for move in (line.get("moves") or "").split():
                position = position.play(parse_move(position, move))
        elif line.command == "go":
            searches += 1
            if mode == "malformed":
                out.append('done move="12-17')
            elif mode == "illegal":
                out.append("done move=1-2")
            elif mode == "silent":
                pass
            elif mode == "die" and searches == 2:
                return 3
            elif mode == "error":
                out.append('error message="out of memory"')
            elif mode == "long-line":
                out.append("info " + "x" * 100_000)
            else:
                move = position.legal_moves()[0]
                out.append(f"done move={format_move(position, move)}")
        elif line.command == "quit":
            return 0
        for answer in out:
            sys.stdout.write(answer + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
