"""Random-rollout speed for OpenSpiel's MCTS: rollouts per second, per game.

For each game, from its default start, one rollout at a time (as
``mcts.MCTSBot`` asks for a leaf's value):

* ``boomboard``: :class:`boomboard.openspiel.PlayoutEvaluator`, the random
  game played to its end in compiled code;
* ``pyspiel``: OpenSpiel's own ``RandomRolloutEvaluator`` on the same
  registered game, measured in the same run: each random move goes through
  ``legal_actions`` and ``apply_action`` of the Python game.

Both give the same estimate (the mean return of uniformly random games);
only the speed differs. Run: ``python benchmarks/rollout_speed.py
[--seconds 2] [--rounds 3] [--markdown]`` (needs the ``openspiel`` extra).
Compile time is excluded (each evaluator is warmed up first). One core.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402
from open_spiel.python.algorithms.mcts import RandomRolloutEvaluator  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
from rules_speed import commit, machine, print_table  # noqa: E402

from boomboard.openspiel import PlayoutEvaluator, spiel_name  # noqa: E402
from boomboard.registry import game_names  # noqa: E402


def rollouts_per_second(evaluator, state: pyspiel.State, seconds: float) -> float:
    """How many one-rollout evaluations of ``state`` ``evaluator`` makes a second."""
    evaluator.evaluate(state.clone())  # warm up: compiles, and fills any cache
    count, began = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - began) < seconds:
        evaluator.evaluate(state.clone())
        count += 1
    return count / elapsed


def measure(name: str, seconds: float, rounds: int) -> tuple[float, float]:
    """Median rollouts a second over ``rounds`` of compiled and of pyspiel rollouts."""
    game = pyspiel.load_game(spiel_name(name))
    start = game.new_initial_state()
    compiled = PlayoutEvaluator(n_rollouts=1, seed=1)
    reference = RandomRolloutEvaluator(1, np.random.RandomState(1))
    ours, theirs = [], []
    for _ in range(rounds):
        ours.append(rollouts_per_second(compiled, start, seconds))
        theirs.append(rollouts_per_second(reference, start, seconds))
    return statistics.median(ours), statistics.median(theirs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement (default 2)")
    parser.add_argument("--rounds", type=int, default=3, help="measurements per evaluator; the median is shown")
    parser.add_argument("--markdown", action="store_true", help="a Markdown table for docs/results/benchmarks.md")
    args = parser.parse_args()
    rows = []
    for name in game_names():
        ours, theirs = measure(name, args.seconds, args.rounds)
        rows.append([name, f"{ours:,.0f}", f"{theirs:,.1f}", f"{ours / theirs:,.0f}x"])
    title = (f"Rollouts a second from the start, one rollout an evaluation ({machine()}; "
             f"commit {commit()}, median of {args.rounds} x {args.seconds:g} s)")
    print_table(["game", "PlayoutEvaluator", "RandomRolloutEvaluator (pyspiel)", "ratio"], rows, args.markdown, title)


if __name__ == "__main__":
    main()
