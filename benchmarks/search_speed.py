"""Search speed: alpha-beta nodes per second and MCTS simulations per second.

For each game, from its default start and from two mid-game positions (a
seeded random game stopped after 10 and after 30 actions), one search of
``--seconds`` CPU seconds each with alpha-beta and with MCTS, one core.

Run: ``python benchmarks/search_speed.py [--seconds 2] [--markdown]``.
Targets (issue 3): at least 1 million alpha-beta nodes per second for Kaboom
and Jump61, 300 thousand for Expendibots.
"""

from __future__ import annotations

import argparse
import os
import random

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

import boomboard  # noqa: E402
from boomboard.search.alphabeta import AlphaBeta  # noqa: E402
from boomboard.search.mcts import Mcts  # noqa: E402

from rules_speed import commit, machine  # noqa: E402

GAMES = boomboard.game_names()
MIDGAME_PLIES = (10, 30)


def positions(game, seed=0):
    """The start, and the positions after 10 and 30 random actions (fewer if the game ends)."""
    found = [("start", game.new_initial_state())]
    for plies in MIDGAME_PLIES:
        rng = random.Random(seed + plies)
        state = game.new_initial_state()
        while state.ply() < plies:
            child = state.child(rng.choice(state.legal_actions()))
            if child.is_terminal():
                break
            state = child
        found.append((f"after {state.ply()}", state))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per search")
    parser.add_argument("--games", nargs="*", default=GAMES)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()

    rows = []
    for name in args.games:
        game = boomboard.load_game(name)
        alphabeta, mcts = AlphaBeta(game), Mcts(game)
        alphabeta.search(game.new_initial_state(), depth=1)  # load the compiled code
        mcts.search(game.new_initial_state(), simulations=2)
        for label, state in positions(game):
            alphabeta.clear()
            found = alphabeta.search(state, seconds=args.seconds)
            simulated = mcts.search(state, seconds=args.seconds)
            rows.append((name, label, found.nodes / found.seconds, found.depth,
                         simulated.simulations / simulated.seconds))

    header = ["game", "position", "alpha-beta nodes/s", "depth reached", "MCTS simulations/s"]
    if args.markdown:
        print(f"Machine: {machine()}; commit {commit()}; {args.seconds:g} CPU s per search.\n")
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for name, label, nodes, depth, simulations in rows:
            print(f"| {name} | {label} | {nodes:,.0f} | {depth} | {simulations:,.0f} |")
        return
    table = Table(title=f"search speed ({machine()}; commit {commit()})")
    for column in header:
        table.add_column(column, justify="left" if column in ("game", "position") else "right")
    for name, label, nodes, depth, simulations in rows:
        table.add_row(name, label, f"{nodes:,.0f}", str(depth), f"{simulations:,.0f}")
    Console().print(table)


if __name__ == "__main__":
    main()
