"""Game records in the web app: a stored game downloaded as a record, a
record replayed ply by ply as the stored game is, and the Games page's
filter, abandoned games and delete."""

from __future__ import annotations

import sqlite3
import time

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from boomboard.records import read_record, write_record  # noqa: E402
from boomboard.web import WebSettings, create_app  # noqa: E402
from boomboard.web.store import ABANDONED_AFTER_SECONDS  # noqa: E402
from web_fakes import FakeArena  # noqa: E402
from web_helpers import assert_error  # noqa: E402


@pytest.fixture
def db(tmp_path):
    return tmp_path / "web.sqlite3"


@pytest.fixture
def client(db):
    with TestClient(create_app(db, WebSettings(workers=0), arena=FakeArena())) as client:
        yield client


def played(client, game, moves, players=("human", "human")) -> dict:
    state = client.post("/api/games", json={"game": game, "players": list(players)}).json()
    for move in moves:
        response = client.post(f"/api/games/{state['id']}/moves", json={"move": move})
        assert response.status_code == 200, response.text
        state = response.json()
    return state


def test_a_web_game_downloads_as_its_record(client):
    state = played(client, "kaboom(rows=5)", ["A", "B", "C"])
    response = client.get(f"/api/archive/web/{state['id']}/record")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    assert response.headers["content-disposition"] == f'attachment; filename="boomboard-web-{state["id"]}.txt"'
    record = read_record(response.text)
    assert (record.game, record.players, record.actions, record.result) == ("kaboom(rows=5)", ["human", "human"],
                                                                           state["actions"], "*")
    assert "\n1. A\n1... B\n2. C\n*\n" in response.text


def test_an_arena_game_downloads_as_its_record_and_an_unknown_one_is_a_404(client):
    response = client.get("/api/archive/arena/7/record")
    assert response.status_code == 200
    record = read_record(response.text)
    assert record.players == ["ai", "random"] and record.result == "1-0" and len(record.actions) == 7
    assert_error(client.get("/api/archive/arena/8/record"), 404, "no arena game")
    assert_error(client.get("/api/archive/web/nope/record"), 404, "no web game")


def test_a_record_replays_ply_by_ply_as_the_stored_game_does(client):
    state = played(client, "kaboom", ["A", "B", "A", "B", "A", "B", "A"])
    assert state["outcome"] is not None
    text = client.get(f"/api/archive/web/{state['id']}/record").text
    for ply in range(len(state["actions"]) + 1):
        stored = client.get(f"/api/replay/web/{state['id']}?ply={ply}").json()
        opened = client.post("/api/records/replay", json={"record": text, "ply": ply}).json()
        for key in ("cells", "ply", "length", "outcome", "moves", "to_move", "all_actions", "last_steps"):
            assert opened[key] == stored[key], (ply, key)
        assert opened["record"] == text and opened["source"] == "record"
    assert client.post("/api/records/replay", json={"record": text}).json()["ply"] == 7


def test_a_resigned_game_keeps_its_result_through_its_record(client):
    state = played(client, "jump61(size=3)", ["1 1"])
    client.post(f"/api/games/{state['id']}/resign", json={"player": 1})
    text = client.get(f"/api/archive/web/{state['id']}/record").text
    assert read_record(text).result == "1-0"
    opened = client.post("/api/records/replay", json={"record": text}).json()
    assert opened["outcome"]["winner"] == 0 and "resigned" in opened["outcome"]["text"]


def test_a_bad_record_is_a_400_that_says_where(client):
    text = '[Game "kaboom"]\n[Result "*"]\n\n1. A\n1... Q\n*\n'
    assert_error(client.post("/api/records/replay", json={"record": text}), 400, "line 5, column 6", "'Q'")
    assert_error(client.post("/api/records/replay", json={"record": '[Game "chess"]\n*\n'}), 400, "unknown game")
    lone = '{"record": "[Game \\"kaboom\\"]\\n[X \\"\\ud800\\"]\\n\\n*\\n"}'  # JSON may name half a pair
    response = client.post("/api/records/replay", content=lone, headers={"content-type": "application/json"})
    assert_error(response, 400, "line 2, column 5", "UTF-16")
    good = '[Game "kaboom"]\n\n1. A\n*\n'
    assert_error(client.post("/api/records/replay", json={"record": good, "ply": 2}), 404, "ply must be 0..1")
    unfinished = client.post("/api/records/replay", json={"record": good}).json()
    assert unfinished["outcome"] is None and unfinished["caption"].startswith("Not finished")


def _age(db, game_id, seconds):
    """Make a game's last move ``seconds`` old, as if nobody had touched it since."""
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE games SET updated = ? WHERE id = ?", (time.time() - seconds, game_id))


def test_the_games_list_filters_by_game_and_status_and_leaves_abandoned_games_out(client, db):
    kaboom = played(client, "kaboom", ["A"])
    jump61 = played(client, "jump61(size=3)", [])
    finished = played(client, "kaboom(rows=5)", [])
    client.post(f"/api/games/{finished['id']}/resign", json={"player": 0})
    _age(db, jump61["id"], ABANDONED_AFTER_SECONDS + 60)
    _age(db, kaboom["id"], ABANDONED_AFTER_SECONDS - 3600)  # old, but not abandoned yet

    def ids(query=""):
        answer = client.get(f"/api/games{query}").json()
        assert answer["abandoned_after"] == ABANDONED_AFTER_SECONDS
        return {g["id"] for g in answer["games"]}

    assert ids() == {kaboom["id"], finished["id"]}
    assert ids("?status=abandoned") == {jump61["id"]}
    assert ids("?status=playing") == {kaboom["id"]}
    assert ids("?status=finished") == {finished["id"]}
    assert ids("?game=kaboom") == {kaboom["id"], finished["id"]}  # any variant of the game
    assert ids("?game=jump61&status=abandoned") == {jump61["id"]}
    assert ids("?game=kab") == set()
    assert_error(client.get("/api/games?status=old"), 400, "unknown status", "abandoned")


def test_a_deleted_game_is_gone_for_good(client):
    state = played(client, "kaboom", ["A"])
    response = client.request("DELETE", f"/api/games/{state['id']}", json={})
    assert response.status_code == 200 and response.json() == {"deleted": state["id"]}
    assert_error(client.get(f"/api/games/{state['id']}"), 404, "no game")
    assert state["id"] not in {g["id"] for g in client.get("/api/games?status=playing").json()["games"]}
    assert_error(client.request("DELETE", f"/api/games/{state['id']}", json={}), 404, "no game")


def test_a_game_whose_ai_is_thinking_is_deleted_and_its_ai_stopped(client):
    state = client.post("/api/games", json={"game": "kaboom", "players": ["ai:time=5", "human"]}).json()
    session = client.app.state.service.sessions[state["id"]]
    assert session.thinking
    response = client.request("DELETE", f"/api/games/{state['id']}", json={})
    assert response.status_code == 200
    assert_error(client.get(f"/api/games/{state['id']}"), 404, "no game")
    assert state["id"] not in client.app.state.service.sessions and session.task is None


def test_records_written_by_the_web_app_are_the_records_module_s(client):
    state = played(client, "chain_reaction(rows=3,cols=3)", ["a1", "c3"])
    text = client.get(f"/api/archive/web/{state['id']}/record").text
    assert write_record(read_record(text)) == text


def test_a_restarted_server_resumes_games_in_progress_but_not_abandoned_ones(db):
    with TestClient(create_app(db, WebSettings(workers=0))) as client:
        recent = played(client, "kaboom", [], players=("human", "human"))
        old = played(client, "kaboom", [], players=("human", "human"))
    _age(db, old["id"], ABANDONED_AFTER_SECONDS + 60)
    with TestClient(create_app(db, WebSettings(workers=0))) as client:
        assert recent["id"] in client.app.state.service.sessions
        assert old["id"] not in client.app.state.service.sessions
        assert client.get(f"/api/games/{old['id']}").json()["id"] == old["id"]  # opened, it is played on
