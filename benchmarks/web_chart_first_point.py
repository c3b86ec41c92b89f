"""How soon a replay's value chart gets its first point, and each next one (issue 46, item 6).

Starts ``boomboard serve`` on loopback (a subprocess with its default
workers, a fresh database and an empty folder of solver tables, so every
point is a search), then for every game at its default parameters asks
``/api/values`` for a seeded random line of ``--plies`` actions as the
replay page does (``accept: application/x-ndjson``: one line per point,
sent as each is ready) and times each point's arrival from the request.
Each game's workers are warmed first by one analysis of the start given
as a position in the game's notation (a page that opens a game has asked
for its position before its chart), so the times are the analyses', not
the loading of compiled code; the server keeps an analysis by its line
(first position and actions), so the measured line's first point, the
start with no position given, is analysed anew, not read from that. Prints,
per game, the first point's time, the median and largest gap between
points, and the whole chart's time, in seconds.

    .venv/bin/python benchmarks/web_chart_first_point.py [--plies 20] [--games jump61 ...]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time

import httpx

from boomboard.registry import load_game, registered_games

POINTS = "application/x-ndjson"


def random_line(game: str, plies: int, seed: int) -> list[int]:
    """The actions of a seeded random game, stopped before its end or at ``plies``."""
    rng = random.Random(seed)
    state, actions = load_game(game).new_initial_state(), []
    while len(actions) < plies:
        action = rng.choice(state.legal_actions())
        if state.child(action).is_terminal():
            break
        state.apply_action(action)
        actions.append(action)
    return actions


def arrivals(client: httpx.Client, game: str, actions: list[int], position: str | None = None) -> list[float]:
    """Seconds from the request to each point of the chart of ``actions``
    (from ``position``, in the game's notation; default the start)."""
    began = time.perf_counter()
    times = []
    with client.stream("POST", "/api/values", json={"game": game, "position": position, "actions": actions},
                       headers={"accept": POINTS}) as response:
        if response.status_code != 200:
            raise SystemExit(f"{game}: /api/values answered {response.status_code}: {response.read()[:200]!r}")
        for line in response.iter_lines():
            if line.strip():
                json.loads(line)
                times.append(time.perf_counter() - began)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, default=20)
    parser.add_argument("--games", nargs="+", default=[info.name for info in registered_games()])
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="boomboard-chart-")
    server = subprocess.Popen([sys.executable, "-m", "boomboard", "serve", "--port", "0",
                               "--db", os.path.join(folder, "web.sqlite3")],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                              env={**os.environ, "BOOMBOARD_DB": os.path.join(folder, "tables")})
    rows = []
    try:
        host, port = re.search(r"http://([^:/]+):(\d+)/", server.stdout.readline()).groups()
        loads = [os.getloadavg()[0]]
        with httpx.Client(base_url=f"http://{host}:{port}", timeout=600) as client:
            for game in args.games:
                start = load_game(game).new_initial_state().to_notation()
                arrivals(client, game, [], position=start)  # the workers load the game's code
                times = arrivals(client, game, random_line(game, args.plies, seed=1))
                gaps = [later - earlier for earlier, later in zip(times, times[1:])]
                rows.append((game, len(times), times[0], statistics.median(gaps), max(gaps), times[-1]))
        loads.append(os.getloadavg()[0])
    finally:
        server.kill()
        server.communicate()
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, load average {loads[0]:.1f} before and "
          f"{loads[1]:.1f} after; Python {platform.python_version()}")
    print("| game | points | first point, s | gap median, s | gap max, s | whole chart, s |")
    print("|---|---:|---:|---:|---:|---:|")
    for game, count, first, median_gap, largest_gap, whole in rows:
        print(f"| {game} | {count} | {first:.2f} | {median_gap:.2f} | {largest_gap:.2f} | {whole:.2f} |")


if __name__ == "__main__":
    main()
