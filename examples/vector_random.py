"""Thousands of random Jump61 games stepped at once by the batched environment.

Run: python examples/vector_random.py [--game jump61] [--envs 4096] [--steps 200]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from boomboard.vector import VectorEnv


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="jump61")
    parser.add_argument("--envs", type=int, default=4096)
    parser.add_argument("--steps", type=int, default=200)
    args = parser.parse_args()

    env = VectorEnv(args.game, num_envs=args.envs, seed=0)
    observations, info = env.reset()
    print(f"{env}: observations {observations.shape}, action masks {env.action_mask().shape}")
    finished, first_player_wins, started = 0, 0, time.perf_counter()
    for _ in range(args.steps):
        actions = env.sample_actions()  # or: your policy, sampling where env.action_mask() is True
        observations, rewards, terminated, truncated, info = env.step(actions)
        finished += int(terminated.sum())
        first_player_wins += int((info["status"] == 1).sum())
    elapsed = time.perf_counter() - started
    lengths = info["episode_length"][terminated]
    print(f"{args.steps * args.envs:,} steps in {elapsed:.2f} s ({args.steps * args.envs / elapsed:,.0f} steps/s, "
          f"first call's compilation included)")
    print(f"{finished:,} games finished; the first player won {first_player_wins:,}"
          + (f"; last step's finished games lasted {np.mean(lengths):.1f} actions" if len(lengths) else ""))


if __name__ == "__main__":
    main()
