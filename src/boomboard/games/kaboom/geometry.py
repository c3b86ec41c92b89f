"""Kaboom's drawing geometry for the web page (:mod:`boomboard.core.geometry`):
a square board, row 1 at the bottom; a click on a column drops into it."""

from __future__ import annotations

from boomboard.core.geometry import LABEL_GAP, Layout

from .notation import COLUMN_LETTERS
from .rules import BOMB, HEIGHT, LINE_DC, LINE_DR, PRIMED


def layout(game) -> Layout:
    rows, cols = game["rows"], game["cols"]
    cells = range(rows * cols)
    names = [f"{COLUMN_LETTERS[q % cols]}{q // cols + 1}" for q in cells]
    centres = [(q % cols, rows - 1 - q // cols) for q in cells]
    labels = ([(COLUMN_LETTERS[c], c, rows - 1 + LABEL_GAP) for c in range(cols)]
              + [(str(r + 1), -LABEL_GAP, rows - 1 - r) for r in range(rows)])
    return Layout("square", names, centres, labels, [COLUMN_LETTERS[q % cols] for q in cells])


def cell_contents(game, array) -> list[list]:
    """A piece, or a bomb (``mark`` ``"bomb"``); a bomb primed in a recorded step
    (``PRIMED`` or more) has left the board."""
    board = HEIGHT + game["cols"]
    out = []
    for value in array[board:board + game["rows"] * game["cols"]]:
        value = int(value)
        if value == 0 or value >= PRIMED:
            out.append([None, "", ""])
        else:
            out.append([(value & 3) - 1, "", "bomb" if value & BOMB else ""])
    return out


def gesture(state, action: int, text: str, names: list[str]) -> dict:
    """A drop or bomb drop: a click on the column (``land`` names the cell it
    lands on); a detonation: a click on the bomb; a pass."""
    game = state.game
    rows, cols = game["rows"], game["cols"]
    if action < 2 * cols:
        column = action % cols
        landing = names[int(state.array[HEIGHT + column]) * cols + column]
        return {"kind": "drop" if action < cols else "bomb", "to": COLUMN_LETTERS[column], "land": landing}
    if action < 2 * cols + rows * cols:
        cell = names[action - 2 * cols]
        return {"kind": "detonate", "to": cell, "from": cell}
    return {"kind": "pass"}


def winning_lines(state, names: list[str]) -> list[str]:
    """The cells of every n-in-a-row on a finished board (what ended the game,
    misère included)."""
    if not state.is_terminal():
        return []
    game = state.game
    rows, cols, n = game["rows"], game["cols"], game["connect"]
    board = HEIGHT + cols
    side = [[int(state.array[board + r * cols + c]) & 3 for c in range(cols)] for r in range(rows)]
    found: set[int] = set()
    for r in range(rows):
        for c in range(cols):
            if not side[r][c]:
                continue
            for dr, dc in zip(LINE_DR, LINE_DC):
                run = [(r + k * dr, c + k * dc) for k in range(n)]
                if all(0 <= rr < rows and 0 <= cc < cols and side[rr][cc] == side[r][c] for rr, cc in run):
                    found.update(rr * cols + cc for rr, cc in run)
    return [names[cell] for cell in sorted(found)]
