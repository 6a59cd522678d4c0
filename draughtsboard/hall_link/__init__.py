"""A board's link to the tournament hall through the venue's MQTT broker (the board
side; the hall is `draughtsboard.hall`): `HallLink` publishes the play session's games
and carries the hall's commands to it, `Outbox` keeps count of what went out, and
`config` finds the broker for ``draughtsboard play --hall`` or a board config's
``[hall]`` table."""

from .commands import carry_out
from .config import HallSettings, hall_settings
from .link import HallLink
from .outbox import Outbox, Publication

__all__ = ["HallLink", "HallSettings", "Outbox", "Publication", "carry_out", "hall_settings"]
