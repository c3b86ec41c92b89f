"""Explocus notations, read and written in plain Python.

* A move names its two cells: ``d2-d4`` on the square board, ``C3-E3`` on the
  hexagonal one (the distance is the number of stones that move). Read in any
  case, with or without the dash (``d2d4``); written in lowercase (square) or uppercase (hex).
* A position (our own notation; the game has none) lists the rows from the
  top down to White's row, separated by ``/``; each cell, left to right, is
  ``.`` (empty) or ``w``/``b`` and the stack's height; then a space and the
  side to move, ``w`` or ``b``. The 8x8 start::

    ......../.b2b2b3b3b2b2./......../......../......../......../.w2w2w3w3w2w2./........ w
"""

from __future__ import annotations

import re

from boomboard.core.errors import InvalidPositionError, NotationError

from .boards import Board

_MOVE = re.compile(r"^\s*([a-z]\d+)\s*-?\s*([a-z]\d+)\s*$", re.I)
_ROW = re.compile(r"(?:\.|[wb]\d{1,9})*", re.I)
_TOKEN = re.compile(r"\.|([wb])(\d{1,9})", re.I)
SIDES = "wb"


def _move_example(board: Board) -> str:
    return "d2-d4" if board.kind == "square" else "C3-E3"


def _position_example(board: Board) -> str:
    cells = [0] * board.ncells
    cells[board.rows[-1][0]], cells[board.rows[0][-1]] = 1, -1
    return write_position(board, cells, 0)


def parse_cell(board: Board, name: str) -> int:
    """The index of the cell called ``name`` (any case)."""
    cell = board.cell_of_name.get(name.lower())
    if cell is None:
        first, last = board.names[0], board.names[-1]
        raise NotationError(f"there is no cell {name!r} on this board; cells run from {first} to {last}")
    return cell


def parse_move(board: Board, text: str) -> tuple[int, int]:
    """``(from cell, to cell)`` of a move such as ``d2-d4``."""
    match = _MOVE.match(text) if text.isascii() else None  # not other scripts' digits
    if not match:
        raise NotationError(
            f"expected a move as from-cell '-' to-cell, like {_move_example(board)!r} "
            f"(the dash may be left out); got {text!r}")
    return parse_cell(board, match.group(1)), parse_cell(board, match.group(2))


def write_move(board: Board, origin: int, target: int) -> str:
    return f"{board.names[origin]}-{board.names[target]}"


def write_position(board: Board, cells, player: int) -> str:
    """``cells``: signed heights per cell (+ White, - Black)."""
    rows = []
    for row in board.rows:
        tokens = []
        for cell in row:
            height = int(cells[cell])
            tokens.append("." if height == 0 else f"{'w' if height > 0 else 'b'}{abs(height)}")
        rows.append("".join(tokens))
    return "/".join(rows) + " " + SIDES[player]


def parse_position(board: Board, text: str) -> tuple[list[int], int]:
    """Signed heights per cell and the player to move, checked as in :func:`check_position`."""
    fields = text.split() if text.isascii() else []  # not other scripts' digits
    if len(fields) != 2 or fields[1].lower() not in SIDES:
        raise NotationError(
            "expected the rows (top row first, separated by '/'), a space and the side to move "
            f"('w' or 'b'), like {_position_example(board)!r}; got {text!r}")
    rows_text = fields[0].split("/")
    if len(rows_text) != len(board.rows):
        raise InvalidPositionError(f"this board has {len(board.rows)} rows separated by '/'; got {len(rows_text)}")
    cells = [0] * board.ncells
    for label, row, row_text in zip(board.row_labels, board.rows, rows_text):
        if not _ROW.fullmatch(row_text):
            raise InvalidPositionError(
                f"row {label}: {row_text!r} should list its cells as '.', 'w<height>' or 'b<height>'")
        tokens = list(_TOKEN.finditer(row_text))
        if len(tokens) != len(row):
            raise InvalidPositionError(f"row {label} has {len(row)} cells; got {len(tokens)} in {row_text!r}")
        for cell, token in zip(row, tokens):
            if token.group(1):
                height = int(token.group(2))
                if height < 1:
                    raise InvalidPositionError(f"the stack on {board.names[cell]} has height {height}; "
                                               "a stack holds at least 1 stone")
                cells[cell] = height if token.group(1).lower() == "w" else -height
    check_position(board, cells)
    return cells, SIDES.index(fields[1].lower())


def check_position(board: Board, cells: list[int]) -> None:
    """Refuse what no game can reach: no stones, too many, or an unexploded stack.

    A stack at or over its cell's capacity would have exploded; only a finished
    game (one side without stones) may show one, because the explosions stop
    the moment the last enemy stone is taken.
    """
    white = sum(h for h in cells if h > 0)
    black = -sum(h for h in cells if h < 0)
    if white + black == 0:
        raise InvalidPositionError("the position has no stones at all")
    if white + black > board.max_stones:
        raise InvalidPositionError(
            f"the position has {white + black} stones; this board allows at most {board.max_stones} "
            f"(fewer than its {board.edges} pairs of neighbouring cells), or explosions might never end")
    if white and black:
        for cell, height in enumerate(cells):
            if abs(height) >= board.capacity[cell]:
                raise InvalidPositionError(
                    f"the stack on {board.names[cell]} has {abs(height)} stones, at or over its capacity "
                    f"{board.capacity[cell]}: it would have exploded")
