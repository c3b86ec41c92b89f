"""Issue 46, item 6: an analysis is made once a line, whoever asks. The
analyses of a line (a game, its first position, the actions since) are kept
by the server, so that a chart's first point, a replay of a game analysed
while it was played, or a second look at a position is answered without a
search (FastAPI's test client, the analyses counted where the workers run them)."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

from boomboard.web import WebSettings, analysis, create_app  # noqa: E402
from boomboard.web.context import ANALYSES_SHARED  # noqa: E402

GAME = "jump61(size=3)"


@pytest.fixture
def searched(monkeypatch):
    """The lines analysed by a search (their actions), in order."""
    lines = []
    real = analysis.analyse

    def counted(game, position, actions, solver_db):
        lines.append(tuple(actions))
        return real(game, position, actions, solver_db)

    monkeypatch.setattr(analysis, "analyse", counted)
    return lines


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(tmp_path / "web.sqlite3", WebSettings(workers=0))) as client:
        yield client


def test_a_line_analysed_once_is_answered_again_without_a_search(client, searched):
    line = {"game": GAME, "position": None, "actions": [0, 4]}
    first = client.post("/api/analysis", json=line)
    again = client.post("/api/analysis", json=line)
    assert first.status_code == again.status_code == 200, (first.text, again.text)
    assert again.json() == first.json()
    assert searched == [(0, 4)]


def test_a_chart_searches_only_the_positions_nobody_analysed_before(client, searched):
    client.post("/api/analysis", json={"game": GAME, "position": None, "actions": [0, 4]})
    values = client.post("/api/values", json={"game": GAME, "position": None, "actions": [0, 4, 1]})
    assert values.status_code == 200, values.text
    assert [point["ply"] for point in values.json()["values"]] == [0, 1, 2, 3]
    assert searched == [(0, 4), (), (0,), (0, 4, 1)]


def test_a_game_played_on_the_page_charts_from_the_analyses_of_its_line(client, searched):
    client.post("/api/values", json={"game": GAME, "position": None, "actions": [0, 4]})
    assert len(searched) == 3
    game = client.post("/api/games", json={"game": GAME, "players": ["human", "human"]}).json()
    for action in (0, 4):
        assert client.post(f"/api/games/{game['id']}/moves", json={"move": action}).status_code == 200
    values = client.get(f"/api/games/{game['id']}/values")
    assert values.status_code == 200, values.text
    assert len(values.json()["values"]) == 3
    assert len(searched) == 3  # the game's three positions: each analysed before, as a line


def test_the_kept_analyses_are_bounded(client, searched):
    web = client.app.state.web
    for number in range(ANALYSES_SHARED + 1):
        web.analyses[("a game", None, (number,))] = "{}"
    assert ("a game", None, (0,)) not in web.analyses and ("a game", None, (ANALYSES_SHARED,)) in web.analyses
