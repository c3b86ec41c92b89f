"""Expendibots' drawing geometry for the web page (:mod:`boomboard.core.geometry`):
the 8 x 8 board, square ``(x, y)`` with ``y = 0`` at the bottom, its cells and
labels named as the move notation names them (``a1`` is ``(0, 0)``)."""

from __future__ import annotations

from boomboard.core.geometry import LABEL_GAP, Layout, signed_stacks

from .notation import COLUMN_LETTERS, decode_action, square_name, square_of
from .rules import BOARD, SIZE, SQUARES


def layout(game) -> Layout:
    names = [square_name(square_of(sq)) for sq in range(SQUARES)]
    centres = [(sq % SIZE, SIZE - 1 - sq // SIZE) for sq in range(SQUARES)]
    labels = ([(COLUMN_LETTERS[x], x, SIZE - 1 + LABEL_GAP) for x in range(SIZE)]
              + [(str(y + 1), -LABEL_GAP, SIZE - 1 - y) for y in range(SIZE)])
    return Layout("square", names, centres, labels)


def cell_contents(game, array) -> list[list]:
    return signed_stacks(array[BOARD:BOARD + SQUARES])


def gesture(state, action: int, text: str, names: list[str]) -> dict:
    """A boom: a click on the stack, twice; a move: from the stack to its landing square."""
    decoded = decode_action(action)
    if decoded[0] == "BOOM":
        square = names[decoded[1][1] * SIZE + decoded[1][0]]
        return {"kind": "boom", "from": square, "to": square}
    _, count, (xa, ya), (xb, yb) = decoded
    return {"count": count, "from": names[ya * SIZE + xa], "to": names[yb * SIZE + xb]}
