"""The analysis board's side lines and engine line: the search's expected
line (``pv``) and depth in the analysis answer, checked against the game's own
rules, and a side line tried in a real browser (Playwright driving Debian's
chromium) from a replay, a shared link and a live game, leaving the game on
the server as it was."""

from __future__ import annotations

import os
import re
from pathlib import Path
from urllib.parse import quote

import pytest

pytest.importorskip("fastapi")
import httpx  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

import boomboard  # noqa: E402
from boomboard.web import WebSettings, analysis, create_app  # noqa: E402
from web_fakes import FakeSolver  # noqa: E402
from browser_helpers import requires_chromium  # noqa: E402
from web_helpers import OWNER, wait_for  # noqa: E402

# Positions no test table holds (the tests' solver folder is empty), so a search analyses them.
SEARCHED = [("jump61(size=3)", None, [0, 8]), ("expendibots", None, []), ("chain_reaction(rows=4,cols=4)", None, [5])]


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(tmp_path / "web.sqlite3", WebSettings(workers=0))) as client:
        yield client


def replay_line(game_string: str, position: str | None, actions: list[int], pv: list[dict]) -> None:
    """Play ``pv`` through the game's Python API after the line: each move
    legal where it is played, its text the game's notation for it."""
    state = analysis.rebuild(game_string, position, actions)
    for move in pv:
        assert not state.is_terminal(), f"{move} played after the end"
        assert move["id"] in state.legal_actions(), f"{move} is not legal"
        assert state.action_to_string(move["id"]) == move["text"]
        assert state.string_to_action(move["text"]) == move["id"]
        state.apply_action(move["id"])


@pytest.mark.parametrize("game_string,position,actions", SEARCHED, ids=[s[0] for s in SEARCHED])
def test_a_search_gives_its_expected_line_and_depth(client, game_string, position, actions):
    line = {"game": game_string, "position": position, "actions": actions}
    data = client.post("/api/analysis", json=line).json()
    assert data["source"] == "search"
    pv = data["pv"]
    assert pv and 1 <= len(pv) <= data["depth"]
    replay_line(game_string, position, actions, pv)
    best = next(m for m in data["moves"] if m["id"] == pv[0]["id"])
    assert (best["value"], best["score"]) == (data["value"], data["score"])  # the line starts with the headline's move
    # the same line through the web API: the position after it is a legal line of play
    after = client.post("/api/position", json={**line, "actions": actions + [m["id"] for m in pv]})
    assert after.status_code == 200, after.text
    assert after.json()["ply"] == len(actions) + len(pv)


def test_a_live_games_analysis_has_the_line_too(client):
    state = client.post("/api/games", json={"game": "jump61(size=3)", "players": ["human", "human"]}).json()
    client.post(f"/api/games/{state['id']}/moves", json={"move": 4})
    data = client.get(f"/api/games/{state['id']}/analysis").json()
    assert data["source"] == "search" and data["depth"] >= len(data["pv"]) >= 1
    replay_line("jump61(size=3)", None, [4], data["pv"])


def test_a_winning_move_that_ends_the_game_is_a_line_of_one(client):
    line = {"game": "kaboom", "position": "(x 0 0 xoxx o@*o -ooo -xxx)", "actions": []}
    data = client.post("/api/analysis", json=line).json()
    assert data["source"] == "search"
    assert [m["text"] for m in data["pv"]] == ["C2!"] and data["depth"] == 1
    assert analysis.rebuild(line["game"], line["position"], [data["pv"][0]["id"]]).is_terminal()


def test_solved_and_finished_positions_have_no_search_line(client, monkeypatch):
    monkeypatch.setattr("boomboard.analysis.solver", FakeSolver)
    solved = client.post("/api/analysis", json={"game": "jump61(size=2)", "actions": []}).json()
    assert solved["source"] == "solver" and (solved["pv"], solved["depth"]) == ([], None)
    state = boomboard.load_game("kaboom").new_initial_state()
    for move in ["A", "B", "A", "B", "A", "B", "A"]:
        state.play(move)
    assert state.is_terminal()
    ended = client.post("/api/analysis", json={"game": "kaboom", "actions": state.history()}).json()
    assert ended["source"] == "rules" and (ended["pv"], ended["depth"]) == ([], None)


# -- in the browser -----------------------------------------------------------------------------

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
ARTIFACTS = Path(os.environ.get("BOOMBOARD_ARTIFACTS", Path(__file__).resolve().parent.parent / "build" / "screenshots"))
GAME = "jump61(size=3)"
SHOWN = ("() => window.page && window.page.state && !window.page.animating"
         " && window.page.analysis && window.page.analysis.moves")


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def played_game(address: str) -> tuple[str, list[int]]:
    """A game of two humans with six moves played through the API (not over); its id and actions."""
    with httpx.Client(base_url=address, timeout=60, headers=OWNER) as http:
        game = http.post("/api/games", json={"game": GAME, "players": ["human", "human"]}).json()
        for move in ["1 1", "3 3", "1 3", "3 1", "2 2", "1 2"]:
            answer = http.post(f"/api/games/{game['id']}/moves", json={"move": move})
            assert answer.status_code == 200, answer.text
        return game["id"], answer.json()["actions"]


def stored(address: str, game_id: str) -> list[int]:
    return httpx.get(f"{address}api/games/{game_id}", timeout=60).json()["actions"]


def try_side_line(page, moves: int) -> list[int]:
    """Play ``moves`` moves into a side line from the analysis's own buttons
    (its best move each time), waiting for the analysis of each position; the
    side line's actions."""
    ply = page.evaluate("window.page.state.ply")
    for played in range(1, moves + 1):
        page.wait_for_function(SHOWN, timeout=90_000)
        page.locator(".move-values .value-move").first.click()
        page.wait_for_function(f"() => window.page.sideline && window.page.sideline.line.length === {played}"
                               f" && window.page.state.ply === {ply + played}")
    page.wait_for_function(SHOWN, timeout=90_000)
    return page.evaluate("window.page.state.actions")


@requires_chromium
def test_a_side_line_from_a_replay_leaves_the_game_as_it_was(browser, server):
    game_id, actions = played_game(server)
    page = browser.new_page(viewport=SIZES["desktop"])
    page.goto(f"{server}#/replay/web/{game_id}?ply=2")
    page.wait_for_function("() => window.page && window.page.state && window.page.state.ply === 2")
    main_position = page.evaluate("window.page.state.position")
    page.click("#analysis")
    page.wait_for_function(SHOWN, timeout=90_000)
    assert page.locator(".move-values .value-move:enabled").count() == len(page.evaluate("window.page.state.legal"))
    line = try_side_line(page, 2)
    assert line[:2] == actions[:2] and len(line) == 4
    # the analysis follows the side line: its moves are those legal after it
    legal = {m["id"] for m in page.evaluate("window.page.state.legal")}
    assert {m["id"] for m in page.evaluate("window.page.analysis.moves")} == legal
    assert page.locator("#sideline-moves .side-move").count() == 2
    assert page.locator(".engine-line").count() == 1  # the search's expected line and depth
    assert re.search(r"depth \d+", page.inner_text(".engine-line"))
    shot(page, "sideline-replay-desktop")
    # back one move within the side line, then forward again (by key)
    page.click("#sideline-back")
    page.wait_for_function("() => window.page.state.ply === 3 && window.page.sideline.at === 1")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => window.page.state.ply === 4")
    page.set_viewport_size(SIZES["phone"])
    page.wait_for_function(SHOWN, timeout=90_000)
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES["phone"]["width"]
    shot(page, "sideline-replay-phone")
    page.set_viewport_size(SIZES["desktop"])
    # one click back to the main line: the replay's position, its move list whole
    page.click("#main-line")
    page.wait_for_function("() => !window.page.sideline && window.page.state.ply === 2 && !window.page.animating")
    assert page.evaluate("window.page.state.actions") == actions[:2]
    assert page.evaluate("window.page.state.position") == main_position
    assert page.locator("#move-list td.move:not(.empty)").count() == len(actions)
    assert stored(server, game_id) == actions
    page.close()


@requires_chromium
def test_a_side_line_from_a_shared_link(browser, server):
    state = boomboard.load_game(GAME).new_initial_state()
    for move in ["1 1", "3 3"]:
        state.play(move)
    shared = state.to_notation()
    page = browser.new_page(viewport=SIZES["desktop"])
    page.goto(f"{server}#/position?game={quote(GAME)}&position={quote(shared)}")
    page.wait_for_function(SHOWN, timeout=90_000)
    pv = page.evaluate("window.page.analysis.pv")
    assert len(pv) >= 2
    # a click on the engine line plays it into a side line, up to that move
    page.locator(".engine-line .pv-move").nth(1).click()
    page.wait_for_function("() => window.page.sideline && window.page.state.ply === 2", timeout=60_000)
    assert page.evaluate("window.page.state.actions") == [m["id"] for m in pv[:2]]
    page.wait_for_function(SHOWN, timeout=90_000)
    assert page.evaluate("window.page.state.position") != shared
    shot(page, "sideline-shared-desktop")
    page.click("#main-line")
    page.wait_for_function("() => !window.page.sideline && window.page.state.ply === 0")
    assert page.evaluate("window.page.state.position") == shared
    page.close()


@requires_chromium
def test_a_side_line_from_a_live_game_plays_nothing_in_it(browser, server):
    game = httpx.post(f"{server}api/games", json={"game": GAME, "players": ["human", "human"]}, headers=OWNER,
                      timeout=60).json()
    page = browser.new_page(viewport=SIZES["desktop"])
    page.goto(f"{server}#/game/{game['id']}")
    page.wait_for_function("() => window.page && window.page.state && window.page.state.to_move === 0")
    page.click("#explore")
    page.click('[data-cell="2 2"]')  # a move on the board goes into the side line
    page.wait_for_function("() => window.page.sideline && window.page.state.ply === 1 && !window.page.animating")
    assert stored(server, game["id"]) == []
    assert page.locator("#undo, #resign").count() == 0  # nothing here acts on the game
    shot(page, "sideline-live-desktop")
    page.click("#main-line")
    page.wait_for_function("() => !window.page.sideline && window.page.state.ply === 0")
    page.click('[data-cell="2 2"]')  # and back on the main line, a move is played in the game
    wait_for(httpx.Client(base_url=server, timeout=60), game["id"], lambda s: s["ply"] == 1)
    page.close()
