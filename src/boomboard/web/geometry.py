"""What the browser draws and clicks: each game's board as placed cells, the
stones on them, and every legal action as a click gesture.

A :class:`Layout` is fixed per game (cells with names and centres, in cell
units, x to the right and y downward, plus the labels around the board).
:func:`cell_contents` reads an engine array into one entry per layout cell,
so the same code draws the current position and every intermediate step of
an explosion cascade (see :mod:`boomboard.web.cascade`). :func:`move_gestures`
describes each legal action as ``from`` cell, ``to`` cell (or column) and a
count, which is all the page needs to turn clicks into actions.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from ..core.game import Game
from ..core.state import State
from ..games.expendibots import notation as expendibots_notation
from ..games.expendibots import rules as expendibots_rules
from ..games.jump61 import rules as jump61_rules
from ..games.kaboom import rules as kaboom_rules
from ..games.kaboom.notation import COLUMN_LETTERS
from ..games.explocus import rules as explocus_rules

HEX_ROW_STEP = math.sqrt(3) / 2  # rows of pointy-top hexagons one unit wide
LABEL_GAP = 0.85  # from a border cell's centre to its coordinate label


@dataclass(frozen=True)
class Layout:
    """The board's cells (name, centre, and for Kaboom the column a click drops
    into) and its coordinate labels; ``shape`` is ``"square"`` or ``"hex"``."""

    shape: str
    names: list[str]
    centres: list[tuple[float, float]]
    labels: list[tuple[str, float, float]] = field(default_factory=list)
    groups: list[str] | None = None

    def to_json(self) -> dict:
        margin = 0.62 if self.shape == "hex" else 0.55  # half a cell, and a hexagon's point
        xs = [x for x, _ in self.centres] + [x for _, x, _ in self.labels]
        ys = [y for _, y in self.centres] + [y for _, _, y in self.labels]
        cells = []
        for index, (name, (x, y)) in enumerate(zip(self.names, self.centres)):
            cell = {"name": name, "x": round(x, 4), "y": round(y, 4)}
            if self.groups:
                cell["group"] = self.groups[index]
            cells.append(cell)
        return {
            "shape": self.shape,
            "cells": cells,
            "labels": [{"text": t, "x": round(x, 4), "y": round(y, 4)} for t, x, y in self.labels],
            "box": [min(xs) - margin, min(ys) - margin, max(xs) - min(xs) + 2 * margin,
                    max(ys) - min(ys) + 2 * margin],
        }


def layout(game: Game) -> Layout:
    """The board of ``game`` (cached per game string)."""
    return _layout(game.name, str(game), game)


@lru_cache(maxsize=64)
def _layout(name: str, key: str, game: Game) -> Layout:
    del key  # only part of the cache key
    if name == "expendibots":
        names = [f"({sq % 8}, {sq // 8})" for sq in range(expendibots_rules.SQUARES)]
        centres = [(sq % 8, 7 - sq // 8) for sq in range(expendibots_rules.SQUARES)]
        labels = [(str(i), i, 7 + LABEL_GAP) for i in range(8)] + [(str(i), -LABEL_GAP, 7 - i) for i in range(8)]
        return Layout("square", names, centres, labels)
    if name == "jump61":
        size = game["size"]
        cells = range(size * size)
        names = [f"{q // size + 1} {q % size + 1}" for q in cells]
        labels = ([(str(c + 1), c, -LABEL_GAP) for c in range(size)]
                  + [(str(r + 1), -LABEL_GAP, r) for r in range(size)])
        return Layout("square", names, [(q % size, q // size) for q in cells], labels)
    if name == "kaboom":
        rows, cols = game["rows"], game["cols"]
        cells = range(rows * cols)
        names = [f"{COLUMN_LETTERS[q % cols]}{q // cols + 1}" for q in cells]
        centres = [(q % cols, rows - 1 - q // cols) for q in cells]
        labels = ([(COLUMN_LETTERS[c], c, rows - 1 + LABEL_GAP) for c in range(cols)]
                  + [(str(r + 1), -LABEL_GAP, rows - 1 - r) for r in range(rows)])
        return Layout("square", names, centres, labels, [COLUMN_LETTERS[q % cols] for q in cells])
    board = game.board
    if board.kind == "square":
        size = game["size"]
        centres = [(file, size - 1 - rank) for rank, file in board.coords]
        labels = ([(board.column_labels[f], f, size - 1 + LABEL_GAP) for f in range(size)]
                  + [(str(r + 1), -LABEL_GAP, size - 1 - r) for r in range(size)])
        return Layout("square", list(board.names), centres, labels)
    span = 2 * game["side"] - 1
    centres = [(diag - row / 2, (span - 1 - row) * HEX_ROW_STEP) for row, diag in board.coords]
    labels = []
    for row in range(span):  # row letters left of each row's first cell
        first = min(diag for r, diag in board.coords if r == row)
        labels.append((board.names[board.coords.index((row, first))][0], first - row / 2 - LABEL_GAP,
                       (span - 1 - row) * HEX_ROW_STEP))
    side = game["side"]
    for diag in range(span):  # diagonal numbers below the lowest cell of each diagonal
        row = max(0, diag - side + 1)
        x, y = diag - row / 2, (span - 1 - row) * HEX_ROW_STEP
        labels.append((str(diag + 1), x + 0.5 * LABEL_GAP, y + HEX_ROW_STEP * LABEL_GAP))
    return Layout("hex", list(board.names), centres, labels)


def cell_contents(game: Game, array: np.ndarray) -> list[list]:
    """One ``[owner, text, mark]`` per layout cell for an engine array: ``owner``
    0, 1 or ``None``; ``text`` what is written on the cell; ``mark`` ``"bomb"``
    for Kaboom's bombs, else ``""``."""
    name = game.name
    if name == "expendibots":
        return _signed_stacks(array[expendibots_rules.BOARD:expendibots_rules.BOARD + expendibots_rules.SQUARES])
    if name == "jump61":
        cells = game["size"] ** 2
        spots = array[jump61_rules.SPOTS:jump61_rules.SPOTS + cells]
        colours = array[jump61_rules.SPOTS + cells:jump61_rules.SPOTS + 2 * cells]
        return [[None if colour == 0 else int(colour) - 1, str(int(n)), ""] for n, colour in zip(spots, colours)]
    if name == "kaboom":
        board = kaboom_rules.HEIGHT + game["cols"]
        out = []
        for value in array[board:board + game["rows"] * game["cols"]]:
            value = int(value)
            if value == 0:
                out.append([None, "", ""])
            else:
                out.append([(value & 3) - 1, "", "bomb" if value & kaboom_rules.BOMB else ""])
        return out
    return _signed_stacks(array[explocus_rules.BOARD:explocus_rules.BOARD + game.board.ncells])


def _signed_stacks(heights) -> list[list]:
    return [[None, "", ""] if h == 0 else [0 if h > 0 else 1, str(abs(int(h))), ""] for h in heights]


def move_gestures(state: State) -> list[dict]:
    """Every legal action as ``{id, text, kind, from, to, count}``.

    ``from`` is the cell clicked first (``None`` for one-click actions), ``to``
    the cell (or Kaboom column) clicked to play it, ``count`` the tokens or
    stones moved where a move carries some; a Kaboom drop also names the
    cell where the piece will land (``land``). Kinds: ``move``, ``boom``,
    ``add`` (Jump61), ``drop``, ``bomb``, ``detonate``, ``pass`` (Kaboom).
    """
    game = state.game
    names = layout(game).names
    gestures = []
    for action in state.legal_actions():
        text = state.action_to_string(action)
        gesture = {"id": action, "text": text, "kind": "move", "from": None, "to": None, "count": None}
        if game.name == "expendibots":
            decoded = expendibots_notation.decode_action(action)
            if decoded[0] == "BOOM":
                square = names[decoded[1][1] * 8 + decoded[1][0]]
                gesture.update(kind="boom", to=square, **{"from": square})
            else:
                _, count, (xa, ya), (xb, yb) = decoded
                gesture.update(count=count, to=names[yb * 8 + xb], **{"from": names[ya * 8 + xa]})
        elif game.name == "jump61":
            gesture.update(kind="add", to=names[action])
        elif game.name == "kaboom":
            rows, cols = game["rows"], game["cols"]
            if action < 2 * cols:
                column = action % cols
                landing = names[int(state.array[kaboom_rules.HEIGHT + column]) * cols + column]
                gesture.update(kind="drop" if action < cols else "bomb", to=COLUMN_LETTERS[column], land=landing)
            elif action < 2 * cols + rows * cols:
                cell = names[action - 2 * cols]
                gesture.update(kind="detonate", to=cell, **{"from": cell})
            else:
                gesture.update(kind="pass")
        else:
            distance = game.board.decode(action)[2]
            start, _, end = text.partition("-")
            gesture.update(count=distance, to=end, **{"from": start})
        gestures.append(gesture)
    return gestures


def winning_lines(state: State) -> list[str]:
    """The cells of every n-in-a-row on a finished Kaboom board (what ended
    the game, misère included); ``[]`` for the other games and ongoing games."""
    game = state.game
    if game.name != "kaboom" or not state.is_terminal():
        return []
    rows, cols, n = game["rows"], game["cols"], game["connect"]
    board = kaboom_rules.HEIGHT + cols
    side = [[int(state.array[board + r * cols + c]) & 3 for c in range(cols)] for r in range(rows)]
    names = layout(game).names
    found: set[int] = set()
    for r in range(rows):
        for c in range(cols):
            if not side[r][c]:
                continue
            for dr, dc in zip(kaboom_rules.LINE_DR, kaboom_rules.LINE_DC):
                run = [(r + k * dr, c + k * dc) for k in range(n)]
                if all(0 <= rr < rows and 0 <= cc < cols and side[rr][cc] == side[r][c] for rr, cc in run):
                    found.update(rr * cols + cc for rr, cc in run)
    return [names[cell] for cell in sorted(found)]
