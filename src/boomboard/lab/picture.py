"""The lab's pictures: a heat map per variant family, and a strip of
first-move values per solved board.

A *family* is the variants that differ only in the game's first two swept
parameters (``Game.lab_axes``: for a board, its rows and columns); the heat
map has one cell for each, coloured as GamesmanUni colours values, for the
first player: a win green, a tie yellow, a loss dark red, a draw purple,
the nearest end in full colour and the farthest palest (as the solver's
move picture, :mod:`boomboard.solver.picture`). A cell holds the value and
the remoteness. A variant beyond the solver's budget is drawn grey and
hatched, with the first player's estimated score (1 a win, 0 a loss) and
its 95% interval. A variant the game refuses (a line longer than the board)
is left blank.

Drawn with matplotlib (the ``plot`` extra).
"""

from __future__ import annotations

import os
from collections import defaultdict
from pathlib import Path

from ..core.extras import require_extra
from ..solver.picture import VALUE_COLOURS, move_colour, save_figure
from .store import Row

ESTIMATED_COLOUR = "#d9d9d9"
FEATURE = "the lab's pictures"
SHORT = {"win": "win", "tie": "tie", "lose": "loss", "draw": "draw"}
ONE_BOARD = "its board"  # the row of a map of a game's one board (no axis swept)


def families(rows: list[Row], axes: list[str]) -> dict[tuple, list[Row]]:
    """``rows`` grouped by the values of the axes after the first two
    (the family's key: (name, value) pairs, in the axes' order)."""
    grouped: dict[tuple, list[Row]] = defaultdict(list)
    for row in rows:
        grouped[tuple((axis, row.params[axis]) for axis in axes[2:])].append(row)
    return dict(grouped)


def family_title(game: str, family: tuple) -> str:
    return game + "".join(f", {name}={_shown(value)}" for name, value in family)


def _shown(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def cell_text(row: Row) -> str:
    """What a heat map's cell says: ``win 15`` or ``~0.62``."""
    if row.exact is not None:
        value = row.exact["value"]
        return SHORT[value] if value == "draw" else f"{SHORT[value]} {row.exact['remoteness']}"
    return f"~{row.estimate['score']:.2f}" if row.estimate else ""


def along(row: Row, axes: list[str], axis: int):
    """``row``'s value on a heat map's ``axis`` (0 down, 1 across); None
    where fewer axes are swept (one column, or for a game's one board, one cell)."""
    return row.params[axes[axis]] if len(axes) > axis else None


def draw_heat_map(rows: list[Row], axes: list[str], title: str, path: str | os.PathLike | None = None):
    """The heat map of one family's ``rows``: the first axis down, the second
    across (one column when the game sweeps one axis, one cell when none); written to ``path``
    (``.png``, ``.svg``) if given. Its cells are patches whose ``gid`` is
    ``"variant:<game string>"``."""
    require_extra("plot", FEATURE)
    from matplotlib.figure import Figure
    from matplotlib.patches import Rectangle

    down = sorted({along(row, axes, 0) for row in rows})  # all None, or none None: no mixed comparisons
    across = sorted({along(row, axes, 1) for row in rows})
    spans = _spans([row.exact for row in rows if row.exact is not None])
    width, height = max(4.5, 1.0 * len(across) + 1.2), 0.7 * len(down) + 1.5
    figure = Figure(figsize=(width, height), dpi=100)
    plot = figure.add_axes((0.9 / width, 0.75 / height, 1 - 1.1 / width, 1 - 1.2 / height))
    plot.set_xlim(0, len(across))
    plot.set_ylim(len(down), 0)
    plot.set_xticks([i + 0.5 for i in range(len(across))], [_shown(v) for v in across] if axes[1:] else [""])
    plot.set_yticks([i + 0.5 for i in range(len(down))], [ONE_BOARD if v is None else _shown(v) for v in down])
    plot.set_xlabel(axes[1] if len(axes) > 1 else "")
    plot.set_ylabel(axes[0] if axes else "")
    plot.tick_params(length=0)
    for side in plot.spines.values():
        side.set_visible(False)
    for row in rows:
        y, x = down.index(along(row, axes, 0)), across.index(along(row, axes, 1))
        if row.exact is not None:
            value, remoteness = row.exact["value"], row.exact["remoteness"]
            colour, hatch = move_colour(value, remoteness, *spans[value]), None
        else:
            colour, hatch = ESTIMATED_COLOUR, "//"
        plot.add_patch(Rectangle((x + 0.04, y + 0.04), 0.92, 0.92, facecolor=colour, edgecolor="#333333",
                                 hatch=hatch, linewidth=0.8, gid=f"variant:{row.variant}"))
        ink = "white" if row.exact is not None and sum(colour) < 1.6 else "black"
        box = None if row.exact is not None else {"facecolor": "white", "edgecolor": "none", "pad": 1.5}
        plot.text(x + 0.5, y + 0.5, cell_text(row), ha="center", va="center", fontsize=8, color=ink,
                  fontweight="bold", bbox=box)
    figure.suptitle(title, fontsize=9, y=0.99, va="top")
    figure.text(0.5, 0.01, "for the first player, with remoteness; grey: ~ estimated score (self-play)",
                ha="center", va="bottom", fontsize=7)
    return save_figure(figure, path)


def _spans(exacts: list[dict]) -> dict[str, tuple[int, int]]:
    """Per value, the nearest and farthest remoteness among ``exacts``."""
    spans: dict[str, tuple[int, int]] = {}
    for exact in exacts:
        low, high = spans.get(exact["value"], (exact["remoteness"], exact["remoteness"]))
        spans[exact["value"]] = (min(low, exact["remoteness"]), max(high, exact["remoteness"]))
    return spans


def draw_first_moves(rows: list[Row], axes: list[str], title: str, path: str | os.PathLike | None = None):
    """One strip a solved variant of ``rows`` (one family's), labelled by its
    first two ``axes``: its first moves in the game's order, coloured by
    their value for the first player (shaded by remoteness as in the heat
    map)."""
    require_extra("plot", FEATURE)
    from matplotlib.figure import Figure
    from matplotlib.patches import Rectangle

    solved = [row for row in rows if row.exact is not None and row.exact["moves"]]
    widest = max((len(row.exact["moves"]) for row in solved), default=1)
    figure = Figure(figsize=(0.55 * widest + 2.6, 0.45 * max(1, len(solved)) + 0.5), dpi=100)
    plot = figure.add_axes((0.0, 0.0, 1.0, 1.0 - 0.4 / (0.45 * max(1, len(solved)) + 0.5)))
    plot.set_xlim(-4.5, widest)
    plot.set_ylim(max(1, len(solved)), 0)
    plot.set_axis_off()
    for y, row in enumerate(solved):
        moves = sorted(row.exact["moves"], key=lambda move: move["action"])
        spans = _spans(moves)
        plot.text(-0.2, y + 0.5, _label(row, axes[:2]), ha="right", va="center", fontsize=7)
        for x, move in enumerate(moves):
            colour = move_colour(move["value"], move["remoteness"], *spans[move["value"]])
            plot.add_patch(Rectangle((x + 0.05, y + 0.08), 0.9, 0.84, facecolor=colour, edgecolor="#333333",
                                     linewidth=0.6, gid=f"move:{row.variant}:{move['move']}"))
            ink = "white" if sum(colour) < 1.6 else "black"
            plot.text(x + 0.5, y + 0.5, move["move"], ha="center", va="center", fontsize=6, color=ink)
    figure.suptitle(title, fontsize=9, y=0.995, va="top")
    return save_figure(figure, path)


def _label(row: Row, axes: list[str]) -> str:
    exact = row.exact
    return (f"{' '.join(f'{axis}={_shown(row.params[axis])}' for axis in axes)}: "
            f"{SHORT[exact['value']]} {exact['remoteness']}")


def write_pictures(rows: list[Row], game: str, axes: list[str], folder: str | os.PathLike,
                   suffix: str = "svg") -> list[Path]:
    """A heat map and a first-move picture for each family of ``rows``, in
    ``folder`` (``GAME-heat[-family].SUFFIX`` and ``GAME-moves[-family].SUFFIX``);
    the paths written."""
    folder = Path(folder)
    written = []
    for family, members in families(rows, axes).items():
        tail = "".join(f"-{name}{_shown(value)}" for name, value in family)
        title = family_title(game, family)
        heat = folder / f"{game}-heat{tail}.{suffix}"
        draw_heat_map(members, axes, title, heat)
        written.append(heat)
        if any(row.exact is not None for row in members):
            strip = folder / f"{game}-moves{tail}.{suffix}"
            draw_first_moves(members, axes, f"{title}: first moves, for the first player", strip)
            written.append(strip)
    return written


__all__ = ["ONE_BOARD", "VALUE_COLOURS", "along", "draw_first_moves", "draw_heat_map", "families", "write_pictures"]
