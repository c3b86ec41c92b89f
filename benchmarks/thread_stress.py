"""Thread stress: several threads play over random positions of every game,
all sharing each game's one cached :class:`boomboard.Game`, and every result
is compared with a single-threaded reference computed beforehand.

For each game (``boomboard.game_names()``, default parameters) it draws
random positions by random playouts, and for each position one random legal
action. Single-threaded, it records what the position gives: its legal
actions, the action's notation, the child's position notation, returns and
legal actions, and the position and legal actions again after ``undo``.
Then ``--threads`` threads check positions from every game in their own
random orders, each on its own clone, and count every result that differs
(or raises) as wrong. A tiny thread switch interval (``--switch``, seconds)
makes the interpreter switch threads as often as it can, so that any state
the threads share is raced far more often than under the default 5 ms.

Run: ``python benchmarks/thread_stress.py [--calls 10000000] [--threads 4]``.
It prints the calls checked, the wrong results and the calls per second,
and exits 1 if any result was wrong. ``tests/test_threads.py`` runs a short
version.
"""

from __future__ import annotations

import argparse
import random
import sys
import threading
import time
from dataclasses import dataclass

import boomboard
from boomboard.core.state import State

# Results compared per check (see check_position): legal actions, action
# notation, child notation, child returns, child legal actions, notation
# after undo, legal actions after undo.
CALLS_PER_CHECK = 7


@dataclass(frozen=True)
class Expected:
    """One position and what a single thread computed from it."""

    state: State
    legal: list[int]
    action: int
    action_text: str
    child_notation: str
    child_returns: list[float]
    child_legal: list[int]
    notation: str


def random_positions(game: boomboard.Game, count: int, rng: random.Random) -> list[Expected]:
    """``count`` non-terminal positions of ``game`` reached by random
    playouts, each with its reference results."""
    positions: list[Expected] = []
    while len(positions) < count:
        state = game.new_initial_state()
        stop = rng.randrange(game.max_game_length() // 2 + 1)
        while not state.is_terminal() and state.ply() < stop:
            state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        positions.append(reference(state.clone(), rng))
    return positions


def reference(state: State, rng: random.Random) -> Expected:
    """``state``'s expected results, computed on a clone (``state`` itself is kept unread)."""
    work = state.clone()
    legal = work.legal_actions()
    action = rng.choice(legal)
    text = work.action_to_string(action)
    work.apply_action(action)
    child = (work.to_notation(), work.returns(), work.legal_actions())
    work.undo()
    return Expected(state, legal, action, text, *child, work.to_notation())


def check_position(expected: Expected) -> int:
    """Replay ``expected`` on a clone of its position; the number of wrong results."""
    state = expected.state.clone()
    right = 0
    try:
        right += state.legal_actions() == expected.legal
        right += state.action_to_string(expected.action) == expected.action_text
        state.apply_action(expected.action)
        right += state.to_notation() == expected.child_notation
        right += state.returns() == expected.child_returns
        right += state.legal_actions() == expected.child_legal
        state.undo()
        right += state.to_notation() == expected.notation
        right += state.legal_actions() == expected.legal
    except Exception:  # noqa: BLE001 - a corrupted position may raise anywhere: what is left unchecked is wrong
        pass
    return CALLS_PER_CHECK - right


@dataclass
class StressResult:
    calls: int
    wrong: int
    seconds: float

    @property
    def calls_per_second(self) -> float:
        return self.calls / self.seconds if self.seconds else 0.0


def stress(positions: list[Expected], threads: int, checks_per_thread: int, switch: float,
           seed: int = 0) -> StressResult:
    """Run ``threads`` threads, each checking ``checks_per_thread`` positions
    drawn from ``positions`` in its own random order (each on a fresh clone:
    the threads share the positions and the games, but only read them), with
    the interpreter's switch interval at ``switch``."""
    wrong = [0] * threads
    start = threading.Barrier(threads + 1)

    def work(index: int) -> None:
        rng = random.Random(seed * 1000 + index)
        start.wait()
        count = 0
        for _ in range(checks_per_thread):
            count += check_position(rng.choice(positions))
        wrong[index] = count

    workers = [threading.Thread(target=work, args=(index,), name=f"stress-{index}") for index in range(threads)]
    previous = sys.getswitchinterval()
    sys.setswitchinterval(switch)
    try:
        for worker in workers:
            worker.start()
        start.wait()
        began = time.perf_counter()
        for worker in workers:
            worker.join()
        seconds = time.perf_counter() - began
    finally:
        sys.setswitchinterval(previous)
    return StressResult(threads * checks_per_thread * CALLS_PER_CHECK, sum(wrong), seconds)


def all_positions(per_game: int, seed: int) -> list[Expected]:
    """``per_game`` reference positions of every registered game (default parameters)."""
    rng = random.Random(seed)
    return [expected for name in boomboard.game_names()
            for expected in random_positions(boomboard.load_game(name), per_game, rng)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=10_000_000, help="results checked in all (at least)")
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--positions", type=int, default=50, help="random positions per game")
    parser.add_argument("--switch", type=float, default=1e-5, help="the interpreter's thread switch interval (s)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    positions = all_positions(args.positions, args.seed)
    checks = -(-args.calls // (args.threads * CALLS_PER_CHECK))
    result = stress(positions, args.threads, checks, args.switch, args.seed)
    print(f"games {len(boomboard.game_names())}, positions {len(positions)}, threads {args.threads}, "
          f"switch interval {args.switch:g} s")
    print(f"calls {result.calls:,}, wrong results {result.wrong:,}, {result.calls_per_second:,.0f} calls/s "
          f"({result.seconds:.1f} s)")
    return 1 if result.wrong else 0


if __name__ == "__main__":
    sys.exit(main())
