"""A deliberately simple reference engine for Jump61.

Written from the rulebook (section 2) and the decisions recorded in
``docs/games/jump61.md``, apart from the compiled engine: a board is a dict
from ``(row, col)`` (both from 1) to ``[colour, spots]`` with colours as
words, the queue of overfull squares is a plain list, and neighbours are
worked out from coordinates each time. It speaks only notation (see
``tests/differential.py``).
"""

from __future__ import annotations

import re

LETTER = {"red": "r", "blue": "b", "white": "-"}
COLOUR = {letter: colour for colour, letter in LETTER.items()}
PLAYERS = ["red", "blue"]


class Position:
    def __init__(self, size, board, to_move, winner):
        self.size = size
        self.board = board  # (row, col) -> [colour, spots]
        self.to_move = to_move  # "red" or "blue"
        self.winner = winner  # None, "red" or "blue"


class Jump61Reference:
    def __init__(self, size):
        self.size = size

    # -- the board's shape --------------------------------------------------
    def squares(self):
        return [(r, c) for r in range(1, self.size + 1) for c in range(1, self.size + 1)]

    def neighbours(self, square):
        """Up, left, right, down: the order jumps feed their neighbours."""
        r, c = square
        around = [(r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c)]
        return [(a, b) for a, b in around if 1 <= a <= self.size and 1 <= b <= self.size]

    def overfull(self, board, square):
        return board[square][1] > len(self.neighbours(square))

    def one_colour(self, board):
        colours = {colour for colour, _ in board.values()}
        if len(colours) == 1 and colours != {"white"}:
            return colours.pop()
        return None

    # -- the protocol ---------------------------------------------------------
    def initial(self):
        return Position(self.size, {sq: ["white", 1] for sq in self.squares()}, "red", None)

    def from_notation(self, text):
        lines = [line.strip() for line in text.strip().splitlines()]
        if len(lines) < 2 or lines[0] != "===" or lines[-1] != "===":
            raise ValueError("not a dump")
        rows = [line.split() for line in lines[1:-1]]
        if len(rows) != self.size or any(len(row) != self.size for row in rows):
            raise ValueError("wrong shape")
        board = {}
        for r, row in enumerate(rows, start=1):
            for c, token in enumerate(row, start=1):
                match = re.fullmatch(r"(\d+)([rbRB-])", token)
                if not match:
                    raise ValueError(f"bad square {token!r}")
                board[(r, c)] = [COLOUR[match.group(2).lower()], int(match.group(1))]
        winner = self.one_colour(board)
        for square, (colour, spots) in board.items():
            if spots < 1 or (colour == "white" and spots != 1):
                raise ValueError(f"impossible square {square}")
            if winner is None and self.overfull(board, square):
                raise ValueError(f"overfull square {square}")
        total = sum(spots for _, spots in board.values())
        edges_twice = sum(len(self.neighbours(sq)) for sq in self.squares())
        if total > edges_twice + 1:
            raise ValueError("too many spots")
        added = total - self.size * self.size
        return Position(self.size, board, "red" if added % 2 == 0 else "blue", winner)

    def to_notation(self, position):
        lines = ["==="]
        for r in range(1, self.size + 1):
            row = [f"{position.board[(r, c)][1]}{LETTER[position.board[(r, c)][0]]}"
                   for c in range(1, self.size + 1)]
            lines.append("    " + " ".join(row))
        lines.append("===")
        return "\n".join(lines)

    def legal(self, position):
        if position.winner is not None:
            return []
        opponent = "blue" if position.to_move == "red" else "red"
        return [f"{r} {c}" for (r, c) in self.squares() if position.board[(r, c)][0] != opponent]

    def play(self, position, move):
        assert move in self.legal(position), move
        r, c = (int(x) for x in move.split())
        me = position.to_move
        board = {sq: list(value) for sq, value in position.board.items()}
        board[(r, c)] = [me, board[(r, c)][1] + 1]
        queue = [(r, c)] if self.overfull(board, (r, c)) else []
        jumps = 0
        while queue and self.one_colour(board) is None:
            square = queue.pop(0)
            if not self.overfull(board, square):
                continue
            jumps += 1
            assert jumps < 10**6, "a cascade that does not end"
            for other in self.neighbours(square):
                board[square][1] -= 1
                board[other][1] += 1
                board[other][0] = me
            for other in self.neighbours(square):
                if self.overfull(board, other) and other not in queue:
                    queue.append(other)
            if self.overfull(board, square) and square not in queue:
                queue.append(square)
        nxt = "blue" if me == "red" else "red"
        return Position(self.size, board, nxt, self.one_colour(board))

    def result(self, position):
        if position.winner is None:
            return None
        return PLAYERS.index(position.winner), "ALL_ONE_COLOUR"


def jump61_reference(size=6):
    return Jump61Reference(size)
