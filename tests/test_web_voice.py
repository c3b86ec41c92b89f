"""One voice: every number the analysis gives about a position (the page's
headline, evaluation bar, chart point, move colours and the history's marks)
comes from one evaluation of that position, on one scale (the first player's
expected score), with labels of the same sign as their values. Over the HTTP
API (FastAPI's test client); ``tests/test_web_voice_browser.py`` reads the
same agreement off the page."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

import boomboard  # noqa: E402
from boomboard.web import WebSettings, analysis, create_app  # noqa: E402
from web_fakes import FakeSolver  # noqa: E402

# A small variant of each game (a short line of each is analysed ply by ply).
GAMES = [("expendibots", '{"white": [[2, 3, 3], [1, 0, 0]], "black": [[1, 6, 6], [1, 5, 2]]}'),
         ("jump61(size=3)", None), ("kaboom", None), ("explocus(size=4)", None), ("hexplocus(side=3)", None),
         ("chain_reaction(rows=4,cols=4)", None)]
PLIES = 2


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(tmp_path / "web.sqlite3", WebSettings(workers=0))) as client:
        yield client


def opening(game: str, position: str | None, plies: int) -> list[int]:
    """The line of ``plies`` first legal actions from ``position`` (or the start)."""
    loaded = boomboard.load_game(game)
    state = loaded.new_initial_state() if position is None else loaded.state_from_notation(position)
    actions = []
    for _ in range(plies):
        if state.is_terminal():
            break
        actions.append(state.legal_actions()[0])
        state.apply_action(actions[-1])
    return actions


def point_of(result: dict) -> dict:
    """What an analysis says of its position, as a chart point says it."""
    return {"value": result["eval"]["value"], "exact": result["eval"]["exact"], "label": result["eval"]["text"]}


def assert_worded_by_its_sign(entry: dict, names: list[str]):
    """An eval's words agree with its number: an estimate names the first
    player's percentage, an exact result names the winner its sign gives."""
    value, text = entry["value"], entry["text"]
    assert -1.0 <= value <= 1.0
    if not entry["exact"]:
        assert text == f"{names[0].capitalize()} {round(50 + 50 * value)}%"
    elif value > 0:
        assert text.startswith(names[0].capitalize()), entry
    elif value < 0:
        assert text.startswith(names[1].capitalize()), entry
    else:
        assert text.startswith(("tie", "draw")), entry


@pytest.mark.parametrize("game,position", GAMES)
def test_replay_chart_at_ply_k_equals_the_analysis_at_ply_k_in_every_game(client, game, position):
    actions = opening(game, position, PLIES)
    names = list(boomboard.load_game(game).player_names)
    chart = client.post("/api/values", json={"game": game, "position": position, "actions": actions}).json()["values"]
    assert [p["ply"] for p in chart] == list(range(len(actions) + 1))
    for ply, point in enumerate(chart):
        headline = client.post("/api/analysis", json={"game": game, "position": position,
                                                      "actions": actions[:ply]}).json()
        assert {k: point[k] for k in ("value", "exact", "label")} == point_of(headline)
        assert_worded_by_its_sign(headline["eval"], names)
        for move in headline["moves"]:
            assert_worded_by_its_sign(move["eval"], names)
            assert move["loss"] >= 0 and move["mark"] == analysis.quality_mark(move["loss"])
        if ply < len(actions):  # the history's mark is the played move's, in this same analysis
            played = next(m for m in headline["moves"] if m["id"] == actions[ply])
            assert point["move"] == {"mark": played["mark"], "loss": played["loss"], "outcome": played["value"]}
        else:
            assert "move" not in point


def test_the_expendibots_start_has_one_value_where_it_had_two(client):
    """The headline said White 28% where the chart said 75%: now both are one analysis."""
    line = {"game": "expendibots", "actions": []}
    headline = client.post("/api/analysis", json=line).json()
    chart = client.post("/api/values", json=line).json()["values"]
    assert chart == [{"ply": 0, **point_of(headline)}]
    best = max(headline["moves"], key=lambda m: m["eval"]["value"])  # White moves first: the best is White's highest
    assert best["eval"]["value"] == headline["eval"]["value"] and best["loss"] == 0.0


def test_a_live_games_analysis_and_chart_agree_as_it_grows_and_is_taken_back(client):
    state = client.post("/api/games", json={"game": "kaboom", "players": ["human", "human"]}).json()
    for move in ["A", "B"]:
        client.post(f"/api/games/{state['id']}/moves", json={"move": move})
    first = client.get(f"/api/games/{state['id']}/values").json()["values"]
    assert first[-1]["ply"] == 2 and "move" not in first[-1]
    client.post(f"/api/games/{state['id']}/moves", json={"move": "A"})
    grown = client.get(f"/api/games/{state['id']}/values").json()["values"]
    assert "move" in grown[2] and {k: grown[2][k] for k in first[2]} == first[2]  # ply 2 now has its move marked
    assert point_of(client.get(f"/api/games/{state['id']}/analysis").json()) == {
        k: grown[3][k] for k in ("value", "exact", "label")}
    client.post(f"/api/games/{state['id']}/undo", json={})
    undone = client.get(f"/api/games/{state['id']}/values").json()["values"]
    assert undone == first  # the point of ply 2 has no move again


def test_a_proved_win_is_exact_and_worded_alike_for_the_position_and_its_best_move(client):
    # X to move wins at once by detonating C2 (tests/test_web_api.py)
    line = {"game": "kaboom", "position": "(x 0 0 xoxx o@*o -ooo -xxx)", "actions": []}
    headline = client.post("/api/analysis", json=line).json()
    assert headline["eval"] == {"value": 1.0, "exact": True, "text": "X wins in 1"}
    best = {m["text"]: m for m in headline["moves"]}["C2!"]
    assert best["eval"] == headline["eval"] and best["mark"] == ""


def test_a_move_that_throws_the_game_away_is_a_blunder_in_the_history(client):
    line = {"game": "kaboom", "position": "(x 0 0 oxox o--- o--- ----)"}  # X to move; some moves lose by force
    headline = client.post("/api/analysis", json={**line, "actions": []}).json()
    assert not headline["eval"]["exact"]
    losing = [m for m in headline["moves"] if m["value"] == "lose"]
    assert losing, "the search proves some of X's moves lose"
    for move in losing:  # O wins: the first player's value is -1, worded for O
        assert move["eval"]["value"] == -1.0 and move["eval"]["text"].startswith("O wins in") and move["mark"] == "??"
    chart = client.post("/api/values", json={**line, "actions": [losing[0]["id"]]}).json()["values"]
    assert chart[0]["move"] == {"mark": "??", "loss": losing[0]["loss"], "outcome": "lose"}
    assert chart[1]["value"] == -1.0 and chart[1]["exact"] and chart[1]["label"].startswith("O wins in")


def test_solver_values_are_exact_and_worded_from_the_first_players_side(client, monkeypatch):
    monkeypatch.setattr("boomboard.analysis.solver", FakeSolver)  # Jump61 2x2: the mover wins in 3 with move 0
    line = {"game": "jump61(size=2)", "actions": [0]}
    headline = client.post("/api/analysis", json=line).json()  # blue to move, and winning
    assert headline["eval"] == {"value": -1.0, "exact": True, "text": "Blue wins in 3"}
    chart = client.post("/api/values", json=line).json()["values"]
    assert chart[0]["label"] == "Red wins in 3" and chart[0]["value"] == 1.0
    assert chart[1] == {"ply": 1, **point_of(headline)}
    assert chart[0]["move"] == {"mark": "", "loss": 0.0, "outcome": "win"}  # red played the winning move


@pytest.mark.parametrize("loss,mark", [(0.0, ""), (0.0999, ""), (0.1, "?!"), (0.2, "?"), (0.3, "??"), (2.0, "??")])
def test_marks_follow_lichess_thresholds_on_the_value_scale(loss, mark):
    assert analysis.quality_mark(loss) == mark


def test_a_line_s_chart_is_one_worker_call_a_position(client, monkeypatch):
    """Each position of a long replay is analysed in a call of its own, so each
    is held to the per-call CPU limit (a whole chart in one call outgrew it:
    about 34 CPU s for 80 Expendibots positions)."""
    actions = opening("jump61(size=3)", None, 5)
    asked = []

    def counted(game, position, line, solver_db=None):
        asked.append(list(line))
        return analyse(game, position, line, solver_db)

    analyse = analysis.analyse
    monkeypatch.setattr(analysis, "analyse", counted)
    chart = client.post("/api/values", json={"game": "jump61(size=3)", "position": None, "actions": actions}).json()["values"]
    assert asked == [actions[:ply] for ply in range(len(actions) + 1)]
    assert [point["ply"] for point in chart] == list(range(len(actions) + 1))
