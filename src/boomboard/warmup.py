"""Compiling every kernel a game uses, ahead of time (``boomboard compile``).

numba compiles a kernel on its first call and keeps it in the cache
(:mod:`boomboard.jit`); after that a process only loads it. :func:`warm_up`
makes those first calls for one game: its rules through the :class:`State`
API, its evaluation, both searches, the batched environment with its
observations, the random playouts, the web page's step recorder, and, for a
game solved as endgames, the endgame tables ``ai`` probes (solved here once,
into the solver's folder), for a game solved densely, the dense solver's
passes built ahead of time (:mod:`boomboard.ahead`: a one-thread dense solve
then runs without numba, where a C compiler builds them), and for a game
whose default board the dense solver takes seconds over, that board's whole
table, which ``ai`` plays from; so that nobody waits on a compile later (the
solver compiles when a game is first solved, and says so). Each game
compiles alone, so the games are compiled in parallel processes.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

PARTS = ("rules", "evaluation", "alpha-beta", "MCTS", "vector", "playouts", "animation", "endgames", "ahead",
         "solved", "ai")
# A default board the dense solver plans to solve within this many CPU seconds is solved here,
# for ``ai`` to play from (:mod:`boomboard.solver.in_play`).
SETUP_SOLVE_SECONDS = 60


def warm_up(name: str, on_part: Callable[[str], None] = lambda part: None) -> float:
    """Compile (or load) everything game ``name`` uses; returns the CPU seconds.
    ``on_part(part)`` is called after each of :data:`PARTS`."""
    from .registry import load_game

    started = time.process_time()
    game = load_game(name)
    state = game.new_initial_state()
    for _ in range(4):  # a few actions in, through the State API, stopping short of an end
        children = [state.child(action) for action in state.legal_actions()]
        going = [child for child in children if not child.is_terminal()]
        if not going:
            break
        state = going[-1]
        state.serialize()
    on_part("rules")
    game.kernels.evaluate(state.array, game.params_array)
    game.kernels.is_explosive(state.array, game.params_array, state.legal_actions()[0])
    on_part("evaluation")
    from .search.alphabeta import AlphaBeta

    AlphaBeta(game, table_bits=10).search(state, depth=2)
    on_part("alpha-beta")
    from .search.mcts import Mcts

    Mcts(game, capacity=1 << 10).search(state, simulations=8)
    on_part("MCTS")
    from .vector import VectorEnv

    env = VectorEnv(game, 2, seed=0)
    env.step(env.sample_actions())
    env.observations()
    on_part("vector")
    from .core.playout import random_playouts

    random_playouts(state, 2)
    on_part("playouts")
    steps = np.zeros((4, state.array.size), np.int32)
    flashes = np.zeros((4, game.num_distinct_actions() + 1), np.int32)
    game.kernels.apply_action_steps(state.array.copy(), game.params_array, state.legal_actions()[0], steps, flashes)
    on_part("animation")
    if game.solver_min_tokens:
        from .solver.endgames import endgame_tables

        endgame_tables(game, progress=False)  # the tables ai probes
    on_part("endgames")
    if game.solver_dense_spec() is not None:
        from .ahead import AheadUnavailable
        from .solver.dense.engine import build_passes_ahead

        try:
            build_passes_ahead(game)  # one-thread dense solves then run without numba
        except AheadUnavailable:
            pass  # no C compiler here: such solves load numba's passes instead
    on_part("ahead")
    if game.solver_dense_auto and game.solver_dense_spec() is not None:
        from .solver.dense.plan import MEASURED_RECORDS_PER_CPU_SECOND, plan

        if plan(game).records <= SETUP_SOLVE_SECONDS * MEASURED_RECORDS_PER_CPU_SECOND:
            from .solver.driver import solve
            from .solver.format.table_format import NotSolvedError

            try:
                solve(game, progress=False)  # an existing table is kept as it is
            except NotSolvedError:  # but one of an older format is ai's to replace, as its endgame tables are
                solve(game, progress=False, force=True)
    on_part("solved")
    from .agents import make_agent

    make_agent("ai", seed=0).new_game(game, 0)  # its settings' own kernels: the course Player's import loads them
    on_part("ai")
    return time.process_time() - started
