"""The lab's store against a second process and against damage: a second
``boomboard explore`` of a store in use is refused, naming the first, which
ends with every variant whole; a variant's solve works in a folder of its
own; a file that is not a lab store (the web app's database) is refused
untouched; a damaged store is one line for the command and a 503 that names
no file for the web page."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

import boomboard
from boomboard import solver
from boomboard.lab import Settings, Store, explore, parse_grid
from boomboard.lab.store import StoreError
from boomboard.lab.sweep import work_folder
from test_lab_parts import stored_parts

GRID = ["--rows", "3", "--cols", "3", "--connect", "3", "--bombs", "0,1"]
# 3x3 with no bomb has 694 positions, with one bomb 39,329 (finished ones counted): both within the budget
POSITIONS = {0: 694, 1: 39_329}


def explore_process(store, *extra: str) -> subprocess.Popen:
    """A real ``boomboard explore`` of the 3x3 grid into ``store`` (its own process group)."""
    return subprocess.Popen([sys.executable, "-m", "boomboard", "explore", "kaboom", *GRID, "--depth", "2",
                             "--workers", "1", "--store", str(store), "--quiet", *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)


def wait_for(condition, what: str, process: subprocess.Popen | None = None, seconds: float = 300) -> None:
    """Poll ``condition`` until it holds; fails if ``process`` ends first or the deadline passes."""
    deadline = time.monotonic() + seconds
    while not condition():
        if process is not None:
            assert process.poll() is None, f"the process ended before {what}: {process.stdout.read()}"
        assert time.monotonic() < deadline, f"{what} within {seconds} s"
        time.sleep(0.05)


def test_a_second_explore_of_a_store_in_use_is_refused_naming_the_first_which_ends_whole(tmp_path):
    store = tmp_path / "lab.sqlite"
    first = explore_process(store, "--games", "8")
    lock = tmp_path / "lab.sqlite.lock"
    wait_for(lambda: (lock.is_file() and lock.read_text().strip() == str(first.pid)) or stored_parts(store),
             "the first sweep at work", first)
    os.killpg(first.pid, signal.SIGSTOP)  # held at work while the second one starts: no race on who ends first
    try:
        second = explore_process(store, "--games", "8")
        output, _ = second.communicate(timeout=300)
    finally:
        os.killpg(first.pid, signal.SIGCONT)
    lines = output.strip().splitlines()
    assert second.returncode != 0, output
    assert len(lines) == 1 and "in use" in lines[0] and str(first.pid) in lines[0] and str(store) in lines[0]
    output, _ = first.communicate(timeout=600)
    assert first.returncode == 0, output
    with Store(store) as opened:
        rows = opened.rows()
    assert {row.params["bombs"]: row.exact["positions"] for row in rows} == POSITIONS
    assert all(row.estimate["games"] == 8 for row in rows)


def test_a_store_held_by_a_sweep_is_free_again_once_it_ends(tmp_path):
    grid = parse_grid("kaboom", {"rows": "2", "cols": "2", "connect": "2", "bombs": "0"})
    for _ in range(2):  # the second sweep finds the store free, and nothing left to do
        with Store(tmp_path / "lab.sqlite") as store:
            explore(grid, store, Settings(games=0, workers=1))
            assert len(store.rows()) == 1


def test_a_finished_solve_left_in_a_variants_folder_is_used_whatever_else_is_pending(tmp_path):
    """A sweep killed after a variant's solve finished, before its part was
    stored, resumes with that solve: the folder is the variant's, not a
    number that changes with what else is left to do."""
    variant = boomboard.load_game("kaboom(rows=3,cols=3,connect=3,bombs=0)")
    with Store(tmp_path / "lab.sqlite") as store:
        folder = work_folder(store, str(variant))
        solver.solve(variant, folder, progress=False, settings=solver.SolveSettings(method="memory"))
        (folder / "kept").write_text("")  # the folder's own file: gone only if the sweep used the folder
        grid = parse_grid("kaboom", {"rows": "2..3", "cols": "3", "connect": "3", "bombs": "0"})
        assert explore(grid, store, Settings(games=0, workers=1)) == 2
        assert work_folder(store, str(variant)) == folder  # the same with nothing pending
        rows = {row.variant: row for row in store.rows()}
    assert not folder.exists()
    assert rows[str(variant)].exact["positions"] == POSITIONS[0]


def test_a_solve_that_fails_is_not_stored_as_beyond_the_budget(tmp_path):
    variant = boomboard.load_game("kaboom(rows=3,cols=3,connect=3,bombs=0)")
    with Store(tmp_path / "lab.sqlite") as store:
        folder = work_folder(store, str(variant))
        folder.parent.mkdir(parents=True)
        folder.write_text("not a folder")  # the solve cannot work there
        grid = parse_grid("kaboom", {"rows": "3", "cols": "3", "connect": "3", "bombs": "0"})
        with pytest.raises(boomboard.BoomboardError):
            explore(grid, store, Settings(games=0, workers=1))
        assert store.rows() == []  # not measured: a later sweep tries again


def web_database(path) -> None:
    """The web app's database, as ``boomboard serve`` makes it."""
    pytest.importorskip("fastapi")
    from boomboard.web.store import GameStore

    GameStore(path).close()


def tables(path) -> set[str]:
    with sqlite3.connect(path) as connection:
        found = {name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    connection.close()
    return found


def test_explore_refuses_the_web_apps_database_in_one_line_and_leaves_it_untouched(tmp_path):
    database = tmp_path / "games.sqlite3"
    web_database(database)
    before = tables(database)
    result = subprocess.run([sys.executable, "-m", "boomboard", "explore", "kaboom", "--rows", "2", "--cols", "2",
                             "--connect", "2", "--bombs", "0", "--games", "0", "--store", str(database)],
                            capture_output=True, text=True, timeout=300)
    output = (result.stdout + result.stderr).strip()
    assert result.returncode == 2, output
    assert len(output.splitlines()) == 1 and "not a lab store" in output and str(database) in output
    assert tables(database) == before and not {"variants", "parts"} & before


def damaged_stores(tmp_path) -> dict:
    """Lab stores damaged three ways: a column missing, a row that is not JSON, the file cut short."""
    good = tmp_path / "good.sqlite"
    with Store(good) as store:
        explore(parse_grid("kaboom", {"rows": "2..3", "cols": "3", "connect": "3", "bombs": "0"}), store,
                Settings(games=2, depth=1, workers=1))
    stores = {}
    missing = tmp_path / "missing.sqlite"
    with sqlite3.connect(missing) as connection:
        connection.execute("CREATE TABLE variants (variant TEXT PRIMARY KEY, game TEXT, value TEXT)")
        connection.execute("INSERT INTO variants VALUES ('kaboom(rows=3,cols=3,connect=3,bombs=0)', 'kaboom', 'tie')")
    connection.close()
    stores["missing columns"] = missing
    bad_json = tmp_path / "bad-json.sqlite"
    bad_json.write_bytes(good.read_bytes())
    with sqlite3.connect(bad_json) as connection:
        connection.execute("UPDATE variants SET params = 'xyz', moves = '[1, 2'")
    connection.close()
    stores["bad JSON"] = bad_json
    truncated = tmp_path / "truncated.sqlite"
    data = good.read_bytes()
    truncated.write_bytes(data[:len(data) // 2])
    stores["truncated"] = truncated
    return stores


def test_damaged_lab_stores_are_one_line_naming_the_file(tmp_path):
    for damage, path in damaged_stores(tmp_path).items():
        with pytest.raises(StoreError) as raised:
            with Store(path) as store:
                store.rows("kaboom")
        message = str(raised.value)
        assert len(message.splitlines()) == 1 and str(path) in message, (damage, message)


def test_damaged_lab_stores_are_a_503_on_the_lab_page_that_names_no_file(tmp_path):
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from boomboard.web import WebSettings, create_app

    for damage, path in damaged_stores(tmp_path).items():
        app = create_app(tmp_path / f"web-{path.stem}.sqlite3", WebSettings(workers=0, lab_store=path))
        with TestClient(app, raise_server_exceptions=False) as client:
            response = client.get("/api/lab/kaboom")
        assert response.status_code == 503, (damage, response.text)
        detail = json.dumps(response.json())
        assert "cannot be read" in detail and str(tmp_path) not in detail and "Traceback" not in detail, damage
