"""Fixed-depth alpha-beta searches of every game, written to a JSON file.

A refactor of the compiled search (:mod:`boomboard.search.negamax`) must not
change what it searches: run this before and after, and compare the files
byte for byte. For each game, from its start and from three seeded random
playouts, iterative deepening records every finished iteration's depth,
best move, score, cumulative node count, principal variation and near-best
moves, until the nodes searched pass ``--nodes`` (a node count, not a time,
so the depth reached is the same on any machine). Each position is searched
with every setting that changes the tree: the plain search, a small
transposition table (entries replaced all the time), quiescence, late move
reductions with null moves and contempt, a root margin, and for a game solved
as endgames, its 3-token endgame tables (built in ``--db`` if not there).
The MCTS search (:mod:`boomboard.search.uct`) is checked the same way: its
chosen move, value and tree size after a fixed number of seeded simulations.

Run: ``python benchmarks/fixed_depth_search.py OUT.json [--nodes 200000] [--db FOLDER]``.
"""

from __future__ import annotations

import argparse
import json
import os
import random

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import boomboard  # noqa: E402
from boomboard.search.alphabeta import AlphaBeta  # noqa: E402
from boomboard.search.mcts import Mcts  # noqa: E402
from boomboard.solver.endgames import endgame_tables  # noqa: E402

PLAYOUTS = ((1, 8), (2, 20), (3, 40))  # (seed, actions) of the random playouts
MAX_DEPTH = 40  # deeper than any node budget here reaches
MCTS_SIMULATIONS = 3000
ENDGAME_TOKENS = 3
ENDGAME_POSITIONS = 3  # positions held by the tables, besides the start and playouts
SETTINGS = {
    "plain": ({}, 0),
    "small_table": ({"table_bits": 8}, 0),
    "quiescence": ({"quiescence": 3}, 0),
    "reductions_null_move_contempt": ({"reductions": 1, "null_move": 2, "contempt": 25}, 0),
    "root_margin": ({}, 40),
}


def playout(game, seed: int, actions: int):
    """The position after ``actions`` seeded random actions (fewer if the game would end)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while state.ply() < actions:
        child = state.child(rng.choice(state.legal_actions()))
        if child.is_terminal():
            break
        state = child
    return state


def iterations(searcher: AlphaBeta, state, nodes: int, margin: int) -> list[dict]:
    """Every finished iteration of one search of ``state``, deepened until ``nodes`` are passed."""
    searcher.clear()
    found: list[dict] = []

    def record(result) -> bool:
        found.append({"depth": result.depth, "action": result.action, "score": result.score, "nodes": result.nodes,
                      "principal_variation": result.principal_variation, "near_best": result.near_best})
        return result.nodes >= nodes

    searcher.search(state, depth=MAX_DEPTH, on_iteration=record, margin=margin)
    return found


def game_results(name: str, nodes: int, db: str) -> dict:
    game = boomboard.load_game(name)
    positions = {"start": game.new_initial_state()}
    for seed, actions in PLAYOUTS:
        positions[f"playout {seed}"] = playout(game, seed, actions)
    results = {}
    for setting, (options, margin) in SETTINGS.items():
        searcher = AlphaBeta(game, **options)
        results[setting] = {label: iterations(searcher, state, nodes, margin) for label, state in positions.items()}
    mcts = Mcts(game)
    results["mcts"] = {label: vars(mcts.search(state, simulations=MCTS_SIMULATIONS, seed=7)) | {"seconds": None}
                       for label, state in positions.items()}
    tables = endgame_tables(game, ENDGAME_TOKENS, db=db, progress=False)
    if tables is not None:
        rng = random.Random(5)
        held = {f"table {i}": tables.table.state_at(rng.randrange(len(tables.table)))
                for i in range(ENDGAME_POSITIONS)}
        searcher = AlphaBeta(game)
        searcher.use_endgames(tables.probe_arrays())
        results["endgames"] = {label: iterations(searcher, state, nodes, 0)
                               for label, state in {**positions, **held}.items() if not state.is_terminal()}
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", help="the JSON file to write")
    parser.add_argument("--nodes", type=int, default=200_000, help="deepen until this many nodes are searched")
    parser.add_argument("--db", default="/tmp/fixed-depth-search-db", help="where the endgame tables are built")
    parser.add_argument("--games", nargs="*", default=boomboard.game_names())
    args = parser.parse_args()
    results = {name: game_results(name, args.nodes, args.db) for name in args.games}
    with open(args.out, "w") as out:
        json.dump(results, out, indent=1, sort_keys=True)
        out.write("\n")


if __name__ == "__main__":
    main()
