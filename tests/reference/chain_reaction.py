"""A deliberately simple reference engine for Chain Reaction.

Written from the rules in ``docs/games/chain_reaction.md``, apart from the
compiled engine: a grid is a dict from ``(col, row)`` (both from 0, row 0
at the bottom) to ``[colour, orbs]`` holding only the occupied cells, with
colours as words; who has moved is a set kept along, not worked out from
the orbs; explosions go as a list of waves, each worked out from the whole
grid; neighbours come from coordinates each time. It speaks only notation
(see ``tests/differential.py``).
"""

from __future__ import annotations

import re
import string

LETTER = {"red": "r", "green": "g"}
COLOUR = {letter: colour for colour, letter in LETTER.items()}
PLAYERS = ["red", "green"]


class Position:
    def __init__(self, grid, to_move, moved, winner):
        self.grid = grid  # (col, row) -> [colour, orbs], occupied cells only
        self.to_move = to_move  # "red" or "green"
        self.moved = moved  # frozenset of the players who have moved
        self.winner = winner  # None, "red" or "green"


def other(player):
    return "green" if player == "red" else "red"


class ChainReactionReference:
    def __init__(self, rows, cols):
        self.rows, self.cols = rows, cols

    # -- the grid's shape -------------------------------------------------------
    def cells(self):
        return [(c, r) for r in range(self.rows) for c in range(self.cols)]

    def neighbours(self, cell):
        c, r = cell
        around = [(c, r + 1), (c, r - 1), (c - 1, r), (c + 1, r)]
        return [(a, b) for a, b in around if 0 <= a < self.cols and 0 <= b < self.rows]

    def critical(self, cell):
        return len(self.neighbours(cell))

    def name(self, cell):
        return f"{string.ascii_lowercase[cell[0]]}{cell[1] + 1}"

    def colours(self, grid):
        return {colour for colour, _ in grid.values()}

    # -- the protocol -------------------------------------------------------------
    def initial(self):
        return Position({}, "red", frozenset(), None)

    def from_notation(self, text):
        lines = text.strip().splitlines()
        if len(lines) != self.rows + 1:
            raise ValueError("wrong number of lines")
        side = lines[-1].strip().lower()
        if side not in ("r", "g"):
            raise ValueError("no side to move")
        grid = {}
        for index, line in enumerate(lines[:-1]):
            tokens = line.split()
            if len(tokens) != self.cols:
                raise ValueError("wrong row length")
            row = self.rows - 1 - index
            for col, token in enumerate(tokens):
                if token == ".":
                    continue
                match = re.fullmatch(r"(\d+)([rgRG])", token)
                if not match or int(match.group(1)) == 0:
                    raise ValueError(f"bad cell {token!r}")
                grid[(col, row)] = [COLOUR[match.group(2).lower()], int(match.group(1))]
        total = sum(orbs for _, orbs in grid.values())
        # one orb per move, red first: the moves played and who played them
        moved = frozenset(PLAYERS[:min(total, 2)])
        to_move = "red" if side == "r" else "green"
        if to_move != PLAYERS[total % 2]:
            raise ValueError("the wrong side to move")
        colours = self.colours(grid)
        winner = None
        if len(moved) == 2 and len(colours) == 1:
            winner = colours.pop()
            if winner == to_move or total < 3:
                raise ValueError("an impossible win")
        if total == 1 and colours != {"red"}:
            raise ValueError("green cannot have moved first")
        most = sum(self.critical(cell) - 1 for cell in self.cells()) + 1
        if total > most:
            raise ValueError("too many orbs")
        if winner is None and any(orbs >= self.critical(cell) for cell, (_, orbs) in grid.items()):
            raise ValueError("an unstable cell")
        return Position(grid, to_move, moved, winner)

    def to_notation(self, position):
        lines = []
        for row in reversed(range(self.rows)):
            tokens = []
            for col in range(self.cols):
                held = position.grid.get((col, row))
                tokens.append("." if held is None else f"{held[1]}{LETTER[held[0]]}")
            lines.append(" ".join(tokens))
        lines.append(LETTER[position.to_move])
        return "\n".join(lines)

    def legal(self, position):
        if position.winner is not None:
            return []
        opponent = other(position.to_move)
        return [self.name(cell) for cell in self.cells() if position.grid.get(cell, [None])[0] != opponent]

    def play(self, position, move):
        assert move in self.legal(position), move
        col, row = string.ascii_lowercase.index(move[0]), int(move[1:]) - 1
        me = position.to_move
        moved = position.moved | {me}
        grid = {cell: list(held) for cell, held in position.grid.items()}
        grid.setdefault((col, row), [me, 0])[1] += 1

        def wiped_out():
            return len(moved) == 2 and other(me) not in self.colours(grid)

        waves = 0
        while not wiped_out():
            wave = [cell for cell, (_, orbs) in grid.items() if orbs >= self.critical(cell)]
            if not wave:
                break
            waves += 1
            assert waves < 10**5, "a cascade that does not end"
            gains = {}
            for cell in wave:
                grid[cell][1] -= self.critical(cell)
                for near in self.neighbours(cell):
                    gains[near] = gains.get(near, 0) + 1
            for near, orbs in gains.items():
                grid[near] = [me, grid.get(near, [me, 0])[1] + orbs]
            grid = {cell: held for cell, held in grid.items() if held[1] > 0}
        winner = me if wiped_out() else None
        return Position(grid, other(me), moved, winner)

    def result(self, position):
        if position.winner is None:
            return None
        return PLAYERS.index(position.winner), "NO_TOKENS"


def chain_reaction_reference(rows=9, cols=6):
    return ChainReactionReference(rows, cols)
