"""Self-play speed: games and moves per second of ``boomboard train``'s self-play.

For each game, a fresh net of the default size (32 channels, 3 blocks) plays
``--envs`` games at once against itself, every move chosen by the Gumbel
MuZero search (mctx) with ``--simulations`` simulations, stepped by the
batched environment, exactly as one training iteration does
(:func:`boomboard.learn.selfplay.self_play`); the figures are over whole
iterations, after a first one that compiles. With ``--workers 1 2``, each
game is measured with 1 and with 2 batches of ``--envs`` games played at
once in threads, as ``boomboard train --workers`` plays them. Also shown: the bare net's
evaluations per second and the share of the searches' time spent in the
rules (``rules``: the ``pure_callback`` into the numba kernels, summed
over the threads, per thread).

Run: ``python benchmarks/selfplay_speed.py [--games kaboom jump61(size=6)]
[--envs 64] [--workers 1 2] [--simulations 32] [--rounds 3] [--markdown]``. Needs the
``learn`` extra; uses every core JAX is given (on a GPU where jax[cuda] is
installed). Print ``uptime`` with the figures: they depend on the load.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from rules_speed import commit, machine, print_table  # noqa: E402

import jax  # noqa: E402

import boomboard  # noqa: E402
from boomboard.learn.network import NetConfig, init_params  # noqa: E402
from boomboard.learn.search import Search  # noqa: E402
from boomboard.learn.selfplay import self_play_batches  # noqa: E402
from boomboard.observation import observation_layout  # noqa: E402


def measure(game_name: str, envs: int, workers: int, simulations: int, rounds: int) -> list[str]:
    game = boomboard.load_game(game_name)
    layout = observation_layout(game)
    config = NetConfig(*layout.shape, game.num_distinct_actions())
    search = Search(game, config, simulations)
    params = init_params(config, 0)
    rules = 0.0
    expand = search._expand_on_host

    def timed(*args):  # the callback the compiled search calls: patched before it is traced
        nonlocal rules
        began = time.perf_counter()
        out = expand(*args)
        rules += time.perf_counter() - began
        return out

    search._expand_on_host = timed
    pool = ThreadPoolExecutor(workers)
    self_play_batches(search, params, envs, jax.random.PRNGKey(0), seed=0, workers=workers, pool=pool)  # compiles
    games = moves = 0
    rules = 0.0
    began = time.perf_counter()
    for round_ in range(rounds):
        _, played, stepped = self_play_batches(search, params, envs, jax.random.PRNGKey(round_ + 1), seed=round_ + 1,
                                               workers=workers, pool=pool)
        games += played
        moves += stepped
    seconds = time.perf_counter() - began
    obs = np.zeros((envs, *layout.shape), np.float32)
    mask = np.ones((envs, config.actions), bool)
    search.evaluate(params, obs, mask)[0].block_until_ready()
    began, calls = time.perf_counter(), 0
    while time.perf_counter() - began < 1.0:
        search.evaluate(params, obs, mask)[0].block_until_ready()
        calls += 1
    evaluations = calls * envs / (time.perf_counter() - began)
    return [str(game), f"{envs}", f"{workers}", f"{simulations}", f"{games / seconds:,.1f}", f"{moves / seconds:,.0f}",
            f"{moves * simulations / seconds:,.0f}", f"{evaluations:,.0f}", f"{rules / seconds / workers:.0%}"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=["kaboom", "jump61(size=6)"])
    parser.add_argument("--envs", type=int, default=64)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--simulations", type=int, default=32)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    rows = [measure(name, args.envs, workers, args.simulations, args.rounds)
            for name in args.games for workers in args.workers]
    caption = (f"{machine()}; JAX {jax.__version__} on {jax.devices()[0].platform}; "
               f"load {os.getloadavg()[0]:.2f}; commit {commit()}")
    print_table(["game", "envs", "workers", "sims", "games/s", "moves/s", "sims/s", "net evals/s", "rules"],
                rows, args.markdown, "Self-play speed", caption)
    if args.markdown:
        print(f"\n{caption}")


if __name__ == "__main__":
    main()
