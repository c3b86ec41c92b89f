"""Issue 47: a game's event stream is pushed, not polled. Through a real
``boomboard serve``: a move reaches a watcher at once, and a stream open on
a game nobody changes makes no reads of the store."""

from __future__ import annotations

import http.client
import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

# ``boomboard serve`` as its command runs it, but for a log of every read of
# the game store (GameStore._read_one: a game, its version, its owner, the
# database's generation), one line a read, in the file named first.
COUNTING_SERVER = """
import sys
from boomboard.web import store
from boomboard.cli.main import main

log = open(sys.argv[1], "a", buffering=1)
read_one = store.GameStore._read_one

def counted(self, sql, values=()):
    log.write(sql.split()[0] + "\\n")
    return read_one(self, sql, values)

store.GameStore._read_one = counted
sys.argv = ["boomboard", *sys.argv[2:]]
main()
"""

OWNER = {"X-Boomboard-Owner": "the-events-tests-own-token"}


class CountingServer:
    def __init__(self, folder: Path):
        self.reads = folder / "reads.log"
        self.reads.touch()
        self.process = subprocess.Popen(
            [sys.executable, "-c", COUNTING_SERVER, str(self.reads), "serve", "--port", "0", "--workers", "0",
             "--db", str(folder / "web.sqlite3")], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        match = re.search(r"http://([^:/]+):(\d+)/", line)
        assert match, line + self.process.stderr.read()
        self.host, self.port = match.group(1), int(match.group(2))

    def reads_so_far(self) -> int:
        return len(self.reads.read_text().splitlines())

    def ask(self, method: str, path: str, body=None) -> tuple[int, dict]:
        connection = http.client.HTTPConnection(self.host, self.port, timeout=120)
        try:
            headers = {"content-type": "application/json", **OWNER} if body is not None else {}
            connection.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
            response = connection.getresponse()
            return response.status, json.loads(response.read())
        finally:
            connection.close()

    def stop(self) -> None:
        self.process.kill()
        self.process.communicate()


def _next_event(stream: http.client.HTTPResponse) -> dict:
    """The next ``data:`` message of an event stream (keep-alive comments skipped)."""
    while line := stream.readline():
        if line.startswith(b"data: "):
            return json.loads(line[6:])
    raise AssertionError("the stream ended")


def test_a_move_reaches_a_watcher_at_once_and_an_idle_stream_reads_nothing(tmp_path):
    server = CountingServer(tmp_path)
    try:
        status, game = server.ask("POST", "/api/games", {"game": "jump61(size=3)", "players": ["human", "human"]})
        assert status == 201, game
        watcher = http.client.HTTPConnection(server.host, server.port, timeout=120)
        watcher.request("GET", f"/api/games/{game['id']}/events")
        stream = watcher.getresponse()
        assert stream.status == 200 and _next_event(stream)["ply"] == 0
        # Nobody changes the game for two seconds: a stream that looked at it 20 times a second read the
        # store about 40 times meanwhile (and a loaded machine slows that down, never to none).
        before = server.reads_so_far()
        time.sleep(2.0)
        idle_reads = server.reads_so_far() - before
        began = time.perf_counter()
        status, played = server.ask("POST", f"/api/games/{game['id']}/moves", {"move": game["legal"][0]["id"]})
        assert status == 200, played
        event = _next_event(stream)
        arrived = time.perf_counter() - began
        watcher.close()
    finally:
        server.stop()
    assert idle_reads == 0, f"{idle_reads} reads of the store by an idle stream in 2 s"
    assert event["ply"] == 1 and event["actions"] == played["actions"]
    assert arrived < 30, arrived  # at once: woken by the move, not by a look (generous: a loaded machine)


def test_an_ai_game_with_an_event_stream_open_is_not_ended_however_long_since_its_last_poll(tmp_path):
    # The stream no longer looks at its game many times a second: the stream itself counts as watching.
    import asyncio

    from boomboard.web.service import GameService
    from boomboard.web.store import GameStore

    service = GameService(GameStore(tmp_path / "web.sqlite3"), processes=False, watch_grace=60)

    async def main():
        watched = await service.create("kaboom", {}, ["random", "random"], pace=10.0)
        unwatched = await service.create("kaboom", {}, ["random", "random"], pace=10.0)
        for game in (watched, unwatched):
            game.seen -= 61  # as if the last poll was a grace period and a second ago
        stream = service.watch(watched.record.id)
        assert service.end_unwatched() == [unwatched.record.id]
        service.unwatch(watched.record.id, stream)
        assert service.end_unwatched() == [watched.record.id]  # closed: nobody watches it now

    asyncio.run(main())
    service.close()
