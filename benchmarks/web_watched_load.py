"""How long a person's AI moves and analyses take while AI-vs-AI games are watched.

Starts ``boomboard serve`` on loopback (2 worker processes, a fresh
database), starts ``--watched`` AI-vs-AI games that search ``--watched-side``
(at no pace: each asks for a worker again at once) and, once each has moved,
plays ``--moves`` moves of a game against ``--side``, from the same client
address, as the page would: a move, then the AI's answer (polled every 20 ms),
then the analysis of the position. It prints the seconds each answer and each
analysis took, and the statuses of the analyses (a 429 or 503 is a refusal).

    .venv/bin/python benchmarks/web_watched_load.py [--watched 2] [--moves 6]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time

import httpx

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from web_soak import start_server, stop_server  # noqa: E402


def wait_until(client: httpx.Client, game_id: str, condition, seconds: float = 600.0) -> dict:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        state = client.get(f"api/games/{game_id}").json()
        if condition(state):
            return state
        time.sleep(0.02)
    raise SystemExit(f"game {game_id} did not get there in {seconds:g} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--watched", type=int, default=2, help="AI-vs-AI games running meanwhile")
    parser.add_argument("--watched-side", default="ai:time=2")
    parser.add_argument("--side", default="alphabeta:depth=2", help="the person's opponent")
    parser.add_argument("--moves", type=int, default=6)
    args = parser.parse_args()
    import tempfile

    server, base = start_server(os.path.join(tempfile.mkdtemp(prefix="boomboard-watched-"), "web.sqlite3"))
    answers, analyses, statuses = [], [], []
    try:
        # one owner token, as one browser's page sends it: the games are this client's own to play
        with httpx.Client(base_url=base, timeout=600, headers={"X-Boomboard-Owner": "the-benchmarks-own-token"}) as client:
            watched = [client.post("api/games", json={"game": "kaboom", "pace": 0,
                                                      "players": [args.watched_side, args.watched_side]}).json()["id"]
                       for _ in range(args.watched)]
            mine = client.post("api/games", json={"game": "kaboom", "players": ["human", args.side]}).json()["id"]
            for game_id in watched:  # their code is loaded and they are searching
                wait_until(client, game_id, lambda s: s["ply"] >= 1)
            for _ in range(args.moves):
                state = client.get(f"api/games/{mine}").json()
                if state["outcome"] or not state["legal"]:
                    break
                started = time.monotonic()
                client.post(f"api/games/{mine}/moves", json={"move": state["legal"][0]["text"]})
                state = wait_until(client, mine, lambda s, ply=state["ply"] + 2: s["ply"] >= ply or s["outcome"])
                answers.append(time.monotonic() - started)
                started = time.monotonic()
                response = client.get(f"api/games/{mine}/analysis")
                analyses.append(time.monotonic() - started)
                statuses.append(response.status_code)
            plies = [client.get(f"api/games/{game_id}").json()["ply"] for game_id in watched]
    finally:
        stop_server(server)
    load = f"{os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else "?"
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, load average {load} at the end; "
          f"{args.watched} watched games of {args.watched_side} (plies reached: {plies}); against {args.side}")
    for name, values in (("AI answers", answers), ("analyses", analyses)):
        if values:
            print(f"{name}: " + ", ".join(f"{v:.2f}" for v in values) + f" s; median {statistics.median(values):.2f} s, "
                  f"max {max(values):.2f} s")
    print("analysis statuses: " + ", ".join(str(status) for status in statuses))


if __name__ == "__main__":
    main()
