"""The bitboard Kaboom engine against the array engine in many random games:
the long run of ``tests/test_kaboom_bitboard.py``.

For each variant below (every switch, 0 to 3 bombs, connect 3 to 5, boards
from 4x4 to 7x6 and the word's extremes), random games are played in both
engines at once inside compiled code; at every ply the position (every entry
of the state array, the result included) and the legal actions must be equal.
Prints the games and plies compared per variant and stops at the first
difference, naming the game.

Run: ``python benchmarks/kaboom_bitboard_differential.py [--games 20000] [--seed 1]``.
"""

from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numpy as np  # noqa: E402

import boomboard  # noqa: E402
from boomboard.games.kaboom import bitboard, rules  # noqa: E402
from boomboard.jit import njit  # noqa: E402

VARIANTS = [  # (rows, cols, connect, bombs, misere, superbomb)
    (4, 4, 4, 0, False, False), (4, 4, 4, 1, False, False), (4, 4, 3, 1, True, False), (4, 4, 4, 2, False, True),
    (4, 5, 3, 3, True, True), (5, 5, 4, 1, False, True), (5, 5, 5, 2, True, False), (6, 6, 3, 3, False, False),
    (5, 6, 4, 2, True, True), (6, 7, 4, 0, False, False), (6, 7, 4, 1, False, False), (6, 7, 4, 1, True, True),
    (7, 6, 5, 3, False, True), (6, 7, 4, 3, True, False), (2, 4, 4, 4, False, False), (7, 8, 4, 3, True, False),
    (12, 4, 3, 2, False, True), (3, 12, 5, 3, False, False),
]


@njit
def first_difference(start, params, geo, games, seed, n_actions):
    """Play ``games`` random games in both engines from ``start``; returns
    (the first game that differs or -1, plies compared)."""
    np.random.seed(seed)
    s = start.copy()
    seen = start.copy()
    pos = np.zeros(bitboard.WORDS, dtype=np.uint64)
    by_array = np.empty(n_actions, dtype=np.int32)
    by_bits = np.empty(n_actions, dtype=np.int32)
    plies = 0
    for game in range(games):
        s[:] = start
        bitboard.from_array(s, geo, pos)
        while True:
            bitboard.to_array(pos, geo, seen)
            n = rules.legal_actions(s, params, by_array)
            if not np.array_equal(seen, s) or bitboard.legal_actions(pos, geo, by_bits) != n \
                    or not np.array_equal(by_bits[:n], by_array[:n]):
                return game, plies
            if n == 0:
                break
            action = by_array[np.random.randint(n)]
            rules.apply_action(s, params, action)
            bitboard.apply_action(pos, geo, action)
            plies += 1
    return -1, plies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20000, help="random games per variant")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    total_games = total_plies = 0
    started = time.process_time()
    print("| game | games | plies compared | differences |")
    print("|---|---:|---:|---:|")
    for rows, cols, connect, bombs, misere, superbomb in VARIANTS:
        game = boomboard.load_game("kaboom", rows=rows, cols=cols, connect=connect, bombs=bombs, misere=misere,
                                   superbomb=superbomb)
        differs, plies = first_difference(game.new_initial_state().array, game.params_array, game.bitboard_geometry(),
                                          args.games, args.seed, game.num_distinct_actions())
        if differs >= 0:
            raise SystemExit(f"{game}: game {differs} (seed {args.seed}) differs after {plies} plies in all")
        print(f"| {game} | {args.games:,} | {plies:,} | 0 |")
        total_games, total_plies = total_games + args.games, total_plies + plies
    print(f"\n{total_games:,} games, {total_plies:,} plies, no difference; {time.process_time() - started:.0f} CPU s "
          f"(compiling included)")


if __name__ == "__main__":
    main()
