"""What the replay behind a web undo costs, on games of 500 actions.

An undo in the web app takes the game's state back by replaying its
actions but the last from its first position (``State.undo``), once per
move taken back. For every game (and the variants in ``LONGER``), plays ``--games`` random games of at most
``--plies`` actions (seeds 0, 1, ...), keeps the longest, and times
``State.undo(1)`` on it ``--rounds`` times; then, for a game reaching
``--plies`` actions, times the whole of ``GameService.undo`` on a stored
game of two people (the replay, the store's durable write, the bookkeeping)
and a move to put the action back (``GameService.play``), AI in threads.
Prints the median and the largest of each, in milliseconds.

    .venv/bin/python benchmarks/web_undo_replay.py [--plies 500] [--games 5] [--rounds 30]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import statistics
import tempfile
import time

from boomboard.registry import load_game, registered_games
from boomboard.web.service import GameService
from boomboard.web.store import GameStore, StoredGame


# variants whose random games are longer than their defaults' (the web benchmarks' long game)
LONGER = ["jump61(size=16)"]


def longest_game(name: str, plies: int, games: int):
    longest = None
    for seed in range(games):
        rng = random.Random(seed)
        state = load_game(name).new_initial_state()
        while not state.is_terminal() and len(state.history()) < plies:
            state.apply_action(rng.choice(state.legal_actions()))
        if longest is None or len(state.history()) > len(longest.history()):
            longest = state
    return longest


def milliseconds(times: list[float]) -> str:
    return f"median {statistics.median(times) * 1000:.2f} ms, max {max(times) * 1000:.2f} ms"


def timed_service_undo(name: str, actions: list[int], rounds: int) -> tuple[list[float], list[float]]:
    """The wall time of ``rounds`` undos and moves through :class:`GameService` on a stored game of ``actions``."""
    folder = tempfile.mkdtemp(prefix="boomboard-undo-")
    store = GameStore(os.path.join(folder, "web.sqlite3"))
    store.add(StoredGame("long", name, ["human", "human"], list(actions)))
    service = GameService(store, processes=False)
    undos, moves = [], []

    async def rounds_of_undo_and_move():
        service.get("long")  # read once: the replay of a game read from the store is not an undo's
        for _ in range(rounds):
            began = time.perf_counter()
            service.undo("long")
            undos.append(time.perf_counter() - began)
            began = time.perf_counter()
            service.play("long", actions[-1])
            moves.append(time.perf_counter() - began)

    asyncio.run(rounds_of_undo_and_move())
    service.close()
    store.close()
    return undos, moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, default=500)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=30)
    args = parser.parse_args()
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; "
          f"Python {platform.python_version()}")
    for name in [info.name for info in registered_games()] + LONGER:
        state = longest_game(name, args.plies, args.games)
        times = []
        for _ in range(args.rounds):
            copy = state.clone()
            began = time.perf_counter()
            copy.undo(1)
            times.append(time.perf_counter() - began)
        print(f"{name}: {len(state.history())} actions; State.undo(1) {milliseconds(times)}")
        if len(state.history()) == args.plies:
            undos, moves = timed_service_undo(name, state.history(), args.rounds)
            print(f"  GameService.undo {milliseconds(undos)}; GameService.play {milliseconds(moves)}")
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
