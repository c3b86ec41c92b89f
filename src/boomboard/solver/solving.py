"""What every way of solving shares: its error and its progress bar.

Both drivers (:mod:`boomboard.solver.driver` for hashed tables,
:mod:`boomboard.solver.dense_driver` for dense ones) and the checks of
:mod:`boomboard.solver.analysis` import it; it imports no solver.
"""

from __future__ import annotations

from rich.progress import BarColumn, Progress, ProgressColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.text import Text

from ..core.errors import BoomboardError


class SolveError(BoomboardError):
    """A solve could not be done as asked."""


class TooManyPositions(SolveError):
    """The game has more positions than the solve may hold (its limit, or what its lists can count)."""


class _Rate(ProgressColumn):
    def render(self, task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("" if speed is None else f"{speed:,.0f} positions/s", style="progress.data.speed")


class _Count(ProgressColumn):
    def render(self, task) -> Text:
        total = "" if task.total is None else f"/{int(task.total):,}"
        return Text(f"{int(task.completed):,}{total}", style="progress.download")


def progress_bar(enabled: bool) -> Progress:
    return Progress(TextColumn("{task.description:<22}"), BarColumn(), _Count(), _Rate(), TimeElapsedColumn(),
                    TimeRemainingColumn(), disable=not enabled, transient=False)
