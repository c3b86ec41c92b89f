"""How long a game's request waits for the games database while lists are read.

Stores 500 finished games of 16x16 Jump61 (one random game of 510 plies),
then one thread reads the list of all 500 (``GameStore.recent(500)``, what
``GET /api/games?limit=500`` reads), one after another, while this thread
asks 300 times, every 10 ms, what every game's read or move asks first
(``GameStore.generation()``: has another server written?). Prints the
list's median time and that question's median, p99 and max wait, with the
interpreter lock handed over every millisecond, as ``boomboard serve`` does.

    .venv/bin/python benchmarks/web_store_lock.py
"""

from __future__ import annotations

import os
import random
import secrets
import statistics
import sys
import tempfile
import threading
import time

from boomboard.registry import load_game
from boomboard.web.store import GameStore, StoredGame

GAME = "jump61(size=16)"


def main() -> None:
    rng = random.Random(3)
    state = load_game(GAME).new_initial_state()
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    store = GameStore(os.path.join(tempfile.mkdtemp(prefix="boomboard-lock-"), "web.sqlite3"))
    for _ in range(500):
        store.add(StoredGame(secrets.token_hex(6), GAME, ["human", "human"], state.history(), finished=True))
    sys.setswitchinterval(0.001)
    stop, lists, waits = threading.Event(), [], []

    def read_lists() -> None:
        while not stop.is_set():
            began = time.perf_counter()
            store.recent(500)
            lists.append(time.perf_counter() - began)

    reader = threading.Thread(target=read_lists)
    reader.start()
    for _ in range(300):
        began = time.perf_counter()
        store.generation()
        waits.append(time.perf_counter() - began)
        time.sleep(0.01)
    stop.set()
    reader.join()
    store.close()
    waits.sort()
    print(f"load average {os.getloadavg()[0]:.1f}: a list of 500 median {statistics.median(lists) * 1000:.1f} ms; "
          f"generation(): median {statistics.median(waits) * 1000:.2f} ms, "
          f"p99 {waits[int(0.99 * len(waits))] * 1000:.1f} ms, max {waits[-1] * 1000:.1f} ms")


if __name__ == "__main__":
    main()
