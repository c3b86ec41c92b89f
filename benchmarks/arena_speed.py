"""Arena throughput: games per second through the whole arena (two agent
processes per game, the referee, SQLite records written action by action).

Each row is one match of ``--games`` games between fast agents, so the
figure is the arena's own cost (starting agent processes, pipes, records)
more than the agents' thinking. Run:
``python benchmarks/arena_speed.py [--games 40] [--markdown]``.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from boomboard.arena.referee import Limits
from boomboard.arena.store import open_store
from boomboard.arena.tournament import create_tournament, run_tournament

from rules_speed import commit, machine

CASES = [
    ("kaboom", "random:seed=1", "random:seed=2", 1),
    ("kaboom", "random:seed=1", "random:seed=2", 2),
    ("kaboom", "greedy", "alphabeta:depth=2", 2),
    ("expendibots", "random:seed=1", "random:seed=2", 2),
    ("jump61", "greedy", "random", 2),
]


def measure(game: str, first: str, second: str, workers: int, games: int, folder: Path) -> tuple[float, float]:
    store = open_store(folder / f"{game}-{workers}-{time.monotonic_ns()}.sqlite3")
    tournament_id = create_tournament(store, game, [first, second], "match", games, Limits(move_wall=60))
    began = time.perf_counter()
    run_tournament(store, tournament_id, workers=workers)
    seconds = time.perf_counter() - began
    actions = sum(len(g.actions) for g in store.games(limit=games, tournament_id=tournament_id))
    return games / seconds, actions / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    print(f"Machine: {machine()}; commit {commit()}; {args.games} games per row.\n")
    if args.markdown:
        print("| game | agents | workers | games/s | actions/s |\n|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        measure("kaboom", "random", "greedy", 1, 2, Path(folder))  # starts the fork server, untimed
        for game, first, second, workers in CASES:
            games_per_second, actions_per_second = measure(game, first, second, workers, args.games, Path(folder))
            row = [game, f"{first} vs {second}", str(workers), f"{games_per_second:.2f}",
                   f"{actions_per_second:,.0f}"]
            print("| " + " | ".join(row) + " |" if args.markdown else "  ".join(row), flush=True)


if __name__ == "__main__":
    main()
