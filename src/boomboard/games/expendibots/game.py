"""Expendibots: the :class:`Game` and a :class:`State` that reads the board."""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from boomboard.core.board_view import BoardView, Cell
from boomboard.core.errors import IllegalActionError, NotationError
from boomboard.core.game import Game
from boomboard.core.geometry import Presentation
from boomboard.core.layout import PLAYER
from boomboard.core.outcome import EndReasons, Reason
from boomboard.core.state import State

from . import codec, evaluation, rules
from .notation import (
    COLOURS,
    COLUMN_LETTERS,
    START_POSITION,
    Action,
    Square,
    check_action,
    decode_action,
    encode_action,
    format_action,
    format_position,
    format_short,
    format_short_position,
    on_board,
    parse_action,
    parse_colour,
    parse_any_position,
    square_index,
    square_name,
    square_of,
)
from .rules import BOARD, NUM_ACTIONS, REASON_BOTH_NO_TOKENS, REASON_NO_TOKENS, SIZE, STATE_SIZE, TOKENS

# How a game of Expendibots ends by its own rules (the shared reasons aside).
END_REASONS = EndReasons(Reason(REASON_NO_TOKENS, "NO_TOKENS", "the opponent has no tokens left"),
                         Reason(REASON_BOTH_NO_TOKENS, "BOTH_NO_TOKENS", "no tokens remaining"))


def _square_index(square: Any) -> int:
    if (not isinstance(square, (tuple, list)) or len(square) != 2
            or not all(isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in square) or not on_board(square)):
        raise NotationError(f"expected a square (x, y) with x and y in 0..{SIZE - 1}; got {square!r}")
    return square_index(square)


def _player(colour: int | str) -> int:
    if isinstance(colour, str):
        return parse_colour(colour)
    if colour in (0, 1):
        return int(colour)
    raise NotationError(f"expected a player, 0 (white) or 1 (black); got {colour!r}")


class ExpendibotsState(State):
    """A position of Expendibots.

    >>> import boomboard
    >>> state = boomboard.load_game("expendibots").new_initial_state()
    >>> state.stack((3, 1)), state.stack((3, 2))
    (('white', 1), None)
    >>> action = state.play("MOVE 1 from (3, 1) to (3, 2).")  # the course's form, read as any other
    >>> state.stack((3, 2)), state.tokens("white")
    (('white', 1), 12)
    >>> state.action_to_string(action), state.action_to_tuple(action)
    ('1 d2 d3', ('MOVE', 1, (3, 1), (3, 2)))
    >>> state.action_to_course(action)
    'MOVE 1 from (3, 1) to (3, 2).'
    """

    __slots__ = ()

    def stack(self, square: Square) -> tuple[str, int] | None:
        """The stack on ``square`` ``(x, y)`` as ``(colour, tokens)``, or ``None`` if empty."""
        height = int(self._array[BOARD + _square_index(square)])
        if height == 0:
            return None
        return COLOURS[0 if height > 0 else 1], abs(height)

    def stacks(self, colour: int | str) -> list[tuple[int, int, int]]:
        """Every stack of ``colour`` (``"white"``/``"black"`` or 0/1) as ``(n, x, y)``,
        sorted by ``(y, x)`` as the position notation lists them."""
        sign = 1 - 2 * _player(colour)
        return [(int(h) * sign, *square_of(sq)) for sq, h in enumerate(self._array[BOARD:]) if h * sign > 0]

    def tokens(self, colour: int | str) -> int:
        """How many tokens ``colour`` (``"white"``/``"black"`` or 0/1) has on the board."""
        return int(self._array[TOKENS + _player(colour)])

    def action_to_tuple(self, action: int) -> Action:
        """The referee's tuple for an action id: ``("MOVE", n, (xa, ya), (xb, yb))`` or ``("BOOM", (x, y))``."""
        return decode_action(int(action))

    def action_to_course(self, action: int) -> str:
        """The course referee's text for an action id, ``MOVE 1 from (1, 1) to (1, 2).``
        or ``BOOM at (1, 1).``: spoken only where the course's protocol needs it
        (its referee's log, its puzzle's answer); people read :meth:`action_to_string`."""
        return format_action(decode_action(int(action)))

    def tuple_to_action(self, action: Any) -> int:
        """The id of a referee tuple, checked to be legal here."""
        return self._game.legal_id(self, check_action(action))


class ExpendibotsGame(Game):
    """Expendibots: move stacks of bots, explode them, chain reactions across both armies."""

    name = "expendibots"
    capabilities = ("search", "play", "learning")
    analysis_model = "analysis-expendibots.json"  # fitted by benchmarks/analysis_quality.py
    course_protocol = "notation"  # its encode_action and decode_action are the course's tuples
    # measured: docs/results/expendibots-course.md
    ai_settings = ("alphabeta", {"contempt": 50, "reductions": 1, "variety_plies": 20, "learned": 1})
    opening_book = "book.json"  # built by benchmarks/opening_book.py: docs/results/strength.md
    title = "Expendibots"
    parameters = ()
    player_names = COLOURS
    rules = rules
    state_class = ExpendibotsState
    end_reasons = END_REASONS
    presentation = Presentation(colours=("#f6f1e3", "#25252b"), pieces="tokens")  # white, black
    move_forms = ("a number of tokens, from-square, to-square ('1 b2 b3' moves 1 token from b2 to b3; "
                  "squares as the board labels them), or 'boom' and a square ('boom b2'); the course "
                  "referee's form works too ('MOVE 1 from (1, 1) to (1, 2).', 'BOOM at (1, 1).')")
    repetition_limit = 4  # a position's 4th occurrence, the start counted, ties
    action_limit = 500  # 250 turns each
    params_root_slot = evaluation.P_ROOT  # the evaluation's contempt for trading down (KEEP)
    typical_plies = 120  # games against course agents: 80 to 160 plies (docs/results/strength.md), a few to the action limit

    def _build_params_array(self, values: dict[str, Any]) -> np.ndarray:
        return evaluation.params_with_weights(rules.build_params())

    # -- the strong solver (endgame keys: codec.py; no layers: positions repeat) -----
    solver_min_tokens = 2  # solved as endgames of at most --tokens tokens, one of each colour at least

    def solver_codec_spec(self, tokens: int = 0) -> tuple[list[int], int]:
        """Up to ``tokens`` stacks in square order, the player to move (see ``codec.py``)."""
        return codec.codec_spec(tokens)

    def solver_start_keys(self, tokens: int) -> np.ndarray:
        """Every position with at most ``tokens`` tokens, one of each colour at least."""
        return codec.placements(tokens)

    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    def max_game_length(self) -> int:
        return self.action_limit

    def max_legal_actions(self) -> int:
        """A stack of ``n`` tokens has at most ``4 * n * min(n, 7)`` moves and one
        boom; with 12 tokens that is at most ``4*12*7 + 12``."""
        return min(NUM_ACTIONS, 4 * 12 * 7 + 12)

    def _build_initial_array(self) -> np.ndarray:
        return self.array_from_notation(START_POSITION)

    # -- notation ---------------------------------------------------------------
    def array_from_notation(self, text: str) -> np.ndarray:
        """The engine array of a position, JSON or short; a side without tokens has already lost."""
        cells, player = parse_any_position(text)
        array = np.zeros(STATE_SIZE, dtype=np.int32)
        array[PLAYER] = player
        array[BOARD:] = cells
        array[TOKENS] = sum(h for h in cells if h > 0)
        array[TOKENS + 1] = -sum(h for h in cells if h < 0)
        rules.end_by_tokens(array)
        return array

    def position_to_notation(self, state: State) -> str:
        return format_position(state.array[BOARD:], int(state.array[PLAYER]))

    def position_for_people(self, state: State) -> str:
        """The short form, in the squares' names the board shows: ``white a1 b1 ...; black a7 ...; white to move``."""
        return format_short_position(state.array[BOARD:], int(state.array[PLAYER]))

    def action_to_string(self, state: State, action: int) -> str:
        """The short form, as the board labels squares: ``1 b2 b3`` or ``boom b2``."""
        return format_short(decode_action(action))

    def string_to_action(self, state: State, text: str) -> int:
        return self.legal_id(state, parse_action(text))

    def legal_id(self, state: State, action: Action) -> int:
        """The id of a checked referee action if it is legal in ``state``, else an
        :class:`IllegalActionError` saying why."""
        action_id = encode_action(action)
        if action_id in state.legal_actions():
            return action_id
        outcome = state.outcome()
        if outcome is not None:
            raise IllegalActionError(f"the game is over ({outcome.describe(self.player_names)}); "
                                     "no action is legal")
        mover = state.player_to_move()
        colour = COLOURS[mover]
        origin = action[1] if action[0] == "BOOM" else action[2]
        height = state.array[BOARD + square_index(origin)] * (1 - 2 * mover)
        if height <= 0:
            raise IllegalActionError(f"{colour.capitalize()} is to move and {square_name(origin)} "
                                     f"holds no {colour} stack")
        _, count, (xa, ya), target = action
        distance = abs(target[0] - xa) + abs(target[1] - ya)
        where = f"the stack on {square_name(origin)}"
        tokens = f"{height} token{'s' if height > 1 else ''}"
        if count > height:
            takes = "that 1 token" if height == 1 else f"1 to {height} of them"
            raise IllegalActionError(f"{where} has only {tokens}, so a move from it takes {takes}, not {count}")
        if distance > height:
            reach = "1 square" if height == 1 else f"1 to {height} squares"
            raise IllegalActionError(f"{where} has {tokens}, so it moves {reach}; "
                                     f"{square_name(target)} is {distance} squares away")
        raise IllegalActionError(f"{square_name(target)} holds a {COLOURS[1 - mover]} stack; "
                                 "a move lands on an empty square or an own stack")

    # -- the picture ------------------------------------------------------------
    def board_view(self, state: State) -> BoardView:
        cells = state.array[BOARD:]
        rows = []
        for y in reversed(range(SIZE)):
            row = []
            for x in range(SIZE):
                height = int(cells[square_index((x, y))])
                owner = None if height == 0 else (0 if height > 0 else 1)
                row.append(Cell(".") if owner is None else Cell(f"{'wb'[owner]}{abs(height)}", owner))
            rows.append(row)
        outcome = state.outcome()
        if outcome is None:
            caption = f"{COLOURS[state.player_to_move()].capitalize()} to move"
        else:
            caption = outcome.describe(self.player_names)
        # labelled as the move notation names squares (a1 is the course's (0, 0))
        rank_labels = [str(y + 1) for y in range(SIZE)]
        return BoardView(rows, list(reversed(rank_labels)), list(COLUMN_LETTERS), caption=caption)
