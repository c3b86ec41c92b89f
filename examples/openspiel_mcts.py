"""OpenSpiel's MCTS bot against a random bot on boomboard's Kaboom, through pyspiel.

Run: python examples/openspiel_mcts.py [--game "boomboard_kaboom(rows=4,cols=5)"] [--games 4]
Needs: pip install 'boomboard[openspiel]'
"""

from __future__ import annotations

import argparse

import numpy as np
import pyspiel
from open_spiel.python.algorithms import evaluate_bots, mcts
from open_spiel.python.bots.uniform_random import UniformRandomBot

import boomboard.openspiel  # noqa: F401  (registers the boomboard_* games with pyspiel)
from boomboard.openspiel import PlayoutEvaluator


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="boomboard_kaboom(rows=4,cols=5)")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--simulations", type=int, default=100)
    args = parser.parse_args()

    game = pyspiel.load_game(args.game)
    print(f"{game}: {game.num_distinct_actions()} actions, observation tensor {game.observation_tensor_shape()}")
    rng = np.random.RandomState(0)
    wins = 0
    for k in range(args.games):
        seat = k % 2  # MCTS plays first, then second
        # PlayoutEvaluator: OpenSpiel's random-rollout estimate, with the rollouts compiled
        searcher = mcts.MCTSBot(game, 2.0, args.simulations, PlayoutEvaluator(n_rollouts=1, seed=k),
                                random_state=rng)
        opponent = UniformRandomBot(1 - seat, rng)
        bots = [searcher, opponent] if seat == 0 else [opponent, searcher]
        returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
        wins += returns[seat] > 0
        print(f"game {k + 1}: MCTS as player {seat} scores {returns[seat]:+.0f}")
    print(f"MCTS won {wins} of {args.games}")


if __name__ == "__main__":
    main()
