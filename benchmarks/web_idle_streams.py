"""What open event streams cost the web server while their game is idle, and how soon a move reaches them.

Starts ``boomboard serve`` on loopback (a subprocess, ``--workers 0``, a
fresh database), makes one game of two people, opens ``--streams`` event
streams on it (each on its own connection, ``--max-streams`` raised to
fit), each once the one before has its first message, then measures the server's CPU time
(``/proc/PID/stat``) over ``--seconds`` with nobody changing the game, and
then plays a move and times until every stream has its message. Prints the
CPU used as a share of a core, and the median and largest arrival time.

    .venv/bin/python benchmarks/web_idle_streams.py [--streams 100] [--seconds 10] [--moves 5]
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import selectors
import socket
import statistics
import subprocess
import sys
import tempfile
import time

import httpx

OWNER = {"X-Boomboard-Owner": "the-benchmarks-own-token"}


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds of process ``pid`` so far."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def open_stream(host: str, port: int, game_id: str) -> socket.socket:
    connection = socket.create_connection((host, port))
    connection.sendall(f"GET /api/games/{game_id}/events HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
    return connection


def wait_for_messages(streams: list[socket.socket], count: int, began: float) -> list[float]:
    """Read until each stream has had ``count`` ``data:`` messages more; when each got its last, since ``began``."""
    selector = selectors.DefaultSelector()
    seen = {stream: 0 for stream in streams}
    arrivals = {}
    for stream in streams:
        selector.register(stream, selectors.EVENT_READ)
    while len(arrivals) < len(streams):
        for key, _ in selector.select(timeout=120):
            stream = key.fileobj
            data = stream.recv(1 << 20)
            if not data:
                raise SystemExit(f"a stream was closed by the server after {seen[stream]} messages")
            seen[stream] += data.count(b"data: ")
            if seen[stream] >= count and stream not in arrivals:
                arrivals[stream] = time.perf_counter() - began
    selector.close()
    return list(arrivals.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--moves", type=int, default=5)
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="boomboard-streams-")
    server = subprocess.Popen([sys.executable, "-m", "boomboard", "serve", "--port", "0", "--workers", "0",
                               "--db", os.path.join(folder, "web.sqlite3"), "--max-streams", str(args.streams),
                               "--streams-per-client", str(args.streams)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        host, port = re.search(r"http://([^:/]+):(\d+)/", server.stdout.readline()).groups()
        address = f"http://{host}:{port}"
        with httpx.Client(base_url=address, headers=OWNER, timeout=120) as client:
            game = client.post("/api/games", json={"game": "jump61(size=8)", "players": ["human", "human"]}).json()
            streams = []
            for _ in range(args.streams):  # one after another: a burst of them would be shed (--max-requests)
                streams.append(open_stream(host, int(port), game["id"]))
                wait_for_messages(streams[-1:], 1, time.perf_counter())
            loads = [os.getloadavg()[0]]
            before = cpu_seconds(server.pid)
            time.sleep(args.seconds)
            idle_cpu = cpu_seconds(server.pid) - before
            arrivals = []
            for _ in range(args.moves):
                legal = client.get(f"/api/games/{game['id']}").json()["legal"]
                began = time.perf_counter()
                client.post(f"/api/games/{game['id']}/moves", json={"move": legal[0]["id"]})
                arrivals += wait_for_messages(streams, 1, began)
            loads.append(os.getloadavg()[0])
        for stream in streams:
            stream.close()
    finally:
        server.kill()
        server.communicate()
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, load average {loads[0]:.1f} before and "
          f"{loads[1]:.1f} after; Python {platform.python_version()}")
    print(f"{args.streams} streams open on an unchanged game for {args.seconds:g} s: the server used "
          f"{idle_cpu:.2f} CPU s, {100 * idle_cpu / args.seconds:.1f}% of a core")
    print(f"{args.moves} moves, each to every stream: from the move's request to its message, median "
          f"{statistics.median(arrivals) * 1000:.1f} ms, max {max(arrivals) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
