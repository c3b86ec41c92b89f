"""``boomboard explore``: sweep a game's variants into the lab's store."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, ProgressColumn, TextColumn, TimeRemainingColumn
from rich.table import Table as RichTable
from rich.text import Text

from ..core.errors import BoomboardError
from .cores import oversubscribed_warning

console = Console(highlight=False)
GAME_OPTIONS = {"allow_extra_args": True, "ignore_unknown_options": True}


def grid_options(args: list[str]) -> dict[str, str]:
    """``--rows 3..5 --misere both --superbomb`` as {parameter: text}; a bare
    flag means ``true``."""
    options, index = {}, 0
    while index < len(args):
        token = args[index]
        if not token.startswith("--") or token == "--":
            raise BoomboardError(f"unexpected argument {token!r}: give the grid as --PARAMETER VALUES, "
                                 "e.g. --rows 3..5 --misere both")
        name, has_value, value = token[2:].partition("=")
        if not has_value:
            following = args[index + 1] if index + 1 < len(args) else None
            if following is None or following.startswith("--"):
                value = "true"
            else:
                value, index = following, index + 1
        options[name.replace("-", "_").lower()] = value
        index += 1
    return options


class RateColumn(ProgressColumn):
    """Variants a minute, since the sweep began."""

    def __init__(self):
        super().__init__()
        self.began = time.monotonic()

    def render(self, task) -> Text:
        minutes = (time.monotonic() - self.began) / 60
        rate = task.completed / minutes if minutes > 0 else 0.0
        return Text(f"{rate:,.1f} variants/min", style="progress.data.speed")


def explore_command(
    ctx: typer.Context,
    game: str = typer.Argument(..., help="Game name."),
    store: Optional[Path] = typer.Option(None, "--store", help="The SQLite store (default: lab.sqlite in the user "
                                                               "data folder); a sweep resumes what it holds."),
    budget: int = typer.Option(1_000_000, "--budget", help="Solve exactly up to this many positions (1..50,000,000); "
                                                           "beyond, estimate only."),
    games: int = typer.Option(20, "--games", help="Self-play games of ai a variant (0..10,000; 0: none)."),
    depth: int = typer.Option(4, "--depth", help="Plies the self-play ai searches (1..12)."),
    workers: int = typer.Option(0, "--workers", min=0, help="Processes (or Ray tasks) at once (default: every core)."),
    backend: str = typer.Option("local", "--backend", help="local (a process pool) or ray (Ray tasks)."),
    ray_address: Optional[str] = typer.Option(None, "--ray-address",
                                              help="With --backend ray: the cluster (default: a local instance)."),
    pictures: Optional[Path] = typer.Option(None, "--pictures", help="Afterwards, draw the game's heat maps and "
                                                                     "first-move strips into this folder (SVG)."),
    quiet: bool = typer.Option(False, "--quiet", help="No progress bar."),
) -> None:
    """Sweep a grid of a game's variants: exact values where the solver
    finishes within --budget, ai self-play estimates, and their agreement.

    The grid is the game's sweepable parameters as options: a range (3..5),
    a list (3,5) or one value; a flag takes both, true or false. At most
    2,000 variants a sweep. Example:
    boomboard explore kaboom --rows 3..4 --cols 3..4 --connect 3 --bombs 0,1 --misere both
    """
    from ..lab import Settings, Store, default_store, parse_grid

    grid = parse_grid(game.strip().lower(), grid_options(ctx.args))
    settings = Settings(budget, games, depth, workers, backend, ray_address)
    settings.check()
    if grid.refused:
        console.print(f"{len(grid.refused)} combinations refused by the game and skipped, e.g. "
                      f"{grid.refused[0][0]}: {grid.refused[0][1]}", markup=False)
    warning = oversubscribed_warning(workers, "the variants' parts") if backend == "local" else None
    if warning:
        console.print(warning, markup=False)
    # held from here to the end: a second sweep of the store is refused before it shows a bar
    with Store(store or default_store()) as opened, opened.exclusive():
        total = len(grid.variants)
        already = total - _explore_with_bar(grid, opened, settings, quiet)
        rows = [row for row in opened.rows(grid.game) if row.variant in {str(g) for g in grid.variants}]
        _print_rows(rows)
        console.print(f"{total} variants ({already} already in {opened.path}), {len(grid.refused)} refused by the game")
        if pictures is not None:
            from ..lab.picture import write_pictures

            pictures.mkdir(parents=True, exist_ok=True)
            for path in write_pictures(rows, grid.game, list(grid.axes), pictures):
                console.print(f"picture: {path}", markup=False)


def _explore_with_bar(grid, store, settings, quiet: bool) -> int:
    """The sweep with a bar of variants done, moving on as each part of a variant is
    done (a variant of many games takes a while); the number of variants measured."""
    from ..lab import explore
    from ..lab.sweep import pending

    todo = len(pending(grid, store))
    columns = [TextColumn("{task.description}"), BarColumn(), TextColumn("{task.fields[finished]}/{task.total}"),
               RateColumn(), TextColumn("left"), TimeRemainingColumn()]
    finished, partly = 0, {}  # variants done; each unfinished one's share done

    def part_done(variant: str, _key: str, share: float) -> None:
        partly[variant] = partly.get(variant, 0.0) + share
        bar.update(task, completed=finished + sum(partly.values()))

    def variant_done(result: dict) -> None:
        nonlocal finished
        finished += 1
        partly.pop(result["variant"], None)
        bar.update(task, completed=finished + sum(partly.values()), finished=finished)

    with Progress(*columns, console=console, disable=quiet or not todo) as bar:
        task = bar.add_task(f"exploring {grid.game}", total=todo, finished=0)
        return explore(grid, store, settings, on_result=variant_done, on_part=part_done)


def _print_rows(rows) -> None:
    table = RichTable(title="variants (values for the first player)")
    for name in ("variant", "exact", "positions", "estimated score (95%)", "draws", "length", "agreement"):
        table.add_column(name)
    for row in rows:
        exact = row.exact and (f"{row.exact['value']} in {row.exact['remoteness']}"
                               if row.exact["value"] != "draw" else "draw")
        estimate = row.estimate
        table.add_row(row.variant, exact or "-", f"{row.exact['positions']:,}" if row.exact else "-",
                      f"{estimate['score']:.2f} ({estimate['score_low']:.2f}-{estimate['score_high']:.2f})"
                      if estimate else "-",
                      f"{estimate['draw_rate']:.0%}" if estimate else "-",
                      _length_text(estimate) if estimate else "-",
                      row.agreement or "-")
    console.print(table)


def _length_text(estimate: dict) -> str:
    """The median length and its spread, and the games the action limit ended (a store
    written before they were counted has no count)."""
    text = f"{estimate['length_median']:g} (IQR {estimate['length_iqr']:g})"
    return text + (f", {estimate['capped']:g} at the action limit" if estimate.get("capped") else "")


def register(app: typer.Typer) -> None:
    """Add ``explore`` to the ``boomboard`` command."""
    app.command("explore", context_settings=GAME_OPTIONS)(explore_command)
