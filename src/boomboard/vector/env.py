"""A batch of games stepped together in compiled code, for reinforcement learning."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.errors import IllegalActionError, InvalidPositionError, ParameterError
from ..core.extras import require_extra
from ..core.game import Game
from ..core.layout import PLAYER
from ..core.state import State
from ..core.threads import one_thread_at_a_time
from ..observation import observation_layout
from ..registry import load_game

ILLEGAL_MODES = ("raise", "lose")


def max_legal_actions(game: Game) -> int:
    """An upper bound on the legal actions of any position of ``game`` (the
    width of the rows that keep them): the game's own
    :meth:`~boomboard.core.game.Game.max_legal_actions`."""
    return game.max_legal_actions()


class VectorEnv:
    """``num_envs`` games of one kind, stepped at once: the shape RL trainers want.

    >>> from boomboard.vector import VectorEnv
    >>> env = VectorEnv("kaboom", num_envs=4, seed=0)
    >>> obs, info = env.reset()
    >>> obs.shape, env.action_mask().shape
    ((4, 7, 4, 4), (4, 25))
    >>> obs, rewards, terminated, truncated, info = env.step(env.sample_actions())
    >>> rewards.shape, terminated.dtype, info["mover"].tolist()
    ((4,), dtype('bool'), [0, 0, 0, 0])

    The games are two-player and alternate: every environment has one player
    to move (:attr:`current_player`), who chooses its action.
    :meth:`step` follows Gymnasium's vector API with same-step auto-reset:

    * ``obs``: ``float32 (num_envs, planes, height, width)``, each seen by the
      player to move next (see :mod:`boomboard.observation` for the planes);
    * ``rewards``: ``float32 (num_envs,)``, for the player who just moved:
      +1 if that action won the game, -1 if it lost it, 0 otherwise (the
      opponent's reward is the negative: the games are zero-sum);
    * ``terminated``: ``bool (num_envs,)``, the game ended with this action;
      that environment has already been reset to a new game, so ``obs`` is
      the new game's first observation;
    * ``truncated``: all ``False``: every game ends by its own rules (the
      500-action ties of Expendibots and Explocus are rules, so they terminate);
    * ``info``: ``"mover"`` (who moved, per environment), ``"status"`` (the
      final :class:`boomboard.core.outcome.Status` of the games that ended,
      else 0), ``"episode_length"`` (their actions, else 0) and
      ``"current_player"``.

    An action that is not legal raises :class:`IllegalActionError` naming the
    environment, and no environment is stepped. With ``illegal="lose"`` it
    instead loses that game for the player who chose it (reward -1), as
    PettingZoo's illegal-move wrapper does.

    ``seed`` seeds :meth:`sample_actions` (the games themselves are
    deterministic). Observations are fresh arrays unless ``copy=False``, which
    returns a buffer that the next step overwrites.

    An environment is for one thread at a time (it steps its games in arrays
    of its own): :meth:`reset` or :meth:`step` from a second thread meanwhile
    raises :class:`~boomboard.core.threads.ConcurrentUseError`.
    """

    def __init__(self, game: Game | str, num_envs: int, seed: int | None = None, *,
                 illegal: str = "raise", copy: bool = True):
        self.game = load_game(game) if isinstance(game, str) else game
        if not isinstance(num_envs, (int, np.integer)) or isinstance(num_envs, bool) or num_envs < 1:
            raise ParameterError(f"num_envs must be a positive integer, got {num_envs!r}")
        if illegal not in ILLEGAL_MODES:
            raise ParameterError(f"illegal must be one of {', '.join(ILLEGAL_MODES)}; got {illegal!r}")
        game = self.game
        if game.new_initial_state().is_terminal():
            raise InvalidPositionError(f"{game}: the start position is already over; nothing to step")
        self.num_envs = int(num_envs)
        self.illegal = illegal
        self.copy = copy
        self.layout = observation_layout(game)
        self.num_actions = game.num_distinct_actions()
        self._kernels = game.compiled("boomboard.vector.kernels")
        self._params = game.params_array
        self._initial = game.initial_array()
        self._initial_key = np.uint64(game.kernels.position_key(self._initial, self._params))
        history = game.action_limit + 2 if game.tracks_history else 1
        n = self.num_envs
        self._states = np.empty((n, len(self._initial)), dtype=np.int32)
        self._keys = np.zeros((n, history), dtype=np.uint64)
        self._n_keys = np.zeros(n, dtype=np.int64)
        self._legal = np.zeros((n, max_legal_actions(game)), dtype=np.int32)
        self._n_legal = np.zeros(n, dtype=np.int64)
        self._scratch = np.empty(self.num_actions, dtype=np.int32)
        self._obs = np.empty((n, *self.layout.shape), dtype=np.float32)
        self._rewards = np.zeros(n, dtype=np.float32)
        self._terminated = np.zeros(n, dtype=bool)
        self._movers = np.zeros(n, dtype=np.int32)
        self._final_status = np.zeros(n, dtype=np.int32)
        self._lengths = np.zeros(n, dtype=np.int32)
        self._rng = np.random.default_rng(seed)
        self._reset_arrays(np.ones(self.num_envs, dtype=bool))

    # -- Gymnasium-style API ---------------------------------------------------------
    @property
    def observation_shape(self) -> tuple[int, int, int]:
        return self.layout.shape

    @one_thread_at_a_time
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        """Every environment to a new game; ``seed`` reseeds :meth:`sample_actions`.

        ``options={"reset_mask": mask}`` (Gymnasium's name) restarts only the
        environments where the boolean ``mask`` (one per environment) is True.
        """
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        selected = np.ones(self.num_envs, dtype=bool)
        if options and "reset_mask" in options:
            selected = np.asarray(options["reset_mask"])
            if selected.shape != (self.num_envs,) or selected.dtype != bool:
                raise ParameterError(f"reset_mask must be a bool array of shape ({self.num_envs},), got "
                                     f"{selected.dtype} of shape {selected.shape}")
        self._reset_arrays(selected)
        return self.observations(), {"current_player": self.current_player}

    @one_thread_at_a_time
    def step(self, actions) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Play one action per environment; see the class docstring for what comes back."""
        actions = self._check_actions(actions)
        if self.illegal == "raise":
            bad = self._kernels.first_illegal(actions, self._legal, self._n_legal)
            if bad >= 0:
                raise IllegalActionError(self._illegal_message(bad, int(actions[bad])))
        game = self.game
        code = self._kernels.step_all(self._states, self._params, self._initial, self._initial_key,
                                      self._keys, self._n_keys, self._legal, self._n_legal, self._scratch, actions,
                                      game.repetition_limit, game.action_limit, self._rewards, self._terminated,
                                      self._movers, self._final_status, self._lengths)
        self._check_overflow(code)
        info = {
            "mover": self._out(self._movers),
            "status": self._out(self._final_status),
            "episode_length": self._out(self._lengths),
            "current_player": self.current_player,
        }
        truncated = np.zeros(self.num_envs, dtype=bool)
        return (self.observations(), self._out(self._rewards), self._out(self._terminated), truncated, info)

    # -- Gymnasium spaces (need the gymnasium package) --------------------------------------
    @property
    def single_observation_space(self):
        """``Box(0, high, (planes, height, width), float32)``: one environment's observation."""
        spaces = _gymnasium_spaces()
        return spaces.Box(low=0.0, high=self.layout.high, shape=self.layout.shape, dtype=np.float32)

    @property
    def single_action_space(self):
        """``Discrete(num_distinct_actions)``: one environment's action ids."""
        return _gymnasium_spaces().Discrete(self.num_actions)

    @property
    def observation_space(self):
        """The batch's observations: ``Box`` of shape ``(num_envs, planes, height, width)``."""
        spaces = _gymnasium_spaces()
        return spaces.Box(low=0.0, high=self.layout.high, shape=(self.num_envs, *self.layout.shape),
                          dtype=np.float32)

    @property
    def action_space(self):
        """The batch's actions: ``MultiDiscrete`` with one id per environment."""
        return _gymnasium_spaces().MultiDiscrete(np.full(self.num_envs, self.num_actions))

    # -- reading the batch -------------------------------------------------------------
    @property
    def current_player(self) -> np.ndarray:
        """The player to move in each environment (``int32``; never finished: finished games reset)."""
        return self._states[:, PLAYER].copy()

    @property
    def states(self) -> np.ndarray:
        """The engine arrays, one row per environment (read-only view)."""
        view = self._states.view()
        view.flags.writeable = False
        return view

    def observations(self) -> np.ndarray:
        """Each environment seen by its player to move: ``(num_envs, planes, height, width)``."""
        self._kernels.encode_batch(self._states, self._params, self.layout.table, self._states[:, PLAYER],
                     self._obs.reshape(self.num_envs, -1))
        return self._out(self._obs)

    def action_mask(self, out: np.ndarray | None = None) -> np.ndarray:
        """``bool (num_envs, num_distinct_actions)``: True where an action is legal.

        Pass the previous mask as ``out`` to refill it in place: for large
        action spaces (Expendibots has 21,568 ids) that saves allocating the
        array on every step.
        """
        shape = (self.num_envs, self.num_actions)
        if out is None:
            out = np.zeros(shape, dtype=bool)
        else:
            if out.shape != shape or out.dtype != bool or not out.flags.c_contiguous:
                raise ParameterError(f"out must be a C-contiguous bool array of shape {shape}, got "
                                     f"{out.dtype} of shape {out.shape}")
            out[:] = False
        self._kernels.scatter_masks(self._legal, self._n_legal, out)
        return out

    def legal_actions(self, index: int) -> list[int]:
        """Environment ``index``'s legal actions, sorted."""
        return self._legal[index, :self._n_legal[index]].tolist()

    def legal_action_counts(self) -> np.ndarray:
        return self._n_legal.copy()

    def sample_actions(self) -> np.ndarray:
        """A uniformly random legal action for each environment (``int32``)."""
        choice = (self._rng.random(self.num_envs) * self._n_legal).astype(np.int64)
        return self._legal[np.arange(self.num_envs), choice]

    def state(self, index: int) -> State:
        """Environment ``index``'s position as a :class:`State` (without its
        history: repetitions counted in the batch start afresh there)."""
        return self.game.state_from_array(self._states[index])

    def __repr__(self) -> str:
        return f"<VectorEnv {self.game} x {self.num_envs}>"

    # -- helpers ------------------------------------------------------------------------
    def _reset_arrays(self, selected: np.ndarray) -> None:
        code = self._kernels.reset_selected(self._states, self._params, self._initial, self._initial_key,
                                            self._keys, self._n_keys, self._legal, self._n_legal, self._scratch,
                                            selected)
        self._check_overflow(code)

    def _out(self, array: np.ndarray) -> np.ndarray:
        return array.copy() if self.copy else array

    def _check_actions(self, actions) -> np.ndarray:
        try:
            array = np.asarray(actions)
        except (TypeError, ValueError):
            raise IllegalActionError(f"expected {self.num_envs} integer actions, got {actions!r}") from None
        if array.shape != (self.num_envs,) or not np.issubdtype(array.dtype, np.integer):
            raise IllegalActionError(f"expected an integer array of shape ({self.num_envs},), got "
                                     f"{array.dtype} of shape {array.shape}")
        return array.astype(np.int32, copy=False)

    def _illegal_message(self, index: int, action: int) -> str:
        state = self.state(index)
        legal = self.legal_actions(index)
        names = ", ".join(state.action_to_string(a) for a in legal[:20])
        more = f", ... ({len(legal)} in all)" if len(legal) > 20 else ""
        return (f"environment {index}: action {action} is not legal there (nothing was stepped); "
                f"legal actions: {legal[:20]} ({names}{more})")

    def _check_overflow(self, code: int) -> None:
        if code < 0:  # a broken bound in max_legal_actions, not a user error
            raise RuntimeError(f"{self.game}: more legal actions than max_legal_actions() allows")


def _gymnasium_spaces():
    require_extra("pettingzoo", "a VectorEnv's gymnasium space", modules=("gymnasium",))
    from gymnasium import spaces

    return spaces
