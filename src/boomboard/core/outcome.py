"""How a game ended: who won, and why.

The engine keeps the result as two small integers in the state array (see
:mod:`boomboard.core.layout`); this module gives them names. The reasons
every game shares (a repetition, the action limit, a resignation, a
forfeit) are here; each game declares the reasons its own rules end it by,
with their codes and sentences, as its ``end_reasons`` (an
:class:`EndReasons`; see :mod:`boomboard.core.contract`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from .errors import InvalidPositionError


class Status(IntEnum):
    """Value stored at ``state[STATUS]``."""

    ONGOING = 0
    PLAYER0_WINS = 1
    PLAYER1_WINS = 2
    TIE = 3


class Reason(int):
    """Why a game ended: the code stored at ``state[REASON]``, with a name
    (``"CONNECT"``) and a sentence for people. It compares as its code.

    >>> Reason.REPETITION, Reason.REPETITION == 3, Reason.REPETITION.text
    (<Reason.REPETITION: 3>, True, 'a position occurred for the 4th time')
    """

    # The shared reasons, set below the class.
    NONE: Reason
    REPETITION: Reason
    TURN_LIMIT: Reason
    RESIGNATION: Reason
    FORFEIT: Reason

    name: str
    text: str

    def __new__(cls, code: int, name: str, text: str) -> Reason:
        reason = super().__new__(cls, code)
        reason.name, reason.text = name, text
        return reason

    def __reduce__(self):  # pickled with its name and text (int's own way would lose them)
        return (Reason, (int(self), self.name, self.text))

    def __repr__(self) -> str:
        return f"<Reason.{self.name}: {int(self)}>"


Reason.NONE = Reason(0, "NONE", "")
Reason.REPETITION = Reason(3, "REPETITION", "a position occurred for the 4th time")
Reason.TURN_LIMIT = Reason(4, "TURN_LIMIT", "the action limit was reached")
Reason.RESIGNATION = Reason(9, "RESIGNATION", "resignation")  # a player gave up (interfaces, arena)
Reason.FORFEIT = Reason(10, "FORFEIT", "forfeit")  # a player broke a rule of the referee (arena)
SHARED_REASONS = (Reason.NONE, Reason.REPETITION, Reason.TURN_LIMIT, Reason.RESIGNATION, Reason.FORFEIT)


class EndReasons:
    """A game's own end reasons, and the shared ones: what a game declares
    as ``end_reasons``. Each reason is an attribute under its name.

    >>> reasons = EndReasons(Reason(5, "CONNECT", "connected n in a row"))
    >>> reasons.CONNECT, reasons.of(5).text, reasons.of(3) is Reason.REPETITION
    (<Reason.CONNECT: 5>, 'connected n in a row', True)
    """

    def __init__(self, *own: Reason):
        self.own = own
        self._by_code = {int(reason): reason for reason in (*SHARED_REASONS, *own)}
        for reason in (*SHARED_REASONS, *own):
            setattr(self, reason.name, reason)

    def problems(self) -> list[str]:
        """What is wrong with the declaration: a code or name given twice, or one a shared reason has."""
        found = []
        shared = {int(reason): reason.name for reason in SHARED_REASONS}
        for index, reason in enumerate(self.own):
            if not isinstance(reason, Reason):
                found.append(f"end_reasons entry {reason!r:.40} is not a boomboard.Reason")
            elif int(reason) in shared or reason.name in shared.values():
                found.append(f"end reason {reason.name} ({int(reason)}) takes a code or name of the shared "
                             f"reasons ({', '.join(f'{n} {c}' for c, n in shared.items())})")
            elif any(int(other) == int(reason) or other.name == reason.name for other in self.own[:index]):
                found.append(f"end reason {reason.name} ({int(reason)}): its code or name is declared twice")
        return found

    def of(self, code: int) -> Reason:
        """The reason with this code."""
        try:
            return self._by_code[code]
        except KeyError:
            raise InvalidPositionError(f"no end reason has the code {code}") from None


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
        because = self.detail or self.reason.text
        if self.winner is None:
            return f"Tie: {because}"
        return f"{player_names[self.winner].capitalize()} wins: {because}"


def outcome_from_codes(status: int, reason: int, reasons: EndReasons, detail: str = "") -> Outcome | None:
    """Translate the two integers of a state array, the reason by the game's
    ``reasons``; ``None`` while ongoing."""
    status = Status(status)
    if status == Status.ONGOING:
        return None
    winner = {Status.PLAYER0_WINS: 0, Status.PLAYER1_WINS: 1, Status.TIE: None}[status]
    return Outcome(winner=winner, reason=reasons.of(reason), detail=detail)
