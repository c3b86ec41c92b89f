"""A sweep's grid: the values of each parameter a game lets ``explore`` sweep.

A game names its sweepable parameters and their ranges in its contract
(``Game.lab_axes``). Values are written ``3..5`` (a range), ``3,5,7`` (a
list), ``4`` (one value); a flag also takes ``both``, ``true`` or
``false``. The grid is every combination, less those the game refuses (a
line longer than the board, more bombs than cells), which are counted and
named, not swept. A game without sweepable parameters is one variant:
its board.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import BoomboardError, ParameterError
from ..core.game import Game
from ..registry import game_class, load_game

MAX_VARIANTS = 2000  # variants one sweep may hold: a grid larger than this is refused
FLAG_WORDS = {"both": (False, True), "true": (True,), "false": (False,), "1": (True,), "0": (False,)}


class GridError(BoomboardError):
    """A grid that names a parameter the game does not sweep, a value outside
    its range, or more variants than :data:`MAX_VARIANTS`."""


@dataclass
class Grid:
    """The variants of one sweep: ``axes`` maps each swept parameter to its
    values, in the game's order of ``lab_axes``; ``refused`` names each
    combination the game refused, with its reason."""

    game: str
    axes: dict[str, tuple[Any, ...]]
    variants: list[Game] = field(default_factory=list)
    refused: list[tuple[dict[str, Any], str]] = field(default_factory=list)


def parse_values(name: str, text: str, low: int, high: int, flag: bool) -> tuple[Any, ...]:
    """The values ``text`` names for parameter ``name`` (range ``low..high``)."""
    words = str(text).strip().lower()
    if flag:
        values = tuple(dict.fromkeys(v for part in words.split(",") for v in _flag(name, part)))
        return values
    values = []
    for part in words.split(","):
        if ".." in part:
            first, _, last = part.partition("..")
            start, stop = _integer(name, first), _integer(name, last)
            if stop < start:
                raise GridError(f"--{name} {text}: a range goes from low to high, e.g. {stop}..{start}")
            values.extend(range(start, stop + 1))
        else:
            values.append(_integer(name, part))
    outside = [v for v in values if not low <= v <= high]
    if outside:
        raise GridError(f"--{name}: {outside[0]} is outside what explore sweeps, {low}..{high}")
    return tuple(dict.fromkeys(values))


def _flag(name: str, word: str) -> tuple[bool, ...]:
    if word not in FLAG_WORDS:
        raise GridError(f"--{name} takes both, true or false; got {word!r:.40}")
    return FLAG_WORDS[word]


def _integer(name: str, word: str) -> int:
    word = word.strip()
    if not word.lstrip("-").isascii() or not word.lstrip("-").isdigit() or len(word) > 6:
        raise GridError(f"--{name} takes whole numbers, ranges (3..5) or lists (3,5); got {word!r:.40}")
    return int(word)


def parse_grid(name: str, options: dict[str, str]) -> Grid:
    """The grid of game ``name`` that ``options`` (parameter name to the text
    given for it) describe; a swept parameter not given keeps its default, so
    no options is the default board alone, the one variant of a game with
    nothing to sweep."""
    axes = game_class(name).lab_axes
    if not axes and options:
        raise GridError(f"{name} has no parameters to sweep: explore measures its one board, "
                        f"without --{next(iter(options))}")
    parameters = {p.name: p for p in game_class(name).parameters}
    unknown = sorted(set(options) - set(axes))
    if unknown:
        raise GridError(f"{name} cannot sweep --{unknown[0]}; it sweeps "
                        + ", ".join(f"--{axis} {low}..{high}" for axis, (low, high) in axes.items()))
    chosen = {}
    for axis, (low, high) in axes.items():
        flag = isinstance(parameters[axis].default, bool)
        if axis in options:
            chosen[axis] = parse_values(axis, options[axis], low, high, flag)
        else:
            chosen[axis] = (parameters[axis].default,)
    size = 1
    for values in chosen.values():
        size *= len(values)
    if size > MAX_VARIANTS:
        raise GridError(f"the grid has {size:,} variants, more than the {MAX_VARIANTS:,} one sweep may hold; "
                        "sweep it in parts")
    grid = Grid(name, chosen)
    for combination in itertools.product(*chosen.values()):
        values = dict(zip(chosen, combination))
        try:
            grid.variants.append(load_game(name, **values))
        except ParameterError as refusal:
            grid.refused.append((values, str(refusal)))
    return grid
