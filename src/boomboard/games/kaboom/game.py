"""Kaboom: connect n in a row on a gravity board, with bombs."""

from __future__ import annotations

from typing import Any

import numpy as np

from boomboard.core.board_view import BoardView, Cell
from boomboard.core.errors import IllegalActionError, InvalidPositionError, ParameterError
from boomboard.core.game import Game
from boomboard.core.geometry import Presentation
from boomboard.core.layout import PLAYER, REASON, STATUS
from boomboard.core.outcome import EndReasons, Outcome, Reason
from boomboard.core.params import Parameter
from boomboard.core.state import State

from . import bitboard, codec, ranking, rules
from .notation import (
    BOMB_CHARS,
    CELL_CHARS,
    CELL_VALUES,
    COLUMN_LETTERS,
    PLAYER_LETTERS,
    Position,
    action_name,
    cell_name,
    check_position,
    parse_action,
    parse_cell,
    parse_column,
    parse_position,
    write_position,
)
from .rules import (ARMED, BOMB, FILLED, HAND, HEIGHT, PRIMED, REASON_BOTH_CONNECT, REASON_CONNECT,
                    REASON_NO_ACTIONS)

# How a game of Kaboom ends (it has no history rules); KaboomState.outcome names the line length.
END_REASONS = EndReasons(Reason(REASON_CONNECT, "CONNECT", "connected n in a row"),
                         Reason(REASON_BOTH_CONNECT, "BOTH_CONNECT", "both players connected n in a row"),
                         Reason(REASON_NO_ACTIONS, "NO_ACTIONS", "the board is full and no bomb is left on it"))


class KaboomState(State):
    """A Kaboom position.

    >>> import boomboard
    >>> game = boomboard.load_game("kaboom")
    >>> state = game.state_from_notation("(o 0 1 xoxx --*o --oo --x-)")
    >>> state.cell("C2"), state.cell("A2"), state.column_height("C")
    ('*', None, 4)
    >>> state.bombs_in_hand(1), state.bombs_on_board(0)
    (1, 1)
    >>> state.play("B*")
    5
    >>> state.cell("B2")
    '@'
    """

    __slots__ = ()

    def cell(self, name: str) -> str | None:
        """What stands on cell ``name`` (``"C2"``: column letter, row from the
        bottom): ``"x"``, ``"o"``, ``"*"`` (X's bomb), ``"@"`` (O's bomb) or
        ``None`` when it is empty."""
        cols = self._game["cols"]
        row, column = parse_cell(name, self._game["rows"], cols)
        return CELL_CHARS[int(self._array[HEIGHT + cols + row * cols + column])].replace("-", "") or None

    def column_height(self, column: str) -> int:
        """How many pieces and bombs stand in ``column`` (a letter)."""
        return int(self._array[HEIGHT + parse_column(column, self._game["cols"])])

    def bombs_in_hand(self, player: int) -> int:
        """Bombs ``player`` (0 for X, 1 for O) has not dropped yet."""
        return int(self._array[HAND + player])

    def bombs_on_board(self, player: int) -> int:
        """``player``'s bombs standing on the board, ready to detonate."""
        return int(self._array[ARMED + player])

    def outcome(self) -> Outcome | None:
        """The result, with a sentence that names the line length (and, in
        misère, who connected)."""
        outcome = super().outcome()
        if outcome is None:
            return None
        n = self._game["connect"]
        detail = {
            END_REASONS.CONNECT: f"connected {n} in a row",
            END_REASONS.BOTH_CONNECT: f"both players connected {n} in a row",
        }.get(outcome.reason, outcome.reason.text)
        if outcome.reason == END_REASONS.CONNECT and self._game["misere"]:
            loser = PLAYER_LETTERS[1 - outcome.winner].upper()
            detail = f"{loser} {detail} (misère)"
        return Outcome(outcome.winner, outcome.reason, detail)


class KaboomGame(Game):
    """Kaboom: drop pieces to connect n in a row; drop bombs and detonate them
    to blow pieces out from under the opponent."""

    name = "kaboom"
    capabilities = ("search", "play", "learning")
    analysis_model = "analysis-kaboom.json"  # fitted by benchmarks/analysis_quality.py
    title = "Kaboom"
    # Tied with perfect play from most openings: among tying moves, ``ai``
    # sets the most traps (measured against OpenSpiel's MCTS: docs/results/strength.md).
    # proofs: most of its positions near the end are proved within the budget (benchmarks/variety_proof_cost.py)
    ai_settings = ("alphabeta", {"traps": 1, "proofs": 1, "book": 1})
    # One book per variant, each with the variant it is for: Connect-4 on 7x6 (--bombs 0), the first
    # player's winning moves, each proved (benchmarks/proved_book.py; docs/results/solved.md).
    opening_book = "books"
    player_names = ("x", "o")
    rules = rules
    state_class = KaboomState
    end_reasons = END_REASONS
    presentation = Presentation(colours=("#e0662a", "#238a6d"))  # x, o
    parameters = (
        Parameter("rows", 4, "rows of the board, numbered 1, 2, ... from the bottom", minimum=1, maximum=12),
        Parameter("cols", 4, "columns of the board, lettered A, B, ... from the left", minimum=1, maximum=12),
        Parameter("connect", 4, "pieces in a row that end the game (at most max(rows, cols))", minimum=1),
        Parameter("bombs", 1, "bombs each player may drop (at most rows * cols)", minimum=0),
        Parameter("misere", False, "misère: the player who connects n in a row loses"),
        Parameter("superbomb", False, "a detonation removes the bomb's whole row and column"),
    )
    # what boomboard explore sweeps: boards the solver or a few self-play games cover in minutes
    lab_axes = {"rows": (1, 8), "cols": (1, 8), "connect": (1, 8), "bombs": (0, 4), "misere": (0, 1),
                "superbomb": (0, 1)}

    def _build_params_array(self, values: dict[str, Any]) -> np.ndarray:
        rows, cols = values["rows"], values["cols"]
        if values["connect"] > max(rows, cols):
            raise ParameterError(f"parameter 'connect' must be at most max(rows, cols) = {max(rows, cols)} "
                                 f"on a {rows}x{cols} board, got {values['connect']}")
        if values["bombs"] > rows * cols:
            raise ParameterError(f"parameter 'bombs' must be at most rows * cols = {rows * cols}, "
                                 f"got {values['bombs']}")
        return rules.make_params(rows, cols, values["connect"], values["bombs"], values["misere"],
                                 values["superbomb"])

    @classmethod
    def from_position_string(cls, text: str, **params: Any) -> tuple[KaboomGame, KaboomState]:
        """The game and state of a position string alone: ``rows`` and ``cols``
        come from the string, the other parameters from ``params``.

        >>> game, state = KaboomGame.from_position_string("(x 0 0 xo- o-- ---)", connect=3, bombs=0)
        >>> str(game), state.legal_actions()
        ('kaboom(rows=3,cols=3,connect=3,bombs=0)', [0, 1, 2])
        """
        position = parse_position(text)
        if not position.rows:
            raise InvalidPositionError("a position needs at least one row")
        shape = {"rows": len(position.rows), "cols": len(position.rows[0])}
        for key, value in shape.items():
            if key in params and params[key] != value:
                raise ParameterError(f"the position has {value} {key}, but {key}={params[key]} was given")
        game = cls(**{**params, **shape})
        return game, game.state_from_notation(text)

    # -- the strong solver (keys and layers: codec.py) -------------------------------
    solver_layered = True  # every move climbs to a later layer: solvable a layer at a time

    def solver_codec_spec(self, tokens: int = 0) -> tuple[list[int], int]:
        """Each cell one of 5, the bombs in each hand, the player to move (see ``codec.py``)."""
        return codec.codec_spec(self["rows"], self["cols"], self["bombs"])

    def solver_layer_count(self, spec: np.ndarray) -> int:
        """Layers by (bombs detonated, bombs dropped, cells filled, must pass)."""
        return codec.layer_count(spec)

    def solver_dense_spec(self) -> list[int] | None:
        """Tiers by heights, counts and bombs; ranks by arrangement (see ``ranking.py``)."""
        return ranking.dense_spec(self["rows"], self["cols"], self["bombs"], self["superbomb"])

    # -- the bitboard engine (bitboard.py) ------------------------------------------
    # The same rules on a few 64-bit words, for searches that need speed; the
    # array engine stays the reference and the fallback for larger boards.
    bitboard_kernels = bitboard

    @property
    def bitboard_fits(self) -> bool:
        """Whether this board fits the bitboard engine: ``(rows + 1) * cols <= 64``."""
        return bitboard.fits(self["rows"], self["cols"])

    def bitboard_geometry(self) -> np.ndarray:
        """The geometry array the bitboard kernels take for this game;
        ``ParameterError`` where the board does not fit."""
        return bitboard.geometry(self.params_array)

    def proof_engine_params(self) -> np.ndarray | None:
        """The prover searches bitboards (``proof_engine.py``) where the board fits them."""
        return self.bitboard_geometry() if self.bitboard_fits else None

    def dense_engine_params(self) -> np.ndarray | None:
        """The dense solver plays bitboards (``dense_engine.py``) where the board fits them."""
        return self.bitboard_geometry() if self.bitboard_fits else None

    # -- sizes --------------------------------------------------------------------
    def num_distinct_actions(self) -> int:
        return 2 * self["cols"] + self["rows"] * self["cols"] + 1

    def max_game_length(self) -> int:
        """``rows*cols + 2*bombs*(K + 2)``, where ``K`` is the most cells one
        bomb's blast can empty (5, or ``rows + cols - 1`` for superbombs): every
        drop fills a cell and only blasts empty them; each of the ``2*bombs``
        bombs is detonated at most once, and a pass is always answered by a
        detonation (the derivation is in ``rules.py``)."""
        rows, cols = self["rows"], self["cols"]
        blast = rows + cols - 1 if self["superbomb"] else 5
        return rows * cols + 2 * self["bombs"] * (blast + 2)

    # -- arrays -------------------------------------------------------------------
    def _build_initial_array(self) -> np.ndarray:
        empty_row = "-" * self["cols"]
        return self._array(Position(0, (self["bombs"], self["bombs"]), (empty_row,) * self["rows"]))

    def _array(self, position: Position) -> np.ndarray:
        """The engine array of a checked position, its result computed: a
        position with n in a row, or a full board without bombs, has ended."""
        rows, cols = self["rows"], self["cols"]
        array = np.zeros(HEIGHT + cols + rows * cols, dtype=np.int32)
        array[PLAYER] = position.player
        array[HAND:HAND + 2] = position.hands
        board = HEIGHT + cols
        for row, text in enumerate(position.rows):
            for column, char in enumerate(text):
                value = CELL_VALUES[char]
                array[board + row * cols + column] = value
                if value:
                    array[HEIGHT + column] += 1
                    array[FILLED] += 1
                if value & BOMB:
                    array[ARMED + (value & 3) - 1] += 1
        rules.settle_result(array, self.params_array, rules.connected_sides(array, self.params_array))
        if not array[STATUS] and rules.nobody_can_act(array, self.params_array):
            array[STATUS] = rules.STATUS_TIE
            array[REASON] = rules.REASON_NO_ACTIONS
        return array

    # -- notation -----------------------------------------------------------------
    def array_from_notation(self, text: str) -> np.ndarray:
        position = parse_position(text)
        check_position(position, self["rows"], self["cols"], self["bombs"])
        return self._array(position)

    def _rows(self, state: State) -> list[str]:
        """The board as position-string rows, bottom first."""
        cols = self["cols"]
        cells = state.array[HEIGHT + cols:]
        # A bomb primed in a recorded animation step (PRIMED or more) has left the board.
        return ["".join(CELL_CHARS[int(v)] if v < PRIMED else "-" for v in cells[row * cols:(row + 1) * cols])
                for row in range(self["rows"])]

    def position_to_notation(self, state: State) -> str:
        array = state.array
        return write_position(int(array[PLAYER]), (int(array[HAND]), int(array[HAND + 1])), self._rows(state))

    def action_to_string(self, state: State, action: int) -> str:
        return action_name(action, self["rows"], self["cols"])

    def string_to_action(self, state: State, text: str) -> int:
        action = parse_action(text, self["rows"], self["cols"])
        legal = state.legal_actions()
        if action in legal:
            return action
        outcome = state.outcome()
        if outcome is not None:
            raise IllegalActionError(f"the game is over ({outcome.describe(self.player_names)}); no move is legal")
        names = ", ".join(self.action_to_string(state, a) for a in legal)
        raise IllegalActionError(f"{self._why_illegal(state, action)}; legal moves: {names}")

    def _why_illegal(self, state: State, action: int) -> str:
        rows, cols = self["rows"], self["cols"]
        array = state.array
        mover = int(array[PLAYER])
        who = PLAYER_LETTERS[mover].upper()
        if action < 2 * cols:
            column = COLUMN_LETTERS[action % cols]
            if array[HEIGHT + action % cols] == rows:
                return f"column {column} is full"
            return f"{who} has no bombs left to drop"
        if action == 2 * cols + rows * cols:
            return f"{who} may pass only without any other action: on a full board with no {who} bomb on it"
        row, column = divmod(action - 2 * cols, cols)
        standing = CELL_CHARS[int(array[HEIGHT + cols + action - 2 * cols])]
        if standing == BOMB_CHARS[1 - mover]:
            return f"{cell_name(row, column)} holds {PLAYER_LETTERS[1 - mover].upper()}'s bomb; only own bombs detonate"
        return f"{cell_name(row, column)} holds no {who} bomb"

    # -- the picture --------------------------------------------------------------
    def board_view(self, state: State) -> BoardView:
        rows, cols = self["rows"], self["cols"]
        picture = []
        for text in reversed(self._rows(state)):
            line = []
            for char in text:
                value = CELL_VALUES[char]
                owner = (value & 3) - 1 if value else None
                line.append(Cell("." if char == "-" else char, owner, "bomb" if value & BOMB else ""))
            picture.append(line)
        outcome = state.outcome()
        if outcome is None:
            array = state.array
            caption = (f"{PLAYER_LETTERS[int(array[PLAYER])].upper()} to move; bombs in hand: "
                       f"X {int(array[HAND])}, O {int(array[HAND + 1])}")
        else:
            caption = outcome.describe(self.player_names)
        return BoardView(picture, [str(r) for r in range(rows, 0, -1)], list(COLUMN_LETTERS[:cols]), [], caption)
