"""The two boards of Explocus: their cells, names, neighbours, capacities and lines.

A board is a set of cells with integer coordinates ``(row, column)`` and an
ordered list of direction steps; everything else is derived from those two:

* the square board (Explocus): ``(rank, file)``, both from 0 at White's
  bottom-left corner; steps east, west, north, south;
* the hexagonal board (HExplocus): ``(row, diagonal)`` as in Abalone, both
  from 0 at A1; a cell is on the board when the two differ by less than the
  side; steps ``(0,+1) (0,-1) (+1,0) (+1,+1) (-1,0) (-1,-1)``.

Cells are numbered row by row from White's edge, left to right (``a1 b1 ...``,
``A1 A2 ... B1 ...``); the direction order fixes both the action ids and the
order in which an explosion feeds its neighbours.
"""

from __future__ import annotations

from functools import cached_property, cache
from string import ascii_lowercase, ascii_uppercase

SQUARE_STEPS = ((0, 1), (0, -1), (1, 0), (-1, 0))
HEX_STEPS = ((0, 1), (0, -1), (1, 0), (1, 1), (-1, 0), (-1, -1))


class Board:
    """Cells, their names and every table the rules read, for one board."""

    def __init__(self, kind: str, coords: list[tuple[int, int]], steps: tuple[tuple[int, int], ...],
                 names: list[str], row_labels: dict[int, str], column_labels: list[str]):
        self.kind = kind  # "square" or "hex"
        self.coords = coords
        self.steps = steps
        self.names = names
        self.cell_of_name = {name.lower(): cell for cell, name in enumerate(names)}
        self.column_labels = column_labels
        at = {coord: cell for cell, coord in enumerate(coords)}
        self.neighbours = [[at.get((r + dr, c + dc), -1) for dr, dc in steps] for r, c in coords]
        self.capacity = [sum(n >= 0 for n in around) for around in self.neighbours]
        # rays[cell][direction]: the cells 1, 2, ... steps away, up to the edge
        self.rays = [[self._ray(at, coord, step) for step in steps] for coord in coords]
        self.kmax = max(len(ray) for around in self.rays for ray in around)
        self.edges = sum(self.capacity) // 2
        by_row: dict[int, list[int]] = {}
        for cell, (r, _c) in enumerate(coords):
            by_row.setdefault(r, []).append(cell)
        self.rows = [sorted(by_row[r], key=lambda cell: coords[cell][1]) for r in sorted(by_row, reverse=True)]
        self.row_labels = [row_labels[r] for r in sorted(by_row, reverse=True)]

    @staticmethod
    def _ray(at: dict, coord: tuple[int, int], step: tuple[int, int]) -> list[int]:
        ray = []
        r, c = coord
        while (r + step[0], c + step[1]) in at:
            r, c = r + step[0], c + step[1]
            ray.append(at[(r, c)])
        return ray

    @property
    def ncells(self) -> int:
        return len(self.coords)

    @property
    def ndirs(self) -> int:
        return len(self.steps)

    @property
    def num_actions(self) -> int:
        return self.ncells * self.ndirs * self.kmax

    @property
    def max_stones(self) -> int:
        """The most stones a position may hold: fewer than the board's edges
        (adjacent pairs), so that every explosion cascade ends (see rules.py)."""
        return self.edges - 1

    # -- moves and their ids ----------------------------------------------------
    def action_id(self, cell: int, direction: int, distance: int) -> int:
        return (cell * self.ndirs + direction) * self.kmax + distance - 1

    def decode(self, action: int) -> tuple[int, int, int]:
        """``(cell, direction, distance)`` of an action id."""
        rest, k = divmod(action, self.kmax)
        cell, direction = divmod(rest, self.ndirs)
        return cell, direction, k + 1

    def line_between(self, origin: int, target: int) -> tuple[int, int] | None:
        """``(direction, distance)`` from ``origin`` straight to ``target``, or None."""
        for direction, ray in enumerate(self.rays[origin]):
            if target in ray:
                return direction, ray.index(target) + 1
        return None

    @cached_property
    def action_names(self) -> list[str | None]:
        """Every action id as ``from-to``; None where the move would leave the board."""
        names: list[str | None] = [None] * self.num_actions
        for cell in range(self.ncells):
            for direction, ray in enumerate(self.rays[cell]):
                for k, target in enumerate(ray, start=1):
                    names[self.action_id(cell, direction, k)] = f"{self.names[cell]}-{self.names[target]}"
        return names


@cache
def square_board(size: int) -> Board:
    """The ``size`` x ``size`` board: files a.. from the left, ranks 1.. from White's side."""
    coords = [(rank, file) for rank in range(size) for file in range(size)]
    names = [f"{ascii_lowercase[file]}{rank + 1}" for rank, file in coords]
    return Board("square", coords, SQUARE_STEPS, names, {r: str(r + 1) for r in range(size)},
                 list(ascii_lowercase[:size]))


@cache
def hex_board(side: int) -> Board:
    """The hexagon with ``side`` cells a side: rows A.. from White's edge, diagonals 1.."""
    span = 2 * side - 1
    coords = [(row, diag) for row in range(span) for diag in range(span) if abs(row - diag) < side]
    names = [f"{ascii_uppercase[row]}{diag + 1}" for row, diag in coords]
    return Board("hex", coords, HEX_STEPS, names, {r: ascii_uppercase[r] for r in range(span)}, [])


def square_standard(size: int) -> list[int]:
    """The standard start (house rule), as signed heights (+ White, - Black) per cell.

    White fills rank 2 from file b to the second-last file, Black mirrors it on
    rank ``size - 1``; on boards smaller than 6 they take the first and last
    ranks instead, for room. The middle stack (odd count) or two (even count)
    hold 3 stones, the others 2, lowered where needed so that every stack stays
    below its cell's capacity and no first move reaches the other army. For
    8x8: 2 2 3 3 2 2 on b2..g2 and b7..g7.
    """
    board = square_board(size)
    white_rank, black_rank = (1, size - 2) if size >= 6 else (0, size - 1)
    count = size - 2
    cells = [0] * board.ncells
    for i in range(count):
        white, black = white_rank * size + 1 + i, black_rank * size + 1 + i
        pattern = 3 if abs(2 * i - (count - 1)) <= 1 else 2
        height = min(pattern, black_rank - white_rank - 1, board.capacity[white] - 1)
        cells[white], cells[black] = height, -height
    return cells


def hex_standard(side: int) -> list[int]:
    """The standard start (house rule), as signed heights (+ White, - Black) per cell.

    White fills row B, Black the second row from the top (side 3: the edge rows
    A and E instead, for room). Heights are 2 at a row's ends, rising by one
    toward its middle, at most 4, lowered where needed so that every stack
    stays below its cell's capacity and no first move reaches the other army.
    For side 5: 2 3 4 4 3 2 on B1..B6 and H4..H9.
    """
    board = hex_board(side)
    white_row, black_row = (len(board.rows) - 2, 1) if side >= 4 else (len(board.rows) - 1, 0)
    rows_between = white_row - black_row - 1
    cells = [0] * board.ncells
    white_cells, black_cells = board.rows[white_row], board.rows[black_row]
    last = len(white_cells) - 1
    for i, (white, black) in enumerate(zip(white_cells, black_cells)):
        height = min(4, 2 + min(i, last - i), rows_between, board.capacity[white] - 1)
        cells[white], cells[black] = height, -height
    return cells
