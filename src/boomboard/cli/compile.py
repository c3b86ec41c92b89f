"""``boomboard compile``: every game's kernels compiled ahead, a bar per game."""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from typing import Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

console = Console(highlight=False)


def _compile_one(name: str, events) -> tuple[str, float | str]:
    from ..jit import quiet_compiles
    from ..warmup import warm_up

    try:
        with quiet_compiles():  # the bars say it
            return name, warm_up(name, lambda part: events.put((name, part)))
    except Exception as error:  # one game's failure must not hide the others' progress
        return name, f"{type(error).__name__}: {error}"


def compile_games(
    games: Optional[list[str]] = typer.Argument(None, help="Games to compile (default: all)."),
    jobs: Optional[int] = typer.Option(None, "--jobs", "-j", help="Games compiled at once (default: one per core)."),
) -> None:
    """Compile every game's rules, evaluation, searches, batched environment,
    random playouts and animation steps for this machine, once, so that no
    later command waits on a compile, build the endgame tables ai probes
    (Expendibots, 3 tokens), and solve the default boards that take seconds
    (Kaboom 4x4), which ai plays from; the solver compiles on a game's first solve."""
    from ..jit import cache_root
    from ..registry import DEFAULT_GAME, game_class, game_names
    from ..warmup import PARTS

    names = games or sorted(game_names(), key=lambda name: name != DEFAULT_GAME)  # the one a page offers first, first
    for name in names:
        game_class(name)  # an unknown name fails here, with the known ones listed
    workers = max(1, min(jobs or os.cpu_count() or 1, len(names)))
    context = multiprocessing.get_context("spawn")  # fresh processes: each compiles its game alone
    with context.Manager() as manager, Progress(
            TextColumn("{task.description:<16}"), BarColumn(), TextColumn("{task.fields[part]:<11}"),
            TimeElapsedColumn(), console=console) as progress:
        events = manager.Queue()
        tasks = {name: progress.add_task(name, total=len(PARTS), part="waiting", start=False) for name in names}
        with ProcessPoolExecutor(workers, mp_context=context) as pool:
            futures = [pool.submit(_compile_one, name, events) for name in names]
            pending = set(futures)
            started = set()
            failed: dict[str, str] = {}
            while pending:
                done = {future for future in pending if future.done()}
                while not events.empty():
                    name, part = events.get()
                    if name not in started:
                        started.add(name)
                        progress.start_task(tasks[name])
                    progress.update(tasks[name], advance=1, part=part)
                for future in done:
                    name, seconds = future.result()
                    if isinstance(seconds, str):
                        failed[name] = seconds
                        progress.update(tasks[name], part="failed")
                    else:
                        progress.update(tasks[name], completed=len(PARTS), part=f"{seconds:.1f} CPU s")
                pending -= done
                if pending:
                    wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
    if failed:
        from ..core.errors import BoomboardError

        raise BoomboardError("; ".join(f"{name} did not compile: {why}" for name, why in failed.items()))
    console.print(f"compiled {len(names)} games into {cache_root()}")

