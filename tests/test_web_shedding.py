"""Issue 47, items 1, 3 and 6, through a real ``boomboard serve``: one slow
analysis does not lock every later one out, requests that are cheap to send
but heavy to answer do not stall another client, and an analysis nobody
waits for any more is stopped; a value chart's points come one by one."""

from __future__ import annotations

import http.client
import json
import random
import re
import secrets
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from boomboard.registry import load_game  # noqa: E402
from boomboard.web.store import GameStore, StoredGame  # noqa: E402

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="starts servers and reads /proc")


class Server:
    """``boomboard serve`` in a subprocess on a free port, with ``workers``
    worker processes (each loads every compiled game's code at its start:
    seconds of CPU) and ``options``."""

    def __init__(self, db: Path, *options: str, workers: int):
        command = [sys.executable, "-m", "boomboard", "serve", "--port", "0", "--db", str(db),
                   "--workers", str(workers), *options]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        match = re.search(r"http://([^:/]+):(\d+)/", line)
        assert match, line + self.process.stderr.read()
        self.host, self.port = match.group(1), int(match.group(2))

    def connection(self, timeout: float = 300) -> http.client.HTTPConnection:
        return http.client.HTTPConnection(self.host, self.port, timeout=timeout)

    def ask(self, method: str, path: str, body=None, connection=None, headers=None):
        """``(status, headers, body as JSON)`` of one request."""
        own = connection is None
        connection = connection or self.connection()
        try:
            payload = None if body is None else json.dumps(body).encode()
            sent = {"content-type": "application/json"} if body is not None else {}
            connection.request(method, path, body=payload, headers={**sent, **(headers or {})})
            response = connection.getresponse()
            data = response.read()
            return response.status, response.headers, json.loads(data) if data else None
        finally:
            if own:
                connection.close()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.communicate()


def random_line(game_string: str, plies: int, seed: int) -> list[int]:
    """A random game's actions, at most ``plies`` of them (fewer if it ends)."""
    rng = random.Random(seed)
    state = load_game(game_string).new_initial_state()
    while not state.is_terminal() and len(state.history()) < plies:
        state.apply_action(rng.choice(state.legal_actions()))
    return state.history()


# -- item 1: one slow analysis does not lock the later ones out ------------------------------------

def _worker_processes(server: Server, count: int, seconds: float = 300.0) -> list:
    """The server's ``count`` worker processes, once it has started them (at its start, after its address)."""
    psutil = pytest.importorskip("psutil")
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        workers = []
        for process in psutil.Process(server.process.pid).children(recursive=True):
            try:
                if "spawn_main" in " ".join(process.cmdline()):
                    workers.append(process)
            except psutil.Error:
                continue
        if len(workers) >= count:
            return workers
        time.sleep(0.05)
    raise AssertionError(f"the server did not start {count} workers")


def test_after_a_slow_analysis_the_next_ones_are_served_not_refused_for_good(tmp_path):
    # The old estimate, a running mean of finished calls (a fifth of the last
    # one's seconds after a first), said after one slow analysis that every
    # later one would wait longer than the queue wait allowed, and refused
    # each at once, for as long as the server ran. One analysis is made slow
    # here as a starved machine makes it, without the CPU: the workers are
    # stopped (SIGSTOP) while it waits for them, for 9 s, past 5 times the 1 s
    # wait (that took an empty kernel cache's compile, tens of CPU seconds, at
    # the default 3 s). A loaded machine only makes it slower.
    server = Server(tmp_path / "web.sqlite3", "--ai-max-queue-wait", "1", workers=1)
    try:
        line = {"game": "jump61(size=4)", "actions": [5]}
        workers = _worker_processes(server, 1)
        for worker in workers:
            worker.suspend()
        try:
            slow = {}
            asking = threading.Thread(target=lambda: slow.update(answer=server.ask("POST", "/api/analysis", line)))
            asking.start()
            time.sleep(9.0)  # the analysis waits for a worker as long as they are stopped
        finally:
            for worker in workers:
                worker.resume()
        asking.join(timeout=300)
        status, _, answer = slow["answer"]
        assert status == 200, answer  # the slow one: nothing was ahead of it
        served = []
        for actions in ([0], [1], [2], [3]):
            status, headers, answer = server.ask("POST", "/api/analysis", {**line, "actions": actions})
            served.append((status, answer if status != 200 else "ok"))
        assert [status for status, _ in served] == [200] * 4, served
    finally:
        server.stop()


# -- item 3: requests cheap to send do not stall the others ---------------------------------------

LONG_GAME = "jump61(size=16)"


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def test_two_clients_hammering_long_lists_and_positions_leave_another_clients_requests_quick(tmp_path):
    # 500 finished games of 16x16 Jump61, each about 500 plies: a list of
    # them was replayed on the event loop (seconds a list), and so was a
    # position of that many actions.
    actions = random_line(LONG_GAME, 10_000, seed=3)
    assert len(actions) > 300
    store = GameStore(tmp_path / "web.sqlite3")
    for _ in range(500):
        store.add(StoredGame(secrets.token_hex(6), LONG_GAME, ["human", "human"], list(actions), finished=True))
    store.close()
    server = Server(tmp_path / "web.sqlite3", workers=0)  # no AI work here: lists and positions, in threads
    try:
        status, _, game = server.ask("POST", "/api/games", {"game": "jump61(size=3)", "players": ["human", "human"]})
        assert status == 201, game
        stop = threading.Event()
        answered = {"list": [], "position": []}

        def hammer(kind: str, method: str, path: str, body) -> None:
            connection = server.connection()
            while not stop.is_set():
                answered[kind].append(server.ask(method, path, body, connection)[0])

        hammers = [threading.Thread(target=hammer, args=("list", "GET", "/api/games?limit=500", None)),
                   threading.Thread(target=hammer, args=("position", "POST", "/api/position",
                                                         {"game": LONG_GAME, "actions": actions[:-1]}))]
        for thread in hammers:
            thread.start()
        latencies, statuses = [], []
        connection = server.connection()
        try:
            deadline = time.monotonic() + 8  # some 300 reads on an idle machine: a p99 of more than one
            while time.monotonic() < deadline:
                began = time.perf_counter()
                statuses.append(server.ask("GET", f"/api/games/{game['id']}", connection=connection)[0])
                latencies.append(time.perf_counter() - began)
                time.sleep(0.02)
        finally:
            stop.set()
            for thread in hammers:
                thread.join(timeout=120)
        # a few may be shed (a 503 in milliseconds) on a machine loaded by others
        assert set(statuses) <= {200, 503} and statuses.count(200) >= 0.9 * len(statuses), statuses
        # measured on 2 shared cores at a load of 8 to 9: p99 91 ms (it was 27 s: each list held the loop for seconds)
        assert _percentile(latencies, 0.99) < 1.0, sorted(latencies)[-5:]
        # and the two hammering clients were answered meanwhile (the first list replays every game: seconds of
        # CPU, and a loaded machine gives the server a fraction of a core)
        assert 200 in answered["list"] and 200 in answered["position"], \
            {kind: len(answers) for kind, answers in answered.items()}
    finally:
        server.stop()


# -- item 6: a value chart point by point, and abandoned work stopped ------------------------------

POINTS = "application/x-ndjson"


def test_a_values_stream_sends_each_point_as_it_is_ready(tmp_path):
    # 6 points of 4x4 Jump61, half a second of search each on an idle machine, one after another in the one
    # worker (8x8's took 1.8 s each: 25 of them made this test a minute long; 13 of 4x4 showed no more)
    actions = random_line("jump61(size=4)", 5, seed=5)
    server = Server(tmp_path / "web.sqlite3", workers=1)
    try:
        connection = server.connection()
        began = time.perf_counter()
        connection.request("POST", "/api/values", body=json.dumps({"game": "jump61(size=4)", "actions": actions}),
                           headers={"content-type": "application/json", "accept": POINTS})
        response = connection.getresponse()
        assert response.status == 200 and response.headers["content-type"].startswith(POINTS)
        arrivals, points = [], []
        while line := response.readline():
            points.append(json.loads(line))
            arrivals.append(time.perf_counter() - began)
        connection.close()
        status, _, whole = server.ask("POST", "/api/values", {"game": "jump61(size=4)", "actions": actions[:2]})
    finally:
        server.stop()
    assert [point["ply"] for point in points] == list(range(len(actions) + 1))
    assert status == 200 and points[:2] == whole["values"][:2]  # the same analyses, whichever way they are asked
    # each point is its own search (half a second or more), sent when it is done: the points come apart, not
    # together at the end (the first may also wait for the workers to load the compiled code; the gaps do not)
    gaps = sorted(later - earlier for earlier, later in zip(arrivals, arrivals[1:]))
    assert gaps[len(gaps) // 2] > 0.05, arrivals


def _worker_searching(server: Server, seconds: float = 300.0) -> None:
    """Return once one of the server's workers has used a second of CPU more than at first."""
    psutil = pytest.importorskip("psutil")
    deadline = time.monotonic() + seconds
    first: dict[int, float] = {}
    while time.monotonic() < deadline:
        for worker in psutil.Process(server.process.pid).children(recursive=True):
            try:
                times = worker.cpu_times()
            except psutil.Error:
                continue
            used = times.user + times.system
            if used - first.setdefault(worker.pid, used) > 1.0:
                return
        time.sleep(0.1)
    raise AssertionError("no worker started searching")


def _workers_cpu(server: Server) -> dict[int, float]:
    """The CPU seconds each of the server's worker processes has used."""
    psutil = pytest.importorskip("psutil")
    used = {}
    for worker in psutil.Process(server.process.pid).children(recursive=True):
        try:
            times = worker.cpu_times()
        except psutil.Error:
            continue
        used[worker.pid] = times.user + times.system
    return used


def _workers_idle(server: Server, seconds: float) -> bool:
    """Whether, within ``seconds``, the server's workers rest for two seconds
    together (a fifth of a second of CPU in all, a worker started meanwhile
    counted whole)."""
    deadline = time.monotonic() + seconds
    before = _workers_cpu(server)
    while time.monotonic() < deadline:
        time.sleep(2.0)
        after = _workers_cpu(server)
        if sum(cpu - before.get(pid, 0.0) for pid, cpu in after.items()) < 0.2:
            return True
        before = after
    return False


def test_a_values_request_whose_client_went_away_stops_its_work(tmp_path):
    # 200 positions of 10x10 Jump61, about half a second of search each:
    # minutes of work that nobody waits for once its client has gone.
    actions = random_line("jump61(size=10)", 200, seed=7)
    assert len(actions) > 150
    server = Server(tmp_path / "web.sqlite3", workers=1)
    try:
        connection = server.connection()
        connection.request("POST", "/api/values", body=json.dumps({"game": "jump61(size=10)", "actions": actions}),
                           headers={"content-type": "application/json"})
        _worker_searching(server)
        connection.close()  # the client goes away
        # stopped: its worker killed and a fresh one loaded in its place, then both at rest
        assert _workers_idle(server, 30)
        status, _, answer = server.ask("POST", "/api/analysis", {"game": "jump61(size=4)", "actions": []})  # quick
        assert status == 200, answer
    finally:
        server.stop()


def test_a_call_kinds_expected_time_fades_while_none_finishes(monkeypatch):
    from boomboard.web import workers

    times = workers.CallTimes()
    assert times.expected("analyse") == 0.0  # never timed: no wait expected
    times.finished("analyse", 40.0)  # a first call that compiled
    assert 0 < times.expected("analyse") <= 8.0
    monkeypatch.setattr(workers, "ESTIMATE_HALF_LIFE", 0.01)
    time.sleep(0.1)  # ten half-lives at least, however loaded the machine
    assert times.expected("analyse") < 8.0 / 2**9


def test_the_expected_wait_counts_only_work_queued_and_running():
    from boomboard.web.workers import WorkerPool

    pool = WorkerPool(1)
    try:
        assert pool.expected_wait() == 0.0  # a worker free, whatever calls took before
        pool.times.finished("time.sleep", 60.0)
        assert pool.expected_wait() == 0.0
        running = pool.submit(time.sleep, 120)
        deadline = time.monotonic() + 120
        while not running.running() and time.monotonic() < deadline:
            time.sleep(0.01)
        busy = pool.expected_wait()
        assert 0 < busy <= 12.0  # the running call's expected time, less what it has run
        pool.submit(time.sleep, 120)
        assert pool.expected_wait() > busy  # and a call waiting ahead
        pool.stop(running)
    finally:
        pool.close()


def test_the_server_freezes_what_it_made_at_start_so_full_collections_skip_it(tmp_path):
    # The garbage collector's full passes scanned the 170,000 objects the server makes at start, holding the
    # interpreter lock 100-170 ms each: the third client's slowest reads above (its p99 was 110-124 ms).
    import gc

    from fastapi.testclient import TestClient

    from boomboard.web import WebSettings, create_app

    with TestClient(create_app(tmp_path / "web.sqlite3", WebSettings(workers=0))) as client:
        assert client.get("/api/catalog").status_code == 200
        assert gc.get_freeze_count() > 10_000
    assert gc.get_freeze_count() == 0  # given back when the server stops: a process that goes on collects them


def test_an_answer_encoded_in_pieces_is_the_same_json(tmp_path):
    from fastapi.responses import JSONResponse

    from boomboard.web.context import json_bytes
    from boomboard.web.pages import position_page

    actions = random_line(LONG_GAME, 10_000, seed=3)
    page = position_page(LONG_GAME, None, actions[:-1])
    assert len(page["last_steps"]) > 8 and len(page["moves"]) > 300  # long lists: encoded eight items a call
    assert json_bytes(page) == JSONResponse(page).body
    for content in ([1, {"a": [2] * 20}], {"games": [{"id": i, "é": None} for i in range(30)]}, {}, {"a": []}):
        assert json_bytes(content) == JSONResponse(content).body
