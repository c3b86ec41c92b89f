"""A game belongs to the client that made it: through a real ``boomboard
serve``, another client (another owner token, or none) may list, watch and
copy the game, and gets a 403 for every change (a move, an undo, a
resignation, a stop, a pause, a deletion); the owner may do them all. A game
stored before owners is adopted by the first client that changes it."""

from __future__ import annotations

import sqlite3

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("fastapi")
from web_helpers import serving  # noqa: E402

A = {"X-Boomboard-Owner": "client-a-own-token-0123"}
B = {"X-Boomboard-Owner": "client-b-own-token-4567"}


def refused(answer) -> None:
    """A change refused as another client's: a 403 that says whose the game is."""
    assert answer.status_code == 403, answer.text[:300]
    assert "belongs to the client that created it" in answer.json()["error"], answer.text


def changes(game_id: str, watched: bool) -> list[tuple[str, str, dict]]:
    """Every change a client may ask of a game: ``(method, path, body)``."""
    path = f"/api/games/{game_id}"
    if watched:  # a game of AI against AI is paused and stopped, not played
        return [("POST", f"{path}/pause", {"paused": True}), ("POST", f"{path}/stop", {}), ("DELETE", path, {})]
    return [("POST", f"{path}/moves", {"move": "B"}), ("POST", f"{path}/undo", {}), ("POST", f"{path}/resign", {}),
            ("DELETE", path, {})]


def test_only_the_client_that_made_a_game_may_change_it_and_any_may_watch_and_copy_it(tmp_path):
    with serving(tmp_path, "--workers", "1") as address, \
            httpx.Client(base_url=address, headers=A, timeout=60) as a, \
            httpx.Client(base_url=address, headers=B, timeout=60) as b, \
            httpx.Client(base_url=address, timeout=60) as nobody:
        played = a.post("/api/games", json={"game": "kaboom", "players": ["human", "human"]}).json()
        assert a.post(f"/api/games/{played['id']}/moves", json={"move": "A"}).status_code == 200
        watched = a.post("/api/games", json={"game": "kaboom", "players": ["random", "random"], "pace": 5}).json()
        for game, is_watched in ((played, False), (watched, True)):
            for other in (b, nobody):
                for method, path, body in changes(game["id"], is_watched):
                    refused(other.request(method, path, json=body))
                assert other.get(f"/api/games/{game['id']}").status_code == 200  # others may watch
        listed = {entry["id"] for entry in b.get("/api/games").json()["games"]}
        assert {played["id"], watched["id"]} <= listed
        state = b.get(f"/api/games/{played['id']}").json()
        copy = b.post("/api/games", json={"game": state["game"], "position": state["position"],
                                          "players": ["human", "human"]})
        assert copy.status_code == 201 and copy.json()["ply"] == 0  # a copy from its position is B's own
        assert b.post(f"/api/games/{copy.json()['id']}/moves", json={"move": "C"}).status_code == 200
        refused(a.post(f"/api/games/{copy.json()['id']}/moves", json={"move": "D"}))
        assert a.get(f"/api/games/{played['id']}").json()["ply"] == 1  # nothing B asked was done
        # the owner may do each of them
        for game, is_watched in ((played, False), (watched, True)):
            for method, path, body in changes(game["id"], is_watched):
                answer = a.request(method, path, json=body)
                assert answer.status_code == 200, (path, answer.text)
        assert a.get(f"/api/games/{played['id']}").status_code == 404


def test_a_client_without_a_token_gets_one_and_changes_its_game_with_it(tmp_path):
    with serving(tmp_path, "--workers", "1") as address, httpx.Client(base_url=address, timeout=60) as client:
        game = client.post("/api/games", json={"game": "kaboom", "players": ["human", "human"]}).json()
        token = game["owner_token"]
        refused(client.post(f"/api/games/{game['id']}/moves", json={"move": "A"}))
        played = client.post(f"/api/games/{game['id']}/moves", json={"move": "A"},
                             headers={"X-Boomboard-Owner": token})
        assert played.status_code == 200 and played.json()["ply"] == 1
        bad = client.post(f"/api/games/{game['id']}/moves", json={"move": "B"}, headers={"X-Boomboard-Owner": "x"})
        assert bad.status_code == 400 and "owner token" in bad.json()["error"]


def test_a_game_stored_before_owners_is_adopted_by_the_first_client_that_changes_it(tmp_path):
    db = tmp_path / "web.sqlite3"
    old = sqlite3.connect(db)
    old.executescript("""
        CREATE TABLE games (id TEXT PRIMARY KEY, game TEXT NOT NULL, position TEXT, actions TEXT NOT NULL,
            players TEXT NOT NULL, resigned INTEGER, seed INTEGER NOT NULL, pace REAL NOT NULL DEFAULT 0,
            finished INTEGER NOT NULL DEFAULT 0, created REAL NOT NULL, updated REAL NOT NULL,
            version INTEGER NOT NULL DEFAULT 1);
        INSERT INTO games VALUES ('old', 'kaboom', NULL, '[]', '["human", "human"]', NULL, 1, 0, 0, 1, 1e10, 1);
    """)
    old.commit()
    old.close()
    with serving(tmp_path, "--workers", "1") as address, \
            httpx.Client(base_url=address, headers=A, timeout=60) as a, \
            httpx.Client(base_url=address, headers=B, timeout=60) as b:
        assert a.post("/api/games/old/moves", json={"move": "A"}).status_code == 200
        refused(b.post("/api/games/old/moves", json={"move": "B"}))
        assert a.post("/api/games/old/moves", json={"move": "B"}).json()["ply"] == 2
