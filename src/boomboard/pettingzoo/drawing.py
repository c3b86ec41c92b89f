"""A board as an RGB picture, drawn with NumPy alone (no graphics library).

It draws the game-neutral :class:`~boomboard.core.board_view.BoardView`, so
every game gets the same look: a tile per cell (hexagonal rows shifted by
their indent), a disc in the owner's colour for a piece or stack, with one
white pip per stone of a stack (up to 9; a gold centre marks a taller one), a
black centre for a bomb, and grey pips for the count on a cell nobody owns.
"""

from __future__ import annotations

import re

import numpy as np

from ..core.board_view import BoardView, Cell

TILE = 40  # pixels per cell
MARGIN = 8
BACKGROUND = (222, 206, 170)
TILE_COLOURS = ((236, 224, 196), (214, 196, 160))  # checkered, to tell cells apart
OWNER_COLOURS = ((200, 40, 40), (40, 80, 200))  # player 0, player 1
NEUTRAL = (150, 150, 150)
PIP = (255, 255, 255)
BOMB = (20, 20, 20)
TALL = (240, 200, 40)
MAX_PIPS = 9


def _count(cell: Cell) -> int:
    """The height or spots a cell's text shows ("3", "w2", "2r"), 1 for a bare piece, 0 if empty."""
    digits = re.findall(r"\d+", cell.text)
    if digits:
        return int(digits[0])
    return 0 if cell.owner is None and cell.mark != "bomb" else 1


def _disc(image: np.ndarray, cy: float, cx: float, radius: float, colour) -> None:
    ys, xs = np.ogrid[: image.shape[0], : image.shape[1]]
    inside = (ys - cy) ** 2 + (xs - cx) ** 2 <= radius * radius
    image[inside] = colour


def draw_board(view: BoardView) -> np.ndarray:
    """``uint8 (height, width, 3)``: the board, top row first as in ``view``."""
    indents = view.indents or [0] * len(view.rows)
    columns = max(len(row) + indent / 2 for row, indent in zip(view.rows, indents))
    height = 2 * MARGIN + TILE * len(view.rows)
    width = 2 * MARGIN + int(np.ceil(TILE * columns))
    image = np.empty((height, width, 3), dtype=np.uint8)
    image[:] = BACKGROUND
    for r, (row, indent) in enumerate(zip(view.rows, indents)):
        top = MARGIN + r * TILE
        for c, cell in enumerate(row):
            left = MARGIN + int(indent * TILE / 2) + c * TILE
            image[top + 1:top + TILE - 1, left + 1:left + TILE - 1] = TILE_COLOURS[(r + c) % 2]
            _draw_cell(image, cell, top + TILE / 2, left + TILE / 2)
    return image


def _draw_cell(image: np.ndarray, cell: Cell, cy: float, cx: float) -> None:
    count = _count(cell)
    if cell.owner is None and count == 0:
        return
    if cell.owner is not None:
        _disc(image, cy, cx, TILE * 0.42, OWNER_COLOURS[cell.owner])
    if cell.mark == "bomb":
        _disc(image, cy, cx, TILE * 0.2, BOMB)
        return
    pip_colour = PIP if cell.owner is not None else NEUTRAL
    if cell.owner is not None and count <= 1:
        return  # a single piece needs no pip
    shown = min(count, MAX_PIPS)
    for k in range(shown):
        py, px = divmod(k, 3)
        _disc(image, cy + (py - 1) * TILE * 0.22, cx + (px - 1) * TILE * 0.22, TILE * 0.07, pip_colour)
    if count > MAX_PIPS:
        _disc(image, cy, cx, TILE * 0.09, TALL)
