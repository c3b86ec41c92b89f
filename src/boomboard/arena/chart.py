"""The rating chart: each agent's Elo with its 95% interval, as a PNG.

An agent that won (or lost) every game has no finite Elo: it is drawn as a
label with an arrow off the scale, not as a bar of made-up length; an
interval that reaches infinity is drawn as an open arrow, not as an error
bar of made-up width.
"""

from __future__ import annotations

import math
from pathlib import Path
from collections.abc import Sequence

from ..core.extras import require_extra
from .store import Standing

FEATURE = "the arena's rating chart"


def rating_chart(standings: Sequence[Standing], path: str | Path, title: str = "Elo ratings (95% interval)") -> Path:
    """Draw the standings as horizontal bars with error bars; return the file written."""
    require_extra("plot", FEATURE)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    path = Path(path)
    figure = draw_chart(standings, title)
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=100)
    plt.close(figure)
    return path


def draw_chart(standings: Sequence[Standing], title: str = "Elo ratings (95% interval)"):
    """The chart as a matplotlib figure (``rating_chart`` saves it)."""
    require_extra("plot", FEATURE)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ordered = sorted(standings, key=lambda s: s.elo)
    labels = [f"{s.agent}  ({s.wins}-{s.ties}-{s.losses})" for s in ordered]
    figure, axes = plt.subplots(figsize=(8, 1.2 + 0.5 * len(ordered)))
    finite = [s for s in ordered if math.isfinite(s.elo)]
    reach = [abs(s.elo) + (s.elo_error if math.isfinite(s.elo_error) else 0) for s in finite]
    span = max([100.0, *reach]) * 1.25
    for row, standing in enumerate(ordered):
        elo, error = standing.elo, standing.elo_error
        if math.isinf(elo):
            sign = 1 if elo > 0 else -1
            text = "+inf: won every game" if sign > 0 else "-inf: lost every game"
            axes.annotate(text, xy=(sign * span, row), xytext=(0, row), va="center",
                          ha="left" if sign > 0 else "right",
                          color="tab:green" if sign > 0 else "tab:red",
                          arrowprops={"arrowstyle": "->", "color": "grey"})
            continue
        colour = "tab:green" if elo >= 0 else "tab:red"
        if math.isfinite(error):
            axes.barh(row, elo, xerr=error, color=colour, alpha=0.7, capsize=4)
        else:
            axes.barh(row, elo, color=colour, alpha=0.7)
            axes.annotate("", xy=(-span, row), xytext=(span, row),
                          arrowprops={"arrowstyle": "<->", "color": "grey", "linestyle": "dashed"})
            axes.text(elo, row + 0.3, "interval unbounded", ha="center", fontsize=8, color="grey")
    axes.set_xlim(-span, span)
    axes.set_yticks(range(len(ordered)), labels)
    axes.set_ylim(-0.7, len(ordered) - 0.3)
    axes.axvline(0, color="black", linewidth=0.8)
    axes.set_xlabel("Elo against the field")
    axes.set_title(title)
    return figure
