"""The ``learned`` agent: a self-play-trained net, with or without search.

``learned:PATH`` plays the model file (or run folder) ``PATH`` that
``boomboard train`` wrote; plain ``learned`` plays the model shipped inside
the package for the game, where there is one (Kaboom 4x4 with one bomb).
Settings: ``sims=N`` simulations of the Gumbel MuZero search a move
(default 64), ``search=0`` for the bare net (its most likely legal move,
instantly); the search is AlphaZero's (PUCT, the most visited move) unless
``puct=0`` asks for Gumbel MuZero's, the one self-play trains with, which
below the root never visits a reply the net rates near zero, so it plays
into short losses more often (docs/results/learning.md); ``decisive=0`` turns off
the search's check for moves that win at once, and ``mirror=1`` makes
every evaluation the mean of the net's on the position and on its mirror
image, where the game has one (see :class:`~boomboard.learn.search.Search`;
off by default: the shipped model, trained without mirror images, loses
twice as often with it, docs/results/learning.md); ``guard=N`` (default
:data:`DEFAULT_GUARD`; 0 turns it off) first searches the position with
exact alpha-beta to ``N`` plies or :data:`GUARD_NODES` nodes, whichever
comes first, and reads only the forced results it proves: a
proven win is played, fastest, and moves proven to lose are taken out of
the net's choice unless every move loses (then the longest loss is played).
The net judges what lies past the horizon; the guard makes the short
tactics exact, as MCTS-minimax hybrids do (Baier and Winands, 2015).
With search, the choice is
deterministic: the search's own Gumbel noise is turned off for play. Importing this module (as importing
:mod:`boomboard.learn` does) registers the kind with
:func:`boomboard.agents.register_agent_kind`: the agents sit below the
learn layer and never import it, so the interfaces that build agents from
spec strings (the arena, the command line, the web app, OpenSpiel bots)
import :mod:`boomboard.learn`. Playing needs the ``boomboard[learn]`` extra.
"""

from __future__ import annotations

import numpy as np

from ..agents.base import Agent
from ..agents.spec import register_agent_kind
from ..core.extras import require_extra
from ..core.game import Game
from ..core.state import State
from ..observation import observation_layout
from ..search.scores import MATE_BOUND
from .checkpoint import CheckpointError, load_model, packaged_model, resolve

DEFAULT_SIMULATIONS = 64
# The guard's node budget: a few hundredths of a second of compiled
# alpha-beta; a guard that runs out keeps what its last finished depth
# proved. The default depth is out of reach but for the end of a game, so
# the budget decides how deep the guard looks.
GUARD_NODES = 200_000
DEFAULT_GUARD = 30
FEATURE = "the learned agent"


class LearnedAgent(Agent):
    """Plays a trained policy-value net; see the module docstring for the settings."""

    name = "learned"

    def __init__(self, seed: int | None = None, checkpoint: str | None = None, sims: int = DEFAULT_SIMULATIONS,
                 search: int = 1, puct: int = 1, decisive: int = 1, mirror: int = 0,
                 guard: int = DEFAULT_GUARD):
        super().__init__(seed)
        require_extra("learn", FEATURE)
        self.checkpoint = checkpoint
        self.simulations = sims
        self.use_search = bool(search)
        self.puct = bool(puct)
        self.decisive = bool(decisive)
        self.mirror = bool(mirror)
        self.guard_plies = guard
        self._guard = None
        self.model = load_model(checkpoint) if checkpoint else None
        self.last_thinking = ""
        self._search = None
        self._key = None

    def new_game(self, game: Game, player: int) -> None:
        super().new_game(game, player)
        model = self.model
        if model is None:
            path = packaged_model(str(game))
            if path is None:
                raise CheckpointError(f"no model ships for {game}; train one with 'boomboard train' and "
                                      f"play it as learned:RUN_FOLDER")
            model = self.model = load_model(path)
        if model.game != str(game):
            raise CheckpointError(f"{model.path} was trained for {model.game}, not {game}")
        if self._search is None or self._search.game != game:
            import jax

            from ..search.alphabeta import AlphaBeta  # loads numba: with the first game, not with the kind

            from .search import shared_search

            self._search = shared_search(game, model.net, self.simulations, self.decisive, self.mirror)
            self._key = jax.random.PRNGKey(self.seed or 0)
            self._guard = AlphaBeta(game, table_bits=18) if self.guard_plies else None
            start = game.new_initial_state()
            if not start.is_terminal():  # compile before the clock runs
                self.choose_action(start)

    def choose_action(self, state: State) -> int:
        if self._search is None or self._search.game != state.game:
            self.new_game(state.game, state.current_player())
        import jax

        layout = observation_layout(state.game)
        obs = layout.encode(state, state.current_player())[None]
        mask = state.legal_actions_mask().astype(bool)[None]
        guarded = ""
        if self._guard is not None:
            forced, mask[0], guarded = self._proven(state, mask[0])
            if forced is not None:
                self.last_thinking = guarded
                return forced
        params = self.model.params
        logits, value = self._search.evaluate(params, obs, mask)
        if not self.use_search:
            action = int(np.argmax(np.asarray(logits)[0]))
            self.last_thinking = f"net: value {float(value[0]):+.2f}, no search{guarded}"
            return action
        self._key, key = jax.random.split(self._key)
        states = state.array[None].astype(np.int32)
        if self.puct:
            actions, weights, _ = self._search.run_puct(params, key, states, obs, mask)
        else:
            actions, weights, _ = self._search.run(params, key, states, obs, mask, gumbel_scale=0.0)
        action = int(actions[0])
        self.last_thinking = (f"net value {float(value[0]):+.2f}; {'PUCT' if self.puct else 'Gumbel'} search of "
                              f"{self.simulations} simulations "
                              f"gives this move {float(weights[0, action]):.0%}{guarded}")
        return action

    def _proven(self, state: State, legal: np.ndarray) -> tuple[int | None, np.ndarray, str]:
        """The guard: ``(move, legal, note)``, where ``move`` is a proven win
        (or, every move lost, the longest loss) to play at once, else None,
        and ``legal`` the legal mask less the moves proven to lose."""
        moves = np.flatnonzero(legal)
        result, scores = self._guard.score_moves(state, moves, depth=self.guard_plies, nodes=GUARD_NODES)
        if result.score > MATE_BOUND:
            return result.action, legal, f"guard: {state.action_to_string(result.action)}, {result.describe_score()}"
        lost = scores < -MATE_BOUND
        if lost.all():
            return result.action, legal, f"guard: every move loses; the longest, {result.describe_score()}"
        if not lost.any():
            return None, legal, ""
        safe = legal.copy()
        safe[moves[lost]] = False
        return None, safe, f"; guard: {lost.sum()} of {len(moves)} moves lose within {result.depth} plies"


def _check(settings: dict) -> None:
    require_extra("learn", FEATURE)  # refused before a match or a game starts, not in its first move
    if settings.get("checkpoint"):
        resolve(settings["checkpoint"])


register_agent_kind("learned", LearnedAgent, {"checkpoint": str, "sims": int, "search": int, "puct": int,
                                                 "decisive": int, "mirror": int, "guard": int},
                    positional="checkpoint", check=_check)
