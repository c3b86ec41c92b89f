"""Helpers the web app's tests share: an error answer checked, a game polled
until a condition holds, and a real ``boomboard serve`` in a subprocess."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import threading
import time
from contextlib import contextmanager

import pytest

# The owner token the tests' clients send with every request, as a browser's page sends its own: the games a test
# makes are its own to change (docs/how-to/web.md, "Who may change a game"). The test client (tests/conftest.py)
# and the test browser's pages (tests/browser_helpers.py) send it too, so that a test acts as one person.
OWNER_TOKEN = "the-test-clients-own-token"
OWNER = {"X-Boomboard-Owner": OWNER_TOKEN}


def assert_error(response, status, *words):
    """``response`` is an error with ``status`` whose message holds every one of ``words``."""
    assert response.status_code == status, response.text
    message = response.json()["error"]
    for word in words:
        assert word in message, message


def wait_for(client, game_id, condition, seconds=120.0) -> dict:
    """Poll a game (as the page does) until ``condition(state)``: a budget a
    loaded machine cannot exhaust, returning as soon as the condition holds."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        state = client.get(f"/api/games/{game_id}").json()
        if condition(state):
            return state
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting; last state: ply {state['ply']}, thinking {state['thinking']}, "
                         f"error {state['error']!r}")


@contextmanager
def serving(folder, *options):
    """``boomboard serve`` on a free port of 127.0.0.1 with its games in
    ``folder`` and these ``options``; yields its address, ``http://127.0.0.1:PORT/``."""
    process = subprocess.Popen([sys.executable, "-m", "boomboard", "serve", "--port", "0",
                                "--db", str(folder / "web.sqlite3"), *options],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    line = process.stdout.readline()
    match = re.search(r"http://127\.0\.0\.1:\d+/", line)
    if not match:
        process.kill()
        pytest.fail(f"boomboard serve did not print its address: {line!r}")
    # The rest of its output is read as it comes, into server.log beside its games: a pipe nobody reads
    # fills at 64 KiB, and a server writing its log there would then stop answering.
    log = open(folder / "server.log", "w")
    reader = threading.Thread(target=shutil.copyfileobj, args=(process.stdout, log), daemon=True)
    reader.start()
    try:
        yield match.group(0)
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        reader.join(timeout=10)
        log.close()
