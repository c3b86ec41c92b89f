"""What the browser draws and clicks, as each game gives it: the game's drawing geometry.

Each game folder has a ``geometry.py`` (found with :meth:`Game.geometry
<boomboard.core.game.Game.geometry>`) that the web layer
(:mod:`boomboard.web.geometry`) reads through these functions:

* ``layout(game) -> Layout``: the board's cells, in the game's own cell
  order (the order of the cell ids its kernels use, e.g. in the step
  recorder's ``flashes``), with names and centres, and the labels around it;
* ``cell_contents(game, array) -> [[owner, text, mark], ...]``: one entry per
  layout cell of an engine array (a position, or a step the kernels
  recorded): ``owner`` 0, 1 or ``None``, ``text`` written on the cell,
  ``mark`` ``"bomb"`` or ``""``;
* ``gesture(state, action, text, names) -> dict``: how a click plays the
  legal ``action``: the fields ``kind``, ``from``, ``to``, ``count`` (and
  any more the page knows, e.g. Kaboom's ``land``) that differ from a plain
  ``{"kind": "move", "from": None, "to": None, "count": None}``;
* ``winning_lines(state, names) -> [cell names]`` (optional): the cells that
  ended a finished game, for the page to mark.

Centres are in cell units, x to the right and y downward.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

HEX_ROW_STEP = math.sqrt(3) / 2  # rows of pointy-top hexagons one unit wide
LABEL_GAP = 0.85  # from a border cell's centre to its coordinate label


@dataclass(frozen=True)
class Layout:
    """The board's cells (name, centre, and where a click names a group, such
    as Kaboom's columns, the group) and its coordinate labels; ``shape`` is
    ``"square"`` or ``"hex"``. How the cells look is the game's
    :class:`Presentation`."""

    shape: str
    names: list[str]
    centres: list[tuple[float, float]]
    labels: list[tuple[str, float, float]] = field(default_factory=list)
    groups: list[str] | None = None

    def to_json(self) -> dict:
        margin = 0.62 if self.shape == "hex" else 0.55  # half a cell, and a hexagon's point
        xs = [x for x, _ in self.centres] + [x for _, x, _ in self.labels]
        ys = [y for _, y in self.centres] + [y for _, _, y in self.labels]
        cells = []
        for index, (name, (x, y)) in enumerate(zip(self.names, self.centres)):
            cell = {"name": name, "x": round(x, 4), "y": round(y, 4)}
            if self.groups:
                cell["group"] = self.groups[index]
            cells.append(cell)
        out = {
            "shape": self.shape,
            "cells": cells,
            "labels": [{"text": t, "x": round(x, 4), "y": round(y, 4)} for t, x, y in self.labels],
            "box": [min(xs) - margin, min(ys) - margin, max(xs) - min(xs) + 2 * margin,
                    max(ys) - min(ys) + 2 * margin],
        }
        return out


@dataclass(frozen=True)
class Presentation:
    """How the web page shows a game, which each game declares (its
    ``presentation``) so that the page itself names none.

    * ``colours``: the two players' colours (CSS), for their pieces, the
      analysis bar and the sides' swatches;
    * ``counts``: draw each cell as its count written in its owner's colour
      on a ground of that colour, rather than as a piece with its height;
    * ``neutral``: what an unowned cell that still holds a count is called
      (Jump61's white squares); ``None``: an unowned cell is empty;
    * ``pieces``: what a move carries, in the plural, where the page asks
      how many to move (``"Move how many tokens?"``);
    * ``fills_phone``: on a phone, the board takes the screen's whole width
      (no margins) and its labels are larger.
    """

    colours: tuple[str, str]
    counts: bool = False
    neutral: str | None = None
    pieces: str = "pieces"
    fills_phone: bool = False

    def problems(self) -> list[str]:
        """What is wrong with the declaration (the game contract checks it)."""
        found = []
        if not (isinstance(self.colours, tuple) and len(self.colours) == 2
                and all(isinstance(c, str) and re.fullmatch(r"#[0-9a-fA-F]{6}", c) for c in self.colours)):
            found.append(f"presentation.colours must be two colours '#rrggbb', got {self.colours!r:.60}")
        if not isinstance(self.pieces, str) or not self.pieces:
            found.append("presentation.pieces must name what a move carries, e.g. 'stones'")
        return found

    def result_colours(self) -> dict[str, str]:
        """The colours of exact results (a winning, tying or losing move), each
        GamesmanUni's green, yellow or red unless a player wears a colour near
        it (Chain Reaction's green player, Jump61's red one): then the next
        of its candidates, so that a result never reads as a player."""
        chosen: dict[str, str] = {}
        for result, candidates in RESULT_COLOURS.items():
            taken = [*self.colours, *chosen.values()]
            chosen[result] = max(candidates, key=lambda c: min(RESULT_CLEARANCE, *(colour_distance(c, t) for t in taken)))
        chosen["draw"] = chosen["tie"]
        return chosen

    def to_json(self) -> dict:
        return {"colours": list(self.colours), "counts": self.counts, "neutral": self.neutral,
                "pieces": self.pieces, "fills_phone": self.fills_phone, "results": self.result_colours()}


# Each exact result's colours, the first preferred: GamesmanUni's, then ones no
# game's players wear (brown, not red, for a loss where a player is red or orange).
RESULT_COLOURS = {"win": ("#1a9a1a", "#1f5fbf"), "tie": ("#e0c020", "#9a9a9a"), "lose": ("#b3000c", "#6d4c2f")}
RESULT_CLEARANCE = 40.0  # the CIE76 distance that tells two colours apart at a glance (2.3 is just noticeable)


def colour_distance(first: str, second: str) -> float:
    """The CIE76 distance (Euclidean in CIELAB) between two colours ``#rrggbb``."""
    return math.dist(_cielab(first), _cielab(second))


def _cielab(colour: str) -> tuple[float, float, float]:
    """``#rrggbb`` (sRGB, D65 white) in CIELAB."""
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
              for c in (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))]
    r, g, b = linear
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def signed_stacks(heights) -> list[list]:
    """``cell_contents`` for boards of signed stack heights (``+h`` player 0's, ``-h`` player 1's)."""
    return [[None, "", ""] if h == 0 else [0 if h > 0 else 1, str(abs(int(h))), ""] for h in heights]
