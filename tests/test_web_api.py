"""The web API, endpoint by endpoint, good input and bad (FastAPI's test client)."""

from __future__ import annotations

import threading
from types import SimpleNamespace

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

import boomboard  # noqa: E402
from boomboard.web import WebSettings, analysis, create_app  # noqa: E402
from boomboard.web.geometry import cell_contents  # noqa: E402
from web_fakes import FakeArena, FakeSolver  # noqa: E402
from web_helpers import assert_error, wait_for  # noqa: E402


@pytest.fixture
def db(tmp_path):
    return tmp_path / "web.sqlite3"


@pytest.fixture
def client(db):
    with TestClient(create_app(db, WebSettings(workers=0))) as client:
        yield client


def new_game(client, game="kaboom", players=("human", "random"), **extra):
    response = client.post("/api/games", json={"game": game, "players": list(players), **extra})
    assert response.status_code == 201, response.text
    return response.json()




def human_turn(state):
    return not state["thinking"] and (state["outcome"] or state["players"][state["to_move"]] == "human")




# -- catalog and new games ----------------------------------------------------------------

def test_catalog_lists_every_game_with_parameters_and_the_sides_on_offer(client):
    data = client.get("/api/catalog").json()
    assert [g["name"] for g in data["games"]] == boomboard.game_names()
    kaboom = next(g for g in data["games"] if g["name"] == "kaboom")
    assert kaboom["player_names"] == ["x", "o"]
    rows = next(p for p in kaboom["parameters"] if p["name"] == "rows")
    assert (rows["default"], rows["minimum"], rows["maximum"], rows["kind"]) == (4, 1, 12, "int")
    assert {"human", "random", "solver"} <= {level["spec"] for level in data["levels"]}


@pytest.mark.parametrize("game,cells", [("expendibots", 64), ("jump61(size=3)", 9), ("kaboom", 16),
                                        ("explocus", 64), ("hexplocus", 61),
                                        ("chain_reaction", 54)])
def test_a_new_game_describes_board_pieces_and_every_legal_move(client, game, cells):
    state = new_game(client, game)
    engine = boomboard.load_game(game).new_initial_state()
    assert len(state["layout"]["cells"]) == len(state["cells"]) == cells
    assert state["cells"] == cell_contents(engine.game, engine.array)
    assert [g["id"] for g in state["legal"]] == engine.legal_actions()
    assert [g["text"] for g in state["legal"]] == [engine.action_to_string(a) for a in engine.legal_actions()]
    assert state["to_move"] == 0 and state["ply"] == 0 and state["outcome"] is None
    assert state["layout"]["shape"] == ("hex" if game == "hexplocus" else "square")


def test_gestures_say_what_to_click(client):
    expendibots = new_game(client, "expendibots")["legal"]
    booms = [g for g in expendibots if g["kind"] == "boom"]
    assert len(booms) == 12 and len(expendibots) == 50  # the rulebook's start: 12 booms, 38 moves
    move = next(g for g in expendibots if g["text"] == "1 a2 a3")
    assert (move["from"], move["to"], move["count"]) == ("a2", "a3", 1)
    stacked = new_game(client, "expendibots", position='{"white": [[3, 2, 2]], "black": [[1, 7, 7]]}')["legal"]
    counts = sorted(g["count"] for g in stacked if g["from"] == "c3" and g["to"] == "c5")
    assert counts == [1, 2, 3]  # the page asks how many
    explocus = new_game(client, "explocus")["legal"]
    d2d4 = next(g for g in explocus if g["text"] == "d2-d4")
    assert (d2d4["from"], d2d4["to"], d2d4["count"]) == ("d2", "d4", 2)
    kaboom = new_game(client, "kaboom")["legal"]
    assert {(g["kind"], g["to"]) for g in kaboom} >= {("drop", "A"), ("bomb", "D")}


def test_a_start_position_in_native_notation(client):
    state = new_game(client, "kaboom", position="(x 0 0 xoxx o@*o -ooo -xxx)")
    assert [g["text"] for g in state["legal"]] == ["A", "C2!"]
    assert state["position"] == "(x 0 0 xoxx o@*o -ooo -xxx)"


@pytest.mark.parametrize("body,status,words", [
    ({"game": "chess"}, 400, ["unknown game 'chess'", "kaboom"]),
    ({"game": "kaboom", "params": {"rows": 99}}, 400, ["rows", "<= 12"]),
    ({"game": "kaboom", "params": {"colour": 1}}, 400, ["unknown parameter", "colour"]),
    ({"game": "kaboom(rows=two)"}, 400, ["rows", "int"]),
    ({"game": "kaboom", "players": ["human"]}, 422, ["players", "at least 2"]),
    ({"game": "kaboom", "players": ["human", "deep-blue"]}, 400, ["unknown agent"]),
    ({"game": "kaboom", "players": ["human", "alphabeta:depth=x"]}, 400, ["depth"]),
    ({"game": "kaboom(rows=5,cols=6)", "players": ["human", "solver"]}, 400, ["solver"]),  # never solved
    ({"game": "kaboom", "position": "(x 0 0 xxxx)"}, 400, []),
    ({"game": "kaboom", "pace": 99}, 400, ["pace"]),
    ({"players": ["human", "human"]}, 422, ["game"]),
    ({"game": 5}, 422, ["game"]),
])
def test_bad_new_games_are_refused_with_a_reason(client, body, status, words):
    assert_error(client.post("/api/games", json=body), status, *words)


def test_a_body_that_is_not_json_gets_a_json_error(client):
    response = client.post("/api/games", content=b"{not json", headers={"content-type": "application/json"})
    assert response.status_code == 422 and "error" in response.json()


def test_a_wrong_method_is_405_json(client):
    assert_error(client.delete("/api/games"), 405, "Method Not Allowed")


def test_a_wrong_method_is_told_every_method_of_its_path(client):
    # the path's routes, the app's own (its schema) included, whichever router holds them
    assert client.delete("/api/games").headers["allow"] == "GET, POST"
    assert client.put("/api/games/nope").headers["allow"] == "DELETE, GET"
    assert client.post("/openapi.json").headers["allow"] == "GET, HEAD"


def test_unknown_ids_and_routes_are_404_json(client):
    for method, path in [("get", "/api/games/nope"), ("post", "/api/games/nope/undo"),
                         ("get", "/api/games/nope/analysis"), ("get", "/api/games/nope/values"),
                         ("get", "/api/replay/web/nope"), ("get", "/api/replay/elsewhere/x"),
                         ("get", "/api/no-such-thing")]:
        response = getattr(client, method)(path, **({"json": {}} if method == "post" else {}))
        assert response.status_code == 404 and response.json()["error"], (path, response.text)
    assert_error(client.post("/api/games/nope/moves", json={"move": "A"}), 404, "nope")
    assert_error(client.post("/api/games/nope/resign", json={}), 404, "nope")


# -- playing ----------------------------------------------------------------------------------

def test_human_move_then_the_ai_answers_off_the_request(client):
    state = new_game(client, "kaboom", ("human", "random"))
    played = client.post(f"/api/games/{state['id']}/moves", json={"move": "b"})
    assert played.status_code == 200
    after = wait_for(client, state["id"], lambda s: s["ply"] == 2 and human_turn(s))
    assert after["moves"][0] == {"ply": 0, "player": 0, "text": "B"}
    assert after["moves"][1]["player"] == 1
    replay = boomboard.load_game("kaboom").new_initial_state()
    for move in after["moves"]:
        replay.play(move["text"])
    assert after["position"] == replay.to_notation()
    assert after["cells"] == cell_contents(replay.game, replay.array)


def test_moves_by_id_and_the_cascade_steps_end_on_the_engines_board(client):
    state = new_game(client, "kaboom", ("human", "human"), position="(x 0 0 xoxx o@*o -ooo -xxx)")
    detonate = next(g for g in state["legal"] if g["text"] == "C2!")
    after = client.post(f"/api/games/{state['id']}/moves", json={"move": detonate["id"]}).json()
    steps = after["last_steps"]
    assert len(steps) == 3  # X's bomb, then O's bomb it set off, then the fall
    assert set(steps[0]["flash"]) == {"C2", "C1", "B2", "D2", "C3"}
    assert set(steps[1]["flash"]) == {"B2", "B1", "A2", "B3"}  # O's bomb on B2 goes off
    assert steps[-1]["cells"] == after["cells"]
    assert after["outcome"]["winner"] == 0 and "X wins" in after["outcome"]["text"]
    assert after["lines"] == ["A1", "B1", "C1", "D1"]  # the row the blast completed
    assert state["lines"] == []


@pytest.mark.parametrize("move,words", [("Q", ["no column Q"]), ("C2!", ["C2", "bomb"]), (9999, ["not legal"]),
                                        ("", []), (True, ["move"]), (1.5, ["move"])])
def test_illegal_and_malformed_moves_are_refused_with_the_reason(client, move, words):
    state = new_game(client, "kaboom", ("human", "human"))
    response = client.post(f"/api/games/{state['id']}/moves", json={"move": move})
    assert response.status_code in (400, 422), response.text
    for word in words:
        assert word in response.json()["error"]
    assert client.get(f"/api/games/{state['id']}").json()["ply"] == 0


def test_a_move_without_a_move_field_is_422(client):
    state = new_game(client, "kaboom", ("human", "human"))
    assert_error(client.post(f"/api/games/{state['id']}/moves", json={"action": "A"}), 422, "move")


def test_moving_for_the_ai_or_after_the_end_is_a_conflict(client):
    watching = new_game(client, "kaboom", ("random", "random"), pace=10)
    assert_error(client.post(f"/api/games/{watching['id']}/moves", json={"move": "A"}), 409, "random")
    won = new_game(client, "kaboom", ("human", "human"), position="(x 0 0 xoxx o@*o -ooo -xxx)")
    client.post(f"/api/games/{won['id']}/moves", json={"move": "C2!"})
    assert_error(client.post(f"/api/games/{won['id']}/moves", json={"move": "A"}), 409, "over")


def test_undo_takes_back_to_the_humans_turn(client):
    state = new_game(client, "jump61(size=3)", ("human", "random"))
    client.post(f"/api/games/{state['id']}/moves", json={"move": "1 1"})
    wait_for(client, state["id"], lambda s: s["ply"] == 2 and human_turn(s))
    undone = client.post(f"/api/games/{state['id']}/undo", json={}).json()
    assert undone["ply"] == 0 and undone["to_move"] == 0
    assert undone["cells"] == new_game(client, "jump61(size=3)")["cells"]
    assert_error(client.post(f"/api/games/{state['id']}/undo", json={}), 409, "no move")


def test_resign(client):
    state = new_game(client, "explocus(size=4)", ("human", "random"))
    resigned = client.post(f"/api/games/{state['id']}/resign", json={}).json()
    assert resigned["outcome"] == {"winner": 1, "reason": "resignation", "text": "Black wins: White resigned"}
    assert resigned["legal"] == []
    assert_error(client.post(f"/api/games/{state['id']}/resign", json={}), 409, "over")
    assert_error(client.post(f"/api/games/{state['id']}/moves", json={"move": "a1-a2"}), 409, "over")
    watching = new_game(client, "kaboom", ("random", "random"), pace=10)
    assert_error(client.post(f"/api/games/{watching['id']}/resign", json={}), 409, "which player")
    assert_error(client.post(f"/api/games/{watching['id']}/resign", json={"player": 5}), 422, "player")


def test_watching_ai_against_ai_reaches_the_end(client):
    state = new_game(client, "jump61(size=2)", ("random", "greedy"), pace=0)
    # the last move is stored a moment before the AI's task ends: the game is over, then its AI at rest
    done = wait_for(client, state["id"], lambda s: s["outcome"] is not None and not s["thinking"])
    assert done["ply"] == len(done["moves"]) >= 2


def test_a_restart_loses_no_game_and_the_ai_carries_on(db):
    with TestClient(create_app(db, WebSettings(workers=0))) as client:
        human = new_game(client, "kaboom", ("human", "random"))
        client.post(f"/api/games/{human['id']}/moves", json={"move": "A"})
        before = wait_for(client, human["id"], lambda s: s["ply"] == 2 and human_turn(s))
        watched = new_game(client, "jump61(size=3)", ("random", "random"), pace=0.3)
        wait_for(client, watched["id"], lambda s: s["ply"] >= 1)
    with TestClient(create_app(db, WebSettings(workers=0))) as client:
        again = client.get(f"/api/games/{human['id']}").json()
        assert (again["ply"], again["position"], again["moves"]) == (before["ply"], before["position"],
                                                                      before["moves"])
        resumed = client.get(f"/api/games/{watched['id']}").json()
        ply = resumed["ply"]
        finished = wait_for(client, watched["id"], lambda s: s["outcome"] is not None or s["ply"] > ply + 1)
        assert finished["ply"] > ply or finished["outcome"] is not None
        listed = client.get("/api/games").json()["games"]
        assert {human["id"], watched["id"]} <= {g["id"] for g in listed}


# -- analysis ---------------------------------------------------------------------------------

def test_analysis_by_search_finds_the_winning_detonation(client):
    state = new_game(client, "kaboom", ("human", "human"), position="(x 0 0 xoxx o@*o -ooo -xxx)")
    data = client.get(f"/api/games/{state['id']}/analysis").json()
    assert data["source"] == "search"
    moves = {m["text"]: m for m in data["moves"]}
    assert (moves["C2!"]["value"], moves["C2!"]["remoteness"]) == ("win", 1)  # counting the move, as the solver does
    assert data["value"] == "win" and data["remoteness"] == 1
    values = client.get(f"/api/games/{state['id']}/values").json()["values"]
    assert len(values) == 1 and values[0]["value"] == 1.0  # X, the first player, wins by force


def test_value_history_covers_every_position_and_grows_with_the_game(client):
    state = new_game(client, "kaboom", ("human", "human"))
    for move in ["A", "B", "A"]:
        client.post(f"/api/games/{state['id']}/moves", json={"move": move})
    values = client.get(f"/api/games/{state['id']}/values").json()["values"]
    assert [v["ply"] for v in values] == [0, 1, 2, 3]
    assert all(-1.0 <= v["value"] <= 1.0 for v in values)
    for move in ["B", "A"]:
        client.post(f"/api/games/{state['id']}/moves", json={"move": move})
    grown = client.get(f"/api/games/{state['id']}/values").json()["values"]
    whole = client.post("/api/values", json={"game": "kaboom", "actions": [0, 1, 0, 1, 0]}).json()["values"]
    assert grown[:3] == values[:3] and grown == whole  # extended, not recomputed, and the same as from scratch
    client.post(f"/api/games/{state['id']}/undo", json={})
    last = {key: value for key, value in whole[4].items() if key != "move"}  # no move played from it now
    assert client.get(f"/api/games/{state['id']}/values").json()["values"] == whole[:4] + [last]


def test_solver_values_where_a_table_exists_and_the_solver_as_a_side(client, monkeypatch):
    monkeypatch.setattr("boomboard.analysis.solver", FakeSolver)
    state = new_game(client, "jump61(size=2)", ("human", "solver"))
    data = client.get(f"/api/games/{state['id']}/analysis").json()
    assert data["source"] == "solver" and (data["value"], data["remoteness"]) == ("win", 3)
    assert {m["id"]: m["value"] for m in data["moves"]} == {0: "win", 1: "lose", 2: "lose", 3: "lose"}
    client.post(f"/api/games/{state['id']}/moves", json={"move": "1 2"})
    answered = wait_for(client, state["id"], lambda s: s["ply"] >= 2 or s["error"] or s["outcome"])
    assert answered["error"] == ""
    assert answered["moves"][1]["text"] == "1 1"  # the solver's winning move (id 0)
    assert_error(client.post("/api/games", json={"game": "kaboom(rows=5,cols=6)", "players": ["human", "solver"]}),
                 400, "table")


def test_any_line_of_play_can_be_analysed(client):
    line = {"game": "kaboom", "position": "(x 0 0 xoxx o@*o -ooo -xxx)", "actions": []}
    data = client.post("/api/analysis", json=line).json()
    assert {m["text"]: m["value"] for m in data["moves"]}["C2!"] == "win"
    values = client.post("/api/values", json={"game": "jump61(size=2)", "actions": [0, 3, 0]}).json()["values"]
    assert [v["ply"] for v in values] == [0, 1, 2, 3] and all(-1 <= v["value"] <= 1 for v in values)
    assert_error(client.post("/api/analysis", json={"game": "kaboom", "actions": [99]}), 400, "not legal")
    assert_error(client.post("/api/values", json={"game": "kaboom", "actions": ["A"]}), 422, "actions")
    assert_error(client.post("/api/analysis", json={"game": "kaboom", "position": "(x)"}), 400)


# -- replays and tournaments ----------------------------------------------------------------------

@pytest.fixture
def arena_client(db):
    with TestClient(create_app(db, WebSettings(workers=0), arena=FakeArena())) as client:
        yield client


def test_arena_games_are_listed_and_replayed_ply_by_ply(arena_client):
    listed = arena_client.get("/api/archive/arena").json()["games"]
    assert listed == [{"id": 7, "game": "kaboom", "players": ["ai", "random"], "plies": 7, "winner": 0,
                       "reason": "connect", "tournament_id": 1, "started": 0.0, "status": "done",
                       "finished": True}]
    assert arena_client.get("/api/archive/arena?tournament=2").json()["games"] == []
    assert len(arena_client.get("/api/archive/arena?tournament=1").json()["games"]) == 1
    end = arena_client.get("/api/replay/arena/7").json()
    assert end["ply"] == 7 and end["length"] == 7 and "X wins" in end["outcome"]["text"]
    assert [m["text"] for m in end["moves"]] == ["A", "B", "A", "B", "A", "B", "A"]
    third = arena_client.get("/api/replay/arena/7?ply=3").json()
    assert third["ply"] == 3 and third["outcome"] is None and third["last_steps"][-1]["cells"] == third["cells"]
    assert_error(arena_client.get("/api/replay/arena/7?ply=8"), 404, "0..7")
    assert_error(arena_client.get("/api/replay/arena/99"), 404, "99")


def test_web_games_are_replayed_too(arena_client):
    state = new_game(arena_client, "kaboom", ("human", "human"))
    arena_client.post(f"/api/games/{state['id']}/moves", json={"move": "C"})
    first = arena_client.get(f"/api/replay/web/{state['id']}?ply=0").json()
    assert first["ply"] == 0 and first["last_steps"] == [] and first["moves"][0]["text"] == "C"


def test_the_arenas_rating_chart_is_served_as_png(arena_client, monkeypatch):
    from boomboard.web import archive

    drawn = []

    def rating_chart(standings, path):
        drawn.append([s.agent for s in standings])
        path.write_bytes(b"\x89PNG fake")

    monkeypatch.setattr(archive, "arena_chart", SimpleNamespace(rating_chart=rating_chart))
    response = arena_client.get("/api/tournaments/1/chart.png")
    assert response.status_code == 200 and response.headers["content-type"] == "image/png"
    assert response.content == b"\x89PNG fake" and drawn == [["ai", "random"]]
    assert arena_client.get("/api/catalog").json()["arena_chart"] is True
    assert_error(arena_client.get("/api/tournaments/9/chart.png"), 404, "9")


def test_arena_records_may_be_named_tuples():
    from collections import namedtuple

    from boomboard.web.archive import _plain

    Standing = namedtuple("Standing", "agent games wins ties losses score elo elo_error")
    assert _plain(Standing("ai", 1, 1, 0, 0, 1.0, 50.0, 9.0))["elo"] == 50.0


def test_tournaments_and_standings(arena_client, client):
    assert arena_client.get("/api/tournaments").json()["tournaments"][0]["game"] == "kaboom"
    standings = arena_client.get("/api/tournaments/1").json()["standings"]
    assert [s["agent"] for s in standings] == ["ai", "random"] and standings[0]["elo_error"] == 80.0
    assert_error(arena_client.get("/api/tournaments/5"), 404, "5")
    if not client.get("/api/catalog").json()["arena"]:  # no arena store: a clear 404, not a crash
        assert_error(client.get("/api/tournaments"), 404, "arena")


class SlowArena(FakeArena):
    """An arena whose tournaments take a while to read (a store of 500 tournaments of 200 games took
    0.2 s), here until ``release`` is set."""

    def __init__(self):
        super().__init__()
        self.reading, self.release = threading.Event(), threading.Event()

    def tournaments(self):
        self.reading.set()
        assert self.release.wait(60)
        return super().tournaments()


@pytest.mark.parametrize("path", ["/api/tournaments", "/api/tournaments/1"])
def test_reading_a_large_arena_store_holds_no_other_request_up(db, path):
    # Issue 47, item 3: no request cheap to send may hold the event loop; the arena's lists were read on it.
    arena = SlowArena()
    with TestClient(create_app(db, WebSettings(workers=0), arena=arena)) as client:
        answers = []
        reader = threading.Thread(target=lambda: answers.append(client.get(path)))
        reader.start()
        try:
            assert arena.reading.wait(60)
            other = []
            asker = threading.Thread(target=lambda: other.append(client.get("/api/catalog").status_code))
            asker.start()
            asker.join(20)  # answered at once where the loop is free; never, before the store is read, where not
            assert other == [200], "another request waited for the arena's store to be read"
        finally:
            arena.release.set()
            reader.join(60)
    assert answers[0].status_code == 200, answers[0].text


# -- games kept in memory ----------------------------------------------------------------------

def test_games_past_the_memory_bound_are_read_back_from_the_store(db):
    app = create_app(db, WebSettings(workers=0, sessions_kept=2))
    service = app.state.service
    with TestClient(app) as client:
        games = [new_game(client, players=("human", "human")) for _ in range(4)]
        played = [client.post(f"/api/games/{g['id']}/moves", json={"move": "C"}).json() for g in games]
        assert list(service.sessions) == [g["id"] for g in games[2:]]  # the two used last
        first = games[0]["id"]
        again = client.get(f"/api/games/{first}").json()
        assert (again["position"], again["moves"], again["to_move"]) == (
            played[0]["position"], played[0]["moves"], played[0]["to_move"])
        assert list(service.sessions) == [games[3]["id"], first]
        second = client.post(f"/api/games/{first}/moves", json={"move": again["legal"][0]["id"]}).json()
        assert second["ply"] == 2
        for game in games[1:3]:  # forgotten by now, and each still answers from the store
            assert game["id"] not in service.sessions
            assert client.get(f"/api/games/{game['id']}").json()["ply"] == 1
    with TestClient(create_app(db, WebSettings(workers=0))) as restarted:
        assert restarted.get(f"/api/games/{first}").json()["actions"] == second["actions"]


def test_a_game_whose_ai_is_thinking_stays_in_memory_past_the_bound(db, monkeypatch):
    import threading

    release = threading.Event()
    choose = analysis.choose_action

    def held(*args):
        release.wait(60)
        return choose(*args)

    monkeypatch.setattr(analysis, "choose_action", held)
    app = create_app(db, WebSettings(workers=0, sessions_kept=1))
    service = app.state.service
    with TestClient(app) as client:
        thinking = new_game(client, players=("random", "human"))
        assert thinking["thinking"]
        others = [new_game(client, players=("human", "human"))["id"] for _ in range(2)]
        assert list(service.sessions) == [thinking["id"], others[1]]
        release.set()
        moved = wait_for(client, thinking["id"], human_turn)
        assert moved["ply"] == 1 and len(service.sessions) == 2  # nothing is forgotten but at a new game
        new_game(client, players=("human", "human"))
        assert len(service.sessions) == 1


def test_a_games_cached_analyses_are_bounded():
    from boomboard.web.service import ANALYSES_KEPT, Session
    from boomboard.web.store import StoredGame

    session = Session(StoredGame("g", "kaboom", ["human", "human"]), boomboard.load_game("kaboom").new_initial_state())
    for ply in range(ANALYSES_KEPT):
        session.keep_analysis(("analysis", (ply,)), {"ply": ply})
    assert session.analysis(("analysis", (0,))) == {"ply": 0}  # used again: now the most recent
    session.keep_analysis(("analysis", (ANALYSES_KEPT,)), {"ply": ANALYSES_KEPT})
    assert len(session.analyses) == ANALYSES_KEPT
    assert session.analysis(("analysis", (1,))) is None and session.analysis(("analysis", (0,))) == {"ply": 0}


def test_sessions_kept_must_be_a_positive_integer(db):
    for bad in (0, -3, 1.5, True):
        with pytest.raises(boomboard.BoomboardError, match="sessions_kept"):
            create_app(db, WebSettings(workers=0, sessions_kept=bad))


# -- the serve command ------------------------------------------------------------------------

def test_serve_refuses_bad_options_with_a_clear_error(tmp_path):
    import socket

    from typer.testing import CliRunner

    from boomboard.cli.main import app
    from boomboard.cli.serve import default_db_path
    from boomboard.core.errors import ParameterError

    assert default_db_path().parts[-2:] == ("boomboard", "web.sqlite3")
    with socket.create_server(("127.0.0.1", 0)) as busy:
        port = busy.getsockname()[1]
        for args, words in [(["--port", "70000"], "--port must be 0..65535"),
                            (["--workers", "-1"], "--workers must be 0 or more"),
                            (["--port", str(port)], f"cannot listen on 127.0.0.1:{port}")]:
            result = CliRunner().invoke(app, ["serve", "--db", str(tmp_path / "w.sqlite3"), *args])
            assert isinstance(result.exception, ParameterError) and words in str(result.exception), result.output


def test_a_killed_server_loses_no_move(tmp_path):
    """Every move is on disk when its request returns: kill -9, start again, carry on."""
    import json
    import re
    import signal
    import subprocess
    import sys
    import urllib.request

    def call(base, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(base + path, data=data, headers={"content-type": "application/json",
                                                                        "X-Boomboard-Owner": "this-clients-token"})
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read())

    def start():
        # a human game: no worker processes (each would load every compiled game's code)
        process = subprocess.Popen([sys.executable, "-m", "boomboard", "serve", "--port", "0", "--workers", "0",
                                    "--db", str(tmp_path / "web.sqlite3")], stdout=subprocess.PIPE, text=True)
        return process, re.search(r"http://\S+/", process.stdout.readline()).group(0)

    process, base = start()
    try:
        game = call(base, "api/games", {"game": "explocus(size=5)", "players": ["human", "human"]})
        for move in ["b1-b2", "b5-b4", "c1-c2"]:
            played = call(base, f"api/games/{game['id']}/moves", {"move": move})
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait()
    process, base = start()
    try:
        again = call(base, f"api/games/{game['id']}")
        assert [m["text"] for m in again["moves"]] == ["b1-b2", "b5-b4", "c1-c2"]
        assert again["position"] == played["position"] and again["to_move"] == 1
    finally:
        process.terminate()
        process.wait()
