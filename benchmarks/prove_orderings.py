"""The prover's two move orderings on the same positions: the same proofs, and what each cost.

A game that gives the *proof ordering* kernels (Kaboom: its threats,
``games/kaboom/threats.py``) is proved with them; any other game with its
evaluation's ordering (``search/proof_order.py``). This proves random
positions of each variant given with both (the evaluation's ordering
compiled for the game as for one without its own) and checks that the value,
the plies to the end and the best moves agree; it prints, per variant, the
positions, how many agree, and the nodes and CPU seconds of each ordering.

    python benchmarks/prove_orderings.py "kaboom(rows=5,cols=5,bombs=1)" "kaboom(rows=5,cols=5,misere=true)" \\
        --positions 100 --plies 8

Positions come from random games, at least ``--plies`` plies in (earlier
positions take longer to prove).
"""

from __future__ import annotations

import argparse
import random

import boomboard
from boomboard.jit import specialize
from boomboard.search.prover import EVALUATION_ORDER, PROOF_SEARCH, Prover


def random_positions(game, count: int, plies: int, seed: int) -> list:
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = game.new_initial_state()
        for _ in range(plies + rng.randrange(plies + 1)):
            state.apply_action(rng.choice(state.legal_actions()))
            if state.is_terminal():
                break
        if not state.is_terminal():
            found.append(state)
    return found


def compare(name: str, count: int, plies: int, seed: int) -> str:
    game = boomboard.load_game(name)
    threats, evaluation = Prover(game, table_bits=20), Prover(game, table_bits=20)
    evaluation.kernels = specialize(PROOF_SEARCH, game.compiled(EVALUATION_ORDER).__name__)
    agree, cost = 0, {"threats": [0, 0.0], "evaluation": [0, 0.0]}
    for state in random_positions(game, count, plies, seed):
        proofs = {}
        for label, prover in (("threats", threats), ("evaluation", evaluation)):
            prover.clear()
            proofs[label] = proof = prover.prove(state, best_moves=True)
            cost[label][0] += proof.nodes
            cost[label][1] += proof.seconds
        first, second = proofs["threats"], proofs["evaluation"]
        agree += (first.value, first.plies, first.best_moves) == (second.value, second.plies, second.best_moves)
    return (f"| {name} | {count} | {agree} | {cost['threats'][0]:,} | {cost['threats'][1]:.2f} "
            f"| {cost['evaluation'][0]:,} | {cost['evaluation'][1]:.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="+", help="game strings, e.g. kaboom(rows=5,cols=5,bombs=1)")
    parser.add_argument("--positions", type=int, default=100, help="positions a game (default 100)")
    parser.add_argument("--plies", type=int, default=8, help="the fewest plies a position is in (default 8)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print("| game | positions | same value, plies and best moves | threats: nodes | CPU s "
          "| evaluation: nodes | CPU s |\n|---|---:|---:|---:|---:|---:|---:|", flush=True)
    for name in args.games:
        print(compare(name, args.positions, args.plies, args.seed), flush=True)


if __name__ == "__main__":
    main()
