"""Jump61 notations, read and written in plain Python: those of the course's
text interface.

* A move names a square as row and column, both from 1 (row 1 at the top,
  column 1 at the left): ``2 3``. Read also as ``2:3`` (the seed's name for
  a square), with any spaces around the numbers.
* A position is the ``dump`` block: ``===``, then one line per row, top row
  first, indented 4 spaces, its squares separated by one space, each square
  as its spots and ``r`` (red), ``b`` (blue) or ``-`` (white); then ``===``.
  The 3x3 start::

    ===
        1- 1- 1-
        1- 1- 1-
        1- 1- 1-
    ===

  Written with the lines joined by newlines and no newline after the last
  ``===``; read with any line endings (``\\n`` or ``\\r\\n``), blank space
  around the block, any indentation and spacing inside a row, and colour
  letters in either case. The board's size is its number of rows. The dump
  does not say whose turn it is: every move adds one spot to a board that
  started with one per square, so Red is to move when the spots beyond
  ``N * N`` are even (:func:`player_to_move`).
"""

from __future__ import annotations

import re

from boomboard.core.errors import InvalidPositionError, NotationError

from .rules import WHITE

COLOUR_LETTERS = "-rb"  # indexed by WHITE, RED, BLUE
COLOUR_NAMES = ("white", "red", "blue")
FRAME = "==="
INDENT = "    "

_MOVE = re.compile(r"^\s*([0-9]{1,9})\s*(?::|\s)\s*([0-9]{1,9})\s*$")
_SQUARE = re.compile(r"([0-9]{1,9})([rb-])", re.I)


def parse_move(text: str) -> tuple[int, int]:
    """``(row, column)`` of a move such as ``2 3`` or ``2:3``, both from 1.

    Only the form is checked here; whether the square is on the board and
    free to play is the game's business.
    """
    match = _MOVE.match(text) if text.isascii() else None
    if not match:
        raise NotationError(f"expected a square as row and column, like '2 3' or '2:3'; got {text!r}")
    return int(match.group(1)), int(match.group(2))


def write_move(row: int, col: int) -> str:
    return f"{row} {col}"


def neighbour_count(size: int, row: int, col: int) -> int:
    """How many squares are next to ``row col`` (both from 1): 2, 3 or 4."""
    return 4 - (row == 1) - (row == size) - (col == 1) - (col == size)


def most_spots(size: int) -> int:
    """The most spots any position can hold: a board that is not finished holds
    at most the sum of its neighbour counts, and the last move adds one."""
    return 4 * size * (size - 1) + 1


def player_to_move(size: int, spots: list[int]) -> int:
    """0 (Red) or 1 (Blue), from the parity of the spots added since the start."""
    return (sum(spots) - size * size) % 2


def write_dump(size: int, spots, colours) -> str:
    """The ``dump`` block of a board given square by square, row by row."""
    lines = [FRAME]
    for row in range(size):
        squares = range(row * size, (row + 1) * size)
        lines.append(INDENT + " ".join(f"{spots[q]}{COLOUR_LETTERS[colours[q]]}" for q in squares))
    lines.append(FRAME)
    return "\n".join(lines)


def parse_dump(text: str) -> tuple[int, list[int], list[int]]:
    """``(size, spots, colours)`` of a ``dump`` block, checked by :func:`check_position`."""
    lines = text.replace("\r\n", "\n").strip().split("\n") if text.isascii() else []
    if len(lines) < 2 or lines[0].strip() != FRAME or lines[-1].strip() != FRAME:
        raise NotationError(
            "expected a dump: a line '===', one line per row of squares such as '    2r 1- 1b', "
            f"and a line '==='; got {text[:60]!r}")
    rows = [line.split() for line in lines[1:-1]]
    size = len(rows)
    if size < 2:
        raise InvalidPositionError(f"a board has at least 2 rows; the dump has {size}")
    spots, colours = [], []
    for number, squares in enumerate(rows, start=1):
        if len(squares) != size:
            raise InvalidPositionError(f"row {number} has {len(squares)} squares; the dump has {size} rows, "
                                       f"so every row needs {size} squares")
        for col, token in enumerate(squares, start=1):
            match = _SQUARE.fullmatch(token)
            if not match:
                raise InvalidPositionError(f"square {row_col(number, col)} is {token!r}; a square is its spots "
                                           "then r (red), b (blue) or - (white), like 2r or 1-")
            spots.append(int(match.group(1)))
            colours.append(COLOUR_LETTERS.index(match.group(2).lower()))
    check_position(size, spots, colours)
    return size, spots, colours


def row_col(row: int, col: int) -> str:
    return f"{row} {col}"


def one_colour(colours) -> int:
    """``RED`` or ``BLUE`` if every square has that colour (the game is won), else ``WHITE``."""
    first = colours[0]
    return first if first != WHITE and all(c == first for c in colours) else WHITE


def check_position(size: int, spots: list[int], colours: list[int]) -> None:
    """Refuse boards no game of Jump61 can show.

    Every square has at least one spot (so the board holds at least ``N * N``),
    a white square exactly one, and none more than it has neighbours, except
    on a finished board (one colour all over): the jumping stops the moment a
    player wins, and may leave overfull squares. No board holds more than
    :func:`most_spots`.
    """
    finished = one_colour(colours) != WHITE
    for square, (count, colour) in enumerate(zip(spots, colours)):
        row, col = divmod(square, size)
        name = row_col(row + 1, col + 1)
        if count < 1:
            raise InvalidPositionError(f"square {name} has {count} spots; every square has at least 1")
        if colour == WHITE and count != 1:
            raise InvalidPositionError(f"square {name} is white with {count} spots; "
                                       "a white square has exactly 1 (a spot added colours it)")
        neighbours = neighbour_count(size, row + 1, col + 1)
        if count > neighbours and not finished:
            raise InvalidPositionError(
                f"square {name} has {count} spots, more than its {neighbours} neighbours, so it would have "
                "jumped; only a finished board (all red or all blue) may keep an overfull square")
    if sum(spots) > most_spots(size):
        raise InvalidPositionError(
            f"the board holds {sum(spots)} spots; a {size}x{size} board never holds more than "
            f"{most_spots(size)} (the sum of its neighbour counts, and the one spot of the winning move)")

