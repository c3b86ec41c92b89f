"""What the web's workers run: a position's analysis (:mod:`boomboard.analysis`,
whose functions the web reaches through this module), a value chart's
points, the moves the web's AI sides play, and the workers' warm-up. Their
arguments and results are plain data.
"""

from __future__ import annotations

import random

from ..agents import make_agent
from ..analysis import SolverDb, analyse, has_table, quality_mark, rebuild, solver_analysis, solver_rank
from ..core.capabilities import SEARCH, provides
from ..core.errors import BoomboardError, MissingExtraError
from ..core.extras import missing_modules
from ..core.state import State
from ..registry import game_names, load_game
from ..search.alphabeta import AlphaBeta

__all__ = ["analyse", "choose_action", "has_table", "history_point", "learned_model", "quality_mark", "rebuild",
           "warm_up"]


def learned_model(game_string: str) -> dict:
    """``{model, ships, needs}`` for the page's learned side: ``model``,
    whether the ``learned`` agent can play this game without a path (a model
    for it ships in the package and the learn extra is installed);
    ``ships``, whether such a model ships; ``needs``, where one ships but
    the extra is missing, the line that says which extra to install."""
    from ..learn.checkpoint import packaged_model

    try:
        ships = packaged_model(str(load_game(game_string))) is not None
    except BoomboardError:
        ships = False
    missing = missing_modules("learn")
    needs = str(MissingExtraError("learn", "the learned player", missing)) if ships and missing else None
    return {"model": ships and not missing, "ships": ships, "needs": needs}


def history_point(ply: int, result: dict, played: int | None) -> dict:
    """The value history's point of the position at ``ply`` from its analysis
    ``result`` (:func:`analyse`'s), with the move ``played`` from it, if any."""
    point = {"ply": ply, "value": result["eval"]["value"], "exact": result["eval"]["exact"],
             "label": result["eval"]["text"]}
    if played is not None:
        move = next(m for m in result["moves"] if m["id"] == played)
        point["move"] = {"mark": move["mark"], "loss": move["loss"], "outcome": move["value"]}
    return point


def choose_action(state: State, spec: str, seed: int, solver_db: SolverDb = None) -> int:
    """The move the side ``spec`` plays in ``state`` (the game's own state,
    sent whole: nothing is replayed; ``solver``: a perfect move from the
    tables in ``solver_db``, chosen with ``seed`` among the equally good
    ones, as the solver agent chooses). A fresh agent plays each move: see
    docs/reference/web-server.md, "Game state between requests"."""
    if spec == "solver":
        exact = solver_analysis(state, solver_db)
        if exact is None:
            raise ValueError(f"the solver has no table holding this position of {state.game}")
        ranks = {int(m.action): solver_rank(m.value, m.remoteness) for m in exact.moves}
        best = max(ranks.values())
        return random.Random(seed).choice(sorted(a for a, rank in ranks.items() if rank == best))
    agent = make_agent(spec, seed=seed)
    if getattr(agent, "db", "") is None:  # its tables (a solver spec such as solver:seed=3, ai's endgames): the server's
        agent.db = solver_db
    agent.new_game(state.game, state.current_player())
    return int(agent.choose_action(state))


def warm_up() -> None:
    """Load the compiled searches and playouts in a fresh worker from the
    kernel cache, for every game compiled on this machine (each game has its
    own), so that the first AI move or analysis does not wait for them. A game
    not compiled yet is left alone: compiling every game here would hold up
    the one being played (it compiles on its first use instead)."""
    from ..jit import interpreted, is_cached, specialize

    def cached(game, template: str) -> bool:
        return is_cached(specialize(template, game.kernels_module))

    for name in game_names():
        with interpreted():  # loading a game compiles nothing (nor says it would)
            game = load_game(name)
        if not provides(game, SEARCH):  # no evaluation: no search to load
            continue
        if cached(game, "boomboard.search.negamax"):
            AlphaBeta(game, table_bits=10).search(game.new_initial_state(), depth=1)
        if cached(game, "boomboard.search.uct"):
            make_agent("mcts:simulations=8", seed=0).choose_action(game.new_initial_state())
