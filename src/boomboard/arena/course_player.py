"""Any boomboard agent as an Expendibots course ``Player``.

The course's referee imports a module and plays its ``Player`` class; this
module is one, so our agents run unchanged under the course's own referee::

    BOOMBOARD_AGENT=ai:game_time=45 python -m referee boomboard.arena.course_player other_player

``BOOMBOARD_AGENT`` names the agent (any arena agent spec; default
:data:`DEFAULT_AGENT`, the strongest setting sharing out 45 of the course's
60 CPU seconds, the rest left for start-up), ``BOOMBOARD_SEED`` seeds it.
"""

from __future__ import annotations

import os

from ..registry import load_game
from .course import COLOURS
from .specs import build_agent

DEFAULT_AGENT = "ai:game_time=45"


def _settings() -> tuple[str, int | None]:
    seed = os.environ.get("BOOMBOARD_SEED")
    return os.environ.get("BOOMBOARD_AGENT", DEFAULT_AGENT), int(seed) if seed else None


def _prepared_agent(settings: tuple[str, int | None]):
    """The agent, built and with its compiled search loaded (from the cache
    ``boomboard compile`` fills). Done once at import: the course's referee
    measures a player's time and memory from after the import on, as it does
    for any library a player imports."""
    spec, seed = settings
    agent = build_agent(spec, seed=seed)
    agent.new_game(load_game("expendibots"), 0)
    return agent


_prepared = {_settings(): _prepared_agent(_settings())}


class Player:
    """The course protocol: ``Player(colour)``, ``action()``, ``update(colour, action)``."""

    def __init__(self, colour: str):
        if colour not in COLOURS:
            raise ValueError(f"colour must be 'white' or 'black'; got {colour!r}")
        self.colour = colour
        self.game = load_game("expendibots")
        self.state = self.game.new_initial_state()
        # The first Player of the process takes the agent prepared at import
        # (unless the settings changed since).
        settings = _settings()
        self.agent = _prepared.pop(settings, None) or _prepared_agent(settings)
        self.agent.new_game(self.game, COLOURS.index(colour))

    def action(self):
        """This player's next action as the referee's tuple."""
        return self.state.action_to_tuple(self.agent.choose_action(self.state.clone()))

    def update(self, colour: str, action) -> None:
        """``colour`` played ``action`` (a referee tuple); both players are told."""
        action_id = self.state.tuple_to_action(action)
        self.agent.observe(self.state.clone(), action_id)
        self.state.apply_action(action_id)
