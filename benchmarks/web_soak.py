"""A soak check of the web server: mixed good and bad requests at a steady rate.

Starts ``boomboard serve`` on loopback (a subprocess, a free port, a fresh
database), sends ``--rate`` requests a second for ``--seconds`` (new games,
moves, reads, lists, undos, resignations, small analyses, and bad requests of
every kind issue 15 lists: unknown games, clashing or out-of-range numbers,
illegal and unparsable moves, agent settings past the limits, malformed
JSON), then stops the server with Ctrl-C, starts it again on the same
database and reads back every game it created. It prints the latency
percentiles (of every answer, and of those not shed) and the status counts,
and fails (exit code 1) on any 5xx but the server's load shedding (a 503
with ``Retry-After``), on a game lost across the restart, or on a p99 of the
answers above ``--max-p99`` seconds. The machine's load average is sampled
during the run and printed: on a shared machine it says what else ran.

    .venv/bin/python benchmarks/web_soak.py [--rate 200] [--seconds 60]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter

import httpx

try:
    from uvloop import run as run_loop  # the server's own loop: the client's costs less too
except ImportError:
    from asyncio import run as run_loop

BAD_REQUESTS = [
    ("POST", "api/games", {"game": "nosuchgame", "players": ["human", "random"]}),
    ("POST", "api/games", {"game": "kaboom", "params": {"name": "x"}, "players": ["human", "random"]}),
    ("POST", "api/games", {"game": "kaboom", "players": ["human", "random"], "seed": 2**64}),
    ("POST", "api/games", {"game": "kaboom(rows=\uff14)", "players": ["human", "random"]}),
    ("POST", "api/games", {"game": "jump61(size=16)", "players": ["human", "alphabeta:depth=99"]}),
    ("POST", "api/games", {"game": "kaboom", "players": ["human", "mcts:simulations=999999999999"]}),
    ("POST", "api/games", {"game": "kaboom", "players": ["human", "ai:time=100000"]}),
    ("POST", "api/games", {"game": "kaboom", "players": ["human", "alphabeta:game_time=1e12"]}),
    ("POST", "api/games", {"game": "kaboom", "players": ["human"], "pace": 99}),
    ("POST", "api/games", "{not json"),
    ("GET", "api/games?offset=99999999999999999999", None),
    ("GET", "api/archive/web?offset=99999999999999999999", None),
    ("GET", "api/archive/arena?tournament=99999999999999999999", None),
    ("GET", "api/replay/arena/99999999999999999999", None),
    ("GET", "api/games/no-such-game", None),
    ("POST", "api/analysis", '{"game": "kaboom", "actions": [1e400]}'),
    ("POST", "api/analysis", {"game": "kaboom", "actions": [99999]}),
    ("POST", "api/values", {"game": "kaboom", "position": "(x \u0661 1 ---- ---- ---- ----)"}),
]


class Answer:
    __slots__ = ("status", "headers", "body")

    def __init__(self, status: int, headers: dict[str, str], body: bytes):
        self.status, self.headers, self.body = status, headers, body


SOAK_OWNER = "the-soaks-own-owner-token"


class LeanClient:
    """HTTP/1.1 over keep-alive connections, written on asyncio's streams:
    a small fraction of httpx's CPU a request, so that on a machine the
    client shares with the server the latencies are the server's, not the
    client's own queue. Enough of HTTP for this server: every answer has a
    Content-Length."""

    def __init__(self, base: str):
        address = re.match(r"http://([^:/]+):(\d+)/", base)
        self.host, self.port = address.group(1), int(address.group(2))
        self.idle: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []

    async def request(self, method: str, path: str, body: bytes | None = None) -> Answer:
        # one owner token for all the soak's clients: its games are its own to play, undo and resign
        head = f"{method} /{path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\nX-Boomboard-Owner: {SOAK_OWNER}\r\n"
        if body is not None:
            head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        message = (head + "\r\n").encode() + (body or b"")
        while self.idle:  # a kept connection the server may have closed meanwhile: then a fresh one
            connection = self.idle.pop()
            try:
                return await self._exchange(connection, message)
            except (ConnectionError, asyncio.IncompleteReadError):
                connection[1].close()
        return await self._exchange(await asyncio.open_connection(self.host, self.port), message)

    async def _exchange(self, connection, message: bytes) -> Answer:
        reader, writer = connection
        writer.write(message)
        lines = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        headers = dict(line.lower().split(": ", 1) for line in lines[1:] if line)
        answer = Answer(int(lines[0].split()[1]), headers,
                        await reader.readexactly(int(headers.get("content-length", 0))))
        if headers.get("connection") == "close":
            writer.close()
        else:
            self.idle.append(connection)
        return answer

    def close(self) -> None:
        for _, writer in self.idle:
            writer.close()


class Soak:
    def __init__(self, base: str, rate: float, seconds: float, seed: int):
        self.base, self.rate, self.seconds = base, rate, seconds
        self.rng = random.Random(seed)
        self.latencies: list[float] = []
        self.slowest: list[tuple[float, str, str, int]] = []  # (seconds, method, path, status) of every answer
        self.statuses: Counter = Counter()
        self.server_errors: list[str] = []
        self.served: list[float] = []  # the latencies of the answers that were not shed
        self.loads: list[float] = []
        self.games: dict[str, int] = {}  # id -> the most plies seen
        self.failures = 0

    async def request(self, client: LeanClient, method: str, path: str, body=None):
        started = time.perf_counter()
        try:
            response = await client.request(method, path, body.encode() if isinstance(body, str)
                                            else None if body is None else json.dumps(body).encode())
        except (OSError, asyncio.IncompleteReadError) as problem:
            self.failures += 1
            self.server_errors.append(f"{method} {path}: {type(problem).__name__} {problem}")
            return None
        self.latencies.append(time.perf_counter() - started)
        self.slowest.append((self.latencies[-1], method, re.sub(r"/[0-9a-f]{12}", "/ID", path), response.status))
        self.statuses[response.status] += 1
        if response.status == 503 and "retry-after" in response.headers:
            return response.status, None  # shed: the server is answering as much as it can
        self.served.append(self.latencies[-1])
        if response.status >= 500:
            self.server_errors.append(f"{method} {path} -> {response.status}: {response.body[:200]!r}")
        if response.headers.get("content-type", "").startswith("application/json"):
            data = json.loads(response.body)
            if isinstance(data, dict) and "id" in data and "ply" in data and data["id"] in self.games:
                self.games[data["id"]] = max(self.games[data["id"]], data["ply"])
            return response.status, data
        return response.status, None

    async def one(self, client: LeanClient) -> None:
        roll = self.rng.random()
        ids = list(self.games)
        if roll < 0.25 and ids:  # a legal move, read from the game first
            game_id = self.rng.choice(ids)
            got = await self.request(client, "GET", f"api/games/{game_id}")
            if got and got[0] == 200 and got[1]["legal"] and got[1]["to_move"] is not None \
                    and got[1]["players"][got[1]["to_move"]] == "human":
                await self.request(client, "POST", f"api/games/{game_id}/moves",
                                   {"move": self.rng.choice(got[1]["legal"])["text"]})
        elif roll < 0.45 and ids:
            await self.request(client, "GET", f"api/games/{self.rng.choice(ids)}")
        elif roll < 0.50 or not ids:
            game = self.rng.choice(["kaboom", "jump61(size=3)", "explocus(size=4)", "kaboom(rows=3,cols=3)"])
            got = await self.request(client, "POST", "api/games", {"game": game, "players": ["human", "random"]})
            if got and got[0] == 201:
                self.games[got[1]["id"]] = got[1]["ply"]
        elif roll < 0.60:
            await self.request(client, "GET", f"api/games?limit={self.rng.randint(1, 50)}")
        elif roll < 0.63:
            await self.request(client, "GET", "api/catalog")
        elif roll < 0.65 and ids:
            await self.request(client, "POST", f"api/games/{self.rng.choice(ids)}/undo", {})
        elif roll < 0.66 and ids:
            await self.request(client, "POST", f"api/games/{self.rng.choice(ids)}/resign", {})
        elif roll < 0.67:
            await self.request(client, "POST", "api/analysis", {"game": "kaboom(rows=3,cols=3,connect=3)",
                                                                "actions": [self.rng.randrange(3)]})
        elif roll < 0.69 and ids:  # a move that is illegal or unparsable
            await self.request(client, "POST", f"api/games/{self.rng.choice(ids)}/moves",
                               {"move": self.rng.choice(["Z9!", "\u0661 1", 99999, "", "pass pass"])})
        else:
            method, path, body = self.rng.choice(BAD_REQUESTS)
            await self.request(client, method, path, body)

    async def run(self, max_outstanding: int) -> tuple[int, int, float]:
        """Send at the rate (an open loop: a slow answer does not slow the
        sending) until the time is up; a send is shed, and counted, when
        ``max_outstanding`` are already waiting. Returns (sent, shed, seconds
        until the last answer)."""
        client = LeanClient(self.base)
        try:
            for _ in range(8):  # games to play in from the first request on
                got = await self.request(client, "POST", "api/games", {"game": "kaboom", "players": ["human", "random"]})
                if got and got[0] == 201:
                    self.games[got[1]["id"]] = got[1]["ply"]
            self.latencies.clear()
            self.served.clear()
            self.slowest.clear()
            self.statuses.clear()
            tasks: set[asyncio.Task] = set()
            began = time.monotonic()
            due_count = sent = shed = 0
            while (now := time.monotonic()) - began < self.seconds:
                due = int((now - began) * self.rate) + 1
                while due_count < due:
                    due_count += 1
                    if len(tasks) >= max_outstanding:
                        shed += 1
                        continue
                    task = asyncio.create_task(self.one(client))
                    tasks.add(task)
                    task.add_done_callback(tasks.discard)
                    sent += 1
                if hasattr(os, "getloadavg") and len(self.loads) < (now - began) / 5:
                    self.loads.append(os.getloadavg()[0])  # every 5 s
                await asyncio.sleep(min(0.005, 1 / self.rate))
            await asyncio.gather(*tasks)
            return sent, shed, time.monotonic() - began
        finally:
            client.close()


def start_server(db: str) -> tuple[subprocess.Popen, str]:
    command = [sys.executable, "-m", "boomboard", "serve", "--host", "127.0.0.1", "--port", "0", "--db", db,
               "--workers", "2"]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = server.stdout.readline()
    match = re.search(r"http://\S+/", line)
    if not match:
        raise SystemExit(f"the server did not start: {line}{server.stderr.read()}")
    return server, match.group(0)


def stop_server(server: subprocess.Popen) -> tuple[float, str]:
    began = time.monotonic()
    server.send_signal(signal.SIGINT)
    try:
        _, err = server.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        server.kill()
        _, err = server.communicate()
        err += "\n(still running 30 s after Ctrl-C: killed)"
    return time.monotonic() - began, err


def _cpu_seconds(pid: int) -> float:
    """The CPU time of the server's own process (not its AI workers'), from /proc."""
    try:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=float, default=200.0, help="requests a second")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-p99", type=float, default=1.0, help="fail above this p99 latency (seconds)")
    parser.add_argument("--max-outstanding", type=int, default=256, help="requests waiting at once, at most")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="boomboard-soak-")
    db = os.path.join(folder, "web.sqlite3")
    server, base = start_server(db)
    soak = Soak(base, args.rate, args.seconds, args.seed)
    try:
        httpx.get(base + "api/catalog", timeout=60)
        client_cpu, server_cpu = time.process_time(), _cpu_seconds(server.pid)
        sent, shed, elapsed = run_loop(soak.run(args.max_outstanding))
        client_cpu, server_cpu = time.process_time() - client_cpu, _cpu_seconds(server.pid) - server_cpu
        # what every game holds once the load is over (an AI may still add a move)
        before = {game_id: httpx.get(f"{base}api/games/{game_id}", timeout=120).json()["actions"]
                  for game_id in soak.games}
    finally:
        stop_seconds, stop_err = stop_server(server)
    server, base = start_server(db)  # every game must come back, each move in place
    lost = []
    try:
        for game_id, actions in before.items():
            response = httpx.get(f"{base}api/games/{game_id}", timeout=120)
            after = response.json().get("actions", []) if response.status_code == 200 else None
            if after is None or after[:len(actions)] != actions:
                lost.append(f"{game_id}: {response.status_code}, {actions} before, {after} after")
    finally:
        stop_server(server)
    lat, served = soak.latencies, soak.served
    loads = ", ".join(f"{load:.1f}" for load in soak.loads) or "not measured"
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, load average every 5 s of the run: {loads}; "
          f"Python {platform.python_version()}")
    print(f"asked {args.rate:g} requests/s for {args.seconds:g} s: {sent} sent ({shed} shed with "
          f"{args.max_outstanding} waiting), {len(lat)} answered, the last {elapsed - args.seconds:.1f} s after the "
          f"end; {len(soak.games)} games created")
    print(f"answered: {len(lat) / elapsed:.1f}/s; CPU used while sending: the server {server_cpu:.1f} s, "
          f"this client {client_cpu:.1f} s, in {elapsed:.1f} s")
    print("statuses: " + ", ".join(f"{code}: {n}" for code, n in sorted(soak.statuses.items())))
    for name, values in (("every answer", lat), ("answers not shed", served)):
        if values:
            print(f"latency of {name}: median {statistics.median(values) * 1000:.1f} ms, p95 "
                  f"{percentile(values, 0.95) * 1000:.1f} ms, p99 {percentile(values, 0.99) * 1000:.1f} ms, "
                  f"max {max(values) * 1000:.1f} ms ({len(values) / elapsed:.1f}/s)")
    print(f"server errors (5xx but load shedding, or no answer): {len(soak.server_errors)}; games lost across "
          f"a restart: {len(lost)} of {len(soak.games)}; Ctrl-C stopped the server in {stop_seconds:.2f} s"
          + ("; it printed a traceback" if "Traceback" in stop_err else ""))
    by_kind: dict[str, list[float]] = {}
    shed_by_kind: Counter = Counter()
    for seconds, method, path, status in soak.slowest:
        kind = f"{method} {path.split('?')[0]}"
        by_kind.setdefault(kind, []).append(seconds)
        shed_by_kind[kind] += status == 503
    print("p99 by request: " + "; ".join(f"{kind} {percentile(v, 0.99) * 1000:.0f} ms ({len(v)})"
                                         for kind, v in sorted(by_kind.items(), key=lambda kv: -len(kv[1]))[:12]))
    print("503 by request: " + ("; ".join(f"{kind} {count} of {len(by_kind[kind])}"
                                          for kind, count in shed_by_kind.most_common(6) if count) or "none"))
    for line in [*soak.server_errors[:10], *lost[:10]]:
        print("  " + line)
    failed = soak.server_errors or lost or percentile(lat, 0.99) > args.max_p99 or "Traceback" in stop_err
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
