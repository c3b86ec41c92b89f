"""How a game ended: who won, and why.

The engine keeps the result as two small integers in the state array (see
:mod:`boomboard.core.layout`); this module gives them names.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum


class Status(IntEnum):
    """Value stored at ``state[STATUS]``."""

    ONGOING = 0
    PLAYER0_WINS = 1
    PLAYER1_WINS = 2
    TIE = 3


class Reason(IntEnum):
    """Why the game ended; stored at ``state[REASON]``."""

    NONE = 0
    NO_TOKENS = 1  # the loser has no tokens / stones left
    BOTH_NO_TOKENS = 2  # both sides lost their last tokens at once: tie
    REPETITION = 3  # a position occurred for the 4th time: tie
    TURN_LIMIT = 4  # the action limit was reached: tie
    CONNECT = 5  # n in a row (Kaboom)
    BOTH_CONNECT = 6  # both have n in a row after a detonation: tie
    NO_ACTIONS = 7  # neither player can act (Kaboom, full board): tie
    ALL_ONE_COLOUR = 8  # every square has the winner's colour (Jump61)
    RESIGNATION = 9  # a player gave up (interfaces, arena)
    FORFEIT = 10  # a player broke a rule of the referee (arena)


_REASON_TEXT = {
    Reason.NONE: "",
    Reason.NO_TOKENS: "the opponent has no tokens left",
    Reason.BOTH_NO_TOKENS: "no tokens remaining",
    Reason.REPETITION: "a position occurred for the 4th time",
    Reason.TURN_LIMIT: "the action limit was reached",
    Reason.CONNECT: "connected n in a row",
    Reason.BOTH_CONNECT: "both players connected n in a row",
    Reason.NO_ACTIONS: "neither player can act",
    Reason.ALL_ONE_COLOUR: "every square has the winner's colour",
    Reason.RESIGNATION: "resignation",
    Reason.FORFEIT: "forfeit",
}


@dataclass(frozen=True)
class Outcome:
    """The end of a game: ``winner`` is a player index, or ``None`` for a tie.

    >>> Outcome(winner=None, reason=Reason.REPETITION).kind
    'tie'
    """

    winner: int | None
    reason: Reason
    detail: str = ""

    @property
    def kind(self) -> str:
        """``'win'`` or ``'tie'``: GAMESMAN's words for a finished game."""
        return "tie" if self.winner is None else "win"

    def returns(self) -> list[float]:
        """Zero-sum returns per player, as OpenSpiel reports them."""
        if self.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.winner == 0 else [-1.0, 1.0]

    def describe(self, player_names: tuple[str, str]) -> str:
        """A sentence such as ``'White wins: the opponent has no tokens left'``."""
        because = self.detail or _REASON_TEXT[self.reason]
        if self.winner is None:
            return f"Tie: {because}"
        return f"{player_names[self.winner].capitalize()} wins: {because}"


def outcome_from_codes(status: int, reason: int, detail: str = "") -> Outcome | None:
    """Translate the two integers of a state array; ``None`` while ongoing."""
    status = Status(status)
    if status == Status.ONGOING:
        return None
    winner = {Status.PLAYER0_WINS: 0, Status.PLAYER1_WINS: 1, Status.TIE: None}[status]
    return Outcome(winner=winner, reason=Reason(reason), detail=detail)
