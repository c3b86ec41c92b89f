"""Chain Reaction: orbs on an M x N grid; a cell at critical mass explodes onto its neighbours and takes them."""

from __future__ import annotations

from typing import Any

import numpy as np

from boomboard.core.board_view import BoardView, Cell
from boomboard.core.errors import IllegalActionError, InvalidPositionError, NotationError, ParameterError
from boomboard.core.game import Game
from boomboard.core.geometry import Presentation
from boomboard.core.layout import PLAYER, REASON, STATUS, win_status
from boomboard.core.outcome import EndReasons, Outcome, Reason
from boomboard.core.params import Parameter
from boomboard.core.state import State

from . import codec, rules
from .notation import (COLUMN_LETTERS, OWNER_LETTERS, OWNER_NAMES, cell_name, check_position, critical_mass,
                       finished, parse_cell, parse_position, stable_capacity, write_position)
from .rules import COUNT, EMPTY, ORBS, REASON_NO_TOKENS

# How a game of Chain Reaction ends by its own rules (the shared reasons aside).
END_REASONS = EndReasons(Reason(REASON_NO_TOKENS, "NO_TOKENS", "the opponent has no orbs left"))


class ChainReactionState(State):
    """A position of Chain Reaction.

    >>> import boomboard
    >>> state = boomboard.load_game("chain_reaction(rows=3,cols=3)").new_initial_state()
    >>> state.play("a1")
    0
    >>> state.cell("a1"), state.cell("b1"), state.total_orbs()
    (('red', 1), ('empty', 0), 1)
    >>> print(state.to_notation())
    . . .
    . . .
    1r . .
    g
    """

    __slots__ = ()

    def _index(self, name: str) -> int:
        return parse_cell(name, self._game.rows, self._game.cols)

    def cell(self, name: str) -> tuple[str, int]:
        """The cell called ``name`` (``"b3"``: column letter, row from the
        bottom) as ``(owner, orbs)``; owner is ``"red"``, ``"green"`` or ``"empty"``."""
        return self.owner(name), self.orbs(name)

    def orbs(self, name: str) -> int:
        """The orbs in cell ``name`` (0 when it is empty)."""
        return int(self._array[COUNT + self._index(name)])

    def owner(self, name: str) -> str:
        """Who owns cell ``name``: ``"red"``, ``"green"`` or ``"empty"``."""
        cells = self._game.num_distinct_actions()
        return OWNER_NAMES[int(self._array[COUNT + cells + self._index(name)])]

    def critical_mass(self, name: str) -> int:
        """Cell ``name``'s number of orthogonal neighbours (2 in a corner, 3 on an
        edge, 4 inside); a cell holding that many orbs explodes."""
        return critical_mass(self._game.rows, self._game.cols, self._index(name))

    def total_orbs(self) -> int:
        """The orbs on the grid: as many as moves were played from the empty start."""
        return int(self._array[ORBS] + self._array[ORBS + 1])

    def orbs_of(self, player: int) -> int:
        """The orbs of ``player`` (0 Red, 1 Green) on the grid."""
        return int(self._array[ORBS + player])

    def outcome(self) -> Outcome | None:
        """The result, in the game's words: the loser has no orbs left.

        >>> import boomboard
        >>> state = boomboard.load_game("chain_reaction(rows=2,cols=2)").new_initial_state()
        >>> for move in ("a1", "b2", "b1", "b2"):
        ...     _ = state.play(move)
        >>> state.outcome().describe(state.game.player_names)
        'Green wins: Red has no orbs left'
        """
        outcome = super().outcome()
        if outcome is None or outcome.reason != END_REASONS.NO_TOKENS:
            return outcome
        loser = self._game.player_names[1 - outcome.winner].capitalize()
        return Outcome(outcome.winner, outcome.reason, f"{loser} has no orbs left")


class ChainReactionGame(Game):
    """Chain Reaction: place orbs in your cells; a cell at critical mass explodes and takes its neighbours."""

    name = "chain_reaction"
    capabilities = ("search", "play", "learning")
    analysis_model = "analysis-chain_reaction.json"  # fitted by benchmarks/analysis_quality.py
    title = "Chain Reaction"
    player_names = ("red", "green")
    parameters = (
        Parameter("rows", 9, "rows of the grid (the phone game's grid is 9x6)", minimum=2, maximum=12),
        Parameter("cols", 6, "columns of the grid, lettered a.. from the left", minimum=2, maximum=12),
    )
    lab_axes = {"rows": (2, 9), "cols": (2, 9)}  # what boomboard explore sweeps
    rules = rules
    state_class = ChainReactionState
    end_reasons = END_REASONS
    # each cell's orbs written in its owner's colour (red, green) on a ground of it
    presentation = Presentation(colours=("#d33c3c", "#2e9b46"), counts=True)

    @classmethod
    def state_from_position(cls, text: str) -> ChainReactionState:
        """A state from a position text alone, on a grid of the size it shows."""
        if not isinstance(text, str):
            raise NotationError(f"expected a position as text, got {type(text).__name__}")
        rows, cols = parse_position(text)[:2]
        try:
            game = cls(rows=rows, cols=cols)
        except ParameterError as problem:
            raise InvalidPositionError(f"the position shows a {rows}x{cols} grid: {problem}") from None
        return game.state_from_notation(text)

    @property
    def rows(self) -> int:
        return self["rows"]

    @property
    def cols(self) -> int:
        return self["cols"]

    def _build_params_array(self, values: dict[str, Any]) -> np.ndarray:
        return rules.build_params(values["rows"], values["cols"])

    # -- the strong solver (keys and layers: codec.py) -------------------------------
    solver_layered = True  # every move adds an orb: solvable a layer at a time

    def solver_codec_spec(self, tokens: int = 0) -> tuple[list[int], int]:
        """Each cell empty or a colour and its orbs (see ``codec.py``)."""
        return codec.codec_spec(self.params_array)

    def solver_layer_count(self, spec: np.ndarray) -> int:
        """Layers by the orbs on the board."""
        return codec.layer_count(self["rows"], self["cols"])

    def num_distinct_actions(self) -> int:
        return self.rows * self.cols

    def max_game_length(self) -> int:
        """Every move adds an orb to a grid that was stable (or the game is over),
        and a stable grid holds at most ``S = 3*rows*cols - 2*rows - 2*cols``
        orbs; so at most ``S`` moves leave the game going, and the next one ends it."""
        return stable_capacity(self.rows, self.cols) + 1

    def _build_initial_array(self) -> np.ndarray:
        cells = self.num_distinct_actions()
        return self._array([0] * cells, [EMPTY] * cells, 0)

    def _array(self, counts: list[int], owners: list[int], player: int) -> np.ndarray:
        """The engine array of a checked grid; a grid of one colour, both having moved, is won by it."""
        cells = len(counts)
        array = np.zeros(COUNT + 2 * cells, dtype=np.int32)
        array[PLAYER] = player
        array[COUNT:COUNT + cells] = counts
        array[COUNT + cells:] = owners
        for p in (0, 1):
            array[ORBS + p] = sum(c for c, o in zip(counts, owners) if o == p + 1)
        winner = finished(counts, owners)
        if winner is not None:
            array[STATUS] = win_status(winner)
            array[REASON] = REASON_NO_TOKENS
        return array

    # -- notation ---------------------------------------------------------------
    def array_from_notation(self, text: str) -> np.ndarray:
        rows, cols, counts, owners, player = parse_position(text)
        if (rows, cols) != (self.rows, self.cols):
            raise InvalidPositionError(
                f"the position shows a {rows}x{cols} grid (rows x columns); this game is {self.rows}x{self.cols} "
                "(ChainReactionGame.state_from_position takes the size from the text)")
        check_position(rows, cols, counts, owners, player)
        return self._array(counts, owners, player)

    def position_to_notation(self, state: State) -> str:
        cells = self.num_distinct_actions()
        board = state.array[COUNT:]
        return write_position(self.rows, self.cols, board[:cells], board[cells:], int(state.array[PLAYER]))

    def action_to_string(self, state: State, action: int) -> str:
        if not 0 <= action < self.num_distinct_actions():
            raise IllegalActionError(f"action {action} is no cell; ids run 0..{self.num_distinct_actions() - 1}")
        return cell_name(self.cols, action)

    def string_to_action(self, state: State, text: str) -> int:
        action = parse_cell(text, self.rows, self.cols)
        outcome = state.outcome()
        if outcome is not None:
            raise IllegalActionError(f"the game is over ({outcome.describe(self.player_names)}); no move is legal")
        mover = state.player_to_move()
        owner = int(state.array[COUNT + self.num_distinct_actions() + action])
        if owner == 2 - mover:
            me, them = self.player_names[mover], self.player_names[1 - mover]
            raise IllegalActionError(f"cell {cell_name(self.cols, action)} is {them}; {me.capitalize()} may put an "
                                     f"orb only into an empty or {me} cell")
        return action

    # -- the picture ------------------------------------------------------------
    def board_view(self, state: State) -> BoardView:
        rows, cols, cells = self.rows, self.cols, self.num_distinct_actions()
        board = state.array[COUNT:]
        lines = []
        for row in reversed(range(rows)):
            line = []
            for cell in range(row * cols, (row + 1) * cols):
                owner = int(board[cells + cell])
                if owner == EMPTY:
                    line.append(Cell("."))
                else:
                    line.append(Cell(f"{board[cell]}{OWNER_LETTERS[owner]}", owner - 1))
            lines.append(line)
        row_labels = [str(row + 1) for row in reversed(range(rows))]
        column_labels = list(COLUMN_LETTERS[:cols])
        outcome = state.outcome()
        if outcome is None:
            caption = f"{self.player_names[state.player_to_move()].capitalize()} to move"
        else:
            caption = outcome.describe(self.player_names)
        return BoardView(lines, row_labels, column_labels, caption=caption)
