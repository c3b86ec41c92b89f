"""boomboard's games inside OpenSpiel.

Importing this module registers every game with ``pyspiel`` under its
:attr:`~boomboard.core.game.Game.openspiel_name` (``boomboard_<game>`` unless
the game says otherwise), with all of its parameters (the Kaboom variants
are its ``misere`` and ``superbomb`` parameters)::

    >>> import pyspiel
    >>> import boomboard.openspiel
    >>> game = pyspiel.load_game("boomboard_kaboom(rows=4,cols=5,misere=True)")
    >>> state = game.new_initial_state()
    >>> state.legal_actions()[:5], state.action_to_string(0, 10)
    ([0, 1, 2, 3, 4], 'A1!')

OpenSpiel's algorithms then run on them as on its own games: ``MCTSBot``,
``minimax.alpha_beta_search`` (with :func:`value_function` for a depth
limit), ``evaluate_bots``, ``random_sim_test``. Action ids, their strings and
the rules are boomboard's own (see ``docs/games/``).

* **Observation tensor**: the planes of :mod:`boomboard.observation`, seen by
  the observing player, shape ``(planes, height, width)``.
* **Observation string**: ``str(state)``, the board as boomboard draws it.
* **Information state string**: the history of actions (a perfect-information
  game's information state).
* **Serialization**: OpenSpiel's usual action history
  (``game.deserialize_state(state.serialize())`` replays it, so the
  repetition rule stays exact); :func:`boomboard_state` gives the
  boomboard :class:`~boomboard.State` underneath, with its own notation.

Python games are slower than OpenSpiel's C++ ones in OpenSpiel's loops
(each action crosses from C++ into Python); for training at speed use
:class:`boomboard.vector.VectorEnv`.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from .core.extras import require_extra

try:
    import pyspiel
    from open_spiel.python.algorithms.mcts import Evaluator
    from open_spiel.python.observation import IIGObserverForPublicInfoGame
except ImportError:
    require_extra("openspiel", __name__)
    raise

from . import learn  # noqa: F401  (registers the "learned" agent kind for make_agent)
from .agents import make_agent
from .core.game import Game
from .core.state import State
from .core.threads import one_thread_at_a_time
from .observation import observation_layout
from .registry import game_class, game_names, load_game

_TERMINAL = int(pyspiel.PlayerId.TERMINAL)  # looked up once: the enum lookup is a third of current_player()


def spiel_name(name: str) -> str:
    """The name OpenSpiel knows a boomboard game by (the game's
    ``openspiel_name``): ``kaboom`` -> ``boomboard_kaboom``, and a game
    string's parameters stay: ``kaboom(rows=5)`` -> ``boomboard_kaboom(rows=5)``."""
    base, bracket, rest = name.partition("(")
    return game_class(base.strip()).openspiel_name + bracket + rest


def _game_type(name: str) -> pyspiel.GameType:
    cls = game_class(name)
    return pyspiel.GameType(
        short_name=cls.openspiel_name,
        long_name=cls.openspiel_long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={p.name: p.default for p in cls.parameters},
    )


def _game_info(game: Game) -> pyspiel.GameInfo:
    return pyspiel.GameInfo(
        num_distinct_actions=game.num_distinct_actions(),
        max_chance_outcomes=0,
        num_players=2,
        min_utility=-1.0,
        max_utility=1.0,
        utility_sum=0.0,
        max_game_length=game.max_game_length(),
    )


class BoomboardSpielGame(pyspiel.Game):
    """A boomboard game as a ``pyspiel.Game``; :attr:`boomboard_game` is the game itself."""

    boomboard_name: str = ""
    game_type: pyspiel.GameType

    def __init__(self, params: dict[str, Any] | None = None):
        self.boomboard_game = load_game(self.boomboard_name, **(params or {}))
        super().__init__(self.game_type, _game_info(self.boomboard_game), params or {})

    def new_initial_state(self) -> BoomboardSpielState:
        return BoomboardSpielState(self, self.boomboard_game.new_initial_state())

    def make_py_observer(self, iig_obs_type=None, params=None):
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return BoardObserver(self.boomboard_game, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class BoomboardSpielState(pyspiel.State):
    """A ``pyspiel.State`` over a boomboard :class:`~boomboard.State`."""

    def __init__(self, game: BoomboardSpielGame, state: State):
        super().__init__(game)
        self.boomboard_state = state

    def current_player(self) -> int:
        state = self.boomboard_state
        return _TERMINAL if state.is_terminal() else state.player_to_move()

    def _legal_actions(self, player: int) -> list[int]:
        return self.boomboard_state.legal_actions()

    def _apply_action(self, action: int) -> None:
        self.boomboard_state.apply_action(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self.boomboard_state.action_to_string(action)

    def is_terminal(self) -> bool:
        return self.boomboard_state.is_terminal()

    def returns(self) -> list[float]:
        return self.boomboard_state.returns()

    def __str__(self) -> str:
        return str(self.boomboard_state)


class BoardObserver:
    """OpenSpiel's observer interface over :mod:`boomboard.observation`."""

    def __init__(self, game: Game, params: dict[str, Any] | None):
        if params:
            raise ValueError(f"boomboard observers take no parameters; got {params}")
        self._layout = observation_layout(game)
        self.tensor = np.zeros(self._layout.size, np.float32)
        self.dict = {"observation": self.tensor.reshape(self._layout.shape)}

    def set_from(self, state: BoomboardSpielState, player: int) -> None:
        inner = state.boomboard_state
        self._layout.encode_array(inner.array, player, self.tensor)

    def string_from(self, state: BoomboardSpielState, player: int) -> str:
        return str(state.boomboard_state)


def boomboard_state(state: pyspiel.State) -> State:
    """The boomboard :class:`~boomboard.State` under an OpenSpiel state of a boomboard game."""
    try:
        return state.boomboard_state
    except AttributeError:
        raise TypeError(f"not a boomboard game's state: {state.get_game()}") from None


def value_function(player: int):
    """A depth-limited ``alpha_beta_search``'s ``value_function``: boomboard's
    static evaluation of a non-terminal state, squashed into (-1, 1), for
    ``player`` (the search's maximizing player)::

        minimax.alpha_beta_search(game, value_function=value_function(0),
                                  maximum_depth=3, maximizing_player_id=0)
    """
    def value(state: pyspiel.State) -> float:
        inner = boomboard_state(state)
        game = inner.game
        score = float(game.kernels.evaluate(inner.array, game.params_array))
        mover_value = float(np.tanh(score / 1000.0))
        return mover_value if inner.player_to_move() == player else -mover_value

    return value


class PlayoutEvaluator(Evaluator):
    """OpenSpiel's ``RandomRolloutEvaluator``, with the random games played in
    compiled code: the same estimate (the mean returns of ``n_rollouts``
    uniformly random games to the end) 20 to 81 times faster (one rollout
    from each game's start; ``benchmarks/rollout_speed.py``), for
    ``mcts.MCTSBot`` on boomboard games::

        bot = mcts.MCTSBot(game, 2.0, 200, PlayoutEvaluator(n_rollouts=4, seed=1))

    One thread at a time (it keeps a random generator and a results buffer):
    :meth:`evaluate` from a second thread meanwhile raises
    :class:`~boomboard.core.threads.ConcurrentUseError`.
    """

    def __init__(self, n_rollouts: int = 1, seed: int | None = None):
        if n_rollouts < 1:
            raise ValueError(f"n_rollouts must be at least 1, got {n_rollouts}")
        self.n_rollouts = n_rollouts
        self._rng = random.Random(seed)
        self._results = np.zeros(n_rollouts, dtype=np.int32)
        self._no_keys = np.zeros(1, dtype=np.uint64)
        self._playouts: dict[Game, Any] = {}  # each game's compiled random_playouts

    @one_thread_at_a_time
    def evaluate(self, state: pyspiel.State) -> np.ndarray:
        inner = boomboard_state(state)
        game = inner.game
        keys = self._no_keys if inner._keys is None else inner._keys
        results = self._results
        playouts = self._playouts.get(game)
        if playouts is None:
            playouts = self._playouts[game] = game.compiled("boomboard.vector.kernels").random_playouts
        playouts(inner._array, game.params_array, keys, inner._n_keys, game.repetition_limit, game.action_limit,
                 game.action_scratch(), self.n_rollouts, self._rng.getrandbits(31), results)
        player0 = (np.count_nonzero(results == 1) - np.count_nonzero(results == 2)) / self.n_rollouts
        return np.array([player0, -player0])

    def prior(self, state: pyspiel.State) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(action, 1.0 / len(legal)) for action in legal]


class BoomboardBot(pyspiel.Bot):
    """A boomboard agent (a spec string: ``"mcts:simulations=200"``, ``"ai:time=1"``)
    as an OpenSpiel bot, for ``evaluate_bots`` against OpenSpiel's own."""

    def __init__(self, spec: str, player: int, seed: int | None = None):
        super().__init__()
        self._agent = make_agent(spec, seed=seed)
        self._player = player
        self._started = False

    def restart_at(self, state: pyspiel.State) -> None:
        self._started = False

    def inform_action(self, state: pyspiel.State, player_id: int, action: int) -> None:
        """The opponent played ``action`` in ``state``: tell the agent (its protocol sees every action)."""
        self._begin(state)
        self._agent.observe(boomboard_state(state), action)

    def step(self, state: pyspiel.State) -> int:
        self._begin(state)
        inner = boomboard_state(state)
        action = self._agent.choose_action(inner.clone())
        self._agent.observe(inner, action)
        return action

    def _begin(self, state: pyspiel.State) -> None:
        if not self._started:
            self._agent.new_game(boomboard_state(state).game, self._player)
            self._started = True


def register_games() -> None:
    """Register every boomboard game with pyspiel (done on import; safe to repeat)."""
    registered = set(pyspiel.registered_names())
    for name in game_names():
        if spiel_name(name) in registered:
            continue
        cls = type(f"Boomboard{game_class(name).__name__}Spiel", (BoomboardSpielGame,),
                   {"boomboard_name": name, "game_type": _game_type(name)})
        pyspiel.register_game(cls.game_type, cls)


register_games()
