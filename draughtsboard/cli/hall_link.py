"""A board in play joined to the tournament hall (``play --hall``): the link, and the
board's own health it reports (scan counters, chattering and stuck switches)."""

from __future__ import annotations

from .errors import SettingError
from .play_settings import default_config_path


def hall_link(args, session, backend_source, log):
    """The board's link to the hall, when one is configured (else None)."""
    from draughtsboard import __version__
    from draughtsboard.hall_link import HallLink, hall_settings
    from draughtsboard.hall_link.config import HallConfigError

    try:
        settings = hall_settings(args.hall, args.board, default_config_path(args))
    except HallConfigError as error:
        raise SettingError(str(error)) from None
    if settings is None:
        return None
    return HallLink(session, settings.address, settings.board, software=__version__,
                    health=health_probe(backend_source, session),
                    read_game=session.game.recorder.game)


def health_probe(source, session, clock=None):
    """The board's own health for the hall: the reed matrix's scan counters and the
    squares whose switch chatters (a failing reed), or the serial link's counters; and
    the squares whose switch has disagreed with the game's position at every look for a
    while (``stuck``: `SwitchWatch`). ``clock`` is monotonic time (an input for tests)."""
    import dataclasses
    import time

    from draughtsboard.play.health import SwitchWatch

    sensors = getattr(source, "sensors", None)  # a HardwareBoard's reed matrix
    watch = SwitchWatch()

    def health() -> dict:
        out: dict = {"error": str(session.error) if session.error else None}
        stats = getattr(sensors if sensors is not None else source, "stats", None)
        value = stats() if callable(stats) else stats
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            out.update(dataclasses.asdict(value))
        bounces = getattr(sensors, "bounces_by_square", None)
        if bounces is not None:
            out["chattering"] = sorted(s for s, n in bounces().items() if n >= CHATTERING)
        latest = source.latest()
        if latest is not None:
            now = (clock or time.monotonic)()
            watch.look(now, latest.occupied, session.game.tracker.position.occupancy())
            out["stuck"] = watch.suspects(now)
        return out

    return health


CHATTERING = 50  # filtered bounces on one square since start: its reed is failing

