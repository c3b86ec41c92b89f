"""The agreement curves: a run's ``checkpoints.jsonl`` drawn as a PNG."""

from __future__ import annotations

import json
from pathlib import Path

from ..core.extras import require_extra


def plot_agreement(log: Path, out: Path, title: str) -> None:
    """Move and value agreement with the solver against training time (minutes)."""
    require_extra("plot", "the training's agreement chart")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    lines = [json.loads(text) for text in log.read_text().splitlines() if text.strip()]
    lines = [line for line in lines if "move_agreement" in line]
    minutes = [line["seconds"] / 60 for line in lines]
    figure, axes = plt.subplots(figsize=(6.4, 3.6), dpi=100)
    axes.plot(minutes, [100 * line["move_agreement"] for line in lines], marker="o",
              label="policy's top move is a perfect move")
    axes.plot(minutes, [100 * line["value_agreement"] for line in lines], marker="s",
              label="value head's class matches the table")
    axes.set_xlabel("training time (minutes)")
    axes.set_ylabel("positions (%)")
    axes.set_ylim(0, 100)
    axes.grid(alpha=0.3)
    axes.legend(loc="lower right")
    positions = lines[-1]["positions"] if lines else 0
    axes.set_title(f"{title}: agreement with perfect play ({positions} positions)", fontsize=10)
    figure.tight_layout()
    temporary = out.with_name(out.name + ".tmp.png")
    figure.savefig(temporary)
    plt.close(figure)
    temporary.replace(out)
