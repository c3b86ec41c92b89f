"""Imports and the web app's database, round three: an import is one
transaction (a killed one stores nothing) that skips the games stored
already; an imported side is held to the server's agent limits; a damaged or
read-only database is refused with one line, and one bad row is left out of
the list; records are read as the rules allow (a byte order mark, a tie the
rules reached, one value a parameter)."""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

pytest.importorskip("fastapi")
import httpx  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

from boomboard.arena.store import open_store  # noqa: E402
from boomboard.records import RecordError, read_records, record_of_state, write_records  # noqa: E402
from boomboard.registry import load_game  # noqa: E402
from boomboard.web import WebSettings, create_app  # noqa: E402
from boomboard.web.store import GameStore  # noqa: E402
from test_hardening_storage import refused_with_one_line, serve, unprivileged  # noqa: E402
from web_helpers import OWNER, serving, wait_for  # noqa: E402

KABOOM = load_game("kaboom")


def boomboard(*args, **options) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "boomboard", *args], capture_output=True, text=True, timeout=600,
                          **options)


def stored_count(db) -> int:
    with sqlite3.connect(db) as connection:
        return connection.execute("SELECT COUNT(*) FROM games").fetchone()[0]


def distinct_records(count: int, plies: int = 5) -> str:
    """``count`` records of different Kaboom games (different first moves), not finished."""
    records = []

    def extend(state):
        if len(records) == count:
            return
        if len(state.history()) == plies or state.is_terminal():
            records.append(record_of_state(state, ["human", "human"]))
            return
        for action in state.legal_actions():
            child = state.clone()
            child.apply_action(action)
            extend(child)

    extend(KABOOM.new_initial_state())
    assert len(records) == count
    return write_records(records)


# -- item 9: an import is one transaction, and a second import skips what is stored ------

def test_an_import_killed_midway_stores_nothing_and_a_second_import_stores_each_game_once(tmp_path):
    records = tmp_path / "games.txt"
    records.write_text(distinct_records(10_000))
    db = tmp_path / "web.sqlite3"
    GameStore(db).close()
    process = subprocess.Popen([sys.executable, "-m", "boomboard", "games", "import", str(records), "--db", str(db)],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    os.set_blocking(process.stdout.fileno(), False)
    said = b""
    deadline = time.monotonic() + 600
    # kill it once it stores: it says so, or (as an import did) its first games are in the file
    while process.poll() is None and b"storing" not in said and stored_count(db) == 0:
        assert time.monotonic() < deadline, said
        try:
            said += os.read(process.stdout.fileno(), 65536)
        except BlockingIOError:  # nothing said yet
            time.sleep(0.01)
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=60)
    assert stored_count(db) == (10_000 if process.returncode == 0 else 0), said
    first = boomboard("games", "import", str(records), "--db", str(db))
    assert first.returncode == 0, first.stdout + first.stderr
    assert stored_count(db) == 10_000
    # a file of games stored already, imported again: each is skipped (the first 500 of the same games show it
    # as well as all 10,000, each looked up alone, and are read in a twentieth of the CPU time)
    some = tmp_path / "some.txt"
    some.write_text(distinct_records(500))
    again = boomboard("games", "import", str(some), "--db", str(db))
    assert again.returncode == 0, again.stdout + again.stderr
    assert "0 games imported" in again.stdout and "500 skipped" in again.stdout.replace(",", "")
    assert stored_count(db) == 10_000


# -- item 5: an imported side is held to the server's agent limits ------------------------

RECORD = """[Game "kaboom"]
[X "human"]
[O "{side}"]
[Result "*"]

1. A
*
"""


def test_an_imported_side_past_the_servers_limits_is_stored_as_human_and_said_so(tmp_path):
    records = tmp_path / "games.txt"
    records.write_text("\n".join(RECORD.format(side=side) for side in ("ai:time=1000",
                                                                       "alphabeta:table_bits=29,time=5")))
    imported = boomboard("games", "import", str(records), "--db", str(tmp_path / "web.sqlite3"))
    assert imported.returncode == 0, imported.stdout + imported.stderr
    assert "O 'ai:time=1000' is stored as human" in imported.stdout, imported.stdout
    assert "time <= 10" in imported.stdout and "table_bits" in imported.stdout
    with serving(tmp_path, "--workers", "1") as address, httpx.Client(base_url=address, timeout=60) as client:
        for entry in client.get("/api/games").json()["games"]:
            game = client.get(f"/api/games/{entry['id']}").json()
            assert game["players"] == ["human", "human"] and not game["thinking"], game["players"]


def test_a_stored_side_past_the_servers_limits_is_not_played_and_the_page_says_why(tmp_path):
    db = tmp_path / "web.sqlite3"
    GameStore(db).close()
    with sqlite3.connect(db) as connection:  # as an import before the limits stored it
        connection.execute("INSERT INTO games (id, game, position, actions, players, seed, created, updated) "
                           "VALUES ('greedy', 'kaboom', NULL, '[0]', '[\"human\", \"ai:time=1000\"]', 1, 1, ?)",
                           (time.time(),))
    with serving(tmp_path, "--workers", "1") as address, httpx.Client(base_url=address, timeout=60) as client:
        game = wait_for(client, "greedy", lambda state: state["error"] or state["ply"] > 1, seconds=60)
        assert "time <= 10" in game["error"] and game["ply"] == 1 and not game["thinking"], game["error"]


# -- item 8: damaged and read-only databases, one bad row ----------------------------------

def games_database(db, count: int = 300) -> None:
    """A web database of ``count`` finished games: several pages of rows."""
    store = GameStore(db)
    with sqlite3.connect(db) as connection:
        connection.executemany("INSERT INTO games (id, game, position, actions, players, seed, finished, created, "
                               "updated) VALUES (?, 'kaboom', NULL, ?, '[\"human\", \"human\"]', 1, 1, 1, 1)",
                               [(f"g{n}", json.dumps([n % 4] * 3)) for n in range(count)])
    store.close()


def damage(db) -> None:
    """Overwrite part of a page in the middle of ``db``'s rows, as a failing disk might."""
    with sqlite3.connect(db) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page_size = connection.execute("PRAGMA page_size").fetchone()[0]
    with open(db, "r+b") as file:
        file.seek(db.stat().st_size // page_size // 2 * page_size)  # a page of rows, not a table's empty root
        file.write(b"\xff" * page_size)


def test_serve_refuses_a_damaged_database_with_one_line_that_names_it_and_the_fix(tmp_path):
    db = tmp_path / "web.sqlite3"
    games_database(db)
    damage(db)
    line = refused_with_one_line(serve(db, tmp_path, "--arena-db", str(tmp_path / "arena.sqlite3")), tmp_path)
    assert str(db) in line and "damaged" in line and ".recover" in line


def test_the_arena_refuses_a_damaged_database_with_one_line_that_names_it_and_the_fix(tmp_path):
    db = tmp_path / "arena.sqlite3"
    open_store(db).close()
    with sqlite3.connect(db) as connection:
        connection.executemany("INSERT INTO tournaments (game, players, kind, settings, created) "
                               "VALUES ('kaboom', '[]', 'match', ?, '2026-11-29')", [("{}" * 20,)] * 300)
    damage(db)
    line = refused_with_one_line(["games", "list", "--db", str(db)], tmp_path)
    assert str(db) in line and "damaged" in line and ".recover" in line


def test_serve_refuses_a_read_only_database_with_one_line_rather_than_a_503_at_each_move(tmp_path):
    prefix = unprivileged()
    db = tmp_path / "web.sqlite3"
    games_database(db, 1)
    db.chmod(0o444)
    tmp_path.chmod(0o777)  # the folder writable by anyone: only the file is read-only
    line = refused_with_one_line(serve(db, tmp_path, "--arena-db", str(tmp_path / "arena.sqlite3")), tmp_path,
                                 prefix)
    assert str(db) in line and "read-only" in line


def test_one_damaged_row_is_left_out_of_the_list_refused_alone_and_can_be_deleted(tmp_path):
    db = tmp_path / "web.sqlite3"
    games_database(db, 3)
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE games SET actions = 'xyz' WHERE id = 'g1'")
    with TestClient(create_app(db, WebSettings(workers=0))) as client:
        listed = client.get("/api/games")
        assert listed.status_code == 200, listed.text
        assert {game["id"] for game in listed.json()["games"]} == {"g0", "g2"}
        opened = client.get("/api/games/g1")
        assert opened.status_code == 409 and "damaged" in opened.json()["error"], opened.text
        assert client.request("DELETE", "/api/games/g1", json={}).status_code == 200
    assert stored_count(db) == 2


# -- item 10: records read as the rules allow; smaller faults of imported games -----------

def test_a_record_file_with_a_byte_order_mark_is_imported(tmp_path):
    records = tmp_path / "games.txt"
    records.write_bytes(RECORD.format(side="human").encode("utf-8-sig"))
    imported = boomboard("games", "import", str(records), "--db", str(tmp_path / "web.sqlite3"))
    assert imported.returncode == 0 and "1 games imported" in imported.stdout, imported.stdout + imported.stderr


@pytest.mark.parametrize("tags, result, expected", [
    ('[Game "kaboom"]', "1/2-1/2", "a tie the rules did not reach"),
    ('[Game "kaboom(rows=5)"]\n[Parameters "rows=4"]', "*", "contradicts the Game tag"),
    ('[Game "kaboom"]\n[Parameters "rows=5,rows=4"]', "*", "given twice"),
])
def test_a_record_that_claims_what_the_rules_or_its_tags_deny_is_refused(tags, result, expected):
    with pytest.raises(RecordError, match=expected):
        read_records(f"{tags}\n\n1. A\n{result}\n")


def test_the_same_parameters_in_the_game_tag_and_the_parameters_tag_are_one_game():
    record, = read_records('[Game "kaboom(rows=5)"]\n[Parameters "rows=5,cols=5"]\n\n1. A\n*\n')
    assert load_game(record.game).get_parameters()["rows"] == 5 and load_game(record.game).get_parameters()["cols"] == 5


def test_an_imported_game_of_unknown_sides_undoes_into_a_game_people_play(tmp_path):
    records = tmp_path / "games.txt"
    records.write_text('[Game "kaboom"]\n[Result "1-0"]\n\n1. A\n1... B\n1-0\n')  # sides unknown: "?"
    db = tmp_path / "web.sqlite3"
    assert boomboard("games", "import", str(records), "--db", str(db)).returncode == 0
    with TestClient(create_app(db, WebSettings(workers=0))) as client:
        game_id = client.get("/api/games").json()["games"][0]["id"]
        undone = client.post(f"/api/games/{game_id}/undo", json={}).json()
        assert undone["players"] == ["human", "human"] and undone["to_move"] == 1 and not undone["thinking"]


def test_a_stored_game_of_unknown_sides_says_why_nobody_moves(tmp_path):
    db = tmp_path / "web.sqlite3"
    GameStore(db).close()
    with sqlite3.connect(db) as connection:  # as an import before sides were checked stored it
        connection.execute("INSERT INTO games (id, game, position, actions, players, seed, created, updated) "
                           "VALUES ('unknown', 'kaboom', NULL, '[0]', '[\"?\", \"?\"]', 1, 1, ?)", (time.time(),))
    with TestClient(create_app(db, WebSettings(workers=0))) as client:
        game = wait_for(client, "unknown", lambda state: state["error"], seconds=60)
        assert "unknown agent" in game["error"] and not game["thinking"]


def test_deleting_a_game_with_its_event_stream_open_ends_the_stream_quietly(tmp_path):
    process = subprocess.Popen([sys.executable, "-m", "boomboard", "serve", "--port", "0", "--workers", "0",
                                "--db", str(tmp_path / "web.sqlite3")],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        address = re.search(r"http://127\.0\.0\.1:\d+/", process.stdout.readline()).group(0)
        with httpx.Client(base_url=address, headers=OWNER, timeout=60) as client:
            game = client.post("/api/games", json={"game": "kaboom", "players": ["human", "human"]}).json()
            with client.stream("GET", f"/api/games/{game['id']}/events") as stream:
                lines = stream.iter_lines()
                assert next(lines).startswith("data: ")  # the stream is open
                assert client.request("DELETE", f"/api/games/{game['id']}", json={}).status_code == 200
                rest = list(lines)  # the stream ends with the game
            assert not any(line.startswith("data: ") for line in rest), rest
    finally:
        process.send_signal(signal.SIGINT)
        output = process.communicate(timeout=60)[0]
    assert "Traceback" not in output and "Exception" not in output, output


def test_a_refused_learned_side_names_the_model_not_the_servers_path(tmp_path):
    models = tmp_path / "models"
    models.mkdir()
    (models / "mine.msgpack").write_bytes(b"not a model")
    with TestClient(create_app(tmp_path / "web.sqlite3", WebSettings(workers=0, models=models))) as client:
        for side in ("learned:mine", "learned:mine,sims=abc"):
            answer = client.post("/api/games", json={"game": "kaboom", "players": ["human", side]})
            assert answer.status_code == 400, answer.text
            assert str(models) not in answer.json()["error"] and "mine" in answer.json()["error"], answer.text
