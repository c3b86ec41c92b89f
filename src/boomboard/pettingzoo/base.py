"""The AEC environment every boomboard game shares under PettingZoo."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.extras import require_extra

try:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.utils import EzPickle
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError:
    require_extra("pettingzoo", "boomboard.pettingzoo")
    raise

from ..core.state import State
from ..observation import observation_layout
from ..registry import load_game
from .drawing import draw_board

AGENTS = ("player_0", "player_1")


class BoomboardEnv(AECEnv, EzPickle):
    """A boomboard game as a PettingZoo AEC environment.

    Agents are ``player_0`` (who moves first: X, Red or White) and
    ``player_1``. Each observation is a dict:

    * ``"observation"``: ``float32 (planes, height, width)``, the board seen by
      the observing agent (its own pieces in the "own" planes; see
      :mod:`boomboard.observation` for each game's planes);
    * ``"action_mask"``: ``int8 (num_distinct_actions,)``, 1 for the legal
      actions of the agent to move, all 0 for the other agent.

    Actions are the game's integer ids (``Discrete(num_distinct_actions)``).
    Rewards come at the end only: +1 for the winner, -1 for the loser, 0 for
    both after a tie; the game then terminates for both agents (the
    500-action ties are rules, so nothing is truncated).
    ``env.unwrapped.boomboard_state`` is the boomboard :class:`~boomboard.State`;
    :meth:`state` (PettingZoo's global state) is the board seen by ``player_0``.

    Subclasses name the game (``game_name``); keyword arguments are the game's
    parameters (``kaboom_v0.env(rows=5, misere=True)``).
    """

    game_name: str = ""
    metadata: dict[str, Any] = {"render_modes": ["ansi", "rgb_array"], "name": "", "is_parallelizable": False,
                                "render_fps": 2}

    def __init__(self, render_mode: str | None = None, **params: Any):
        EzPickle.__init__(self, render_mode=render_mode, **params)
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, "
                             f"got {render_mode!r}")
        self.render_mode = render_mode
        self.game = load_game(self.game_name, **params)
        self.layout = observation_layout(self.game)
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        actions = self.game.num_distinct_actions()

        def board_space() -> spaces.Box:  # one each, so that seeding one seeds no other
            return spaces.Box(low=0.0, high=self.layout.high, shape=self.layout.shape, dtype=np.float32)

        self.observation_spaces = {
            a: spaces.Dict({"observation": board_space(),
                            "action_mask": spaces.Box(low=0, high=1, shape=(actions,), dtype=np.int8)})
            for a in AGENTS}
        self.action_spaces = {a: spaces.Discrete(actions) for a in AGENTS}
        self.state_space = board_space()
        self.boomboard_state: State = self.game.new_initial_state()
        self._set_empty_dicts()

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        player = AGENTS.index(agent)
        mask = (self.boomboard_state.legal_actions_mask() if self.boomboard_state.current_player() == player
                else np.zeros(self.game.num_distinct_actions(), dtype=np.int8))
        return {"observation": self.layout.encode(self.boomboard_state, player), "action_mask": mask}

    def state(self) -> np.ndarray:
        """The global state: the board tensor seen by ``player_0``."""
        return self.layout.encode(self.boomboard_state, 0)

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game. The games have no chance, so ``seed`` only seeds the spaces' sampling."""
        if seed is not None:
            for i, agent in enumerate(AGENTS):
                self.action_spaces[agent].seed(seed + i)
                self.observation_spaces[agent].seed(seed + i)
            self.state_space.seed(seed)
        self.agents = list(AGENTS)
        self.boomboard_state = self.game.new_initial_state()
        self._set_empty_dicts()
        self.agent_selection = AGENTS[self.boomboard_state.current_player()]

    def step(self, action: int) -> None:
        """Play ``action`` for the agent to move; an illegal id raises
        :class:`~boomboard.IllegalActionError` (``env()``'s wrapper turns it
        into a loss, as in PettingZoo's classic games)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0
        self.boomboard_state.apply_action(int(action))
        if self.boomboard_state.is_terminal():
            returns = self.boomboard_state.returns()
            for index, name in enumerate(AGENTS):
                self.rewards[name] = float(returns[index])
                self.terminations[name] = True
        else:
            self.agent_selection = AGENTS[self.boomboard_state.current_player()]
        self._accumulate_rewards()
        if self.terminations[agent]:
            # both are done; the other agent is selected next to see its result
            self.agent_selection = AGENTS[1 - AGENTS.index(agent)]

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode (choose 'ansi' or 'rgb_array')")
            return None
        if self.render_mode == "ansi":
            return str(self.boomboard_state)
        return draw_board(self.boomboard_state.board_view())

    def close(self) -> None:
        pass

    def _set_empty_dicts(self) -> None:
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos = {a: {} for a in AGENTS}
        self.agent_selection = AGENTS[0]


def wrap(raw: BoomboardEnv) -> AECEnv:
    """PettingZoo's classic wrappers: an illegal action loses (-1), out-of-range
    actions are refused, and the API order is enforced."""
    env = wrappers.TerminateIllegalWrapper(raw, illegal_reward=-1)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)
