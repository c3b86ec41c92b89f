"""The agent protocol: what every player, built-in or external, implements.

An agent is told when a game starts and which side it plays, sees every
action played (its own included), and is asked for an action when it is its
turn. Randomness is seeded, so a game can be replayed exactly.
"""

from __future__ import annotations

import random

from ..core.game import Game
from ..core.state import State
from ..core.threads import one_thread_at_a_time

# What an agent is asked, each guarded for one thread at a time (see Agent).
_GUARDED = ("new_game", "observe", "choose_action")


class Agent:
    """Base class of agents; subclasses override :meth:`choose_action`.

    An agent is for one thread at a time: it keeps its own random generator,
    clock and search tables between calls. Give each thread its own agent; a
    call of :meth:`new_game`, :meth:`observe` or :meth:`choose_action` (a
    subclass's own included) while another thread is inside one of them
    raises :class:`~boomboard.core.threads.ConcurrentUseError`.
    """

    name = "agent"

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        for method in _GUARDED:
            if method in vars(cls):
                setattr(cls, method, one_thread_at_a_time(vars(cls)[method]))

    def __init__(self, seed: int | None = None):
        self.seed = seed
        self.rng = random.Random(seed)
        self.game: Game | None = None
        self.player: int | None = None

    @one_thread_at_a_time
    def new_game(self, game: Game, player: int) -> None:
        """A game starts: ``player`` (0 or 1) is this agent's side."""
        self.game, self.player = game, player

    @one_thread_at_a_time
    def observe(self, state: State, action: int) -> None:
        """``action`` was played in ``state`` (the position before it)."""

    @one_thread_at_a_time
    def choose_action(self, state: State) -> int:
        """An action id, legal in ``state``."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} seed={self.seed}>"


class RandomAgent(Agent):
    """Plays a uniformly random legal action."""

    name = "random"

    def choose_action(self, state: State) -> int:
        return self.rng.choice(state.legal_actions())
