"""What boards and the hall say to each other through the venue's MQTT broker.

Shared by both ends and free of I/O: the topic tree (`topics`), the JSON messages and
their checks (`messages`), and where a client finds its broker and credentials
(`broker`). The board side is `draughtsboard.hall_link`, the hall `draughtsboard.hall`;
docs/hall.md describes the tree for people.
"""

from .broker import BrokerAddress, BrokerURLError, parse_broker_url
from .messages import (
                       MAX_PAYLOAD,
                       Command,
                       GameRecord,
                       MessageError,
                       MoveRecord,
                       PlyMessage,
                       Reply,
                       StateMessage,
                       StatusMessage,
                       decode_json,
)
from .topics import BOARD_KINDS, ROOT, board_topic, parse_topic

__all__ = ["BOARD_KINDS", "MAX_PAYLOAD", "ROOT", "BrokerAddress", "BrokerURLError", "Command",
           "GameRecord", "Reply",
           "MessageError", "MoveRecord", "PlyMessage", "StateMessage", "StatusMessage",
           "board_topic", "decode_json", "parse_broker_url", "parse_topic"]
