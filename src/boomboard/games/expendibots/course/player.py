"""Any boomboard agent as an Expendibots course ``Player``.

The course's referee imports a module and plays its ``Player`` class; this
module is one, so our agents run unchanged under the course's own referee::

    BOOMBOARD_AGENT=ai:game_time=45 python -m referee boomboard.games.expendibots.course.player other_player

``BOOMBOARD_AGENT`` names the agent (any arena agent spec; default
:data:`DEFAULT_AGENT`, the strongest setting sharing out 58 of the course's
60 CPU seconds), ``BOOMBOARD_SEED`` seeds it. A module of one's own can fix
both instead, for two differently set players in one referee::

    from boomboard.games.expendibots.course import player

    class Player(player.Player):
        agent_spec, seed = "alphabeta:depth=2", None

    player.prepare(Player)  # built at import, before the referee's clock

The course's referee charges a player's construction and every ``action()``
and ``update()`` (CPU time, measured around each call), not its import. So
the agent is built and its compiled code loaded at import, and the Player
charges its construction and updates, and the work around each search, to
the agent's game budget: the agent plans with the referee's own count.
"""

from __future__ import annotations

import os
from time import process_time

from ....arena.specs import build_agent
from ....registry import load_game
from ..notation import COLOURS

# 58 of the course's 60 CPU seconds: the agent plans with everything the
# referee charges, and keeps a reserve besides (docs/results/time.md: under the
# course's referee, games of 250 plies and more used 55.5 to 56.2 s, shorter
# ones less, and none forfeited).
DEFAULT_AGENT = "ai:game_time=58"


def _settings(player_class: type | None = None) -> tuple[str, int | None]:
    spec = getattr(player_class, "agent_spec", None)
    if spec is not None:
        return spec, getattr(player_class, "seed", None)
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


def prepare(player_class: type) -> None:
    """Build the agent of a :class:`Player` subclass that fixes ``agent_spec``
    now (at import), so its construction under the referee is quick."""
    settings = _settings(player_class)
    if settings not in _prepared:
        _prepared[settings] = _prepared_agent(settings)


class Player:
    """The course protocol: ``Player(colour)``, ``action()``, ``update(colour, action)``.

    A subclass may set ``agent_spec`` (and ``seed``) to play that agent
    whatever the environment says."""

    agent_spec: str | None = None
    seed: int | None = None

    def __init__(self, colour: str):
        began = process_time()
        if colour not in COLOURS:
            raise ValueError(f"colour must be 'white' or 'black'; got {colour!r}")
        self.colour = colour
        self.game = load_game("expendibots")
        self.state = self.game.new_initial_state()
        # The first Player of the process takes the agent prepared at import
        # (unless the settings changed since).
        settings = _settings(type(self))
        self.agent = _prepared.pop(settings, None) or _prepared_agent(settings)
        self.agent.new_game(self.game, COLOURS.index(colour))
        self._charge(process_time() - began)

    def _charge(self, seconds: float) -> None:
        """Count CPU the referee charges, outside the agent's own choices, against its game budget."""
        charge = getattr(self.agent, "charge", None)
        if charge is not None:
            charge(seconds)

    def action(self):
        """This player's next action as the referee's tuple."""
        began = process_time()
        state = self.state.clone()
        choosing = process_time()
        action = self.agent.choose_action(state)
        chosen = process_time()
        answer = self.state.action_to_tuple(action)
        self._charge(process_time() - chosen + choosing - began)  # the agent charged its own choice
        return answer

    def update(self, colour: str, action) -> None:
        """``colour`` played ``action`` (a referee tuple); both players are told."""
        began = process_time()
        action_id = self.state.tuple_to_action(action)
        self.agent.observe(self.state.clone(), action_id)
        self.state.apply_action(action_id)
        self._charge(process_time() - began)
