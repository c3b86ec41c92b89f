"""Explocus (square board) and HExplocus (hexagonal board): one game on two boards."""

from __future__ import annotations

from typing import Any

import numpy as np

from boomboard.core.board_view import BoardView, Cell
from boomboard.core.errors import IllegalActionError, InvalidPositionError, NotationError, ParameterError
from boomboard.core.game import Game
from boomboard.core.geometry import Presentation
from boomboard.core.layout import PLAYER, REASON, STATUS, win_status
from boomboard.core.outcome import EndReasons, Reason
from boomboard.core.params import Parameter
from boomboard.core.state import State

from . import codec, rules
from .boards import Board, hex_board, hex_standard, square_board, square_standard
from .notation import parse_cell, parse_move, parse_position, write_position
from .rules import BOARD, REASON_NO_TOKENS, STONES

# How a game of Explocus or HExplocus ends by its own rules (the shared reasons aside).
END_REASONS = EndReasons(Reason(REASON_NO_TOKENS, "NO_TOKENS", "the opponent has no tokens left"))
COLOURS = ("#f6f1e3", "#25252b")  # white, black


class ExplocusState(State):
    """A position of Explocus or HExplocus.

    >>> import boomboard
    >>> state = boomboard.load_game("explocus").new_initial_state()
    >>> state.stack("d2"), state.stack("d4")
    (('white', 3), None)
    >>> state.play("d2-d4")
    323
    >>> state.stack("d2"), state.stack("d4"), state.stones(0)
    (('white', 1), ('white', 2), 14)
    """

    __slots__ = ()

    def stack(self, cell: str) -> tuple[str, int] | None:
        """The stack on ``cell`` (a name such as ``"d2"`` or ``"B3"``) as
        ``(colour, height)``, or ``None`` if the cell is empty."""
        height = int(self._array[BOARD + parse_cell(self._game.board, cell)])
        if height == 0:
            return None
        return self._game.player_names[0 if height > 0 else 1], abs(height)

    def stones(self, player: int) -> int:
        """How many stones ``player`` (0 White, 1 Black) has on the board."""
        return int(self._array[STONES + player])

    def capacity(self, cell: str) -> int:
        """How many stones make the stack on ``cell`` explode: its number of neighbours."""
        return self._game.board.capacity[parse_cell(self._game.board, cell)]


class _Explocus(Game):
    """What Explocus and HExplocus share: everything but the board."""

    player_names = ("white", "black")
    rules = rules
    capabilities = ("search", "play", "learning")
    state_class = ExplocusState
    end_reasons = END_REASONS
    ai_settings = ("alphabeta", {"quiescence": 4})  # measured: docs/results/strength.md
    repetition_limit = 4  # house rule, as in Expendibots
    action_limit = 500  # house rule: 250 turns each
    board: Board

    def _make_board(self, values: dict[str, Any]) -> Board:
        raise NotImplementedError

    def _standard_cells(self) -> list[int]:
        raise NotImplementedError

    def _build_params_array(self, values: dict[str, Any]) -> np.ndarray:
        self.board = self._make_board(values)
        return rules.params_from_board(self.board)

    # -- the strong solver (keys: codec.py; no layers: positions repeat) -------------
    def solver_codec_spec(self, tokens: int = 0) -> tuple[list[int], int]:
        """Each cell's signed height below its capacity, the player to move (see ``codec.py``)."""
        return codec.codec_spec(self.board.capacity)

    def num_distinct_actions(self) -> int:
        return self.board.num_actions

    def max_game_length(self) -> int:
        return self.action_limit

    def max_legal_actions(self) -> int:
        """A stack of ``h`` stones has at most ``directions * h`` moves, so all
        stones together at most ``directions * max_stones``."""
        return min(self.board.num_actions, self.board.ndirs * self.board.max_stones)

    def _build_initial_array(self) -> np.ndarray:
        setup = self["setup"]
        if setup.strip().lower() == "standard":
            return self._array(self._standard_cells(), 0)
        try:
            return self.array_from_notation(setup)
        except (NotationError, InvalidPositionError) as problem:
            raise ParameterError(f"parameter 'setup' must be 'standard' or a position: {problem}") from None

    def _array(self, cells: list[int], player: int) -> np.ndarray:
        """The engine array of a checked position; a side without stones has lost."""
        array = np.zeros(BOARD + self.board.ncells, dtype=np.int32)
        array[PLAYER] = player
        array[BOARD:] = cells
        array[STONES] = sum(h for h in cells if h > 0)
        array[STONES + 1] = -sum(h for h in cells if h < 0)
        for loser in (0, 1):
            if array[STONES + loser] == 0:
                array[STATUS] = win_status(1 - loser)
                array[REASON] = REASON_NO_TOKENS
        return array

    # -- notation ---------------------------------------------------------------
    def array_from_notation(self, text: str) -> np.ndarray:
        cells, player = parse_position(self.board, text)
        return self._array(cells, player)

    def position_to_notation(self, state: State) -> str:
        return write_position(self.board, state.array[BOARD:], int(state.array[PLAYER]))

    def action_to_string(self, state: State, action: int) -> str:
        names = self.board.action_names
        name = names[action] if 0 <= action < len(names) else None
        if name is None:
            raise IllegalActionError(f"action {action} is no move on this board (ids run 0..{len(names) - 1}; "
                                     "some would land off the board)")
        return name

    def string_to_action(self, state: State, text: str) -> int:
        board = self.board
        origin, target = parse_move(board, text)
        start, end = board.names[origin], board.names[target]
        outcome = state.outcome()
        if outcome is not None:
            raise IllegalActionError(f"the game is over ({outcome.describe(self.player_names)}); no move is legal")
        if origin == target:
            raise IllegalActionError(f"{start}-{end} does not move: a stack of h stones moves 1 to h cells")
        line = board.line_between(origin, target)
        if line is None:
            lines = "a rank or a file" if board.kind == "square" else "one of the six lines through a cell"
            raise IllegalActionError(f"{start} and {end} are not on a straight line: a move goes along {lines}")
        direction, distance = line
        mover = state.player_to_move()
        height = int(state.array[BOARD + origin]) * (1 - 2 * mover)
        if height <= 0:
            raise IllegalActionError(f"{start} holds no {self.player_names[mover]} stack; "
                                     f"{self.player_names[mover].capitalize()} is to move")
        if height < distance:
            raise IllegalActionError(f"the stack on {start} has {height} stone(s), so it moves 1 to {height} "
                                     f"cells; {start}-{end} is {distance} cells")
        return board.action_id(origin, direction, distance)

    # -- the picture ------------------------------------------------------------
    def board_view(self, state: State) -> BoardView:
        board = self.board
        heights = state.array[BOARD:]
        rows = []
        for row in board.rows:
            cells = []
            for cell in row:
                height = int(heights[cell])
                if height == 0:
                    cells.append(Cell("."))
                else:
                    owner = 0 if height > 0 else 1
                    cells.append(Cell(f"{'wb'[owner]}{abs(height)}", owner))
            rows.append(cells)
        widest = max(len(row) for row in board.rows)
        indents = [widest - len(row) for row in board.rows] if board.kind == "hex" else []
        outcome = state.outcome()
        if outcome is None:
            caption = f"{self.player_names[state.player_to_move()].capitalize()} to move"
        else:
            caption = outcome.describe(self.player_names)
        # the hexagon's columns are its diagonals, numbered 1.. as on Abalone diagrams
        labels = [str(d + 1) for d in range(widest)] if board.kind == "hex" else board.column_labels
        return BoardView(rows, board.row_labels, labels, indents, caption)


def _setup_help(example: str) -> str:
    return f"'standard' or a start position in our position notation, e.g. {example!r}"


class ExplocusGame(_Explocus):
    """Explocus: move stacks as far as they are high; full stacks explode and take their neighbours."""

    name = "explocus"
    analysis_model = "analysis-explocus.json"  # fitted by benchmarks/analysis_quality.py
    title = "Explocus"
    parameters = (
        Parameter("size", 8, "squares along each side of the board", minimum=3, maximum=16),
        Parameter("setup", "standard", _setup_help("..../.b3../..w2./.... w")),
    )
    lab_axes = {"size": (4, 8)}  # what boomboard explore sweeps (the standard setup needs size >= 4)
    presentation = Presentation(colours=COLOURS, pieces="stones")

    def _make_board(self, values: dict[str, Any]) -> Board:
        return square_board(values["size"])

    def _standard_cells(self) -> list[int]:
        if self["size"] < 4:
            raise ParameterError("the standard setup needs size >= 4 (White on rank 2, Black on the "
                                 "second-last rank); give a position as 'setup' for a 3x3 board")
        return square_standard(self["size"])


class HexplocusGame(_Explocus):
    """HExplocus: Explocus on a hexagon of hexagons, moving along six lines."""

    name = "hexplocus"
    analysis_model = "analysis-hexplocus.json"  # fitted by benchmarks/analysis_quality.py
    title = "HExplocus"
    parameters = (
        Parameter("side", 5, "cells along each edge of the hexagon", minimum=3, maximum=9),
        Parameter("setup", "standard", _setup_help("b1../..../...../w1.../... w")),
    )
    lab_axes = {"side": (3, 6)}  # what boomboard explore sweeps
    # on a phone the hexagon takes the whole width, its labels larger, its cells as big as they can be
    presentation = Presentation(colours=COLOURS, pieces="stones", fills_phone=True)

    def _make_board(self, values: dict[str, Any]) -> Board:
        return hex_board(values["side"])

    def _standard_cells(self) -> list[int]:
        return hex_standard(self["side"])
