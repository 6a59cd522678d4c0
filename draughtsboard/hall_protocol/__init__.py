"""What boards and the hall say to each other through the venue's MQTT broker.

Shared by both ends: the topic tree (`topics`), the JSON messages and their checks
(`messages`), a game as a message and back (`games`), where a client finds its broker and
credentials (`broker`), and the paho-mqtt client both ends use (`connect`). The board side
is `draughtsboard.hall_link`, the hall `draughtsboard.hall`; docs/hall.md describes the
tree for people.
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
