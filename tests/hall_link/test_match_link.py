"""The match's MQTT seat without a broker: a client id a second login with the seat's
password cannot take over (it is not derived from the user's name), and a takeover the
broker reports is said in the log."""

from __future__ import annotations

import logging

from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.reasoncodes import ReasonCode

from draughtsboard.hall_link.match_link import MatchLink
from draughtsboard.hall_protocol.broker import parse_broker_url


def link() -> MatchLink:
    return MatchLink(parse_broker_url("mqtt://match-m1-white:pw@127.0.0.1:1"), "m1", "white")


def test_two_boards_of_one_seat_never_share_a_client_id():
    first, second = link(), link()
    assert first.client_id != second.client_id
    assert first.client_id.startswith("draughtsboard-match-m1-white-")
    assert "match-m1-white" != first.client_id  # not the user's name


def test_a_session_taken_over_is_said_in_the_log(caplog):
    seat = link()
    with caplog.at_level(logging.ERROR, "draughtsboard.hall_link.match"):
        seat.client.on_disconnect(seat.client, None, None,  # (as paho calls it)
                                  ReasonCode(PacketTypes.DISCONNECT, identifier=0x8E))
    assert "took the white seat's session over" in caplog.text
