"""How responsive the web server stays while AIs think.

Starts ``boomboard serve`` (in a subprocess, on a free port), sets several
AI-against-AI games going with a searching AI, and meanwhile times small
requests (reading a game) for a few seconds. Run with ``--threads`` to
compute AI moves in threads instead of processes: numba's compiled search
holds the interpreter lock, so the requests then wait for the searches.

    .venv/bin/python benchmarks/web_latency.py [--games 3] [--seconds 8] [--threads]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request


def call(url: str, body: dict | None = None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--agent", default="alphabeta:time=0.5")
    parser.add_argument("--threads", action="store_true", help="AI moves in threads, not processes")
    args = parser.parse_args()
    folder = tempfile.mkdtemp()
    command = [sys.executable, "-m", "boomboard", "serve", "--port", "0", "--db", f"{folder}/web.sqlite3",
               "--workers", "0" if args.threads else "2"]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    try:
        base = re.search(r"http://\S+/", server.stdout.readline()).group(0)
        warm = call(base + "api/games", {"game": "kaboom(rows=6,cols=7)", "players": [args.agent, args.agent],
                                         "pace": 0})
        while call(f"{base}api/games/{warm['id']}")["ply"] < 2:  # workers started and compiled code loaded
            time.sleep(0.2)
        ids = [call(base + "api/games", {"game": "kaboom(rows=6,cols=7)", "players": [args.agent, args.agent],
                                         "pace": 0})["id"] for _ in range(args.games)]
        latencies = []
        end = time.monotonic() + args.seconds
        while time.monotonic() < end:
            started = time.perf_counter()
            call(f"{base}api/games/{ids[0]}")
            latencies.append(time.perf_counter() - started)
            time.sleep(0.02)
        plies = sum(call(f"{base}api/games/{i}")["ply"] for i in ids)
    finally:
        server.terminate()
        server.wait()
    latencies.sort()
    mode = "threads" if args.threads else "processes (2 workers)"
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores; AI moves in {mode}")
    print(f"{args.games} games of {args.agent} against itself; {plies} AI moves in {args.seconds:.0f} s")
    print(f"GET /api/games/ID while they think: {len(latencies)} requests, "
          f"median {statistics.median(latencies) * 1000:.1f} ms, "
          f"95th percentile {latencies[int(0.95 * (len(latencies) - 1))] * 1000:.1f} ms, "
          f"max {latencies[-1] * 1000:.1f} ms")


if __name__ == "__main__":
    main()
