"""What every way of solving shares: its settings, the job a driver is given,
its error and its progress bar.

Both drivers (:mod:`boomboard.solver.hashed.driver` for hashed tables,
:mod:`boomboard.solver.dense.driver` for dense ones) and the checks of
:mod:`boomboard.solver.analysis` import it; it imports no solver.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rich.progress import BarColumn, Progress, ProgressColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.text import Text

from ..core.errors import BoomboardError
from ..core.game import Game

METHODS = ("auto", "memory", "tiers", "dense")
BACKENDS = ("local", "ray")  # where a dense solve's levels are scored: here, or as Ray tasks


class SolveError(BoomboardError):
    """A solve could not be done as asked."""


class TooManyPositions(SolveError):
    """The game has more positions than the solve may hold (its limit, or what its lists can count)."""


@dataclass(frozen=True)
class SolveSettings:
    """How to solve (``boomboard solve``'s options; :func:`boomboard.solver.solve` takes one).

    ``tokens``: for a game solved as endgames, the most tokens on the board.
    ``method``: ``"auto"`` (dense where the game ranks its positions; else in
    memory, or by tiers when too big), ``"dense"``, ``"memory"`` or
    ``"tiers"``. ``max_positions``: stop (resumably) beyond this many
    positions (default: what half the machine's memory holds). A dense solve
    stores one of each pair of mirror images unless ``symmetry`` is false,
    scans with ``threads`` threads (default: every core), scores its levels
    here or (``backend="ray"``) on a Ray cluster at ``ray_address`` (default:
    a local instance), and plans with ``memory`` bytes (default: the
    machine's, each Ray node's).
    """

    tokens: int = 0
    method: str = "auto"
    max_positions: int | None = None
    symmetry: bool = True
    threads: int | None = None
    backend: str = "local"
    ray_address: str | None = None
    memory: int | None = None

    def __post_init__(self):
        if self.method not in METHODS:
            raise SolveError(f"unknown method {self.method!r}: choose one of {', '.join(METHODS)}")
        if self.backend not in BACKENDS:
            raise SolveError(f"unknown backend {self.backend!r}: choose one of {', '.join(BACKENDS)}")


@dataclass(frozen=True)
class SolveJob:
    """What a driver is given to solve: the game, the table's folder and the
    folder its work in progress lives in (renamed into place when done), the
    variant's name for the table's record, and whether to show progress."""

    game: Game
    folder: Path
    work: Path
    variant: str
    progress: bool


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
