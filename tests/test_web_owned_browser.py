"""In a real browser (Debian's chromium through Playwright): a game another
browser made is shown without the buttons that would change it (Undo,
Resign; Pause and Stop of a game of AI against AI; Delete in the games
list), since the server would refuse them (a 403); the page's own game
keeps them."""

from __future__ import annotations

import json
import urllib.request

import pytest
from browser_helpers import requires_chromium  # noqa: E402

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install .[test])")
pytestmark = requires_chromium

SOMEONE_ELSE = {"X-Boomboard-Owner": "another-browsers-own-token-0123"}


def as_someone_else(base: str, path: str, body: dict) -> dict:
    request = urllib.request.Request(base + path, method="POST", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json", **SOMEONE_ELSE})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


def made_by_someone_else(base: str, players: list[str], **settings) -> str:
    return as_someone_else(base, "api/games", {"game": "jump61(size=4)", "players": players, **settings})["id"]


def test_another_browsers_games_show_no_buttons_that_change_them(server, browser):
    played = made_by_someone_else(server, ["human", "human"])
    watched = made_by_someone_else(server, ["random", "random"], pace=5)
    try:
        page = browser.new_page()
        page.goto(f"{server}#/game/{played}")
        page.wait_for_selector("#flip")  # the controls are drawn
        assert page.evaluate("window.page.state.owned") is False
        assert page.locator("#undo").count() == 0 and page.locator("#resign").count() == 0
        assert page.locator("#move-input").is_disabled()  # nor is a move taken from this page
        page.goto(f"{server}#/game/{watched}")
        page.wait_for_function(f"() => window.page && window.page.state && window.page.state.id === {watched!r}")
        page.wait_for_selector("#flip")
        assert page.locator("#pause").count() == 0 and page.locator("#stop").count() == 0
        # the page's own game keeps them all
        page.goto(f"{server}#/?game=jump61")
        page.select_option("#game-select", "jump61")
        page.fill("#param-size", "4")
        page.select_option("#side-0", "human")
        page.select_option("#side-1", "human")
        page.click("#start")
        page.wait_for_selector("#resign")
        own = page.evaluate("window.page.state.id")
        assert page.evaluate("window.page.state.owned") is True and page.locator("#undo").count() == 1
        page.goto(f"{server}#/games")
        page.wait_for_selector(f".delete-game[data-id='{own}']")
        assert page.locator(f".delete-game[data-id='{played}']").count() == 0
        page.close()
    finally:  # the server is the test process's (tests/conftest.py): no game of this test plays on after it
        as_someone_else(server, f"api/games/{watched}/stop", {})
