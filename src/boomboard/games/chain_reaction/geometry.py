"""Chain Reaction's drawing geometry for the web page (:mod:`boomboard.core.geometry`):
a square grid, ``a1`` at the bottom left; each cell shows its orbs (in its
owner's colour: the game's ``presentation``); an orb is placed with one click on its cell."""

from __future__ import annotations

from boomboard.core.geometry import LABEL_GAP, Layout

from .notation import COLUMN_LETTERS, cell_name
from .rules import COUNT, EMPTY


def layout(game) -> Layout:
    rows, cols = game["rows"], game["cols"]
    cells = range(rows * cols)
    names = [cell_name(cols, q) for q in cells]
    centres = [(q % cols, rows - 1 - q // cols) for q in cells]
    labels = ([(COLUMN_LETTERS[c], c, rows - 1 + LABEL_GAP) for c in range(cols)]
              + [(str(r + 1), -LABEL_GAP, rows - 1 - r) for r in range(rows)])
    return Layout("square", names, centres, labels)


def cell_contents(game, array) -> list[list]:
    """Each cell's owner and orbs; an empty cell shows nothing."""
    cells = game["rows"] * game["cols"]
    orbs = array[COUNT:COUNT + cells]
    owners = array[COUNT + cells:COUNT + 2 * cells]
    return [[None, "", ""] if owner == EMPTY else [int(owner) - 1, str(int(n)), ""] for n, owner in zip(orbs, owners)]


def gesture(state, action: int, text: str, names: list[str]) -> dict:
    """An orb is placed with one click on its cell."""
    return {"kind": "add", "to": names[action]}
