"""The Expendibots course's agent protocol, both ways.

The course's referee plays classes with ``__init__(self, colour)``,
``action(self)`` returning ``("MOVE", n, (xa, ya), (xb, yb))`` or
``("BOOM", (x, y))``, and ``update(self, colour, action)``, called on both
players after every action (the mover's own included); ``colour`` is
``"white"`` or ``"black"``.

* :class:`CourseAgent` wraps such a class as a boomboard agent, so a
  student's player plays in the arena (``course:PATH[:Class]``), under the
  course's limits with ``--course-limits`` (60 s CPU, 100 MB per game).
* :class:`boomboard.arena.course_player.Player` is the other way round: any
  boomboard agent as a course ``Player``.
"""

from __future__ import annotations

from ..agents import Agent
from ..core.errors import BoomboardError
from ..core.game import Game
from ..core.state import State

COLOURS = ("white", "black")


class CourseAgent(Agent):
    """A course ``Player`` class playing as a boomboard agent (Expendibots only)."""

    name = "course"
    # The course's referee charges ``Player(colour)`` (CPU time and memory)
    # as it does every action and update, though not the module's import: so
    # does the arena's referee, through this flag (see agent_process).
    start_up_charged = True

    def __init__(self, player_class: type, seed: int | None = None):
        super().__init__(seed)
        self.player_class = player_class
        self.course_player = None

    def new_game(self, game: Game, player: int) -> None:
        if game.name != "expendibots":
            raise BoomboardError(f"a course Player plays Expendibots only, not {game}")
        super().new_game(game, player)
        self.course_player = self.player_class(COLOURS[player])

    def choose_action(self, state: State):
        chosen = self.course_player.action()
        try:
            return _encode(chosen)
        except BoomboardError:
            return chosen  # not an action at all: the referee reports it as malformed

    def observe(self, state: State, action: int) -> None:
        self.course_player.update(COLOURS[state.current_player()], state.action_to_tuple(action))


def _encode(action) -> int:
    from ..games.expendibots.notation import encode_action

    return encode_action(action)
