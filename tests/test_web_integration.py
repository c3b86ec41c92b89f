"""The web app over the real arena store (and the real solver, where it is
installed): what the stand-ins of ``web_fakes`` promise, checked against the
modules themselves."""

from __future__ import annotations

import math
import time

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from boomboard.arena.referee import Limits  # noqa: E402
from boomboard.arena.store import open_store  # noqa: E402
from boomboard.arena.tournament import create_tournament, run_tournament  # noqa: E402
from boomboard.core.errors import ParameterError  # noqa: E402
from boomboard.web import WebSettings, archive, create_app  # noqa: E402

GAMES = 3  # an odd number: greedy moves first twice, random once


@pytest.fixture(scope="module")
def arena_db(tmp_path_factory):
    """A real tournament, played by agent processes into a real arena database."""
    path = tmp_path_factory.mktemp("arena") / "arena.sqlite3"
    store = open_store(path)
    tournament_id = create_tournament(store, "kaboom", ["greedy", "random"], "match", GAMES,
                                      Limits(move_wall=30.0), seed=5)
    run_tournament(store, tournament_id, workers=1)
    # a game the arena was stopped in: left unfinished, then marked aborted
    aborted = store.begin_game("kaboom", ["greedy", "random"], {})
    store.add_action(aborted, 0, 3, 0.01)
    store.abort_game(aborted, "the arena was stopped during the game")
    store.close()
    return path


@pytest.fixture(scope="module")
def client(arena_db, tmp_path_factory):
    web_db = tmp_path_factory.mktemp("web") / "web.sqlite3"
    with TestClient(create_app(web_db, WebSettings(workers=0), arena=open_store(arena_db))) as client:
        yield client


def tournament_games(arena_db):
    store = open_store(arena_db)
    try:
        return [g for g in store.games(limit=100) if g.tournament_id is not None]
    finally:
        store.close()


def test_arena_games_are_listed_with_their_players_length_and_result(client, arena_db):
    listed = client.get("/api/archive/arena").json()["games"]
    recorded = {g.id: g for g in tournament_games(arena_db)}
    assert len(recorded) == GAMES
    by_id = {g["id"]: g for g in listed}
    assert set(recorded) < set(by_id)
    for game_id, record in recorded.items():
        shown = by_id[game_id]
        assert shown["game"] == record.game == "kaboom"
        assert shown["players"] == record.players and sorted(shown["players"]) == ["greedy", "random"]
        assert shown["plies"] == len(record.actions) > 0
        assert shown["winner"] == record.winner and shown["reason"] == record.reason
        assert shown["status"] == "done" and shown["finished"] is True
        # the page shows a date from seconds since 1970, as for its own games
        assert isinstance(shown["started"], float) and shown["started"] > 1.6e9
    tournament_id = next(iter(recorded.values())).tournament_id
    only = client.get(f"/api/archive/arena?tournament={tournament_id}").json()["games"]
    assert sorted(g["id"] for g in only) == sorted(recorded)
    assert client.get("/api/archive/arena?limit=1").json()["games"][0]["id"] == max(by_id)


def test_every_arena_game_replays_to_its_recorded_result(client, arena_db):
    names = ("X", "O")
    for record in tournament_games(arena_db):
        end = client.get(f"/api/replay/arena/{record.id}").json()
        assert end["ply"] == end["length"] == len(record.actions)
        assert end["all_actions"] == record.actions and end["players"] == record.players
        assert end["outcome"]["winner"] == record.winner
        if record.winner is not None:
            assert end["outcome"]["text"].startswith(f"{names[record.winner]} wins")
        assert end["outcome"]["text"] == record.reason  # the arena wrote the rules' own sentence
        first = client.get(f"/api/replay/arena/{record.id}?ply=1").json()
        assert first["ply"] == 1 and first["actions"] == record.actions[:1] and first["outcome"] is None


def test_a_game_the_arena_stopped_is_not_shown_as_a_tie(client):
    listed = client.get("/api/archive/arena?limit=1").json()["games"][0]
    assert listed["status"] == "aborted" and listed["plies"] == 1 and listed["finished"] is True
    end = client.get(f"/api/replay/arena/{listed['id']}").json()
    assert end["outcome"] is None and end["to_move"] is None
    assert "stopped" in end["caption"] and "Tie" not in end["caption"]


def test_unknown_arena_games_are_404(client):
    for game_id in ("999", "abc"):
        response = client.get(f"/api/replay/arena/{game_id}")
        assert response.status_code == 404 and game_id in response.json()["error"]


def test_the_tournament_and_its_real_standings(client, arena_db):
    tournaments = client.get("/api/tournaments").json()["tournaments"]
    assert len(tournaments) == 1
    shown = tournaments[0]
    assert shown["game"] == "kaboom" and shown["players"] == ["greedy", "random"]
    assert shown["kind"] == "match" and shown["slots"] == shown["played"] == GAMES
    standings = client.get(f"/api/tournaments/{shown['id']}").json()["standings"]
    assert sorted(s["agent"] for s in standings) == ["greedy", "random"]
    assert sum(s["score"] for s in standings) == GAMES
    assert all(s["games"] == GAMES and s["wins"] + s["ties"] + s["losses"] == GAMES for s in standings)
    wins = {r.players[r.winner] for r in tournament_games(arena_db) if r.winner is not None}
    for s in standings:
        assert s["wins"] == sum(1 for r in tournament_games(arena_db)
                                if r.winner is not None and r.players[r.winner] == s["agent"])
        # an Elo or interval that is infinite (all wins) is JSON null, never a failed response
        for key in ("elo", "elo_error"):
            assert s[key] is None or math.isfinite(s[key])
    assert wins <= {s["agent"] for s in standings}
    missing = client.get("/api/tournaments/42")
    assert missing.status_code == 404 and "42" in missing.json()["error"]


def test_the_arenas_own_rating_chart_is_a_png(client):
    tournament_id = client.get("/api/tournaments").json()["tournaments"][0]["id"]
    assert client.get("/api/catalog").json()["arena_chart"] is True
    chart = client.get(f"/api/tournaments/{tournament_id}/chart.png")
    assert chart.status_code == 200 and chart.headers["content-type"] == "image/png"
    assert chart.content.startswith(b"\x89PNG\r\n\x1a\n") and len(chart.content) > 1000


def test_the_default_arena_store_is_the_arenas_own_file(tmp_path, monkeypatch):
    import platformdirs

    from boomboard.arena import store as arena_store

    monkeypatch.setattr(platformdirs, "user_data_dir", lambda name: str(tmp_path / "data" / name))
    assert arena_store.default_path() == tmp_path / "data" / "boomboard" / "arena.sqlite3"
    opened = archive.open_arena_store()
    assert opened is not None and opened.path == str(arena_store.default_path())
    assert opened.tournaments() == [] and arena_store.default_path().exists()
    opened.close()
    explicit = archive.open_arena_store(tmp_path / "other.sqlite3")
    assert explicit.path == str(tmp_path / "other.sqlite3")
    explicit.close()
    (tmp_path / "junk.sqlite3").write_text("not a database " * 100)
    assert archive.open_arena_store(tmp_path / "junk.sqlite3") is None  # the web app starts without it


def test_the_app_opens_the_arena_file_it_is_given(tmp_path, arena_db):
    with TestClient(create_app(tmp_path / "web.sqlite3", WebSettings(workers=0, arena_db=arena_db))) as client:
        assert client.get("/api/catalog").json()["arena"] is True
        assert len(client.get("/api/tournaments").json()["tournaments"]) == 1
    (tmp_path / "junk.sqlite3").write_text("not a database " * 100)
    with pytest.raises(ParameterError, match="junk.sqlite3"):  # a file the user named is never ignored
        create_app(tmp_path / "web2.sqlite3", WebSettings(workers=0, arena_db=tmp_path / "junk.sqlite3"))


def test_an_agent_that_won_every_game_has_an_unbounded_elo_sent_as_null(tmp_path):
    store = open_store(tmp_path / "arena.sqlite3")
    tournament_id = store.create_tournament("kaboom", ["greedy", "random"], "match", {},
                                            [("greedy", "random"), ("random", "greedy")])
    for slot, (players, winner) in enumerate([(["greedy", "random"], 0), (["random", "greedy"], 1)]):
        game_id = store.begin_game("kaboom", players, {}, tournament_id, slot)
        store.add_action(game_id, 0, 3, 0.01)
        store.finish_game(game_id, winner, "greedy won")
    assert math.isinf(store.standings(tournament_id)[0].elo)  # what the arena itself reports
    with TestClient(create_app(tmp_path / "web.sqlite3", WebSettings(workers=0), arena=store)) as client:
        standings = client.get(f"/api/tournaments/{tournament_id}").json()["standings"]
        assert [(s["agent"], s["wins"], s["score"], s["elo"], s["elo_error"]) for s in standings] == [
            ("greedy", 2, 2.0, None, None), ("random", 0, 0.0, None, None)]
        chart = client.get(f"/api/tournaments/{tournament_id}/chart.png")
        assert chart.status_code == 200 and chart.content.startswith(b"\x89PNG")
    store.close()


# -- the real solver ------------------------------------------------------------------------------

SMALL = "kaboom(rows=3,cols=3,connect=3)"  # X wins in 15 (docs/results/solved.md)
LOOPY = "explocus(size=3,setup=.b1b1/.../w1w1. w)"  # has draws


@pytest.fixture(scope="module")
def solver_db(tmp_path_factory):
    solver = pytest.importorskip("boomboard.solver")
    import boomboard

    folder = tmp_path_factory.mktemp("solved")
    for game in (SMALL, LOOPY):
        solver.solve(boomboard.load_game(game), db=folder, progress=False)
    return folder


@pytest.fixture(scope="module")
def solver_client(solver_db, tmp_path_factory):
    web_db = tmp_path_factory.mktemp("web-solver") / "web.sqlite3"
    with TestClient(create_app(web_db, WebSettings(workers=0, solver_db=solver_db), arena=open_store(":memory:"))) as client:
        yield client


def expected_moves(state, solver_db):
    """Each legal move's value for its maker, read from the table itself, not from ``analyze``."""
    from boomboard import solver

    table = solver.open_table(state.game, db=solver_db)
    flipped = {"win": "lose", "lose": "win", "tie": "tie", "draw": "draw"}
    expected = {}
    for action in state.legal_actions():
        entry = table.lookup(state.child(action))
        expected[action] = (flipped[entry.value], None if entry.value == "draw" else entry.remoteness + 1)
    return expected


def test_the_solver_opens_the_game_object_the_web_app_passes(solver_db, tmp_path):
    import boomboard
    from boomboard import solver
    from boomboard import analysis

    assert analysis.solver is solver
    assert solver.open_table(boomboard.load_game(SMALL), db=solver_db) is not None
    assert analysis.has_table(SMALL, None, solver_db) and analysis.has_table(LOOPY, None, solver_db)
    assert not analysis.has_table(SMALL, None, tmp_path) and not analysis.has_table("kaboom", None, solver_db)


def test_every_legal_move_gets_the_tables_value(solver_client, solver_db):
    import boomboard

    state = boomboard.load_game(SMALL).new_initial_state()
    game = solver_client.post("/api/games", json={"game": SMALL, "players": ["human", "human"]}).json()
    data = solver_client.get(f"/api/games/{game['id']}/analysis").json()
    assert data["source"] == "solver" and (data["value"], data["remoteness"]) == ("win", 15)
    assert {m["id"]: (m["value"], m["remoteness"]) for m in data["moves"]} == expected_moves(state, solver_db)
    for move in ("B", "A*"):  # after a winning and a losing first move
        state.play(move)
        line = solver_client.post("/api/analysis", json={"game": SMALL, "actions": state.history()}).json()
        assert line["source"] == "solver"
        assert {m["id"]: (m["value"], m["remoteness"]) for m in line["moves"]} == expected_moves(state, solver_db)
    values = solver_client.post("/api/values", json={"game": SMALL, "actions": [1]}).json()["values"]
    # one side's words for one side's numbers: X, the first player, wins at both plies
    assert [(v["value"], v["exact"], v["label"]) for v in values] == [(1.0, True, "X wins in 15"),
                                                                      (1.0, True, "X wins in 14")]
    elsewhere = solver_client.post("/api/analysis", json={"game": "kaboom(rows=4,cols=4)", "actions": []}).json()
    assert elsewhere["source"] == "search"  # no table: a search instead


def test_a_draw_has_no_remoteness(solver_client, solver_db):
    import boomboard
    from boomboard import solver

    table = solver.open_table(boomboard.load_game(LOOPY), db=solver_db)
    draw = next(table.state_at(i) for i in range(len(table)) if table.entry_at(i).value == "draw")
    data = solver_client.post("/api/analysis", json={"game": LOOPY, "position": draw.to_notation()}).json()
    assert data["source"] == "solver" and (data["value"], data["remoteness"]) == ("draw", None)
    assert {m["id"]: (m["value"], m["remoteness"]) for m in data["moves"]} == expected_moves(draw, solver_db)
    values = solver_client.post("/api/values", json={"game": LOOPY, "position": draw.to_notation()}).json()
    assert values["values"] == [{"ply": 0, "value": 0.0, "exact": True, "label": "draw (never ends)"}]


def test_the_solver_side_plays_perfectly_from_the_table(solver_client):
    """Perfect play on both sides: X, who wins in 15, wins in exactly 15 plies."""
    game = solver_client.post("/api/games", json={"game": SMALL, "players": ["solver", "solver"], "pace": 0}).json()
    deadline = time.monotonic() + 120  # returns at once when done; room for a loaded machine
    while not (state := solver_client.get(f"/api/games/{game['id']}").json())["outcome"] and not state["error"]:
        assert time.monotonic() < deadline, state
        time.sleep(0.05)
    assert state["error"] == "" and state["ply"] == 15 and state["outcome"]["winner"] == 0


def test_the_solver_side_answers_a_human_with_a_best_move(solver_client, solver_db):
    import boomboard
    from boomboard import solver

    game = solver_client.post("/api/games", json={"game": SMALL, "players": ["human", "solver"]}).json()
    played = solver_client.post(f"/api/games/{game['id']}/moves", json={"move": "A*"}).json()  # a losing move
    deadline = time.monotonic() + 120  # returns at once when done; room for a loaded machine
    while (state := solver_client.get(f"/api/games/{game['id']}").json())["ply"] < 2 and not state["error"]:
        assert time.monotonic() < deadline, state
        time.sleep(0.05)
    before = boomboard.load_game(SMALL).new_initial_state()
    losing = before.string_to_action("A*")
    before.play("A*")
    best = {m.action for m in solver.analyze(before, db=solver_db).best_moves}
    # the move's answer may already hold the solver's reply: a table look-up can finish before the answer is sent
    assert played["ply"] in (1, 2) and played["actions"][0] == losing
    assert state["error"] == "" and state["actions"][:1] == [losing] and state["actions"][1] in best


def test_the_solver_side_needs_a_table(solver_client, tmp_path):
    for side in ("solver", "solver:seed=3"):
        refused = solver_client.post("/api/games", json={"game": "kaboom(rows=4,cols=4)", "players": ["human", side]})
        assert refused.status_code == 400 and "table" in refused.json()["error"]
    with TestClient(create_app(tmp_path / "web.sqlite3", WebSettings(workers=0, solver_db=tmp_path),
                               arena=open_store(":memory:"))) as empty:  # a folder without this game's table
        refused = empty.post("/api/games", json={"game": SMALL, "players": ["human", "solver"]})
        assert refused.status_code == 400 and "table" in refused.json()["error"]
        assert empty.post("/api/analysis", json={"game": SMALL}).json()["source"] == "search"
    with pytest.raises(ParameterError, match="not a folder"):
        create_app(tmp_path / "web2.sqlite3", WebSettings(workers=0, solver_db=tmp_path / "missing"))


def test_worker_processes_read_the_same_tables(solver_db, tmp_path):
    """Analyses and the solver's moves run in other processes: the folder travels with each request."""
    with TestClient(create_app(tmp_path / "web.sqlite3", WebSettings(solver_db=solver_db, workers=1),
                               arena=open_store(":memory:"))) as client:
        game = client.post("/api/games", json={"game": SMALL, "players": ["solver", "human"]}).json()
        deadline = time.monotonic() + 120  # returns at once when done; room for a loaded machine
        while (state := client.get(f"/api/games/{game['id']}").json())["ply"] < 1 and not state["error"]:
            assert time.monotonic() < deadline, state
            time.sleep(0.05)
        assert state["error"] == "" and state["moves"][0]["text"] == "B"  # the only win in 15
        data = client.get(f"/api/games/{game['id']}/analysis").json()
        assert data["source"] == "solver" and (data["value"], data["remoteness"]) == ("lose", 14)


def test_a_solver_spec_with_settings_reads_the_same_tables(solver_client, tmp_path, monkeypatch):
    monkeypatch.setenv("BOOMBOARD_DB", str(tmp_path))  # the solver's default folder: no tables there
    game = solver_client.post("/api/games", json={"game": SMALL, "players": ["solver:seed=3", "human"]}).json()
    deadline = time.monotonic() + 120  # returns at once when done; room for a loaded machine
    while (state := solver_client.get(f"/api/games/{game['id']}").json())["ply"] < 1 and not state["error"]:
        assert time.monotonic() < deadline, state
        time.sleep(0.05)
    assert state["error"] == "" and state["moves"][0]["text"] == "B"
