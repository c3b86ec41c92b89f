"""A game record in Debian's chromium: a finished game downloaded from its
Share panel, opened by the link that carries it, replayed move by move;
then the same file opened from the Games page, whose filter and Delete work.
Screenshots go to ``$BOOMBOARD_ARTIFACTS`` (default build/screenshots)."""

from __future__ import annotations

import base64
import json
import os
import urllib.request
from pathlib import Path

import pytest

from boomboard.records import read_record
from browser_helpers import requires_chromium  # noqa: E402
from web_helpers import OWNER  # noqa: E402

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install .[test])")
pytestmark = requires_chromium
ARTIFACTS = Path(os.environ.get("BOOMBOARD_ARTIFACTS", "build/screenshots"))
MOVES = ["A", "B", "A", "B", "A", "B", "A"]  # X fills column A: four in a row


def call(server, method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(server.rstrip("/") + path, data=data, method=method,
                                     headers={"content-type": "application/json", **OWNER})
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.loads(answer.read())


def shot(page, name):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def at_ply(page, ply, source="record"):
    """Wait until the page shows ply ``ply`` of a replay from ``source``: its state, and the controls drawn for it."""
    page.wait_for_function(f"() => window.page && window.page.state && window.page.state.source === '{source}' "
                           f"&& window.page.state.ply === {ply} && !window.page.animating "
                           f"&& (document.querySelector('.ply') || {{}}).textContent === "
                           f"`{ply} / ${{window.page.state.length}}`", timeout=60_000)


def test_a_game_record_is_downloaded_opened_by_its_link_and_replayed(server, browser, tmp_path):
    game = call(server, "POST", "/api/games", {"game": "kaboom", "players": ["human", "human"]})
    for move in MOVES:
        game = call(server, "POST", f"/api/games/{game['id']}/moves", {"move": move})
    assert game["outcome"]["winner"] == 0
    page = browser.new_page(viewport={"width": 1280, "height": 800}, accept_downloads=True)
    page.goto(f"{server}#/replay/web/{game['id']}?ply=7")
    at_ply(page, 7, "web")
    page.click("#share")
    page.wait_for_selector("#download-record")
    with page.expect_download() as waiting:
        page.click("#download-record")
    saved = tmp_path / "game.txt"
    waiting.value.save_as(saved)
    record = read_record(saved.read_text())
    assert record.actions == game["actions"] and record.result == "1-0" and record.game == "kaboom"
    shot(page, "record-share-desktop")

    link = page.input_value("#share-game-link")
    assert "#/record?ply=7&r=" in link
    fresh = browser.new_page(viewport={"width": 390, "height": 844})
    fresh.goto(link)
    at_ply(fresh, 7)
    assert fresh.evaluate("window.page.state.outcome.winner") == 0
    assert fresh.evaluate("window.page.state.all_actions") == game["actions"]
    assert "wins" in fresh.inner_text("#status")
    fresh.click("#first")
    at_ply(fresh, 0)
    for ply in (1, 2, 3):
        fresh.click("#forward")
        at_ply(fresh, ply)
    expected = call(server, "GET", f"/api/replay/web/{game['id']}?ply=3")
    assert fresh.evaluate("window.page.state.cells") == expected["cells"]
    assert fresh.locator("#move-list td.move.current").inner_text() == MOVES[2]
    shot(fresh, "record-replay-phone")

    games = browser.new_page(viewport={"width": 1280, "height": 800})
    games.goto(f"{server}#/games")
    games.wait_for_selector("#record-file")
    games.set_input_files("#record-file", str(saved))
    at_ply(games, 0)
    assert games.evaluate("window.page.state.length") == len(MOVES)
    for page_open in (page, fresh, games):
        page_open.close()


def test_the_games_page_filters_and_deletes(server, browser):
    kaboom = call(server, "POST", "/api/games", {"game": "kaboom", "players": ["human", "human"]})
    jump61 = call(server, "POST", "/api/games", {"game": "jump61(size=3)", "players": ["human", "human"]})
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(f"{server}#/games")
    page.wait_for_selector(f'.delete-game[data-id="{jump61["id"]}"]')
    page.select_option("#filter-game", "kaboom")
    page.wait_for_function("() => location.hash.includes('game=kaboom')")
    page.wait_for_selector(f'.delete-game[data-id="{kaboom["id"]}"]')
    # the kaboom row was listed before the filter too: wait for the list drawn again, without jump61
    page.wait_for_selector(f'.delete-game[data-id="{jump61["id"]}"]', state="detached")
    assert page.locator(f'.delete-game[data-id="{jump61["id"]}"]').count() == 0
    shot(page, "record-games-page-desktop")
    button = page.locator(f'.delete-game[data-id="{kaboom["id"]}"]')
    button.click()
    assert button.inner_text() == "Delete for good?"
    button.click()
    page.wait_for_function(f"() => !document.querySelector('.delete-game[data-id=\"{kaboom['id']}\"]')")
    listed = call(server, "GET", "/api/games?game=kaboom")["games"]
    assert kaboom["id"] not in {g["id"] for g in listed}
    page.close()


def test_a_damaged_or_invalid_record_link_says_what_is_wrong(server, browser):
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(f"{server}#/record?r=%25%25%25")
    page.wait_for_selector("text=this link's game record is damaged")
    invalid = base64.urlsafe_b64encode(b'[Game "kaboom"]\n\n1. Q\n*\n').decode().rstrip("=")
    page.goto(f"{server}#/record?r={invalid}")
    page.wait_for_selector("text=line 3, column 4")
    page.close()
