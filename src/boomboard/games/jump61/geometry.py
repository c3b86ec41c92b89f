"""Jump61's drawing geometry for the web page (:mod:`boomboard.core.geometry`):
a square board, square ``1 1`` at the top left; each square shows its spots."""

from __future__ import annotations

from boomboard.core.geometry import LABEL_GAP, Layout

from .rules import SPOTS


def layout(game) -> Layout:
    size = game["size"]
    cells = range(size * size)
    names = [f"{q // size + 1} {q % size + 1}" for q in cells]
    labels = ([(str(c + 1), c, -LABEL_GAP) for c in range(size)]
              + [(str(r + 1), -LABEL_GAP, r) for r in range(size)])
    return Layout("square", names, [(q % size, q // size) for q in cells], labels)


def cell_contents(game, array) -> list[list]:
    cells = game["size"] ** 2
    spots = array[SPOTS:SPOTS + cells]
    colours = array[SPOTS + cells:SPOTS + 2 * cells]
    return [[None if colour == 0 else int(colour) - 1, str(int(n)), ""] for n, colour in zip(spots, colours)]


def gesture(state, action: int, text: str, names: list[str]) -> dict:
    """A spot is added with one click on its square."""
    return {"kind": "add", "to": names[action]}
