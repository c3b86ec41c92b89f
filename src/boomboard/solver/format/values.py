"""Values, as every table stores them, whichever solver wrote it.

Values are from the point of view of the player to move, coded in GAMESMAN's
order of preference: ``LOSE < DRAW < TIE < WIN``. A table stores each
position's as ``value << 14 | remoteness``.
"""

from __future__ import annotations

from boomboard.core.layout import PLAYER, STATUS, STATUS_TIE
from boomboard.jit import njit

LOSE, DRAW, TIE, WIN = 0, 1, 2, 3
VALUE_SHIFT = 14  # a stored entry: value << 14 | remoteness
MAX_REMOTENESS = (1 << VALUE_SHIFT) - 1


@njit(cache=True)
def terminal_value(s):
    """The value of a finished position for the player to move in it."""
    if s[STATUS] == STATUS_TIE:
        return TIE
    if s[STATUS] == 1 + s[PLAYER]:
        return WIN
    return LOSE
