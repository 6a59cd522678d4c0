"""Irregularity policies: what the board does after an irregular move.

Two rule books disagree. The column-draughts rule book (1.14) has every illegal move put
back and the game replayed from it: the board flags the move and waits for the restore
(``restore``). The FMJD rules (Annex 1, article 5.4) let the *opponent* decide: he may
have the irregularity rectified, or play on, and then it stands (``fmjd``). The tracker
is given a policy as data; the variant chooses the default, a game may override it (the
``play --irregular`` option, the board config, the ``Irregularities`` tag of a journal).

Whatever the policy, the arbiter can accept the position on the board or take back to an
earlier ply (the play session does it through the tracker and the recorder), so a board
never waits for ever.
"""

from __future__ import annotations

from dataclasses import dataclass

POLICY_TAG = "Irregularities"  # the game tag (and journal start tag) naming the policy


@dataclass(frozen=True, slots=True)
class IrregularityPolicy:
    """``stands_when_played_on``: an irregular move the opponent plays on from is recorded
    as played (FMJD); otherwise the board waits for the position to be put back.
    ``board_leds``: the flag also lights the board (the organiser may keep a tournament
    board dark for irregularities: the arbiter's page shows them all the same)."""

    name: str
    stands_when_played_on: bool
    board_leds: bool = True

    def with_board_leds(self, board_leds: bool) -> IrregularityPolicy:
        return IrregularityPolicy(self.name, self.stands_when_played_on, board_leds)


RESTORE = IrregularityPolicy("restore", stands_when_played_on=False)
FMJD = IrregularityPolicy("fmjd", stands_when_played_on=True)
POLICIES = {policy.name: policy for policy in (RESTORE, FMJD)}

# The column games follow their rule book (1.14): restore. The FMJD's draughts: fmjd.
_DEFAULT_OF_VARIANT = {"russian": "fmjd", "international": "fmjd"}


def default_policy_name(variant_name: str) -> str:
    """The policy a variant plays under unless the game says otherwise."""
    return _DEFAULT_OF_VARIANT.get(variant_name, "restore")


def policy_for(variant_name: str, name: str | None = None, *,
               board_leds: bool = True) -> IrregularityPolicy:
    """The policy named ``name`` (``fmjd`` or ``restore``), else the variant's default;
    `ValueError` with the known names for anything else."""
    chosen = name or default_policy_name(variant_name)
    try:
        policy = POLICIES[chosen]
    except KeyError:
        raise ValueError(f"unknown irregularity policy {chosen!r} (expected "
                         f"{' or '.join(sorted(POLICIES))})") from None
    return policy if board_leds else policy.with_board_leds(False)
