"""What a read and a move of one long game cost the web server.

Stores one random game of 16x16 Jump61 but its last move (about 509 plies,
two people playing), opens the app in this process (``create_app`` through
Starlette's test client, AI in threads), reads the game once (the server
replays it from the store then), and then, ``--rounds`` times each: reads
it (``GET /api/games/ID``), and plays a move and takes it back (``POST``
a move, ``POST`` an undo). Prints, for a read and for a move, how many
actions were applied to any state (a replay of the game applies each of
its actions again) and the median and p95 wall time of the answers.

    .venv/bin/python benchmarks/web_game_state.py [--rounds 50]
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import tempfile
import time

from boomboard.core.state import State
from boomboard.registry import load_game
from boomboard.web import WebSettings, create_app
from boomboard.web.store import GameStore, StoredGame

GAME = "jump61(size=16)"
OWNER = {"X-Boomboard-Owner": "the-benchmarks-own-token"}


def long_game(seed: int) -> list[int]:
    rng = random.Random(seed)
    state = load_game(GAME).new_initial_state()
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state.history()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=50)
    args = parser.parse_args()
    from fastapi.testclient import TestClient

    actions = long_game(3)[:-1]
    db = os.path.join(tempfile.mkdtemp(prefix="boomboard-state-"), "web.sqlite3")
    store = GameStore(db)
    store.add(StoredGame("long", GAME, ["human", "human"], actions))
    store.close()
    applied = [0]
    original = State._apply_unchecked

    def counted(self, action):
        applied[0] += 1
        return original(self, action)

    State._apply_unchecked = counted
    load = os.getloadavg()[0]
    with TestClient(create_app(db, WebSettings(workers=0)), base_url="http://127.0.0.1", headers=OWNER) as client:
        legal = client.get("/api/games/long").json()["legal"][0]["id"]
        reads, moves = [], []
        applied[0] = 0
        for _ in range(args.rounds):
            began = time.perf_counter()
            assert client.get("/api/games/long").status_code == 200
            reads.append(time.perf_counter() - began)
        read_applied, applied[0] = applied[0], 0
        for _ in range(args.rounds):
            began = time.perf_counter()
            assert client.post("/api/games/long/moves", json={"move": legal}).status_code == 200
            moves.append(time.perf_counter() - began)
            assert client.post("/api/games/long/undo", json={}).status_code == 200
        move_applied = applied[0]
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, load average {load:.1f} before and "
          f"{os.getloadavg()[0]:.1f} after; Python {platform.python_version()}")
    print(f"one game of {GAME}, {len(actions)} plies; {args.rounds} rounds")
    for what, times, count in (("read", reads, read_applied), ("move (its undo not counted)", moves, None)):
        ordered = sorted(times)
        print(f"{what}: median {statistics.median(times) * 1000:.1f} ms, "
              f"p95 {ordered[int(0.95 * (len(ordered) - 1))] * 1000:.1f} ms"
              + ("" if count is None else f", {count / args.rounds:.0f} actions applied a read"))
    print(f"a move and its undo: {move_applied / args.rounds:.0f} actions applied (an undo replays the game "
          f"from its first position, once)")


if __name__ == "__main__":
    main()
