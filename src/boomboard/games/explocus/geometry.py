"""The drawing geometry of Explocus (a square board) and HExplocus (a
hexagon of hexagons) for the web page (:mod:`boomboard.core.geometry`)."""

from __future__ import annotations

from boomboard.core.geometry import HEX_ROW_STEP, LABEL_GAP, Layout, signed_stacks

from .rules import BOARD


def layout(game) -> Layout:
    board = game.board
    if board.kind == "square":
        size = game["size"]
        centres = [(file, size - 1 - rank) for rank, file in board.coords]
        labels = ([(board.column_labels[f], f, size - 1 + LABEL_GAP) for f in range(size)]
                  + [(str(r + 1), -LABEL_GAP, size - 1 - r) for r in range(size)])
        return Layout("square", list(board.names), centres, labels)
    span = 2 * game["side"] - 1
    centres = [(diag - row / 2, (span - 1 - row) * HEX_ROW_STEP) for row, diag in board.coords]
    labels = []
    for row in range(span):  # row letters left of each row's first cell
        first = min(diag for r, diag in board.coords if r == row)
        labels.append((board.names[board.coords.index((row, first))][0], first - row / 2 - LABEL_GAP,
                       (span - 1 - row) * HEX_ROW_STEP))
    side = game["side"]
    for diag in range(span):  # diagonal numbers below the lowest cell of each diagonal
        row = max(0, diag - side + 1)
        x, y = diag - row / 2, (span - 1 - row) * HEX_ROW_STEP
        labels.append((str(diag + 1), x + 0.5 * LABEL_GAP, y + HEX_ROW_STEP * LABEL_GAP))
    return Layout("hex", list(board.names), centres, labels)


def cell_contents(game, array) -> list[list]:
    return signed_stacks(array[BOARD:BOARD + game.board.ncells])


def gesture(state, action: int, text: str, names: list[str]) -> dict:
    """A move: from the stack to the cell it lands on, ``count`` cells (and stones)."""
    distance = state.game.board.decode(action)[2]
    start, _, end = text.partition("-")
    return {"count": distance, "from": start, "to": end}
