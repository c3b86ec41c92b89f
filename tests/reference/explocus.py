"""A deliberately simple reference engine for Explocus and HExplocus.

Written from the rulebook (section 4) and the decisions recorded in
``docs/games/explocus.md``, apart from the compiled engine: cells are names
("d2", "C3"), a board is a dict from name to (colour, height), geometry is
worked out from the names each time. It speaks only notation (see
``tests/differential.py``).
"""

from __future__ import annotations

import string

WHITE, BLACK = "w", "b"


def other(colour):
    return BLACK if colour == WHITE else WHITE


class SquareGeometry:
    """Chess-like names: files a.. left to right, ranks 1.. from White's side."""

    def __init__(self, size):
        self.size = size
        self.files = string.ascii_lowercase[:size]
        # (rank step, file step): right, left, up, down
        self.directions = [(0, 1), (0, -1), (1, 0), (-1, 0)]

    def split(self, name):
        return int(name[1:]), self.files.index(name[0]) + 1  # (rank, file), both from 1

    def join(self, rank, file):
        if 1 <= rank <= self.size and 1 <= file <= self.size:
            return self.files[file - 1] + str(rank)
        return None

    def neighbour_count(self, name):
        rank, file = self.split(name)
        return sum(self.join(rank + dr, file + df) is not None for dr, df in self.directions)

    def rows_top_first(self):
        return [[self.join(rank, file) for file in range(1, self.size + 1)] for rank in range(self.size, 0, -1)]

    def standard(self):
        """White on rank 2, files b to the second-last (ranks 1 and size on boards under 6);
        the middle one or two stacks 3 high, the rest 2; never as high as the cell's
        capacity, nor as high as the distance to the other army. Black mirrors White."""
        if self.size < 4:
            raise ValueError("the standard setup needs size >= 4")
        white_rank, black_rank = (2, self.size - 1) if self.size >= 6 else (1, self.size)
        files = list(range(2, self.size))
        middle = (files[0] + files[-1]) / 2
        stacks = {}
        for file in files:
            height = 3 if abs(file - middle) <= 0.5 else 2
            height = min(height, black_rank - white_rank - 1, self.neighbour_count(self.join(white_rank, file)) - 1)
            stacks[self.join(white_rank, file)] = (WHITE, height)
            stacks[self.join(black_rank, file)] = (BLACK, height)
        return stacks


class HexGeometry:
    """Abalone names: row letters A.. from White's edge, diagonals 1..2*side-1."""

    def __init__(self, side):
        self.side = side
        self.span = 2 * side - 1
        self.letters = string.ascii_uppercase[:self.span]
        # (row step, diagonal step), in the rulebook's order
        self.directions = [(0, 1), (0, -1), (1, 0), (1, 1), (-1, 0), (-1, -1)]

    def split(self, name):
        return self.letters.index(name[0]) + 1, int(name[1:])  # (row, diagonal), both from 1

    def join(self, row, diagonal):
        if 1 <= row <= self.span and 1 <= diagonal <= self.span and abs(row - diagonal) < self.side:
            return self.letters[row - 1] + str(diagonal)
        return None

    def neighbour_count(self, name):
        row, diagonal = self.split(name)
        return sum(self.join(row + dr, diagonal + dd) is not None for dr, dd in self.directions)

    def rows_top_first(self):
        rows = []
        for row in range(self.span, 0, -1):
            rows.append([n for n in (self.join(row, d) for d in range(1, self.span + 1)) if n])
        return rows

    def standard(self):
        """White fills row B, Black the second row from the top (side 3: rows A and the
        top row); heights 2 at the ends, one more per cell toward the middle, at most 4,
        below the cell's capacity and below the distance to the other army."""
        rows = self.rows_top_first()
        white_at, black_at = (len(rows) - 2, 1) if self.side >= 4 else (len(rows) - 1, 0)
        white_row, black_row = rows[white_at], rows[black_at]
        stacks = {}
        for i in range(len(white_row)):
            height = min(4, 2 + i, 2 + len(white_row) - 1 - i, white_at - black_at - 1,
                         self.neighbour_count(white_row[i]) - 1)
            stacks[white_row[i]] = (WHITE, height)
            stacks[black_row[i]] = (BLACK, height)
        return stacks


class Position:
    def __init__(self, stacks, to_move, seen, plies, result):
        self.stacks = stacks  # name -> (colour, height)
        self.to_move = to_move
        self.seen = seen  # every position so far, this one included
        self.plies = plies
        self.result = result


class ExplocusReference:
    """The game on one board; ``geometry`` is a SquareGeometry or a HexGeometry."""

    def __init__(self, geometry):
        self.geo = geometry

    # -- geometry ---------------------------------------------------------
    def cells(self):
        return [name for row in self.geo.rows_top_first() for name in row]

    def walk(self, name, direction, steps):
        row, col = self.geo.split(name)
        d_row, d_col = direction
        return self.geo.join(row + d_row * steps, col + d_col * steps)

    def neighbours(self, name):
        found = []
        for direction in self.geo.directions:
            there = self.walk(name, direction, 1)
            if there is not None:
                found.append(there)
        return found

    def capacity(self, name):
        return len(self.neighbours(name))

    # -- positions --------------------------------------------------------
    def start(self, stacks, to_move):
        key = (frozenset(stacks.items()), to_move)
        return Position(stacks, to_move, [key], 0, self.judge(stacks, to_move))

    def initial(self):
        return self.start(self.geo.standard(), WHITE)

    def from_notation(self, text):
        rows_text, to_move = text.split()
        stacks = {}
        rows = self.geo.rows_top_first()
        row_texts = rows_text.split("/")
        assert len(row_texts) == len(rows)
        for names, row_text in zip(rows, row_texts):
            i = 0
            for name in names:
                char = row_text[i].lower()
                i += 1
                if char == ".":
                    continue
                digits = ""
                while i < len(row_text) and row_text[i].isdigit():
                    digits += row_text[i]
                    i += 1
                stacks[name] = (char, int(digits))
            assert i == len(row_text)
        return self.start(stacks, to_move.lower())

    def to_notation(self, position):
        rows = []
        for names in self.geo.rows_top_first():
            text = ""
            for name in names:
                if name in position.stacks:
                    colour, height = position.stacks[name]
                    text += colour + str(height)
                else:
                    text += "."
            rows.append(text)
        return "/".join(rows) + " " + position.to_move

    def stones(self, stacks, colour):
        return sum(h for c, h in stacks.values() if c == colour)

    def judge(self, stacks, to_move):
        for colour, winner in ((WHITE, 1), (BLACK, 0)):
            if self.stones(stacks, colour) == 0:
                return (winner, "NO_TOKENS")
        return None

    # -- play -------------------------------------------------------------
    def legal(self, position):
        if position.result is not None:
            return []
        moves = []
        for name, (colour, height) in position.stacks.items():
            if colour != position.to_move:
                continue
            for direction in self.geo.directions:
                for k in range(1, height + 1):
                    there = self.walk(name, direction, k)
                    if there is not None:
                        moves.append(f"{name}-{there}")
        return moves

    def play(self, position, move):
        origin, target = move.split("-")
        row_a, col_a = self.geo.split(origin)
        row_b, col_b = self.geo.split(target)
        k = max(abs(row_b - row_a), abs(col_b - col_a))  # the distance is the number of stones
        mover = position.to_move
        stacks = dict(position.stacks)
        colour, height = stacks.pop(origin)
        assert colour == mover and k <= height, move
        if height > k:
            stacks[origin] = (colour, height - k)
        below = stacks.get(target, (mover, 0))[1]
        stacks[target] = (mover, below + k)
        if self.stones(stacks, other(mover)) > 0:
            self.explode(stacks, target, mover)
        to_move = other(mover)
        key = (frozenset(stacks.items()), to_move)
        seen = position.seen + [key]
        plies = position.plies + 1
        result = self.judge(stacks, to_move)
        if result is None and seen.count(key) >= 4:
            result = (None, "REPETITION")
        if result is None and plies >= 500:
            result = (None, "TURN_LIMIT")
        return Position(stacks, to_move, seen, plies, result)

    def full(self, stacks, name):
        return name in stacks and stacks[name][1] >= self.capacity(name)

    def explode(self, stacks, landing, mover):
        queue = [landing] if self.full(stacks, landing) else []
        while queue:
            name = queue.pop(0)
            if not self.full(stacks, name):
                continue
            colour, height = stacks[name]
            left = height - self.capacity(name)
            if left:
                stacks[name] = (colour, left)
            else:
                del stacks[name]
            for near in self.neighbours(name):
                stacks[near] = (colour, stacks.get(near, (colour, 0))[1] + 1)
            if self.stones(stacks, other(mover)) == 0:
                return
            for near in self.neighbours(name):
                if self.full(stacks, near) and near not in queue:
                    queue.append(near)
            if self.full(stacks, name) and name not in queue:
                queue.append(name)

    def result(self, position):
        return position.result


def explocus_reference(size=8):
    return ExplocusReference(SquareGeometry(size))


def hexplocus_reference(side=5):
    return ExplocusReference(HexGeometry(side))
