"""Kaboom's notations, read and written: the GamesCrafters position string and
the action names (``A``, ``A*``, ``C2!``, ``pass``).

Positions are read case-insensitively and written in lower case, exactly as
the seed prints them: ``(o 0 1 xoxx --*o --oo --x-)``, rows bottom first.
Actions are read case-insensitively and written in upper case.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass

from boomboard.core.errors import IllegalActionError, InvalidPositionError, NotationError

PLAYER_LETTERS = "xo"
# A cell's character and its value in the engine's board (see rules.py).
CELL_VALUES = {"-": 0, "x": 1, "o": 2, "*": 5, "@": 6}
CELL_CHARS = {value: char for char, value in CELL_VALUES.items()}
BOMB_CHARS = "*@"  # X's bomb, O's bomb
COLUMN_LETTERS = string.ascii_uppercase

POSITION_FORM = "(P xb ob ROW ROW ...), e.g. (o 0 1 xoxx --*o --oo --x-)"
ACTION_FORMS = "a column letter to drop a piece (A), a letter and * to drop a bomb (A*), " \
               "a cell and ! to detonate your bomb there (C2!), or 'pass'"

_POSITION = re.compile(r"^\s*\((.*)\)\s*$", re.S)
_COUNT = re.compile(r"^-?[0-9]+$")
_ACTION = re.compile(r"^([a-z])(?:(\*)|([0-9]+)!)?$")
_CELL = re.compile(r"^([a-z])([0-9]+)$")


@dataclass(frozen=True)
class Position:
    """A position string taken apart: the player to move (0 X, 1 O), the bombs
    each still holds, and the rows, bottom first, in lower case."""

    player: int
    hands: tuple[int, int]
    rows: tuple[str, ...]


def _bomb_count(token: str, whose: str) -> int:
    if not _COUNT.match(token):
        raise InvalidPositionError(f"{whose}'s bombs in hand must be a whole number, got {token!r}")
    # a count too long to be any board's is just "too many" (and int() of
    # thousands of digits would refuse anyway)
    count = int(token) if len(token) <= 9 else 10**9
    if count < 0:
        raise InvalidPositionError(f"{whose}'s bombs in hand cannot be negative, got {count}")
    return count


def parse_position(text: str) -> Position:
    """Read ``(P xb ob ROW ROW ...)``; check each part on its own (the board's
    size and the bomb limit are :func:`check_position`'s business)."""
    match = _POSITION.match(text) if text.isascii() else None
    tokens = match.group(1).split() if match else []
    if len(tokens) < 3:
        raise NotationError(f"expected a position {POSITION_FORM}; got {text!r}")
    letter, x_bombs, o_bombs, *rows = tokens
    letter = letter.lower()
    if letter not in PLAYER_LETTERS:
        raise InvalidPositionError(f"the player to move must be x or o, got {letter!r}")
    hands = (_bomb_count(x_bombs, "x"), _bomb_count(o_bombs, "o"))
    rows = tuple(row.lower() for row in rows)
    for number, row in enumerate(rows, start=1):
        for column, char in enumerate(row):
            if char not in CELL_VALUES:
                raise InvalidPositionError(
                    f"row {number} (from the bottom), column {column + 1}: {char!r} is no cell; "
                    "expected x, o, * (X's bomb), @ (O's bomb) or - (empty)")
    return Position(PLAYER_LETTERS.index(letter), hands, rows)


def check_position(position: Position, rows: int, cols: int, bombs: int) -> None:
    """Refuse a position that cannot occur on a ``rows`` x ``cols`` board with
    ``bombs`` bombs each: wrong size, floating pieces, too many bombs."""
    if len(position.rows) != rows:
        raise InvalidPositionError(f"expected {rows} rows (bottom first), got {len(position.rows)}")
    for number, row in enumerate(position.rows, start=1):
        if len(row) != cols:
            raise InvalidPositionError(f"row {number} (from the bottom) must have {cols} cells, got {row!r}")
    for column in range(cols):
        cells = [row[column] for row in position.rows]
        for below, above in zip(range(rows), range(1, rows)):
            if cells[below] == "-" and cells[above] != "-":
                raise InvalidPositionError(
                    f"{COLUMN_LETTERS[column]}{above + 1} floats over the empty {COLUMN_LETTERS[column]}{below + 1}: "
                    "pieces fall to the bottom of their column")
    for player, bomb_char in enumerate(BOMB_CHARS):
        placed = sum(row.count(bomb_char) for row in position.rows)
        total = position.hands[player] + placed
        if total > bombs:
            raise InvalidPositionError(
                f"{PLAYER_LETTERS[player]} has {position.hands[player]} bomb(s) in hand and {placed} on the board, "
                f"more than the {bombs} each player gets")


def write_position(player: int, hands: tuple[int, int], rows: list[str]) -> str:
    """``(P xb ob ROW ROW ...)`` in lower case, rows bottom first."""
    return f"({PLAYER_LETTERS[player]} {hands[0]} {hands[1]} {' '.join(rows)})"


def cell_name(row: int, column: int) -> str:
    """``C2`` for row 1, column 2 (both from 0): a column letter and a row number from 1."""
    return f"{COLUMN_LETTERS[column]}{row + 1}"


def action_name(action: int, rows: int, cols: int) -> str:
    """The notation of action id ``action`` (see rules.py for the layout)."""
    if 0 <= action < cols:
        return COLUMN_LETTERS[action]
    if cols <= action < 2 * cols:
        return COLUMN_LETTERS[action - cols] + "*"
    if 2 * cols <= action < 2 * cols + rows * cols:
        return cell_name(*divmod(action - 2 * cols, cols)) + "!"
    if action == 2 * cols + rows * cols:
        return "pass"
    raise IllegalActionError(f"action {action} does not exist here; ids run 0..{2 * cols + rows * cols}")


def _column(letter: str, cols: int, error: type[Exception] = IllegalActionError) -> int:
    column = ord(letter) - ord("a")
    if column >= cols:
        raise error(f"there is no column {letter.upper()}: the columns run A to {COLUMN_LETTERS[cols - 1]}")
    return column


def _row(digits: str, letter: str, rows: int, error: type[Exception] = IllegalActionError) -> int:
    number = int(digits) if len(digits) <= 9 else 0  # longer is off any board
    if not 1 <= number <= rows:
        raise error(f"there is no cell {letter.upper()}{digits}: "
                                 f"the rows run 1 to {rows} from the bottom")
    return number - 1


def parse_cell(text: str, rows: int, cols: int) -> tuple[int, int]:
    """``(row, column)``, both from 0, of a cell name such as ``C2`` (a name
    off the board is a :class:`NotationError` here, not an illegal action)."""
    match = _CELL.match(text.strip().lower()) if text.isascii() else None
    if not match:
        raise NotationError(f"expected a cell: a column letter and a row number from 1 at the bottom "
                            f"(C2); got {text!r}")
    letter, digits = match.groups()
    return _row(digits, letter, rows, NotationError), _column(letter, cols, NotationError)


def parse_column(text: str, cols: int) -> int:
    """The index, from 0, of a column letter such as ``C``."""
    word = text.strip().lower()
    if len(word) != 1 or not "a" <= word <= "z":
        raise NotationError(f"expected a column letter (A, B, ...); got {text!r}")
    return _column(word, cols, NotationError)


def parse_action(text: str, rows: int, cols: int) -> int:
    """The action id ``text`` names on a ``rows`` x ``cols`` board, legal or not.

    Raises :class:`NotationError` for text in no action's form and
    :class:`IllegalActionError` for a column or cell off the board.
    """
    word = text.strip().lower() if text.isascii() else ""
    if word == "pass":
        return 2 * cols + rows * cols
    match = _ACTION.match(word)
    if not match:
        raise NotationError(f"expected {ACTION_FORMS}; got {text!r}")
    letter, bomb, digits = match.groups()
    column = _column(letter, cols)
    if digits is None:
        return column + (cols if bomb else 0)
    return 2 * cols + _row(digits, letter, rows) * cols + column
