"""Popline's game class: parameters, notation and outcome."""

from typing import Any

import numpy as np

from boomboard.core.errors import InvalidPositionError, NotationError
from boomboard.core.game import Game
from boomboard.core.layout import HEADER, PLAYER
from boomboard.core.outcome import EndReasons, Reason
from boomboard.core.params import Parameter

from . import rules

MARKS = ("x", "o")


class PoplineGame(Game):
    """Popline: fill a line with orbs; an overfull cell pops onto its neighbours and takes them."""

    name = "popline"
    title = "Popline"
    player_names = ("x", "o")
    parameters = (Parameter("cells", 6, "cells in the line", minimum=2, maximum=16),)
    rules = rules
    end_reasons = EndReasons(Reason(rules.REASON_WIPED_OUT, "WIPED_OUT", "the other player has no orbs left"))
    action_limit = 80

    def num_distinct_actions(self) -> int:
        return self["cells"]

    def max_game_length(self) -> int:
        return self.action_limit

    def _build_params_array(self, values: dict[str, Any]) -> np.ndarray:
        return np.array([values["cells"]], dtype=np.int32)

    def _build_initial_array(self) -> np.ndarray:
        return np.zeros(HEADER + self["cells"], dtype=np.int32)

    # -- notation: "x2 . o1 . . . / x", the cells then the player to move -------------
    def array_from_notation(self, text: str) -> np.ndarray:
        if not isinstance(text, str) or "/" not in text:
            raise NotationError(f"a Popline position is the cells, '/', and the player to move, got {text!r:.40}")
        cells_text, _, mover = text.partition("/")
        cells, mover = cells_text.split(), mover.strip()
        if len(cells) != self["cells"] or mover not in MARKS:
            raise NotationError(f"expected {self['cells']} cells and x or o to move, got {text!r:.40}")
        array = self._build_initial_array()
        array[PLAYER] = MARKS.index(mover)
        for cell, word in enumerate(cells):
            if word != "." and not (word[:1] in MARKS and word[1:].isdigit() and int(word[1:]) >= 1):
                raise NotationError(f"cell {cell + 1}: {word!r:.10} is not '.', xN or oN (N at least 1)")
            count = 0 if word == "." else int(word[1:])
            array[HEADER + cell] = count if word[:1] == "x" else -count
        board = array[HEADER:]
        one_colour = not (board > 0).any() or not (board < 0).any()  # a cascade stops when a colour is gone
        for cell, count in enumerate(np.abs(board)):
            most = rules_neighbours(cell, self["cells"]) + (1 if one_colour else 0)
            if count > most:
                raise InvalidPositionError(f"cell {cell + 1} holds {count} orbs; it holds at most {most}")
        return array

    def position_to_notation(self, state) -> str:
        cells = state.array[HEADER:]
        words = ["." if v == 0 else f"{MARKS[0] if v > 0 else MARKS[1]}{abs(int(v))}" for v in cells]
        return f"{' '.join(words)} / {MARKS[int(state.array[PLAYER])]}"

    def action_to_string(self, state, action: int) -> str:
        return str(action + 1)

    def string_to_action(self, state, text: str) -> int:
        if not isinstance(text, str) or not text.strip().isdigit() or not 1 <= int(text) <= self["cells"]:
            raise NotationError(f"a Popline move is a cell from 1 to {self['cells']}, got {text!r:.20}")
        return int(text) - 1


def rules_neighbours(cell: int, cells: int) -> int:
    """How many orbs a cell holds at most: one per neighbour."""
    return (cell > 0) + (cell < cells - 1)
