"""The pages a newcomer meets first: rules, shared positions, the solver on
offer only where it can play, finished games with their result, a favicon."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

import boomboard  # noqa: E402
from boomboard.registry import game_names  # noqa: E402
from boomboard.web import WebSettings, create_app  # noqa: E402


@pytest.fixture
def client(tmp_path):
    (tmp_path / "tables").mkdir()  # an empty folder of tables: the solver has none
    with TestClient(create_app(tmp_path / "web.sqlite3", WebSettings(workers=0, solver_db=tmp_path / "tables"))) as client:
        yield client


@pytest.mark.parametrize("name", game_names())
def test_rules_page_and_its_data_for_every_game(client, name):
    page = client.get(f"/rules/{name}")
    assert page.status_code == 200 and "<main" in page.text  # the app's page, which draws the rules
    rules = client.get(f"/api/rules/{name}").json()
    assert rules["name"] == name and rules["title"] == boomboard.load_game(name).title
    assert "<h3>" in rules["html"] and "<pre" in rules["html"]
    example = rules["example"]
    assert example["state"]["layout"]["cells"] and example["move"]
    assert len(example["steps"]) >= 2  # a cascade: more than the move itself
    assert all(len(step["cells"]) == len(example["state"]["cells"]) for step in example["steps"])


def test_unknown_rules_are_a_clear_error(client):
    response = client.get("/api/rules/chess")
    assert response.status_code == 400 and "unknown game" in response.json()["error"]
    assert client.get("/rules/chess").status_code == 400


def test_a_shared_position_opens_for_analysis(client):
    game = boomboard.load_game("kaboom(rows=5)")
    state = game.new_initial_state()
    actions = [state.play("A"), state.play("B")]
    line = {"game": "kaboom(rows=5)", "position": None, "actions": actions}
    described = client.post("/api/position", json=line).json()
    assert described["game"] == "kaboom(rows=5)" and described["ply"] == 2
    assert described["position"] == state.to_notation() and described["to_move"] == 0
    again = client.post("/api/position", json={"game": "kaboom(rows=5)", "position": described["position"]}).json()
    assert again["cells"] == described["cells"] and again["ply"] == 0
    bad = client.post("/api/position", json={"game": "kaboom", "position": "(x 9 9 ----)"})
    assert bad.status_code == 400


def test_the_solver_is_offered_only_where_a_table_exists(client):
    assert client.get("/api/solver", params={"game": "kaboom(rows=3,cols=3,connect=3)"}).json() == {"table": False}


def test_finished_games_are_listed_with_their_result(client):
    state = client.post("/api/games", json={"game": "kaboom", "players": ["human", "human"]}).json()
    client.post(f"/api/games/{state['id']}/resign", json={})
    games = client.get("/api/games").json()["games"]
    assert games[0]["finished"] and games[0]["result"] == "O wins: X resigned"


def test_every_page_has_a_favicon(client):
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg")
    assert 'rel="icon"' in client.get("/").text


def test_a_live_game_sends_its_changes_as_server_sent_events(client):
    import json

    state = client.post("/api/games", json={"game": "jump61(size=3)", "players": ["human", "random"],
                                            "pace": 0}).json()
    client.post(f"/api/games/{state['id']}/moves", json={"move": "1 1"})
    seen = []
    with client.stream("GET", f"/api/games/{state['id']}/events") as events:
        assert events.headers["content-type"].startswith("text/event-stream")
        for line in events.iter_lines():
            if line.startswith("data: "):
                seen.append(json.loads(line[6:]))
                if seen[-1]["ply"] >= 2 and not seen[-1]["thinking"]:
                    break
    assert seen[-1]["ply"] == 2 and seen[-1]["moves"][1]["player"] == 1  # the AI's answer came by itself
    assert client.get("/api/games/nope/events").status_code == 404


def test_a_finished_games_stream_sends_the_end_and_closes(client):
    import json

    state = client.post("/api/games", json={"game": "kaboom", "players": ["human", "human"]}).json()
    client.post(f"/api/games/{state['id']}/resign", json={})
    with client.stream("GET", f"/api/games/{state['id']}/events") as events:
        data = [json.loads(line[6:]) for line in events.iter_lines() if line.startswith("data: ")]
    assert len(data) == 1 and data[0]["outcome"]["reason"] == "resignation"
