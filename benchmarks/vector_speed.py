"""Batched-environment speed: environment steps per second, per game.

For each game, from its default start:

* ``vector``: :class:`boomboard.vector.VectorEnv` with ``--envs`` games
  (4096 by default); one step = a random legal action for every game
  (``sample_actions``, from the legal rows) and ``step`` (the compiled step,
  auto-reset, and the observation tensors of all games, copied out);
  ``vector + masks`` also refills the ``(envs, num_distinct_actions)``
  legal-action masks every step, as a masked-policy trainer would;
* ``pettingzoo``: boomboard's own PettingZoo AEC environment of the game,
  random legal actions from the ``action_mask``, one ``last()`` and one
  ``step()`` per step;
* the references, measured in the same run: PettingZoo's
  ``connect_four_v3`` (classic) through the same AEC loop, and OpenSpiel's
  C++ ``connect_four`` stepped from Python (``legal_actions``,
  ``apply_action``, and the ``observation_tensor`` an RL loop reads).

Run: ``python benchmarks/vector_speed.py [--seconds 2] [--rounds 3] [--envs 4096] [--markdown]``.
Compile time is excluded (everything is warmed up first). One core.
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
from rich.console import Console  # noqa: E402
from rich.progress import Progress  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
from rules_speed import commit, machine, print_table  # noqa: E402

import boomboard  # noqa: E402
from boomboard.vector import VectorEnv  # noqa: E402

GAMES = boomboard.game_names()
TARGET = 10.0  # times PettingZoo's connect_four_v3, checked with the masks refilled every step


def vector_rate(env: VectorEnv, seconds: float, masks: bool = False) -> float:
    """Environment steps per second (one step of every game in the batch counts
    num_envs); with ``masks``, each step also refills the legal-action masks."""
    buffer = env.action_mask()
    steps = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        if masks:
            env.action_mask(out=buffer)
        env.step(env.sample_actions())
        steps += env.num_envs
    return steps / (time.perf_counter() - started)


def aec_rate(make_env, seconds: float, seed: int = 0) -> float:
    """Steps per second of random legal play through a PettingZoo AEC environment."""
    rng = np.random.default_rng(seed)
    env = make_env()
    env.reset(seed=seed)
    steps = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        env.reset()
        for _ in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1
    return steps / (time.perf_counter() - started)


def pyspiel_rate(seconds: float, seed: int = 0) -> float | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("connect_four")
    rng = np.random.default_rng(seed)
    steps = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.observation_tensor()
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
            steps += 1
    return steps / (time.perf_counter() - started)


def pettingzoo_envs():
    try:
        from pettingzoo.classic import connect_four_v3

        from boomboard.pettingzoo import ENVIRONMENTS
    except ImportError:
        return None, {}
    return connect_four_v3.env, {name: ENVIRONMENTS[f"{name}_v0"].env for name in GAMES}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    parser.add_argument("--rounds", type=int, default=3,
                        help="measure everything this many times, interleaved, and report medians")
    parser.add_argument("--envs", type=int, default=4096, help="games in each batch")
    parser.add_argument("--games", nargs="*", default=GAMES)
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table for docs/results/benchmarks.md")
    args = parser.parse_args()

    envs = {name: VectorEnv(name, args.envs, seed=0) for name in args.games}
    connect_four, ours = pettingzoo_envs()
    for name, env in envs.items():  # compile and load the caches
        vector_rate(env, 0.1)
        if name in ours:
            aec_rate(ours[name], 0.1)
    # Shared machines drift by tens of percent over a minute, so every figure
    # is measured in each round, the references included, and medians compared.
    samples: dict[str, list[float]] = {}
    measurements = 2 + len(envs) + sum(name in ours for name in envs)
    with Progress(console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task("measuring", total=args.rounds * measurements)
        for _ in range(args.rounds):
            if connect_four is not None:
                samples.setdefault("pettingzoo", []).append(aec_rate(connect_four, args.seconds))
            progress.advance(task)
            reference = pyspiel_rate(args.seconds)
            if reference is not None:
                samples.setdefault("pyspiel", []).append(reference)
            progress.advance(task)
            for name, env in envs.items():
                samples.setdefault(name + "/vector", []).append(vector_rate(env, args.seconds))
                samples.setdefault(name + "/masks", []).append(vector_rate(env, args.seconds, masks=True))
                progress.advance(task)
                if name in ours:
                    samples.setdefault(name + "/pettingzoo", []).append(aec_rate(ours[name], args.seconds))
                    progress.advance(task)
    median = {key: statistics.median(values) for key, values in samples.items()}
    pettingzoo, pyspiel = median.get("pettingzoo"), median.get("pyspiel")

    def ratio(value: float | None, base: float | None) -> str:
        if not value or not base:
            return "n/a"
        return f"{value / base:.1f}x" if value >= base else f"{value / base:.2f}x"

    def figure(value: float | None) -> str:
        return f"{value:,.0f}" if value else "n/a"

    header = ["game", f"vector ({args.envs} envs, steps/s)", "vs pettingzoo connect_four_v3",
              "vs pyspiel connect_four", "vector + masks (steps/s)", "vs pettingzoo",
              "boomboard pettingzoo env (steps/s)"]
    rows = [[name, figure(median[name + "/vector"]), ratio(median[name + "/vector"], pettingzoo),
             ratio(median[name + "/vector"], pyspiel), figure(median[name + "/masks"]),
             ratio(median[name + "/masks"], pettingzoo), figure(median.get(name + "/pettingzoo"))]
            for name in envs]
    rows.append(["pettingzoo connect_four_v3 (reference)", figure(pettingzoo), "1.0x", ratio(pettingzoo, pyspiel),
                 "", "", ""])
    rows.append(["pyspiel connect_four (reference)", figure(pyspiel), ratio(pyspiel, pettingzoo), "1.0x", "", "", ""])
    below = [name for name in envs if pettingzoo and median[name + "/masks"] < TARGET * pettingzoo]
    verdict = (f"target {TARGET:g}x pettingzoo: " + ("met by every game" if not below else
               f"missed by {', '.join(below)}")) if pettingzoo else "pettingzoo not installed: no target check"
    print_table(header, rows, args.markdown,
                f"Machine: {machine()}; commit {commit()}; median of {args.rounds} rounds of "
                f"{args.seconds:g} s per figure; {verdict}.", caption=verdict)

if __name__ == "__main__":
    main()
