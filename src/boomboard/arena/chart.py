"""The rating chart: each agent's Elo with its 95% interval, as a PNG."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Sequence

from .store import Standing

# An interval that reaches infinity (all wins or all losses) is drawn this wide.
_OPEN_ENDED = 800.0


def rating_chart(standings: Sequence[Standing], path: str | Path, title: str = "Elo ratings (95% interval)") -> Path:
    """Draw the standings as horizontal bars with error bars; return the file written."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    path = Path(path)
    ordered = sorted(standings, key=lambda s: s.elo)
    elos = [_finite(s.elo) for s in ordered]
    errors = [_OPEN_ENDED / 2 if math.isinf(s.elo_error) else s.elo_error for s in ordered]
    labels = [f"{s.agent}  ({s.wins}-{s.ties}-{s.losses})" for s in ordered]
    figure, axes = plt.subplots(figsize=(8, 1.2 + 0.5 * len(ordered)))
    colours = ["tab:green" if e >= 0 else "tab:red" for e in elos]
    axes.barh(range(len(ordered)), elos, xerr=errors, color=colours, alpha=0.7, capsize=4)
    axes.set_yticks(range(len(ordered)), labels)
    axes.axvline(0, color="black", linewidth=0.8)
    axes.set_xlabel("Elo against the field")
    axes.set_title(title)
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=100)
    plt.close(figure)
    return path


def _finite(elo: float) -> float:
    if math.isinf(elo):
        return math.copysign(_OPEN_ENDED, elo)
    return elo
