"""A normal stop is no warning: the board's link and the hall disconnect from the broker
on purpose (MQTT's "Normal disconnection") and log it as information; losing the broker
is still a warning."""

from __future__ import annotations

import logging

from ..web.helpers import wait_until


def test_a_board_and_a_hall_stopping_log_no_warning(hall, boards, broker, caplog):
    service = hall()
    one = boards(1)
    wait_until(lambda: service.connected and service.ingest.live(1) is not None,
               timeout=30, what="the board in the hall")
    with caplog.at_level(logging.INFO):
        one.close()
        service.stop()
    stopped = [r for r in caplog.records if "broker" in r.getMessage()]
    assert [r.getMessage() for r in stopped if r.levelno >= logging.WARNING] == []
    assert any("disconnected from the broker" in r.getMessage() for r in stopped)


def test_losing_the_broker_is_still_a_warning(hall, broker, caplog):
    service = hall()
    wait_until(lambda: service.connected, timeout=30, what="the hall connected")
    with caplog.at_level(logging.INFO):
        broker.stop()
        wait_until(lambda: not service.connected, timeout=30, what="the broker gone")
    assert any(r.levelno == logging.WARNING and "lost the broker" in r.getMessage()
               for r in caplog.records)
