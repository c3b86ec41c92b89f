"""A person's game comes first: watched AI-vs-AI games can be paused and
stopped, end when nobody watches, and never take the workers from a game a
human plays or from an analysis; AI work a request waits for is shed with a
503 and Retry-After rather than queued past a few seconds; the app built in
Python answers only the loopback names unless told otherwise, and its worker
count is bounded like ``boomboard serve --workers``."""

from __future__ import annotations

import asyncio
import multiprocessing
import subprocess
import sys
import threading
import time

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from boomboard.core.errors import ParameterError  # noqa: E402
from boomboard.web import WebSettings, analysis, create_app  # noqa: E402
from boomboard.web.service import AgentLimits, Busy, GameService, Overloaded  # noqa: E402
from boomboard.web.store import GameStore  # noqa: E402
from boomboard.web.workers import BACKGROUND, FOREGROUND, WorkerPool, workers_limit  # noqa: E402
from web_helpers import assert_error, wait_for  # noqa: E402

WATCHED = {"game": "kaboom", "players": ["random", "random"], "pace": 0.3}


@pytest.fixture
def app(tmp_path):
    return create_app(tmp_path / "web.sqlite3", WebSettings(workers=0))


@pytest.fixture
def client(app):
    with TestClient(app) as client:
        yield client


def _wait_until(condition, seconds=120.0):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(0.02)


def _blocker(flag) -> list[str]:
    """A call that holds a worker process until the file ``flag`` exists
    (a standard-library function, so the spawned worker can unpickle it)."""
    return [sys.executable, "-c", f"import os, time\nwhile not os.path.exists({str(flag)!r}): time.sleep(0.02)"]


# -- the worker queue -------------------------------------------------------------------------

def test_the_worker_queue_starts_a_persons_call_before_every_watched_games_call(tmp_path):
    flag = tmp_path / "go"
    pool = WorkerPool(1)
    finished = []
    try:
        held = pool.submit(subprocess.run, _blocker(flag))
        _wait_until(held.running)
        calls = [("watched 1", pool.submit(time.monotonic_ns, priority=BACKGROUND)),
                 ("watched 2", pool.submit(time.monotonic_ns, priority=BACKGROUND)),
                 ("person", pool.submit(time.monotonic_ns, priority=FOREGROUND))]
        for name, future in calls:
            future.add_done_callback(lambda _, name=name: finished.append(name))
        flag.touch()
        started = {name: future.result(timeout=120) for name, future in calls}
    finally:
        flag.touch()
        pool.close()
    assert finished == ["person", "watched 1", "watched 2"]  # the person's came last, and ran first
    assert started["person"] < started["watched 1"] < started["watched 2"]


def test_watched_games_hold_all_workers_but_one_and_do_not_count_against_their_client(tmp_path):
    service = GameService(GameStore(tmp_path / "web.sqlite3"), workers=2, processes=False,
                          limits=AgentLimits(per_client=1))
    release = threading.Event()
    running, most = [0], [0]
    lock = threading.Lock()

    def watched_move():
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        release.wait(60)
        with lock:
            running[0] -= 1
        return "watched"

    async def main():
        watched = [asyncio.ensure_future(service.run_off_loop(watched_move, client="a", watched=True))
                   for _ in range(3)]
        while running[0] < 1:
            await asyncio.sleep(0.01)
        # the client's own analysis is neither refused nor queued behind its watched games
        assert await service.run_off_loop(lambda: "analysis", client="a", queue=False) == "analysis"
        assert service._client_load == {}  # the watched calls were never counted against the client
        release.set()
        assert await asyncio.gather(*watched) == ["watched"] * 3

    asyncio.run(main())
    service.close()
    assert most[0] == 1  # two workers: the watched games shared one


# -- shedding AI work a request waits for ------------------------------------------------------

def test_an_analysis_that_cannot_get_its_clients_turn_in_time_is_shed_with_retry_after(tmp_path):
    service = GameService(GameStore(tmp_path / "web.sqlite3"), processes=False,
                          limits=AgentLimits(per_client=1, queue_wait=0.2))
    release = threading.Event()

    async def main():
        ahead = asyncio.ensure_future(service.run_off_loop(lambda: release.wait(60), client="a"))
        await asyncio.sleep(0)
        with pytest.raises(Overloaded, match="--ai-max-queue-wait") as shed:
            await service.run_off_loop(lambda: "late", client="a", queue=False)
        assert shed.value.retry_after >= 1
        release.set()
        assert await ahead is True

    asyncio.run(main())
    service.close()


def test_an_analysis_queued_behind_busy_workers_is_dropped_from_the_queue_and_shed(tmp_path):
    flag, ran = tmp_path / "go", tmp_path / "ran"
    service = GameService(GameStore(tmp_path / "web.sqlite3"), workers=1,
                          limits=AgentLimits(per_client=1, queue_wait=0.3))
    service._processes = WorkerPool(1)  # the pool without the app's warm-up (which loads every game's code)

    async def main():
        held = asyncio.ensure_future(service.run_off_loop(subprocess.run, _blocker(flag), client="a"))
        while not any(future.running() for future in service._processes._running):
            await asyncio.sleep(0.01)
        with pytest.raises(Overloaded, match="retry in"):
            await service.run_off_loop(subprocess.run, ["touch", str(ran)], client="b", queue=False)
        flag.touch()
        await held
        # the queue is empty again: a call made now runs, and the shed one never did
        assert await service.run_off_loop(sum, [1, 2], client="b", queue=False) == 3
        assert not ran.exists()

    try:
        asyncio.run(main())
    finally:
        flag.touch()
        service.close()


def test_a_refused_or_shed_analysis_says_when_to_retry(client, app, monkeypatch):
    """Over HTTP: a 503 with Retry-After when the client's earlier analysis
    holds its turn past the wait, and a Retry-After on the 429 of a client with too much queued."""
    service = app.state.service
    service.limits = AgentLimits(per_client=1, queue_wait=0.3)
    release, started = threading.Event(), threading.Event()
    real = analysis.analyse

    def held_analysis(*args):
        started.set()
        release.wait(60)
        return real(*args)

    monkeypatch.setattr(analysis, "analyse", held_analysis)
    line = {"game": "kaboom(rows=3,cols=3,connect=3)", "actions": []}
    first = []
    thread = threading.Thread(target=lambda: first.append(client.post("/api/analysis", json=line)))
    thread.start()
    try:
        assert started.wait(60)
        shed = client.post("/api/analysis", json=line)
        assert_error(shed, 503, "--ai-max-queue-wait")
        assert int(shed.headers["retry-after"]) >= 1
        service._client_load["testclient"] = 99  # as if it had queued that many: past its share
        busy = client.post("/api/analysis", json=line)
        service._client_load["testclient"] = 1
        assert_error(busy, 429, "--ai-per-client")
        assert busy.headers["retry-after"] == str(Busy.retry_after)
    finally:
        release.set()
        thread.join(60)
    assert first[0].status_code == 200


# -- Stop, Pause, and nobody watching ----------------------------------------------------------

def test_stop_ends_an_ai_game_without_a_result_and_it_stays_stopped_after_a_restart(tmp_path):
    db = tmp_path / "web.sqlite3"
    with TestClient(create_app(db, WebSettings(workers=0))) as client:
        game = client.post("/api/games", json=WATCHED).json()
        assert game["watched"] and not game["stopped"]
        stopped = client.post(f"/api/games/{game['id']}/stop", json={})
        assert stopped.status_code == 200, stopped.text
        state = stopped.json()
        assert state["stopped"] and state["outcome"]["reason"] == "stopped" and state["outcome"]["winner"] is None
        assert state["to_move"] is None and state["legal"] == [] and not state["thinking"]
        assert_error(client.post(f"/api/games/{game['id']}/stop", json={}), 409, "over")
        ply = state["ply"]
    with TestClient(create_app(db, WebSettings(workers=0))) as client:  # not resumed at the next start
        state = client.get(f"/api/games/{game['id']}").json()
        assert state["stopped"] and state["ply"] == ply and not state["thinking"]


def test_pause_holds_an_ai_game_and_resume_lets_it_go_on(client):
    game = client.post("/api/games", json=WATCHED).json()
    paused = client.post(f"/api/games/{game['id']}/pause", json={"paused": True}).json()
    assert paused["paused"] and not paused["thinking"]
    assert client.get(f"/api/games/{game['id']}").json()["ply"] == paused["ply"]
    resumed = client.post(f"/api/games/{game['id']}/pause", json={"paused": False}).json()
    assert not resumed["paused"]
    wait_for(client, game["id"], lambda s: s["ply"] > paused["ply"] or s["outcome"])


@pytest.mark.parametrize("action, body", [("stop", {}), ("pause", {"paused": True})])
def test_stop_and_pause_are_for_ai_games_only(client, action, body):
    game = client.post("/api/games", json={"game": "kaboom", "players": ["human", "random"]}).json()
    assert_error(client.post(f"/api/games/{game['id']}/{action}", json=body), 409, "resigning")
    assert_error(client.post(f"/api/games/no-such-game/{action}", json=body), 404)


def test_a_game_nobody_watches_is_stopped_after_the_grace_period(tmp_path):
    app = create_app(tmp_path / "web.sqlite3", WebSettings(workers=0, watch_grace=1))
    with TestClient(app) as client:
        slow = {**WATCHED, "players": ["alphabeta:depth=1", "alphabeta:depth=1"], "pace": 2.0}
        unwatched = client.post("/api/games", json=slow).json()["id"]
        store = app.state.service.store
        # not asked about again: the server's own task ends it (read from the database, not by a look)
        _wait_until(lambda: store.load(unwatched).finished)
        state = client.get(f"/api/games/{unwatched}").json()
        assert state["stopped"] and not state["thinking"]


def test_only_ai_games_unseen_for_the_grace_period_are_ended(tmp_path):
    service = GameService(GameStore(tmp_path / "web.sqlite3"), processes=False, watch_grace=60)

    async def main():
        games = {name: await service.create("kaboom", {}, players, pace=10.0) for name, players in
                 (("unseen", ["random", "random"]), ("seen", ["random", "random"]),
                  ("human", ["human", "random"]))}
        for name in ("unseen", "human"):
            games[name].seen -= 61  # as if the last look was a grace period and a second ago
        assert service.end_unwatched() == [games["unseen"].record.id]
        assert games["unseen"].stopped and not games["seen"].over and not games["human"].over

    asyncio.run(main())
    service.close()


@pytest.mark.parametrize("grace", [0, 0.5, 3601, float("nan"), True, "60"])
def test_the_watch_grace_is_bounded(tmp_path, grace):
    with pytest.raises(ParameterError, match="--watch-grace"):
        create_app(tmp_path / "web.sqlite3", WebSettings(workers=0, watch_grace=grace))


def test_serve_refuses_a_watch_grace_out_of_range(tmp_path):
    result = subprocess.run([sys.executable, "-m", "boomboard", "serve", "--port", "0", "--db",
                             str(tmp_path / "web.sqlite3"), "--watch-grace", "0"],
                            capture_output=True, text=True, timeout=120)
    said = result.stdout + result.stderr
    assert result.returncode == 2 and "--watch-grace" in said and "Traceback" not in said


# -- the app built in Python -------------------------------------------------------------------

@pytest.mark.parametrize("host, status", [("http://127.0.0.1", 200), ("http://localhost:8000", 200),
                                          ("http://evil.example", 400), ("http://testserver", 400)])
def test_the_app_answers_only_the_loopback_names_unless_given_a_guard(tmp_path, host, status):
    with TestClient(create_app(tmp_path / "web.sqlite3", WebSettings(workers=0)), base_url=host) as client:
        assert client.get("/api/catalog").status_code == status


@pytest.mark.parametrize("workers", [-1, True, False, 2.0, "2", 10**6])
def test_the_python_apis_worker_count_is_bounded_like_serve_workers(tmp_path, workers):
    with pytest.raises(ParameterError, match="workers") as refused:
        create_app(tmp_path / "web.sqlite3", WebSettings(workers=workers))
    if workers == 10**6:
        most, why = workers_limit()
        assert f"limit of {most} ({why})" in str(refused.value)


def test_no_workers_plays_the_ai_in_the_servers_threads_as_serve_workers_0_does(tmp_path):
    before = set(multiprocessing.active_children())  # any an earlier test left
    with TestClient(create_app(tmp_path / "web.sqlite3", WebSettings(workers=0))) as client:
        game = client.post("/api/games", json={"game": "jump61(size=3)", "players": ["random", "human"]}).json()
        assert wait_for(client, game["id"], lambda state: state["ply"] == 1)["error"] == ""
        assert set(multiprocessing.active_children()) <= before  # no worker process was started


def test_the_python_apis_default_worker_count_fits_the_machine(tmp_path):
    service = GameService(GameStore(tmp_path / "web.sqlite3"), processes=False)
    assert 1 <= service._workers <= workers_limit()[0]
    service.close()
