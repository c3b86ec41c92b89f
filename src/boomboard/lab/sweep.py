"""Running a sweep: every variant of a grid not yet in the store, measured
on all cores (a process pool) or on a Ray cluster, each row stored as soon
as its variant is done."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path

from ..core.errors import BoomboardError
from .grid import Grid
from .measure import measure
from .store import Store

BACKENDS = ("local", "ray")
MAX_BUDGET = 50_000_000  # positions: beyond this a solve needs more memory than a lab worker should take
MAX_GAMES = 10_000  # self-play games a variant
MAX_DEPTH = 12  # plies of the self-play search


@dataclass(frozen=True)
class Settings:
    """How a sweep measures each variant: the solver's ``budget`` of positions,
    ``games`` of self-play (0: none) at ``depth`` plies, on ``workers``
    processes (or Ray tasks at once) with ``backend``."""

    budget: int = 1_000_000
    games: int = 20
    depth: int = 4
    workers: int = 0  # 0: every core
    backend: str = "local"
    ray_address: str | None = None

    def check(self) -> None:
        if not 1 <= self.budget <= MAX_BUDGET:
            raise BoomboardError(f"the budget must be 1..{MAX_BUDGET:,} positions, got {self.budget:,}")
        if not 0 <= self.games <= MAX_GAMES:
            raise BoomboardError(f"--games must be 0..{MAX_GAMES:,}, got {self.games:,}")
        if not 1 <= self.depth <= MAX_DEPTH:
            raise BoomboardError(f"--depth must be 1..{MAX_DEPTH}, got {self.depth}")
        if self.backend not in BACKENDS:
            raise BoomboardError(f"unknown backend {self.backend!r}: choose one of {', '.join(BACKENDS)}")


def pending(grid: Grid, store: Store) -> list:
    """The grid's variants the store has no row for, in the grid's order."""
    done = store.measured()
    return [game for game in grid.variants if str(game) not in done]


def explore(grid: Grid, store: Store, settings: Settings,
            on_result: Callable[[dict], None] | None = None) -> int:
    """Measure every variant of ``grid`` that ``store`` lacks, storing each
    row as it comes (``on_result`` is told of each); the number measured."""
    settings.check()
    todo = pending(grid, store)
    if not todo:
        return 0
    work = store.path.with_name(store.path.name + ".work")  # solver folders, resumed after a kill
    params = {str(game): game.get_parameters() for game in todo}
    jobs = [(str(game), settings.budget, settings.games, settings.depth, str(work / f"v{index}"))
            for index, game in enumerate(todo)]
    runner = _ray_results if settings.backend == "ray" else _pool_results
    count = 0
    for result in runner(jobs, settings):
        store.add(grid.game, params[result["variant"]], result)
        count += 1
        if on_result is not None:
            on_result(result)
    return count


def _workers(settings: Settings, jobs: int) -> int:
    return max(1, min(settings.workers or os.cpu_count() or 1, jobs))


def _pool_results(jobs: list[tuple], settings: Settings) -> Iterator[dict]:
    """Each job's result as it finishes, from a pool of worker processes
    (spawned, so none inherits the parent's compiled-code threads)."""
    workers = _workers(settings, len(jobs))
    with ProcessPoolExecutor(workers, mp_context=get_context("spawn"), initializer=_one_thread_each) as pool:
        waiting = {pool.submit(measure, *job) for job in jobs}
        while waiting:
            done, waiting = wait(waiting, return_when=FIRST_COMPLETED)
            for future in done:
                try:
                    yield future.result()
                except BrokenProcessPool:
                    raise BoomboardError(
                        "a worker process of the sweep stopped abruptly (out of memory, or killed; from a "
                        "script of your own, is its sweep under if __name__ == '__main__':?); the variants "
                        "stored so far are kept: run again to resume") from None


def _one_thread_each() -> None:
    """A pool worker's compiled kernels run on one thread: the pool already fills every core."""
    import numba

    numba.set_num_threads(1)


def _ray_results(jobs: list[tuple], settings: Settings) -> Iterator[dict]:
    """Each job's result as it finishes, as Ray tasks (on the cluster at
    ``settings.ray_address``, else on a local Ray instance)."""
    from ..core.ray_support import start_ray

    ray = start_ray(settings.ray_address, settings.workers or None)
    task = ray.remote(num_cpus=1, max_retries=1)(_measure_on_ray)
    waiting = [task.remote(*job) for job in jobs]
    while waiting:
        done, waiting = ray.wait(waiting, num_returns=1)
        for ref in done:
            yield ray.get(ref)


def _measure_on_ray(*job) -> dict:
    _one_thread_each()
    return measure(*job)


def default_store() -> Path:
    """Where a sweep's store lives unless ``--store`` says: the user data folder's ``lab.sqlite``."""
    import platformdirs

    return Path(platformdirs.user_data_dir("boomboard")) / "lab.sqlite"
