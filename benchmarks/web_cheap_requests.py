"""Requests that are cheap to send but heavy to answer, against another client's.

Starts ``boomboard serve`` on loopback (a subprocess, 2 workers, a fresh
database holding ``--games`` finished games of 16x16 Jump61, each one
random game of about 500 plies), then for ``--seconds`` two clients send,
each on its own kept connection, one request after another: the first
``GET /api/games?limit=500`` (every game listed, with its result in words),
the second ``POST /api/position`` with the game's actions but the last (a
shared position of over 500 actions). A third client meanwhile reads one
small game (``GET /api/games/ID``) every 20 ms and records how long each
answer took. Prints the third client's latency percentiles and statuses,
and how many answers each of the two got.

With ``--hammer games`` the two clients work on one long game instead (the
same game but its last move, still being played, by two people): the first
plays a move and takes it back, again and again (``GET`` the game, ``POST``
a move, ``POST`` an undo), the second reads the game (``GET /api/games/ID``).

    .venv/bin/python benchmarks/web_cheap_requests.py [--games 500] [--seconds 20] [--hammer lists|games]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import random
import re
import secrets
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter

from boomboard.registry import load_game
from boomboard.web.store import GameStore, StoredGame

GAME = "jump61(size=16)"


def long_game(seed: int) -> list[int]:
    rng = random.Random(seed)
    state = load_game(GAME).new_initial_state()
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state.history()


# The hammering clients' owner token: the long game is theirs to play (a game stored without an owner is adopted
# by the first client that changes it).
OWNER = {"X-Boomboard-Owner": "the-benchmarks-own-token"}


def ask(connection: http.client.HTTPConnection, method: str, path: str, body=None) -> int:
    return answer(connection, method, path, body)[0]


def answer(connection: http.client.HTTPConnection, method: str, path: str, body=None) -> tuple[int, bytes]:
    headers = {"content-type": "application/json", **OWNER} if body is not None else {}
    connection.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
    response = connection.getresponse()
    return response.status, response.read()


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--alone", action="store_true", help="no hammering clients: the third client's own latency")
    parser.add_argument("--hammer", choices=("lists", "games"), default="lists",
                        help="what the two clients send: lists and positions, or moves, undos and reads of a long game")
    args = parser.parse_args()
    actions = long_game(3)
    folder = tempfile.mkdtemp(prefix="boomboard-cheap-")
    db = os.path.join(folder, "web.sqlite3")
    store = GameStore(db)
    for _ in range(args.games):
        store.add(StoredGame(secrets.token_hex(6), GAME, ["human", "human"], list(actions), finished=True))
    if args.hammer == "games":
        store.add(StoredGame("long", GAME, ["human", "human"], list(actions[:-1])))
    store.close()
    server = subprocess.Popen([sys.executable, "-m", "boomboard", "serve", "--port", "0", "--db", db,
                               "--workers", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        match = re.search(r"http://([^:/]+):(\d+)/", server.stdout.readline())
        host, port = match.group(1), int(match.group(2))
        connection = http.client.HTTPConnection(host, port, timeout=600)
        connection.request("POST", "/api/games", body=json.dumps({"game": "jump61(size=3)",
                                                                   "players": ["human", "human"]}),
                           headers={"content-type": "application/json"})
        game_id = json.loads(connection.getresponse().read())["id"]
        stop = threading.Event()
        answered: dict[str, Counter] = ({"list": Counter(), "position": Counter()} if args.hammer == "lists"
                                        else {"move and undo": Counter(), "read": Counter()})

        def hammer(kind: str, method: str, path: str, body) -> None:
            own = http.client.HTTPConnection(host, port, timeout=600)
            while not stop.is_set():
                answered[kind][ask(own, method, path, body)] += 1

        def move_and_undo() -> None:
            own = http.client.HTTPConnection(host, port, timeout=600)
            while not stop.is_set():
                status, body = answer(own, "GET", "/api/games/long")
                if status == 200:
                    move = json.loads(body)["legal"][0]["id"]
                    answered["move and undo"][ask(own, "POST", "/api/games/long/moves", {"move": move})] += 1
                    status = ask(own, "POST", "/api/games/long/undo", {})
                answered["move and undo"][status] += 1

        if args.hammer == "lists":
            hammers = [threading.Thread(target=hammer, args=("list", "GET", "/api/games?limit=500", None)),
                       threading.Thread(target=hammer, args=("position", "POST", "/api/position",
                                                             {"game": GAME, "actions": actions[:-1]}))]
        else:
            hammers = [threading.Thread(target=move_and_undo),
                       threading.Thread(target=hammer, args=("read", "GET", "/api/games/long", None))]
        loads = [os.getloadavg()[0]]
        for thread in [] if args.alone else hammers:
            thread.start()
        latencies, statuses = [], Counter()
        deadline = time.monotonic() + args.seconds
        while time.monotonic() < deadline:
            began = time.perf_counter()
            statuses[ask(connection, "GET", f"/api/games/{game_id}")] += 1
            latencies.append(time.perf_counter() - began)
            time.sleep(0.02)
        loads.append(os.getloadavg()[0])
        stop.set()
        for thread in [] if args.alone else hammers:
            thread.join()
    finally:
        server.kill()
        server.communicate()
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, load average {loads[0]:.1f} before and "
          f"{loads[1]:.1f} after; Python {platform.python_version()}")
    print(f"{args.games} finished games of {GAME}, {len(actions)} plies each; {args.seconds:g} s")
    print("hammering answers: " + "; ".join(f"{kind} " + ", ".join(f"{code}: {n}" for code, n in sorted(c.items()))
                                           for kind, c in answered.items()))
    print(f"the third client: {len(latencies)} answers, statuses "
          + ", ".join(f"{code}: {n}" for code, n in sorted(statuses.items()))
          + f"; median {statistics.median(latencies) * 1000:.1f} ms, p95 {percentile(latencies, 0.95) * 1000:.1f} ms, "
          f"p99 {percentile(latencies, 0.99) * 1000:.1f} ms, max {max(latencies) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
