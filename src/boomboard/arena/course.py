"""A course's agent protocol, as a boomboard agent.

A course's referee (the Expendibots course's, for one) plays classes with
``__init__(self, colour)``, ``action(self)`` returning the course's action
tuple (``("MOVE", n, (xa, ya), (xb, yb))`` or ``("BOOM", (x, y))`` in
Expendibots), and ``update(self, colour, action)``, called on both players
after every action (the mover's own included); ``colour`` is the player's
name in lower case (``"white"`` or ``"black"``).

:class:`CourseAgent` wraps such a class as a boomboard agent, so a
student's player plays in the arena (``course:PATH[:Class]``), under the
course's limits with ``--course-limits`` (60 s CPU, 100 MB per game). It
plays any game that declares a ``course_protocol`` (the module of its folder
that turns its action ids into the course's tuples and back: the game
contract's item). The other way round, any boomboard agent as a course
``Player``, and the course's referee and puzzle, are the game's own course
programs, in the ``course`` package of its folder.
"""

from __future__ import annotations

from ..agents import Agent
from ..core.errors import BoomboardError
from ..core.game import Game
from ..core.state import State


def course_colours(game: Game) -> tuple[str, ...]:
    """The names a course's referee gives the players: the game's, in lower case."""
    return tuple(name.lower() for name in game.player_names)


class CourseAgent(Agent):
    """A course ``Player`` class playing as a boomboard agent, in a game with a course protocol."""

    name = "course"
    # The course's referee charges ``Player(colour)`` (CPU time and memory)
    # as it does every action and update, though not the module's import: so
    # does the arena's referee, through this flag (see agent_process).
    start_up_charged = True

    def __init__(self, player_class: type, seed: int | None = None):
        super().__init__(seed)
        self.player_class = player_class
        self.course_player = None
        self.protocol = None

    def new_game(self, game: Game, player: int) -> None:
        if getattr(game, "course_protocol", None) is None:
            raise BoomboardError(f"a course Player plays only a game with a course protocol; {game} has none")
        super().new_game(game, player)
        self.protocol = game.folder_module(game.course_protocol)
        self.course_player = self.player_class(course_colours(game)[player])

    def choose_action(self, state: State):
        chosen = self.course_player.action()
        try:
            return self.protocol.encode_action(chosen)  # an id, legal or not: the referee judges it
        except BoomboardError:
            return chosen  # not an action at all: the referee reports it as malformed

    def observe(self, state: State, action: int) -> None:
        colour = course_colours(state.game)[state.current_player()]
        self.course_player.update(colour, self.protocol.decode_action(int(action)))
