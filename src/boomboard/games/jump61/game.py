"""Jump61: spots on an N x N board; an overfull square jumps onto its neighbours."""

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

from . import codec, ranking, rules
from .notation import (COLOUR_LETTERS, COLOUR_NAMES, neighbour_count, one_colour, parse_dump, parse_move,
                       player_to_move, row_col, write_dump, write_move)
from .rules import COUNT, REASON_ALL_ONE_COLOUR, SPOTS, WHITE

# How a game of Jump61 ends by its own rules.
END_REASONS = EndReasons(Reason(REASON_ALL_ONE_COLOUR, "ALL_ONE_COLOUR", "every square has the winner's colour"))


class Jump61State(State):
    """A position of Jump61.

    >>> import boomboard
    >>> state = boomboard.load_game("jump61(size=3)").new_initial_state()
    >>> state.play("1 1")
    0
    >>> state.square(1, 1), state.square(1, 2), state.total_spots()
    (('red', 2), ('white', 1), 10)
    >>> print(state.to_notation())
    ===
        2r 1- 1-
        1- 1- 1-
        1- 1- 1-
    ===
    """

    __slots__ = ()

    def _index(self, row: int, col: int) -> int:
        size = self._game.size
        if not (1 <= row <= size and 1 <= col <= size):
            raise NotationError(f"there is no square {row_col(row, col)} on a {size}x{size} board; "
                                f"rows and columns run 1..{size}")
        return (row - 1) * size + (col - 1)

    def square(self, row: int, col: int) -> tuple[str, int]:
        """The square in row ``row`` (1 at the top) and column ``col`` (1 at the
        left) as ``(colour, spots)``; colour is ``"red"``, ``"blue"`` or ``"white"``."""
        return self.colour(row, col), self.spots(row, col)

    def spots(self, row: int, col: int) -> int:
        """The spots on square ``row col`` (at least 1)."""
        return int(self._array[SPOTS + self._index(row, col)])

    def colour(self, row: int, col: int) -> str:
        """The colour of square ``row col``: ``"red"``, ``"blue"`` or ``"white"``."""
        cells = self._game.num_distinct_actions()
        return COLOUR_NAMES[int(self._array[SPOTS + cells + self._index(row, col)])]

    def neighbours(self, row: int, col: int) -> int:
        """How many neighbours square ``row col`` has (2 in a corner, 3 on an edge,
        4 inside); a square with more spots than that is overfull and jumps."""
        self._index(row, col)
        return neighbour_count(self._game.size, row, col)

    def total_spots(self) -> int:
        """The spots on the whole board: ``N * N`` at the start, one more after each move."""
        return int(self._array[SPOTS:SPOTS + self._game.num_distinct_actions()].sum())

    def squares_of(self, player: int) -> int:
        """How many squares have ``player``'s colour (0 Red, 1 Blue)."""
        return int(self._array[COUNT + player])


class Jump61Game(Game):
    """Jump61: add spots to your squares; an overfull square jumps onto its neighbours and takes them."""

    name = "jump61"
    capabilities = ("search", "play", "learning")
    analysis_model = "analysis-jump61.json"  # fitted by benchmarks/analysis_quality.py
    title = "Jump61"
    player_names = ("red", "blue")
    parameters = (
        Parameter("size", 6, "squares along each side of the board (the course's text interface allows 2..10)",
                  minimum=2, maximum=16),
    )
    lab_axes = {"size": (2, 8)}  # what boomboard explore sweeps
    rules = rules
    state_class = Jump61State
    end_reasons = END_REASONS
    # each square's spots written in its colour (red, blue), a white square's in grey
    presentation = Presentation(colours=("#d33c3c", "#2f62c9"), counts=True, neutral="white")

    @classmethod
    def state_from_dump(cls, text: str) -> Jump61State:
        """A state from a ``dump`` block alone, on a board of the size it shows."""
        if not isinstance(text, str):
            raise NotationError(f"expected a position as text, got {type(text).__name__}")
        size = parse_dump(text)[0]
        try:
            game = cls(size=size)
        except ParameterError as problem:
            raise InvalidPositionError(f"the dump shows a {size}x{size} board: {problem}") from None
        return game.state_from_notation(text)

    @property
    def size(self) -> int:
        return self["size"]

    def _build_params_array(self, values: dict[str, Any]) -> np.ndarray:
        return rules.build_params(values["size"])

    # -- the strong solver (keys and layers: codec.py) -------------------------------
    solver_layered = True  # every move adds a spot: solvable a layer at a time
    # The dense tiers number every board, 47 times the positions reached on 3 x 3
    # (13.5 million against 288,293): dense only when asked (--method dense).
    solver_dense_auto = False

    def solver_codec_spec(self, tokens: int = 0) -> tuple[list[int], int]:
        """Each square white or a colour and its spots, the player to move (see ``codec.py``)."""
        return codec.codec_spec(self.params_array)

    def solver_layer_count(self, spec: np.ndarray) -> int:
        """Layers by the spots on the board."""
        return codec.layer_count(self.params_array)

    def solver_dense_spec(self) -> list[int] | None:
        """Levels by the moves made, tiers by the excess spots left and right of the
        middle, mirrored left to right (see ``ranking.py``); ``None`` from 5 x 5 on,
        whose tiers outgrow 64-bit ranks."""
        spec = ranking.dense_spec(self.params_array)
        return None if spec is None else spec.tolist()

    def num_distinct_actions(self) -> int:
        return self.size * self.size

    def max_game_length(self) -> int:
        """Every move adds a spot; the start holds ``N*N`` and a board the game goes
        on from at most the sum of the neighbour counts, ``4N(N-1)``; so at most
        ``4N(N-1) - N*N`` moves leave the game going, and the next one ends it."""
        size = self.size
        return 4 * size * (size - 1) - size * size + 1

    def _build_initial_array(self) -> np.ndarray:
        cells = self.num_distinct_actions()
        return self._array([1] * cells, [WHITE] * cells)

    def _array(self, spots: list[int], colours: list[int]) -> np.ndarray:
        """The engine array of a checked board; a one-coloured board is won by that colour."""
        cells = len(spots)
        array = np.zeros(SPOTS + 2 * cells, dtype=np.int32)
        array[PLAYER] = player_to_move(self.size, spots)
        array[SPOTS:SPOTS + cells] = spots
        array[SPOTS + cells:] = colours
        for player in (0, 1):
            array[COUNT + player] = colours.count(player + 1)
        winner = one_colour(colours)
        if winner != WHITE:
            array[STATUS] = win_status(winner - 1)
            array[REASON] = REASON_ALL_ONE_COLOUR
        return array

    # -- notation ---------------------------------------------------------------
    def array_from_notation(self, text: str) -> np.ndarray:
        size, spots, colours = parse_dump(text)
        if size != self.size:
            raise InvalidPositionError(f"the dump shows a {size}x{size} board; this game is {self.size}x{self.size} "
                                       "(Jump61Game.state_from_dump takes the size from the dump)")
        return self._array(spots, colours)

    def position_to_notation(self, state: State) -> str:
        cells = self.num_distinct_actions()
        board = state.array[SPOTS:]
        return write_dump(self.size, board[:cells], board[cells:])

    def action_to_string(self, state: State, action: int) -> str:
        if not 0 <= action < self.num_distinct_actions():
            raise IllegalActionError(f"action {action} is no square; ids run 0..{self.num_distinct_actions() - 1}")
        row, col = divmod(action, self.size)
        return write_move(row + 1, col + 1)

    def string_to_action(self, state: State, text: str) -> int:
        row, col = parse_move(text)
        size = self.size
        if not (1 <= row <= size and 1 <= col <= size):
            raise IllegalActionError(f"square {row_col(row, col)} is off the board; rows and columns run 1..{size}")
        outcome = state.outcome()
        if outcome is not None:
            raise IllegalActionError(f"the game is over ({outcome.describe(self.player_names)}); no move is legal")
        action = (row - 1) * size + (col - 1)
        mover = state.player_to_move()
        colour = int(state.array[SPOTS + size * size + action])
        if colour == 2 - mover:
            me, them = self.player_names[mover], self.player_names[1 - mover]
            raise IllegalActionError(f"square {row_col(row, col)} is {them}; {me.capitalize()} may add a spot "
                                     f"only to a {me} or white square")
        return action

    # -- the picture ------------------------------------------------------------
    def board_view(self, state: State) -> BoardView:
        size, cells = self.size, self.num_distinct_actions()
        board = state.array[SPOTS:]
        rows = []
        for row in range(size):
            line = []
            for square in range(row * size, (row + 1) * size):
                colour = int(board[cells + square])
                owner = None if colour == WHITE else colour - 1
                line.append(Cell(f"{board[square]}{COLOUR_LETTERS[colour]}", owner))
            rows.append(line)
        labels = [str(n) for n in range(1, size + 1)]
        outcome = state.outcome()
        if outcome is None:
            caption = f"{self.player_names[state.player_to_move()].capitalize()} to move"
        else:
            caption = outcome.describe(self.player_names)
        return BoardView(rows, labels, labels, caption=caption)
