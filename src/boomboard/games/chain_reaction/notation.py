"""Chain Reaction notations, read and written in plain Python (the game has
none of its own; these follow the other games of this library).

* A move names its cell: the column's letter from ``a`` on the left and the
  row's number from ``1`` at the bottom, ``a1`` the bottom-left corner.
  Read in any case with spaces around; written in lowercase.
* A position is one line per row, top row first, its cells separated by
  spaces, each ``.`` (empty) or its orbs and owner's letter (``3r``,
  ``1g``); then a line with the side to move, ``r`` or ``g``. Red's first
  move on 3x3, ``a1``::

    . . .
    . . .
    1r . .
    g

  Written with single spaces, ``\\n`` between lines and no newline at the
  end; read with any line endings, blank space around the text or between
  cells, and letters in either case. The grid's size is what the rows show.
"""

from __future__ import annotations

import re
from string import ascii_lowercase

from boomboard.core.errors import IllegalActionError, InvalidPositionError, NotationError

from .rules import EMPTY, GREEN, RED

OWNER_LETTERS = ".rg"  # indexed by EMPTY, RED, GREEN
OWNER_NAMES = ("empty", "red", "green")
SIDES = "rg"  # the side to move, by player
COLUMN_LETTERS = ascii_lowercase

_CELL_NAME = re.compile(r"^\s*([a-z])([0-9]{1,9})\s*$", re.I)
_TOKEN = re.compile(r"([0-9]{1,9})([rg])", re.I)
POSITION_FORM = ("one line per row, top row first, each cell '.' (empty) or its orbs and owner "
                 "('3r' red, '1g' green), then a line with the side to move, 'r' or 'g'")


# -- cells and moves --------------------------------------------------------------
def cell_name(cols: int, cell: int) -> str:
    row, col = divmod(cell, cols)
    return f"{COLUMN_LETTERS[col]}{row + 1}"


def parse_cell(text: str, rows: int, cols: int) -> int:
    """The cell (and move) id of a name such as ``b3``; a name off the grid is
    an :class:`IllegalActionError` that gives the grid's range."""
    match = _CELL_NAME.match(text)
    if not match:
        raise NotationError(f"expected a cell as a column letter and a row number, like 'a1' or 'c4'; got {text!r}")
    col = COLUMN_LETTERS.index(match.group(1).lower())
    row = int(match.group(2)) - 1
    if not (0 <= row < rows and 0 <= col < cols):
        raise IllegalActionError(
            f"there is no cell {match.group(1).lower()}{match.group(2)} on a {rows}x{cols} grid; columns run "
            f"a..{COLUMN_LETTERS[cols - 1]} and rows 1..{rows}")
    return row * cols + col


def critical_mass(rows: int, cols: int, cell: int) -> int:
    """How many orthogonal neighbours the cell has: 2 in a corner, 3 on an edge, 4 inside."""
    row, col = divmod(cell, cols)
    return 4 - (row == 0) - (row == rows - 1) - (col == 0) - (col == cols - 1)


def stable_capacity(rows: int, cols: int) -> int:
    """The most orbs a stable grid holds: the sum of ``critical mass - 1``."""
    return 3 * rows * cols - 2 * rows - 2 * cols


# -- positions ---------------------------------------------------------------------
def write_position(rows: int, cols: int, counts, owners, player: int) -> str:
    """The position text of a grid given cell by cell (``counts``, ``owners``
    indexed by cell id, row 0 at the bottom) and the player to move."""
    lines = []
    for row in reversed(range(rows)):
        tokens = []
        for cell in range(row * cols, (row + 1) * cols):
            count = int(counts[cell])
            tokens.append("." if count == 0 else f"{count}{OWNER_LETTERS[int(owners[cell])]}")
        lines.append(" ".join(tokens))
    lines.append(SIDES[player])
    return "\n".join(lines)


def parse_position(text: str) -> tuple[int, int, list[int], list[int], int]:
    """``(rows, cols, counts, owners, player)`` of a position text; only its
    form is checked here, its content by :func:`check_position`."""
    lines = text.replace("\r\n", "\n").strip().split("\n")
    if len(lines) < 3 or lines[-1].strip().lower() not in ("r", "g"):
        raise NotationError(f"expected a position: {POSITION_FORM}, like '. 1g\\n1r .\\nr'; got {text[:60]!r}")
    player = SIDES.index(lines[-1].strip().lower())
    grid = [line.split() for line in lines[:-1]]
    rows, cols = len(grid), len(grid[0])
    if any(len(line) != cols for line in grid):
        lengths = ", ".join(str(len(line)) for line in grid)
        raise InvalidPositionError(f"the rows have different numbers of cells ({lengths}, top row first); "
                                   "every row needs as many cells as the top row")
    if cols > len(COLUMN_LETTERS):
        raise InvalidPositionError(f"the rows have {cols} cells; a grid has at most {len(COLUMN_LETTERS)} columns")
    counts, owners = [0] * (rows * cols), [EMPTY] * (rows * cols)
    for line_number, line in enumerate(grid):
        row = rows - 1 - line_number
        for col, token in enumerate(line):
            cell = row * cols + col
            if token == ".":
                continue
            match = _TOKEN.fullmatch(token)
            if not match:
                raise NotationError(f"cell {cell_name(cols, cell)} is {token!r}; a cell is '.' (empty) or its orbs "
                                    "then r (red) or g (green), like 3r or 1g")
            counts[cell] = int(match.group(1))
            owners[cell] = OWNER_LETTERS.index(match.group(2).lower())
    return rows, cols, counts, owners, player


def finished(counts, owners) -> int | None:
    """The winner (0 red, 1 green) of a grid where, both having moved, the
    other player has no orb; else ``None``."""
    if sum(counts) < 2:
        return None
    present = {owner for owner in owners if owner != EMPTY}
    if present == {RED}:
        return 0
    if present == {GREEN}:
        return 1
    return None


def check_position(rows: int, cols: int, counts: list[int], owners: list[int], player: int) -> None:
    """Refuse positions no game of Chain Reaction can show.

    The grid holds as many orbs as moves were played, so the side to move is
    their parity (Red on even). A game that goes on has a stable grid (every
    cell below its critical mass) with both colours once both have moved; a
    finished one has one colour, the last mover's, may keep unstable cells,
    holds at least 3 orbs (a wipe-out needs an explosion) and at most one
    more than a stable grid can.
    """
    total = sum(counts)
    for cell, count in enumerate(counts):
        if count == 0 and owners[cell] != EMPTY:
            raise InvalidPositionError(f"cell {cell_name(cols, cell)} has 0 orbs; an empty cell is written '.'")
    most = stable_capacity(rows, cols) + 1
    if total > most:
        raise InvalidPositionError(f"the grid holds {total} orbs; a {rows}x{cols} grid never holds more than {most} "
                                   "(one more than the sum of critical mass - 1, the most a stable grid holds)")
    if player != total % 2:
        expected = "Red" if total % 2 == 0 else "Green"
        raise InvalidPositionError(
            f"the grid holds {total} orbs, so {total} moves were played and {expected} is to move, not "
            f"{'Red' if player == 0 else 'Green'} (every move adds one orb and explosions only move them)")
    red = sum(count for count, owner in zip(counts, owners) if owner == RED)
    if total == 1 and red != 1:
        raise InvalidPositionError("the grid holds one green orb; Red moves first, so the first orb is red")
    winner = finished(counts, owners)
    if winner is not None:
        if winner != 1 - player:
            name = "red" if winner == 0 else "green"
            raise InvalidPositionError(f"every orb is {name}, but the last move was the other player's, and a "
                                       "move never costs the mover an orb")
        if total < 3:
            raise InvalidPositionError(f"only {'red' if winner == 0 else 'green'} orbs with {total} orbs on the "
                                       "grid; a player is wiped out only by an explosion, which needs at least 3")
        return
    for cell, count in enumerate(counts):
        mass = critical_mass(rows, cols, cell)
        if count >= mass:
            raise InvalidPositionError(
                f"cell {cell_name(cols, cell)} has {count} orbs, at least its critical mass {mass}, so it would "
                "have exploded; only a finished game (one colour left) may keep an unstable cell")
