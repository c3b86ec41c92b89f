"""The web app's and the arena's databases: two servers on one file lose no
acknowledged move, a move the disk cannot take is not played (503), and a
file that cannot be used is refused with one line and exit code 2."""

from __future__ import annotations

import asyncio
import os
import shutil
import sqlite3
import subprocess
import sys

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

import boomboard  # noqa: E402
from boomboard.arena.store import StoreError, open_store  # noqa: E402
from boomboard.web import app as web_app  # noqa: E402
from boomboard.web import WebSettings, create_app  # noqa: E402
from boomboard.web.analysis import rebuild  # noqa: E402
from boomboard.web import service  # noqa: E402
from boomboard.web.service import Conflict, GameService  # noqa: E402
from boomboard.web.store import GameStore  # noqa: E402
from web_helpers import wait_for  # noqa: E402

KABOOM = boomboard.load_game("kaboom")


def opening_moves(count: int) -> list[str]:
    """The first legal move at each ply of a line, as notation: moves any game of Kaboom can take."""
    state, moves = KABOOM.new_initial_state(), []
    for _ in range(count):
        action = state.legal_actions()[0]
        moves.append(state.action_to_string(action))
        state.apply_action(action)
    return moves


def stored_actions(db, game_id) -> list[int]:
    """What a server starting now would read back."""
    store = GameStore(db)
    try:
        return store.load(game_id).actions
    finally:
        store.close()


def stored_moves(db, game_id) -> list[str]:
    return rebuild("kaboom", None, stored_actions(db, game_id)).history_strings()




# -- two servers on one database ---------------------------------------------------------

def test_two_servers_on_one_database_keep_every_acknowledged_move(tmp_path):
    db = tmp_path / "web.sqlite3"
    first, second, third = opening_moves(3)
    with TestClient(create_app(db, WebSettings(workers=0))) as a, TestClient(create_app(db, WebSettings(workers=0))) as b:
        game_id = a.post("/api/games", json={"game": "kaboom", "players": ["human", "human"]}).json()["id"]
        assert b.get(f"/api/games/{game_id}").json()["ply"] == 0  # B holds the game as it was
        for move in (first, second):
            assert a.post(f"/api/games/{game_id}/moves", json={"move": move}).status_code == 200
        # B reads the game back as A stored it before playing on it: nothing A acknowledged is lost
        assert b.get(f"/api/games/{game_id}").json()["ply"] == 2
        answer = b.post(f"/api/games/{game_id}/moves", json={"move": third})
        assert answer.status_code == 200, answer.text
        assert [m["text"] for m in answer.json()["moves"]] == [first, second, third]
        assert [m["text"] for m in a.get(f"/api/games/{game_id}").json()["moves"]] == [first, second, third]
    assert len(stored_actions(db, game_id)) == 3


class RacedStore(GameStore):
    """A store in which another server writes the game just before this
    store's next write: the race between reading a game and storing a move."""

    def __init__(self, path, race):
        super().__init__(path)
        self.race = race

    def save(self, record):
        race, self.race = self.race, None
        if race is not None:
            race()
        super().save(record)


def test_a_move_based_on_a_version_another_server_replaced_is_a_conflict_and_the_game_is_read_back(tmp_path):
    db = tmp_path / "web.sqlite3"
    a = GameService(GameStore(db), processes=False)
    game_id = asyncio.run(a.create("kaboom", {}, ["human", "human"])).record.id
    first, second = opening_moves(2)
    b = GameService(RacedStore(db, race=lambda: a.play(game_id, first)), processes=False)
    b.get(game_id)
    with pytest.raises(Conflict, match="another server"):
        b.play(game_id, "D")  # based on the empty game; A stored its move first
    assert stored_moves(db, game_id) == [first]  # A's acknowledged move is kept, B's is not played
    assert b.get(game_id).state.history_strings() == [first]  # B read the game back
    b.play(game_id, second)  # retried on the game as stored
    assert stored_moves(db, game_id) == [first, second]


def test_a_database_from_before_versions_is_read_and_played_on(tmp_path):
    db = tmp_path / "web.sqlite3"
    old = sqlite3.connect(db)
    old.executescript("""
        CREATE TABLE games (id TEXT PRIMARY KEY, game TEXT NOT NULL, position TEXT, actions TEXT NOT NULL,
            players TEXT NOT NULL, resigned INTEGER, seed INTEGER NOT NULL, pace REAL NOT NULL DEFAULT 0,
            finished INTEGER NOT NULL DEFAULT 0, created REAL NOT NULL, updated REAL NOT NULL);
        INSERT INTO games VALUES ('old', 'kaboom', NULL, '[0]', '["human", "human"]', NULL, 1, 0, 0, 1, 1);
    """)
    old.commit()
    old.close()
    with TestClient(create_app(db, WebSettings(workers=0))) as client:
        assert client.get("/api/games/old").json()["ply"] == 1
        assert client.post("/api/games/old/moves", json={"move": 1}).status_code == 200
    assert stored_actions(db, "old") == [0, 1]


# -- a full disk ---------------------------------------------------------------------------

class DiskFull:
    """A SQLite connection on a disk with ``room`` writes left (``None``: no
    limit): past them, a write fails as SQLite's does on a full disk; reads go through."""

    WRITES = ("INSERT", "UPDATE", "REPLACE", "DELETE", "BEGIN")

    def __init__(self, connection):
        self.connection = connection
        self.room: int | None = None

    def execute(self, sql, *args):
        if self.room is not None and sql.lstrip().upper().startswith(self.WRITES):
            if self.room == 0:
                raise sqlite3.OperationalError("database or disk is full")
            self.room -= 1
        return self.connection.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self.connection, name)


@pytest.fixture
def full_disk(monkeypatch):
    """Every games store the app opens writes through a :class:`DiskFull`; yields that connection."""
    opened = []

    class Store(GameStore):
        def __init__(self, path):
            super().__init__(path)
            self._db = DiskFull(self._db)
            opened.append(self._db)

    monkeypatch.setattr(web_app, "GameStore", Store)
    return opened


def test_moves_the_disk_cannot_take_are_refused_with_503_and_not_played(tmp_path, full_disk):
    db = tmp_path / "web.sqlite3"
    first, second = opening_moves(2)
    with TestClient(create_app(db, WebSettings(workers=0))) as client:
        disk = full_disk[0]
        game_id = client.post("/api/games", json={"game": "kaboom", "players": ["human", "human"]}).json()["id"]
        assert client.post(f"/api/games/{game_id}/moves", json={"move": first}).status_code == 200
        before = client.get(f"/api/games/{game_id}").json()
        disk.room = 0
        for path, body in ((f"/api/games/{game_id}/moves", {"move": second}), (f"/api/games/{game_id}/undo", {}),
                           (f"/api/games/{game_id}/resign", {}), ("/api/games", {"game": "kaboom"})):
            answer = client.post(path, json=body)
            assert answer.status_code == 503, (path, answer.text)
            assert "disk is full" in answer.json()["error"] and "nothing was changed" in answer.json()["error"]
        after = client.get(f"/api/games/{game_id}").json()
        assert (after["ply"], after["outcome"], after["legal"]) == (before["ply"], before["outcome"], before["legal"])
        assert len(client.get("/api/games").json()["games"]) == 1  # the refused new game is not listed
        disk.room = None
        assert client.post(f"/api/games/{game_id}/moves", json={"move": second}).json()["ply"] == 2
    assert len(stored_actions(db, game_id)) == 2  # every acknowledged move, and only those


def test_an_ai_move_the_disk_cannot_take_waits_shown_as_such_and_is_played_once_stored(tmp_path, full_disk):
    db = tmp_path / "web.sqlite3"
    with TestClient(create_app(db, WebSettings(workers=0))) as client:
        disk = full_disk[0]
        disk.room = 1  # the new game is stored; the AI's first move is not
        game = client.post("/api/games", json={"game": "kaboom", "players": ["random", "human"], "pace": 0})
        game_id = game.json()["id"]
        waiting = wait_for(client, game_id, lambda state: state["ply"] or "disk is full" in state["error"])
        assert waiting["ply"] == 0 and waiting["thinking"] and f"every {service.STORE_RETRY_SECONDS:g} s" in waiting["error"]
        assert stored_actions(db, game_id) == []
        disk.room = None
        played = wait_for(client, game_id, lambda state: state["ply"] == 1 and not state["thinking"])
        assert played["error"] == ""
        assert stored_actions(db, game_id) == played["actions"]


def test_the_arena_refuses_a_write_its_database_cannot_take_with_a_store_error(tmp_path):
    store = open_store(tmp_path / "arena.sqlite3")
    store._db = DiskFull(store._db)
    store._db.room = 0
    with pytest.raises(StoreError, match="disk is full"):
        store.create_tournament("kaboom", ["random", "greedy"], "match", {}, [("random", "greedy")])
    with pytest.raises(StoreError, match="disk is full"):
        store.begin_game("kaboom", ["random", "greedy"], {})


# -- files that cannot be used ---------------------------------------------------------------

def unprivileged() -> list[str]:
    """A command prefix under which file permissions hold: none for a user,
    root's override of them dropped for root (skips where that cannot be done)."""
    if os.geteuid() != 0:
        return []
    drop = ["setpriv", "--inh-caps=-dac_override,-dac_read_search", "--bounding-set=-dac_override,-dac_read_search"]
    if shutil.which("setpriv") is None or subprocess.run([*drop, "true"], capture_output=True).returncode != 0:
        pytest.skip("running as root, and file permissions cannot be made to hold (no setpriv)")
    return drop


def refused_with_one_line(args, tmp_path, prefix=()) -> str:
    """Run ``boomboard ARGS``; assert it exits 2 having printed one line; return that line."""
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")}  # the user's own files are never touched
    done = subprocess.run([*prefix, sys.executable, "-m", "boomboard", *args], capture_output=True, text=True,
                          timeout=300, env=env)
    output = (done.stdout + done.stderr).strip()
    assert done.returncode == 2, output
    assert "Traceback" not in output and len(output.splitlines()) == 1, output
    assert output.startswith("error: "), output
    return output


def serve(db, tmp_path, *extra) -> list[str]:
    return ["serve", "--port", "0", "--workers", "0", "--db", str(db), *extra]


def test_serve_refuses_a_file_that_is_not_a_database(tmp_path):
    junk = tmp_path / "notes.txt"
    junk.write_text("not a database\n" * 100)
    line = refused_with_one_line(serve(junk, tmp_path, "--arena-db", str(tmp_path / "arena.sqlite3")), tmp_path)
    assert str(junk) in line and "not a database" in line


def test_serve_refuses_the_arenas_database_named_or_by_default(tmp_path):
    arena = tmp_path / "arena.sqlite3"
    open_store(arena).close()
    line = refused_with_one_line(serve(arena, tmp_path, "--arena-db", str(tmp_path / "other.sqlite3")), tmp_path)
    assert "the arena's database" in line and str(arena) in line
    line = refused_with_one_line(serve(arena, tmp_path, "--arena-db", str(arena)), tmp_path)
    assert "--arena-db" in line and "a file of their own" in line
    default_arena = tmp_path / "data" / "boomboard" / "arena.sqlite3"
    line = refused_with_one_line(serve(default_arena, tmp_path), tmp_path)
    assert "the arena's database" in line


def test_serve_refuses_the_same_new_file_as_arena_db_before_writing_it(tmp_path):
    shared = tmp_path / "shared.sqlite3"
    line = refused_with_one_line(serve(shared, tmp_path, "--arena-db", str(shared)), tmp_path)
    assert "--arena-db" in line and not shared.exists()


def test_the_arena_refuses_the_web_apps_database_and_leaves_it_usable(tmp_path):
    db = tmp_path / "web.sqlite3"
    GameStore(db).close()
    with pytest.raises(StoreError, match="another program's"):
        open_store(db)
    GameStore(db).close()  # not turned into a half arena file


@pytest.mark.parametrize("where", ["folder", "under a file"])
def test_serve_refuses_a_path_where_no_database_can_be(tmp_path, where):
    (tmp_path / "plain").write_text("")
    db = {"folder": tmp_path, "under a file": tmp_path / "plain" / "web.sqlite3"}[where]
    line = refused_with_one_line(serve(db, tmp_path, "--arena-db", str(tmp_path / "arena.sqlite3")), tmp_path)
    assert str(db) in line and ("folder" in line or "Not a directory" in line)


def test_serve_refuses_a_database_in_a_read_only_folder(tmp_path):
    prefix = unprivileged()
    folder = tmp_path / "read-only"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        line = refused_with_one_line(serve(folder / "web.sqlite3", tmp_path, "--arena-db",
                                           str(tmp_path / "arena.sqlite3")), tmp_path, prefix)
    finally:
        folder.chmod(0o755)
    assert "must be writable" in line and str(folder) in line


def test_match_refuses_a_read_only_database_with_one_line(tmp_path):
    prefix = unprivileged()
    db = tmp_path / "arena.sqlite3"
    open_store(db).close()
    db.chmod(0o444)
    line = refused_with_one_line(["match", "kaboom", "random", "greedy", "--games", "2", "--db", str(db)], tmp_path,
                                 prefix)
    assert "readonly" in line and str(db) in line
