"""The :class:`Game` every game subclasses: metadata, parameters and notation.

A game subclass declares its metadata and parameters as class attributes,
names its compiled ``rules`` module, and implements the few methods marked
"game-specific" below (building the arrays and reading and writing its
native notations). Everything else, the whole :class:`State` API included,
is shared.
"""

from __future__ import annotations

import json
from types import ModuleType
from typing import Any, ClassVar

import numpy as np

from .board_view import BoardView
from .errors import NotationError
from .params import Parameter, game_string, resolve
from .state import State


def _rebuild_game(cls: type[Game], values: dict[str, Any]) -> Game:
    return cls(**values)


class Game:
    """A game with fixed parameters: a factory of states and the notation's home.

    Subclasses set:

    * ``name``: the registry name (``"kaboom"``), ``title`` a display name;
    * ``parameters``: a tuple of :class:`Parameter`;
    * ``player_names``: the two players as the game calls them;
    * ``rules``: the module of compiled kernels (see :mod:`boomboard.core.layout`);
    * ``repetition_limit`` / ``action_limit`` where the game has those rules
      (set them before ``super().__init__`` or in ``_build_params_array``).
    """

    name: ClassVar[str]
    title: ClassVar[str]
    parameters: ClassVar[tuple[Parameter, ...]] = ()
    player_names: ClassVar[tuple[str, str]]
    rules: ClassVar[ModuleType]
    state_class: ClassVar[type[State]] = State
    repetition_limit: int = 0  # a position's n-th occurrence ties (0: no such rule)
    action_limit: int = 0  # this many actions tie (0: no such rule)

    def __init__(self, **params: Any):
        self._values = resolve(self.parameters, params)
        self.params_array = self._build_params_array(self._values)
        self.action_buffer = np.empty(self.num_distinct_actions(), dtype=np.int32)
        self._initial = self._build_initial_array()
        self._initial.flags.writeable = False

    # -- metadata (OpenSpiel's names) -------------------------------------------
    def get_parameters(self) -> dict[str, Any]:
        return dict(self._values)

    def __getitem__(self, name: str) -> Any:
        return self._values[name]

    def num_players(self) -> int:
        return 2

    def num_distinct_actions(self) -> int:
        raise NotImplementedError  # game-specific

    def max_game_length(self) -> int:
        raise NotImplementedError  # game-specific

    @property
    def tracks_history(self) -> bool:
        """Whether states keep position keys for the repetition and length rules."""
        return bool(self.repetition_limit or self.action_limit)

    def __str__(self) -> str:
        return game_string(self.name, self.parameters, self._values)

    def __repr__(self) -> str:
        return f"<boomboard game {self}>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and str(self) == str(other)

    def __hash__(self) -> int:
        return hash(str(self))

    def __reduce__(self):
        return (_rebuild_game, (type(self), self._values))

    # -- states -------------------------------------------------------------------
    def initial_array(self) -> np.ndarray:
        """The engine array of the first position (read-only)."""
        return self._initial

    def new_initial_state(self) -> State:
        return self.state_class(self, self._initial.copy(), _root=self._initial)

    def state_from_array(self, array: np.ndarray) -> State:
        """A state over an engine array already checked to be a possible position."""
        array = np.ascontiguousarray(array, dtype=np.int32).copy()
        array.flags.writeable = False
        return self.state_class(self, array.copy(), _root=array)

    def state_from_notation(self, text: str) -> State:
        """A state from the game's native position notation (validated)."""
        if not isinstance(text, str):
            raise NotationError(f"expected a position as text, got {type(text).__name__}")
        return self.state_from_array(self.array_from_notation(text))

    def deserialize_state(self, text: str) -> State:
        """The inverse of :meth:`State.serialize`."""
        try:
            record = json.loads(text)
            if not isinstance(record, dict):
                raise TypeError
            actions = record["actions"]
            recorded_game = record["game"]
        except (TypeError, ValueError, KeyError, RecursionError):
            raise NotationError(
                'expected a serialized state: {"game": ..., "actions": [...], "position"?: ...}'
            ) from None
        if recorded_game != str(self):
            raise NotationError(f"the state belongs to {recorded_game!r:.80}, not to {self}")
        position = record.get("position")
        state = self.new_initial_state() if position is None else self.state_from_notation(position)
        if not isinstance(actions, list):
            raise NotationError("'actions' must be a list of action ids")
        for action in actions:
            if isinstance(action, bool) or not isinstance(action, int):
                raise NotationError(f"'actions' must hold integer action ids; got {action!r:.60}")
            state.apply_action(action)
        return state

    # -- game-specific ----------------------------------------------------------------
    def _build_params_array(self, values: dict[str, Any]) -> np.ndarray:
        raise NotImplementedError

    def _build_initial_array(self) -> np.ndarray:
        raise NotImplementedError

    def array_from_notation(self, text: str) -> np.ndarray:
        raise NotImplementedError

    def position_to_notation(self, state: State) -> str:
        raise NotImplementedError

    def action_to_string(self, state: State, action: int) -> str:
        raise NotImplementedError

    def string_to_action(self, state: State, text: str) -> int:
        raise NotImplementedError

    def board_view(self, state: State) -> BoardView:
        raise NotImplementedError
