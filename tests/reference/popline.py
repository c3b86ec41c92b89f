"""Popline in plain Python, from the rules in tests/engine_only_game/__init__.py
(a reference for the differential test; it speaks notation only).

A position is (cells, mover, plies): cells a tuple of signed orb counts
(+ the first player's, - the second's), mover 0 or 1.
"""

from __future__ import annotations

MARKS = ("x", "o")


class Popline:
    def __init__(self, cells: int = 6, action_limit: int = 80):
        self.cells, self.action_limit = cells, action_limit

    def initial(self):
        return (0,) * self.cells, 0, 0

    def from_notation(self, text: str):
        board, _, mover = text.partition("/")
        values = tuple(0 if w == "." else (1 if w[0] == "x" else -1) * int(w[1:]) for w in board.split())
        return values, MARKS.index(mover.strip()), 0

    def to_notation(self, position) -> str:
        cells, mover, _ = position
        words = ["." if v == 0 else f"{'x' if v > 0 else 'o'}{abs(v)}" for v in cells]
        return f"{' '.join(words)} / {MARKS[mover]}"

    def _capacity(self, cell: int) -> int:
        return (cell > 0) + (cell < self.cells - 1)

    def legal(self, position) -> list[str]:
        if self.result(position) is not None:
            return []
        cells, mover, _ = position
        sign = 1 if mover == 0 else -1
        return [str(i + 1) for i, v in enumerate(cells) if v * sign >= 0]

    def play(self, position, move: str):
        cells, mover, plies = position
        board, sign = list(cells), 1 if mover == 0 else -1
        board[int(move) - 1] += sign
        # Sweep left to right, popping each overfull cell as it is reached, until
        # a sweep pops nothing; a sweep that leaves the opponent no orbs ends it.
        popped = True
        while popped:
            popped = False
            for i in range(self.cells):
                if abs(board[i]) > self._capacity(i):
                    popped = True
                    board[i] = 0
                    for j in (i - 1, i + 1):
                        if 0 <= j < self.cells:
                            board[j] = sign * (abs(board[j]) + 1)
            if plies >= 1 and not any(v * -sign > 0 for v in board):
                break
        return tuple(board), 1 - mover, plies + 1

    def result(self, position):
        cells, mover, plies = position
        last = 1 - mover  # who moved last
        if plies >= 2 and not any(v * (1 if mover == 0 else -1) > 0 for v in cells):
            return last, "WIPED_OUT"
        if plies >= self.action_limit:
            return None, "TURN_LIMIT"
        return None
