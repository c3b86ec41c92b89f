"""What scoring every root move exactly costs, against a search for the best
move alone (issue 46): nodes and CPU seconds of one alpha-beta search of
seeded positions to a fixed depth, with the root's margin at 0 (a
principal-variation search: the best move exact, the others bounds), at a
few hundredths, and exact (every move a full window, as the analysis's
move list is searched)::

    python benchmarks/analysis_search_cost.py --game jump61 --depth 7
"""

from __future__ import annotations

import argparse
import random
import time

import boomboard
from boomboard.search.alphabeta import EXACT_MARGIN, AlphaBeta


def seeded(game, plies: int):
    rng = random.Random(plies)
    state = game.new_initial_state()
    for _ in range(plies):
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="jump61")
    parser.add_argument("--depth", type=int, default=7)
    parser.add_argument("--plies", type=int, nargs="+", default=[4, 12, 24], help="random plies to each position")
    args = parser.parse_args()
    game = boomboard.load_game(args.game)
    AlphaBeta(game).search(game.new_initial_state(), depth=1)  # compile and load first: not counted
    print("| position (random plies) | root margin | nodes | CPU s | best move |")
    print("|---|---|---|---|---|")
    for plies in args.plies:
        state = seeded(game, plies)
        for margin in (0, 300, EXACT_MARGIN):
            searcher = AlphaBeta(game, table_bits=18, neutral=True)
            began = time.process_time()
            result = searcher.search(state, depth=args.depth, margin=margin)
            seconds = time.process_time() - began
            shown = "every move exact" if margin == EXACT_MARGIN else str(margin)
            print(f"| {plies} | {shown} | {result.nodes:,} | {seconds:.2f} | {state.action_to_string(result.action)} |")


if __name__ == "__main__":
    main()
