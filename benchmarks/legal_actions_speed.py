"""``State.legal_actions()`` calls per second from Python, per game, one thread.

Each call is on a fresh clone of a random position (the clone has not
computed its legal actions yet, so every call runs the compiled kernel),
as a Python-level search or playout calls it: the figure to watch when
changing how a state gets the scratch buffer the kernel writes into.
Clones alone are timed too and subtracted.

Run: ``python benchmarks/legal_actions_speed.py [--seconds 1] [--rounds 3]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import boomboard


def positions(game: boomboard.Game, count: int, rng: random.Random) -> list[boomboard.State]:
    """``count`` non-terminal positions reached by random playouts."""
    found = []
    while len(found) < count:
        state = game.new_initial_state()
        for _ in range(rng.randrange(60)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            found.append(state)
    return found


def rate(states: list[boomboard.State], seconds: float, call: bool) -> float:
    """Clones (and ``legal_actions`` calls on them, with ``call``) per second."""
    done = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        for state in states:
            clone = state.clone()
            if call:
                clone.legal_actions()
        done += len(states)
    return done / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    rng = random.Random(0)
    print(f"{'game':16} {'calls/s':>10} {'us/call':>8}")
    for name in boomboard.game_names():
        states = positions(boomboard.load_game(name), 50, rng)
        rate(states, 0.2, call=True)  # warm up (compiles on a first run)
        clones = statistics.median(rate(states, args.seconds, call=False) for _ in range(args.rounds))
        both = statistics.median(rate(states, args.seconds, call=True) for _ in range(args.rounds))
        per_call = 1 / both - 1 / clones
        print(f"{name:16} {1 / per_call:10,.0f} {per_call * 1e6:8.2f}")


if __name__ == "__main__":
    main()
