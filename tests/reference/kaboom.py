"""A deliberately simple reference engine for Kaboom.

Written from the rulebook (section 3) and the decisions recorded in
``docs/games/kaboom.md``, apart from the compiled engine: a board is a dict
from cell names ("C2": column letter, row number from the bottom) to what
stands there; bombs go off from a first-in-first-out queue; lines are found
by trying every window of ``connect`` cells. It speaks only notation (see
``tests/differential.py``).
"""

from __future__ import annotations

import string

EMPTY = "-"
PIECE = {"x": "x", "o": "o"}
BOMB = {"x": "*", "o": "@"}
OWNER = {"x": "x", "o": "o", "*": "x", "@": "o"}


def other(player):
    return "o" if player == "x" else "x"


class KaboomReference:
    """Kaboom with the given parameters; positions are plain dicts:
    ``{"turn": "x", "hand": {"x": 1, "o": 1}, "cells": {"A1": "x", ...}, "result": None}``."""

    def __init__(self, rows=4, cols=4, connect=4, bombs=1, misere=False, superbomb=False):
        self.rows, self.cols, self.connect, self.bombs = rows, cols, connect, bombs
        self.misere, self.superbomb = misere, superbomb
        self.letters = string.ascii_uppercase[:cols]
        self.windows = self._windows()

    # -- geometry ---------------------------------------------------------------
    def name(self, column, row):
        """Column and row both counted from 1."""
        return f"{self.letters[column - 1]}{row}"

    def split(self, name):
        return self.letters.index(name[0]) + 1, int(name[1:])

    def on_board(self, column, row):
        return 1 <= column <= self.cols and 1 <= row <= self.rows

    def _windows(self):
        """Every run of ``connect`` cells along a row, a column or a diagonal."""
        found = []
        for column in range(1, self.cols + 1):
            for row in range(1, self.rows + 1):
                for step_column, step_row in ((1, 0), (0, 1), (1, 1), (1, -1)):
                    cells = [(column + k * step_column, row + k * step_row) for k in range(self.connect)]
                    if all(self.on_board(c, r) for c, r in cells):
                        found.append([self.name(c, r) for c, r in cells])
        return found

    def column_cells(self, cells, letter):
        """What stands in a column, bottom up."""
        stack = []
        for row in range(1, self.rows + 1):
            if f"{letter}{row}" in cells:
                stack.append(cells[f"{letter}{row}"])
        return stack

    # -- positions --------------------------------------------------------------
    def initial(self):
        return self._finish({"turn": "x", "hand": {"x": self.bombs, "o": self.bombs}, "cells": {},
                             "result": None})

    def from_notation(self, text):
        words = text.strip()[1:-1].split()
        turn, x_bombs, o_bombs, rows = words[0].lower(), int(words[1]), int(words[2]), words[3:]
        assert len(rows) == self.rows
        cells = {}
        for row_number, row in enumerate(rows, start=1):
            assert len(row) == self.cols
            for letter, char in zip(self.letters, row.lower()):
                if char != EMPTY:
                    cells[f"{letter}{row_number}"] = char
        for letter in self.letters:
            height = len(self.column_cells(cells, letter))
            assert all(f"{letter}{row}" in cells for row in range(1, height + 1)), "floating piece"
        return self._finish({"turn": turn, "hand": {"x": x_bombs, "o": o_bombs}, "cells": cells, "result": None})

    def to_notation(self, position):
        rows = []
        for row in range(1, self.rows + 1):
            rows.append("".join(position["cells"].get(f"{letter}{row}", EMPTY) for letter in self.letters))
        return f"({position['turn']} {position['hand']['x']} {position['hand']['o']} {' '.join(rows)})"

    # -- rules --------------------------------------------------------------------
    def full(self, cells):
        return len(cells) == self.rows * self.cols

    def bombs_on_board(self, cells, player):
        return [name for name, char in cells.items() if char == BOMB[player]]

    def legal(self, position):
        if position["result"] is not None:
            return []
        player, cells = position["turn"], position["cells"]
        moves = []
        for letter in self.letters:
            if len(self.column_cells(cells, letter)) < self.rows:
                moves.append(letter)
                if position["hand"][player] > 0:
                    moves.append(letter + "*")
        moves += [name + "!" for name in self.bombs_on_board(cells, player)]
        return moves or ["pass"]

    def play(self, position, move):
        assert move in self.legal(position), (move, self.legal(position))
        player = position["turn"]
        cells = dict(position["cells"])
        hand = dict(position["hand"])
        if move == "pass":
            pass
        elif move.endswith("!"):
            cells = self.detonate(cells, move[:-1])
        else:
            letter = move[0]
            height = len(self.column_cells(cells, letter))
            if move.endswith("*"):
                hand[player] -= 1
                cells[f"{letter}{height + 1}"] = BOMB[player]
            else:
                cells[f"{letter}{height + 1}"] = PIECE[player]
        return self._finish({"turn": other(player), "hand": hand, "cells": cells, "result": None})

    def blast(self, name):
        """The cells a bomb on ``name`` removes, itself included."""
        column, row = self.split(name)
        if self.superbomb:
            around = [(c, row) for c in range(1, self.cols + 1)] + [(column, r) for r in range(1, self.rows + 1)]
        else:
            around = [(column, row), (column - 1, row), (column + 1, row), (column, row - 1), (column, row + 1)]
        return {self.name(c, r) for c, r in around if self.on_board(c, r)}

    def detonate(self, cells, start):
        gone = set()
        queue = [start]
        exploded = set()
        while queue:
            bomb = queue.pop(0)
            if bomb in exploded:
                continue
            exploded.add(bomb)
            for name in self.blast(bomb):
                if name in cells:
                    gone.add(name)
                    if cells[name] in BOMB.values() and name not in exploded:
                        queue.append(name)
        fallen = {}
        for letter in self.letters:
            survivors = [cells[f"{letter}{row}"] for row in range(1, self.rows + 1)
                         if f"{letter}{row}" in cells and f"{letter}{row}" not in gone]
            for row, char in enumerate(survivors, start=1):
                fallen[f"{letter}{row}"] = char
        return fallen

    def connected(self, cells, player):
        return any(all(OWNER.get(cells.get(name)) == player for name in window) for window in self.windows)

    def _finish(self, position):
        """Work out the result, checked after every action (and for a loaded position)."""
        cells = position["cells"]
        x_line, o_line = self.connected(cells, "x"), self.connected(cells, "o")
        if x_line and o_line:
            position["result"] = (None, "BOTH_CONNECT")
        elif x_line or o_line:
            connector = 0 if x_line else 1
            position["result"] = (1 - connector if self.misere else connector, "CONNECT")
        elif self.full(cells) and not self.bombs_on_board(cells, "x") and not self.bombs_on_board(cells, "o"):
            position["result"] = (None, "NO_ACTIONS")
        return position

    def result(self, position):
        return position["result"]


def reference_perft(reference, position, depth):
    """Sequences of exactly ``depth`` actions, as :func:`boomboard.core.perft.perft` counts them."""
    if depth == 0:
        return 1
    if reference.result(position) is not None:
        return 0
    moves = reference.legal(position)
    if depth == 1:
        return len(moves)
    return sum(reference_perft(reference, reference.play(position, move), depth - 1) for move in moves)
