"""Running a sweep: every variant of a grid not yet in the store, measured
on all cores (a process pool) or on a Ray cluster.

A variant is measured in parts: its exact solve, and its self-play games in
chunks of :data:`GAMES_A_CHUNK` (game ``i`` keeps its seeds whatever the
chunk, so the parts join into the row one run of all the games gives).
Each part is stored as soon as it is done, by this process (a Ray worker
cannot reach the store's file), and the variant's row once all its parts
are in; a sweep run again measures only the parts still missing.

A sweep holds its store for itself while it runs (:meth:`Store.exclusive`):
a second sweep of the same store is refused, not run beside it. A variant's
solve works in a folder named after the variant (in ``STORE.work``), so a
sweep run again after a kill finds the solve where it left it whatever else
is still pending."""

from __future__ import annotations

import hashlib
import os
import re
import signal
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from ..core.errors import BoomboardError
from .grid import Grid
from .measure import play_part, solve_part, variant_result
from .store import Store

BACKENDS = ("local", "ray")
MAX_BUDGET = 50_000_000  # positions: beyond this a solve needs more memory than a lab worker should take
MAX_GAMES = 10_000  # self-play games a variant
MAX_DEPTH = 12  # plies of the self-play search
# Self-play games a part: on a board where 200 games take an hour, a part is about a minute of
# work lost to a kill, and a variant's games are parts enough to keep every worker busy.
GAMES_A_CHUNK = 4
# Seconds a stopped sweep's Ray tasks are cancelled again until they end (Ray can lose a cancel).
CANCEL_ROUNDS = 10


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


@dataclass(frozen=True)
class Job:
    """One part of a variant to measure: its key in the store (naming the
    settings its result depends on) and the task that computes it."""

    variant: str
    key: str
    task: Callable[..., Any]
    args: tuple


def parts_of(variant: str, settings: Settings, folder: Path) -> list[Job]:
    """The parts of measuring ``variant``: its exact solve (working in
    ``folder``), then its self-play games, :data:`GAMES_A_CHUNK` a part."""
    jobs = [Job(variant, f"exact budget={settings.budget}", solve_part, (variant, settings.budget, str(folder)))]
    for first in range(0, settings.games, GAMES_A_CHUNK):
        stop = min(first + GAMES_A_CHUNK, settings.games)
        jobs.append(Job(variant, f"games depth={settings.depth} {first}..{stop - 1}", play_part,
                        (variant, settings.depth, first, stop)))
    return jobs


def joined(jobs: list[Job], results: dict[str, Any], depth: int) -> dict:
    """The row of a variant whose parts ``jobs`` all have their result in ``results``."""
    records = [record for job in jobs[1:] for record in results[job.key]]
    return variant_result(jobs[0].variant, results[jobs[0].key], records or None, depth)


def explore(grid: Grid, store: Store, settings: Settings, on_result: Callable[[dict], None] | None = None,
            on_part: Callable[[str, str, float], None] | None = None) -> int:
    """Measure every variant of ``grid`` that ``store`` lacks, storing each
    part as it comes (``on_part`` is told its variant, its key and its share
    of the variant) and each variant's row once its parts are in
    (``on_result`` is told of each); the number of rows stored."""
    settings.check()
    with store.exclusive():
        return _explore_held(grid, store, settings, on_result, on_part)


def work_folder(store: Store, variant: str) -> Path:
    """Where ``variant``'s solve works (and resumes after a kill): a folder of
    ``STORE.work`` named after the variant alone."""
    readable = re.sub(r"[^A-Za-z0-9=,_-]+", "_", variant)[:80]
    digest = hashlib.blake2b(variant.encode(), digest_size=6).hexdigest()  # two names never share a folder
    return store.path.with_name(store.path.name + ".work") / f"{readable}-{digest}"


def _explore_held(grid: Grid, store: Store, settings: Settings, on_result: Callable[[dict], None] | None,
                  on_part: Callable[[str, str, float], None] | None) -> int:
    """:func:`explore`, the store held."""
    todo = pending(grid, store)
    if not todo:
        return 0
    params = {str(game): game.get_parameters() for game in todo}
    plan = {str(game): parts_of(str(game), settings, work_folder(store, str(game))) for game in todo}
    results = {variant: store.parts(variant) for variant in plan}  # what a killed sweep stored
    missing = {variant: [job for job in jobs if job.key not in results[variant]] for variant, jobs in plan.items()}

    def store_row(variant: str) -> None:
        row = joined(plan[variant], results[variant], settings.depth)
        store.add(grid.game, params[variant], row)
        if on_result is not None:
            on_result(row)

    for variant in plan:
        if not missing[variant]:  # killed after its last part was stored, before its row
            store_row(variant)
    runner = _ray_results if settings.backend == "ray" else _pool_results
    left = {variant: len(jobs) for variant, jobs in missing.items()}
    for job, result in runner([job for jobs in missing.values() for job in jobs], settings):
        store.add_part(job.variant, job.key, result)
        results[job.variant][job.key] = result
        left[job.variant] -= 1
        if on_part is not None:
            on_part(job.variant, job.key, 1 / len(plan[job.variant]))
        if not left[job.variant]:
            store_row(job.variant)
    return len(plan)


def _workers(settings: Settings, jobs: int) -> int:
    return max(1, min(settings.workers or os.cpu_count() or 1, jobs))


def _pool_results(jobs: list[Job], settings: Settings) -> Iterator[tuple[Job, Any]]:
    """Each job with its result as it finishes, from a pool of worker
    processes (spawned, so none inherits the parent's compiled-code threads)."""
    if not jobs:  # every part was stored before: no pool to start
        return
    workers = _workers(settings, len(jobs))
    context = get_context("spawn")
    started = context.SimpleQueue()  # each worker's process id, as it starts: the executor does not tell them
    with ProcessPoolExecutor(workers, mp_context=context, initializer=_pool_worker, initargs=(started,)) as pool:
        waiting = {pool.submit(job.task, *job.args): job for job in jobs}
        try:
            while waiting:
                done, _ = wait(waiting, return_when=FIRST_COMPLETED)
                for future in done:
                    job = waiting.pop(future)
                    try:
                        yield job, future.result()
                    except BrokenProcessPool:
                        raise BoomboardError(
                            "a worker process of the sweep stopped abruptly (out of memory, or killed; from a "
                            "script of your own, is its sweep under if __name__ == '__main__':?); the variants "
                            "and parts stored so far are kept: run again to resume") from None
        finally:
            if waiting:  # stopped early (Ctrl-C, an error): parts in flight are lost anyway, so end them now
                _end_workers(pool, started)


def _end_workers(pool: ProcessPoolExecutor, started) -> None:
    """End the pool's workers at once, not after the parts they are measuring:
    the pool stops taking work, and each worker that said it started
    (``started``, a queue of process ids) is sent SIGTERM."""
    pool.shutdown(wait=False, cancel_futures=True)
    while not started.empty():
        try:
            os.kill(started.get(), signal.SIGTERM)
        except ProcessLookupError:  # ended already
            pass


def _pool_worker(started) -> None:
    """A pool worker: one thread (the pool already fills every core), Ctrl-C
    left to the sweep, which ends its workers at once, and its process id
    put in ``started`` for that."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    started.put(os.getpid())
    _one_thread_each()


def _one_thread_each() -> None:
    """A worker's compiled kernels run on one thread: the pool already fills every core."""
    import numba

    numba.set_num_threads(1)


def _ray_results(jobs: list[Job], settings: Settings) -> Iterator[tuple[Job, Any]]:
    """Each job with its result as it finishes, as Ray tasks (on the cluster
    at ``settings.ray_address``, else on a local Ray instance)."""
    if not jobs:  # every part was stored before: no cluster to reach
        return
    from ..core.ray_support import start_ray

    ray = start_ray(settings.ray_address, settings.workers or None)
    task = ray.remote(num_cpus=1, max_retries=1)(_run_on_ray)
    jobs_of = {task.remote(job.task, *job.args): job for job in jobs}
    waiting = list(jobs_of)
    try:
        while waiting:
            done, waiting = ray.wait(waiting, num_returns=1)
            for ref in done:
                yield jobs_of.pop(ref), ray.get(ref)
    finally:  # Ctrl-C, an error, or a caller that stopped reading: a cluster's tasks would play on
        _cancel(ray, waiting)


def _cancel(ray, tasks: list) -> None:
    """Cancels ``tasks`` (their workers killed if they run) and sees that they end.

    Ray loses a cancel that reaches a task pushed to its worker but not yet
    started: the task then runs to its end (a 20 s task in about 1 of 10
    tries on a one-CPU local instance, tests/test_lab_ray.py). So the tasks
    still not ended a second later are cancelled again, for up to
    :data:`CANCEL_ROUNDS` seconds; then they are left to the cluster."""
    for _ in range(CANCEL_ROUNDS):
        if not tasks:
            return
        for ref in tasks:
            ray.cancel(ref, force=True)
        _, tasks = ray.wait(tasks, num_returns=len(tasks), timeout=1.0, fetch_local=False)


def _run_on_ray(task: Callable[..., Any], *args) -> Any:
    _one_thread_each()
    return task(*args)


def default_store() -> Path:
    """Where a sweep's store lives unless ``--store`` says: the user data folder's ``lab.sqlite``."""
    import platformdirs

    return Path(platformdirs.user_data_dir("boomboard")) / "lab.sqlite"
