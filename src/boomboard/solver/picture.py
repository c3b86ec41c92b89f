"""The move picture: a position's moves as a strip of coloured cells.

:func:`draw_moves` draws one cell a legal move, in the game's order of its
moves (the order of their ids: for a game of drops, left to right), up to
:data:`PER_ROW` cells a row (fewer when the notation is long). Each cell holds the move's notation and its
remoteness, and is coloured as GamesmanUni colours moves, for the player
making them: a win green, a tie yellow, a loss dark red, a draw purple (the
colours of the web front end's solver values). The shade says how far the
end is: among the moves of one value, the nearest end in full colour, the
farthest palest, so that the quickest win and the quickest loss stand out.

::

    from boomboard import solver
    figure = solver.draw_moves(solver.analyze(state), "moves.png")

``boomboard analyze GAME [POSITION] --picture moves.png`` does the same.
Any game with a solved table can be drawn: the picture reads only the
analysis (:mod:`boomboard.solver.analysis`).
"""

from __future__ import annotations

import os

from ..core.errors import BoomboardError
from ..core.extras import require_extra
from .analysis import Analysis

VALUE_COLOURS = {"win": "#1a9a1a", "tie": "#e0c020", "lose": "#8b0000", "draw": "#b07cc6"}
PER_ROW = 16  # cells a row before the strip wraps
PALEST = 0.5  # the share of white in the cell of the farthest end
FEATURE = "the solver's move picture"


class PictureError(BoomboardError):
    """The picture cannot be written (a folder that does not exist, an unknown image type)."""


def move_colour(value: str, remoteness: int, nearest: int, farthest: int) -> tuple[float, float, float]:
    """The RGB colour (0 to 1) of a move of ``value`` and ``remoteness``, when
    the moves of that value end from ``nearest`` to ``farthest`` moves away."""
    require_extra("plot", FEATURE)
    from matplotlib.colors import to_rgb

    base = to_rgb(VALUE_COLOURS[value])
    pale = 0.0 if value == "draw" or farthest <= nearest else PALEST * (remoteness - nearest) / (farthest - nearest)
    return tuple(c + (1.0 - c) * pale for c in base)


def draw_moves(analysis: Analysis, path: str | os.PathLike | None = None, *, title: str | None = None):
    """The picture of ``analysis``'s moves (a :class:`matplotlib.figure.Figure`),
    written to ``path`` if given (the type from its suffix: ``.png``, ``.svg``,
    ``.pdf``); its cells are the figure's patches whose ``gid`` is
    ``"move:<notation>"``, in order."""
    require_extra("plot", FEATURE)
    from matplotlib.figure import Figure
    from matplotlib.patches import Rectangle

    moves = sorted(analysis.moves, key=lambda move: move.action)
    # a cell is wide enough for the longest notation (about 0.08 inch a character)
    width = max(0.9, 0.08 * max((len(move.notation) for move in moves), default=0) + 0.2)
    per_row = max(1, min(PER_ROW, int(PER_ROW * 0.9 / width)))
    columns = max(1, min(per_row, len(moves)))
    rows = max(1, -(-len(moves) // per_row))
    figure = Figure(figsize=(width * columns + 0.2, 0.9 * rows + 0.6), dpi=100)
    axes = figure.add_axes((0.01, 0.01, 0.98, 0.98 - 0.45 / (0.9 * rows + 0.6)))
    axes.set_xlim(0, columns)
    axes.set_ylim(rows, 0)
    axes.set_axis_off()
    spans = {value: (min(m.remoteness for m in moves if m.value == value),
                     max(m.remoteness for m in moves if m.value == value)) for value in {m.value for m in moves}}
    for k, move in enumerate(moves):
        x, y = k % per_row, k // per_row
        colour = move_colour(move.value, move.remoteness, *spans[move.value])
        axes.add_patch(Rectangle((x + 0.04, y + 0.04), 0.92, 0.92, facecolor=colour, edgecolor="#333333",
                                 linewidth=0.8, gid=f"move:{move.notation}"))
        ink = "white" if sum(colour) < 1.6 else "black"
        axes.text(x + 0.5, y + 0.36, move.notation, ha="center", va="center", fontsize=9, color=ink,
                  fontweight="bold")
        axes.text(x + 0.5, y + 0.7, "" if move.value == "draw" else str(move.remoteness), ha="center",
                  va="center", fontsize=9, color=ink)
    remoteness = "" if analysis.value == "draw" else f" in {analysis.remoteness}"
    figure.suptitle(title or f"{analysis.value}{remoteness} for the player to move; each move for its maker",
                    fontsize=9, y=0.99, va="top")
    return save_figure(figure, path)


def save_figure(figure, path):
    """``figure`` written to ``path`` (none: not written), and returned; a
    path that cannot be written is a :class:`PictureError` naming it."""
    if path is not None:
        try:
            figure.savefig(path)
        except (OSError, ValueError) as problem:
            raise PictureError(f"cannot write the picture {os.fspath(path)!r}: {problem}") from None
    return figure
