"""A person's first start of the web app, from a fresh clone: how long until
``scripts/serve`` prints its address, and how long the first AI move of the
game the page offers first (Kaboom) then takes, with an empty compile cache.

    python benchmarks/first_start.py            # clones this checkout's HEAD into a temporary folder

The clone's packages are installed first (``scripts/setup web --compile-later``,
timed on its own: it is the package index's speed, not boomboard's); then
``scripts/serve`` runs with a new, empty user cache folder (``XDG_CACHE_HOME``),
as on a machine that never ran boomboard, and the figures are wall seconds
from its start: the address printed, a game's page answered, and the AI's
first move (``ai:time=0.5`` playing first) played. The background compile
that ``scripts/serve`` starts runs meanwhile, as it would for the person.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[1]
DEADLINE = 900  # seconds: a first start that takes longer is reported as not done


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def call(url: str, body: dict | None = None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.loads(answer.read())


def first_start(clone: Path, cache: Path) -> dict[str, float]:
    port = free_port()
    env = {**os.environ, "XDG_CACHE_HOME": str(cache), "PYTHONUNBUFFERED": "1"}
    env.pop("NUMBA_CACHE_DIR", None)
    started = time.monotonic()
    server = subprocess.Popen([str(clone / "scripts" / "serve"), "--port", str(port)], cwd=clone, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    figures = {}
    try:
        for line in server.stdout:
            if "serving at" in line:
                figures["address printed"] = time.monotonic() - started
                break
        base = f"http://127.0.0.1:{port}"
        game = call(f"{base}/api/games", {"game": "kaboom", "players": ["ai:time=0.5", "human"]})
        figures["game made"] = time.monotonic() - started
        while time.monotonic() - started < DEADLINE:
            if call(f"{base}/api/games/{game['id']}")["actions"]:
                figures["first AI move played"] = time.monotonic() - started
                break
            time.sleep(0.2)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=60)
    return figures


def main() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        clone, cache = Path(scratch) / "boomboard", Path(scratch) / "user-cache"
        subprocess.run(["git", "clone", "-q", str(REPOSITORY), str(clone)], check=True)
        began = time.monotonic()
        subprocess.run([str(clone / "scripts" / "setup"), "web", "--compile-later"], cwd=clone, check=True,
                       stdout=subprocess.DEVNULL)
        print(f"packages installed (scripts/setup web --compile-later): {time.monotonic() - began:.1f} s wall")
        for what, seconds in first_start(clone, cache).items():
            print(f"{what}: {seconds:.1f} s wall after scripts/serve started")
        print(f"load average at the end: {os.getloadavg()[0]:.1f} ({os.cpu_count()} cores)")


if __name__ == "__main__":
    sys.exit(main())
