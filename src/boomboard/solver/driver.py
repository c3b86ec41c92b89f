"""Solving a game: :func:`solve` chooses the solver and hands it the job.

A game that ranks its positions is solved densely
(:mod:`boomboard.solver.dense.driver`), any other, or any ``--position``,
with hashed keys (:mod:`boomboard.solver.hashed.driver`); both write the
table format of :mod:`boomboard.solver.format` into a work folder
``VARIANT.work/`` beside the table's, and rename it into place when done,
so a table folder is always complete and a killed solve resumes.
"""

from __future__ import annotations

import hashlib
import shutil

from ..core.game import Game
from ..core.state import State
from .codec import is_endgames, is_layered
from .dense.driver import solve_dense
from .format.table_format import table_dir
from .hashed.driver import solve_hashed
from .solving import SolveError, SolveJob, SolveSettings
from .table import Table, load_table, move_into_place


def variant_name(game: Game, tokens: int = 0, root: State | None = None) -> str:
    """The table folder's name: ``start``, ``endgame-T`` or ``from-<hash of the position>``."""
    if root is not None:
        digest = hashlib.sha1(root.to_notation().encode()).hexdigest()[:12]
        return f"from-{digest}"
    if is_endgames(game):
        return f"endgame-{tokens}"
    return "start"


def solve(game: Game, db=None, *, settings: SolveSettings | None = None, progress: bool = True,
          root: State | None = None, force: bool = False) -> Table:
    """Solve ``game`` (every position reachable from its start; for a game
    solved as endgames, ``game.solver_min_tokens`` > 0, every position with
    at most ``settings.tokens`` tokens; with ``root``, every position
    reachable from that one) and return its table, stored under ``db``.

    ``settings`` (:class:`SolveSettings`) says how: the method, the limit on
    positions, and a dense solve's symmetry, threads, backend and memory.
    An existing complete table is returned as it is (``force`` solves again);
    an interrupted solve (Ctrl-C, a kill) resumes from its last saved step.
    A solve that finds more than ``settings.max_positions`` positions stops
    with :class:`SolveError`. A dense solve
    (:mod:`boomboard.solver.dense.driver`) reads the levels it needs through
    a mapped window file (:mod:`boomboard.solver.dense.window`) when they need
    more than 80% of its memory; ``backend="ray"`` scores its levels on a Ray
    cluster (:mod:`boomboard.solver.dense.ray`).
    """
    settings = settings or SolveSettings()
    if root is not None:
        if root.game != game:
            raise SolveError(f"the root position belongs to {root.game}, not {game}")
        if root.is_terminal():
            raise SolveError("the root position is already finished; there is nothing to solve")
    method = _method(game, settings, root)
    variant = variant_name(game, settings.tokens, root)
    folder = table_dir(game, variant, db)
    job = SolveJob(game, folder, folder.with_name(folder.name + ".work"), variant, progress)
    try:
        return _solved(job, settings, method, root, force)
    except OSError as problem:  # a folder that cannot be written, a full disk
        raise SolveError(f"cannot write the table in {job.work.parent}: {problem.strerror or problem}; "
                         "finished levels are kept, run again to resume") from None


def _solved(job: SolveJob, settings: SolveSettings, method: str, root: State | None, force: bool) -> Table:
    if force:
        shutil.rmtree(job.folder, ignore_errors=True)
        shutil.rmtree(job.work, ignore_errors=True)
    if (job.folder / "meta.json").is_file():
        table = load_table(job.game, job.folder)
        table.check()  # a solve that says a table is there vouches for all of it
        return table
    if (job.work / "meta.json").is_file():  # finished, stopped before its folder was renamed
        return move_into_place(job.game, job.work, job.folder)
    if method == "dense":
        return solve_dense(job, settings)
    return solve_hashed(job, settings, method, root)


def _method(game: Game, settings: SolveSettings, root: State | None) -> str:
    """The method a solve uses: the one asked for, checked against the game, ``auto`` made definite where it is dense."""
    method = settings.method
    if method == "tiers" and not is_layered(game):
        raise SolveError(f"{game.name} has no layers (moves can repeat positions): solve it in memory")
    dense_ok = root is None and not is_endgames(game) and game.solver_dense_spec() is not None
    if method == "dense" and not dense_ok:
        raise SolveError(f"{game} cannot be solved densely (it has no ranking for it, or a --position "
                         "was given): choose --method memory or tiers")
    if method == "auto" and dense_ok and game.solver_dense_auto:
        method = "dense"
    if settings.backend == "ray" and method != "dense":
        raise SolveError(f"--backend ray solves densely, and {game} cannot be solved densely "
                         f"(method {method}): use the local backend")
    return method
