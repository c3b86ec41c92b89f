"""The :class:`State` every game shares: a thin Python wrapper over one array.

All rules run in the game's compiled kernels; this class adds what people
need around them: checked actions, notation, history, undo, serialization,
pickling, equality and a readable board. It follows OpenSpiel's names.
"""

from __future__ import annotations

import json
import numbers
from bisect import bisect_left
from typing import TYPE_CHECKING
from collections.abc import Iterable

import numpy as np

from .errors import BoomboardError, GameOverError, IllegalActionError, NotationError
from .layout import HEADER, PLAYER, PLY, REASON, STATUS
from .outcome import Outcome, outcome_from_codes

if TYPE_CHECKING:
    from .game import Game

TERMINAL_PLAYER = -4  # pyspiel.PlayerId.TERMINAL


def action_id(value: object) -> int:
    """``value`` as an action id: any integer type (NumPy's included), but not a
    bool, a float or a string, which raise :class:`IllegalActionError`."""
    if isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_)):
        return int(value)
    raise IllegalActionError(f"an action id must be an integer, got {value!r:.60}")


class State:
    """A position in a game, with the actions that led to it.

    Make one with :meth:`Game.new_initial_state` or
    :meth:`Game.state_from_notation`; then play with :meth:`apply_action`
    (integer ids) or :meth:`play` (the game's notation)::

        >>> import boomboard
        >>> state = boomboard.load_game("kaboom").new_initial_state()
        >>> state.play("B")
        >>> state.action_to_string(state.legal_actions()[0])
        'A'
    """

    __slots__ = ("_game", "_array", "_keys", "_n_keys", "_history", "_legal", "_root")

    def __init__(self, game: Game, array: np.ndarray, *, _root: np.ndarray | None = None):
        self._game = game
        self._array = array
        self._history: list[int] = []
        self._legal: list[int] | None = None
        self._root = array.copy() if _root is None else _root
        if game.tracks_history:
            self._keys = np.zeros(game.action_limit + 2, dtype=np.uint64)
            self._keys[0] = game.rules.position_key(array, game.params_array)
            self._n_keys = 1
        else:
            self._keys = None
            self._n_keys = 0

    # -- reading the position ---------------------------------------------
    def get_game(self) -> Game:
        return self._game

    @property
    def game(self) -> Game:
        return self._game

    @property
    def array(self) -> np.ndarray:
        """The engine's array (read-only view): the header, then the game's data."""
        view = self._array.view()
        view.flags.writeable = False
        return view

    def current_player(self) -> int:
        """0 or 1, or ``TERMINAL_PLAYER`` (-4) once the game is over."""
        if self._array[STATUS]:
            return TERMINAL_PLAYER
        return int(self._array[PLAYER])

    def player_to_move(self) -> int:
        """The player whose turn it is, also in a finished game."""
        return int(self._array[PLAYER])

    def ply(self) -> int:
        """Actions played since the game's first position."""
        return int(self._array[PLY])

    def is_terminal(self) -> bool:
        return bool(self._array[STATUS])

    def outcome(self) -> Outcome | None:
        """How the game ended (winner and reason), or ``None`` while it goes on."""
        return outcome_from_codes(int(self._array[STATUS]), int(self._array[REASON]), self._game.end_reasons)

    def returns(self) -> list[float]:
        outcome = self.outcome()
        return outcome.returns() if outcome else [0.0, 0.0]

    def rewards(self) -> list[float]:
        """Rewards for the last action: the returns once it ended the game."""
        return self.returns()

    def is_chance_node(self) -> bool:
        return False

    def num_players(self) -> int:
        return 2

    # -- actions ----------------------------------------------------------
    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal action ids, sorted; empty in a finished game."""
        if player is not None and player != self.current_player():
            return []
        if self._legal is None:
            game = self._game
            try:  # Game.action_scratch, inlined: this is the hottest call from Python
                buffer = game._scratch.actions
            except AttributeError:
                buffer = game.action_scratch()
            n = game.rules.legal_actions(self._array, game.params_array, buffer)
            self._legal = buffer[:n].tolist()
        return list(self._legal)

    def legal_actions_mask(self, player: int | None = None) -> np.ndarray:
        """An int8 vector of length ``num_distinct_actions()``, 1 where legal."""
        mask = np.zeros(self._game.num_distinct_actions(), dtype=np.int8)
        mask[self.legal_actions(player)] = 1
        return mask

    def apply_action(self, action: int) -> None:
        """Play the action with this id; raise :class:`IllegalActionError` if it is not legal."""
        if self._array[STATUS]:
            raise GameOverError(f"the game is over ({self._describe_outcome()}); no action can be applied")
        action = action_id(action)
        legal = self._legal if self._legal is not None else self.legal_actions()
        index = bisect_left(legal, action)  # legal actions are sorted
        if index == len(legal) or legal[index] != action:
            raise IllegalActionError(self._illegal_message(action, legal))
        self._apply_unchecked(action)

    def _apply_unchecked(self, action: int) -> None:
        game = self._game
        if self._keys is None:
            game.rules.apply_action(self._array, game.params_array, action)
        else:
            self._n_keys = game.history_kernels.apply_and_record(self._array, game.params_array, action, self._keys,
                                                                 self._n_keys, game.repetition_limit,
                                                                 game.action_limit)
        self._history.append(action)
        self._legal = None

    def play(self, text: str) -> int:
        """Parse ``text`` in the game's notation, apply it and return its id."""
        action = self.string_to_action(text)
        self.apply_action(action)
        return action

    def child(self, action: int) -> State:
        """A new state after ``action``; this one is unchanged."""
        state = self.clone()
        state.apply_action(action)
        return state

    def first_state(self) -> State:
        """A fresh state at the position this game started from."""
        return self._game.state_class(self._game, self._root.copy(), _root=self._root)

    def undo(self, count: int = 1) -> None:
        """Take back the last ``count`` actions (replays from the first position)."""
        if isinstance(count, bool) or not isinstance(count, numbers.Integral):
            raise IllegalActionError(f"the number of actions to undo must be an integer, got {count!r:.60}")
        if count < 0 or count > len(self._history):
            raise IllegalActionError(f"cannot undo {count} action(s); {len(self._history)} played")
        actions = self._history[: len(self._history) - count]
        fresh = self.first_state()
        for action in actions:
            fresh._apply_unchecked(action)
        self._array, self._keys, self._n_keys = fresh._array, fresh._keys, fresh._n_keys
        self._history, self._legal = fresh._history, None

    def history(self) -> list[int]:
        """The action ids played since the first position, in order."""
        return list(self._history)

    def history_strings(self) -> list[str]:
        """The history in the game's notation."""
        replay = self.first_state()
        words = []
        for action in self._history:
            words.append(replay.action_to_string(action))
            replay._apply_unchecked(action)
        return words

    def repetitions(self) -> int:
        """How often the current position has occurred (1 the first time);
        0 for games without a repetition rule."""
        if self._keys is None:
            return 0
        key = self._keys[self._n_keys - 1]
        return int(np.count_nonzero(self._keys[: self._n_keys] == key))

    # -- notation ---------------------------------------------------------
    def action_to_string(self, action: int, player: int | None = None) -> str:
        """The action in the game's native notation."""
        del player  # one notation for both players, as in OpenSpiel's signature
        return self._game.action_to_string(self, action_id(action))

    def string_to_action(self, text: str, player: int | None = None) -> int:
        """Parse the game's notation into an id that is legal here."""
        del player
        if not isinstance(text, str):
            raise NotationError(f"expected an action as text, got {type(text).__name__}")
        return self._game.string_to_action(self, text)

    def to_notation(self) -> str:
        """The position in the game's native notation."""
        return self._game.position_to_notation(self)

    def to_people_notation(self) -> str:
        """The position as people read and type it (the terminal, the web page);
        :meth:`Game.state_from_notation` reads it back."""
        return self._game.position_for_people(self)

    def board_view(self):
        return self._game.board_view(self)

    def serialize(self) -> str:
        """One line of JSON: the game, its first position and the actions since.

        Replaying keeps the history rules (repetition, action limit) exact.
        """
        record = {"game": str(self._game), "actions": self._history}
        if not np.array_equal(self._root, self._game.initial_array()):
            record["position"] = self.first_state().to_notation()
        return json.dumps(record, separators=(",", ":"))

    # -- copying, pickling, comparing ----------------------------------------
    def clone(self) -> State:
        twin = object.__new__(type(self))
        twin._game = self._game
        twin._array = self._array.copy()
        twin._keys = None if self._keys is None else self._keys.copy()
        twin._n_keys = self._n_keys
        twin._history = self._history.copy()
        twin._legal = self._legal
        twin._root = self._root
        return twin

    __copy__ = clone

    def __deepcopy__(self, memo) -> State:
        return self.clone()

    def __getstate__(self):
        keys = None if self._keys is None else self._keys[: self._n_keys].copy()
        return (self._game, self._array, keys, self._history, self._root)

    def __setstate__(self, saved) -> None:
        self._game, self._array, keys, self._history, self._root = saved
        self._legal = None
        if keys is None:
            self._keys, self._n_keys = None, 0
        else:
            self._keys = np.zeros(self._game.action_limit + 2, dtype=np.uint64)
            self._keys[: len(keys)] = keys
            self._n_keys = len(keys)

    def _position_bytes(self) -> bytes:
        # The position is everything but the ply counter: two move orders that
        # reach the same board, player to move and result give equal states.
        a = self._array
        return a[:PLY].tobytes() + a[HEADER:].tobytes()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return str(self._game) == str(other._game) and self._position_bytes() == other._position_bytes()

    def __hash__(self) -> int:
        return hash((str(self._game), self._position_bytes()))

    def __str__(self) -> str:
        return self.board_view().to_text()

    def __repr__(self) -> str:
        return f"<{self._game.title} {self.to_notation()!r}>"

    # -- messages -----------------------------------------------------------
    def _describe_outcome(self) -> str:
        outcome = self.outcome()
        return outcome.describe(self._game.player_names) if outcome else "ongoing"

    def _illegal_message(self, action: int, legal: Iterable[int]) -> str:
        names = [self.action_to_string(a) for a in legal]
        shown = ", ".join(names[:40]) + (f", ... ({len(names)} in all)" if len(names) > 40 else "")
        move = f"action {action}"
        if 0 <= action < self._game.num_distinct_actions():
            try:  # the move as people write it, where the id names one
                move = f"{self.action_to_string(action)} ({move})"
            except (BoomboardError, LookupError, ValueError):
                pass
        return f"{move} is not legal here; legal actions: {shown}"
