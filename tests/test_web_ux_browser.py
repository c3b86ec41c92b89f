"""Nothing in a new user's way, read off the page in Debian's chromium
(Playwright): on a phone the controls and the move list come before the
analysis's long lists; an exact result is never drawn in a player's colour
and a finished game's result is not green; the address's ``?ply=`` follows
the arrow keys; an empty Tournaments page says what to do."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

import boomboard
from boomboard.core.geometry import RESULT_CLEARANCE, colour_distance
from browser_helpers import requires_chromium  # noqa: E402

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install .[test])")
pytestmark = requires_chromium

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
READY = "() => window.page && window.page.state"
# A Kaboom position where X, to move, wins at once (detonating its bomb on C2), as tests/test_web_e2e.py plays it.
X_WINS_NEXT = "(x 0 0 xoxx o@*o -ooo -xxx)"


def shot(tmp_path: Path, page, name: str) -> None:
    """A screenshot in the test's folder, and in ``$BOOMBOARD_SCREENSHOTS`` when set."""
    path = tmp_path / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    if os.environ.get("BOOMBOARD_SCREENSHOTS"):
        Path(os.environ["BOOMBOARD_SCREENSHOTS"]).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(os.environ["BOOMBOARD_SCREENSHOTS"]) / path.name)


def human_game(page, server: str, game: str, position: str | None = None, moves=()) -> dict:
    """A human-against-human game made over the API, with ``moves`` played
    (action ids; ``None``: the middle legal move, which ends no game early); its last state."""
    answer = page.request.post(f"{server}api/games", data={"game": game, "players": ["human", "human"],
                                                          "position": position})
    assert answer.ok, answer.text()
    state = answer.json()
    for move in moves:
        answer = page.request.post(f"{server}api/games/{state['id']}/moves",
                                   data={"move": state["legal"][len(state["legal"]) // 2]["id"] if move is None else move})
        assert answer.ok, answer.text()
        state = answer.json()
    return state


def box(page, selector: str) -> dict:
    return page.evaluate(f"""() => {{ const r = document.querySelector({selector!r}).getBoundingClientRect();
        return {{ top: r.top + scrollY, bottom: r.bottom + scrollY }}; }}""")


def test_on_a_phone_the_controls_and_moves_come_before_the_analysis_lists(server, browser, tmp_path):
    page = browser.new_page(viewport=PHONE)
    state = human_game(page, server, "chain_reaction", moves=[None] * 4)
    page.goto(f"{server}#/game/{state['id']}")
    page.wait_for_function(READY)
    page.click("#analysis")
    page.wait_for_selector(".move-values li", timeout=300_000)
    page.wait_for_selector(".chart-box .chart", timeout=300_000)  # the value chart comes with its first point
    headline, bar = box(page, ".analysis .headline"), box(page, ".analysis .eval")
    controls, moves, values = box(page, "#move-input"), box(page, "#move-list"), box(page, ".move-values")
    assert headline["bottom"] <= PHONE["height"] and bar["bottom"] <= PHONE["height"], (headline, bar)
    assert controls["bottom"] <= moves["top"] and moves["bottom"] <= values["top"], (controls, moves, values)
    assert box(page, ".chart-box")["top"] > values["bottom"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(tmp_path, page, "phone-chain-reaction-analysis")
    page.close()


@pytest.mark.parametrize("game", ["chain_reaction", "jump61", "kaboom"])
def test_exact_results_are_never_drawn_in_a_players_colour(server, browser, game):
    """The legend's win, tie and loss colours (those the moves and the history
    marks wear) stand apart from both players' pieces: Chain Reaction's green
    player is not a winning move, Jump61's red one not a losing move."""
    page = browser.new_page(viewport=DESKTOP)
    # the legend's colours are the game's own, in any position: its first one, whose analysis is the chart's one
    # point (the server keeps a game's analyses), so one search
    state = human_game(page, server, game)
    page.goto(f"{server}#/game/{state['id']}")
    page.wait_for_function(READY)
    page.click("#analysis")
    page.wait_for_selector(".analysis .legend", timeout=300_000)
    swatches = page.evaluate("""() => [...document.querySelectorAll('.analysis .legend i:not(.ramp)')]
        .map((i) => getComputedStyle(i).backgroundColor)""")
    results = [_hex(colour) for colour in swatches]
    assert len(results) == 3 and len(set(results)) == 3
    players = boomboard.load_game(game).presentation.colours
    for result in results:
        for player in players:
            assert colour_distance(result, player) >= RESULT_CLEARANCE, (game, result, player)
    page.close()


def test_a_finished_games_result_is_not_green_to_the_loser(server, browser, tmp_path):
    page = browser.new_page(viewport=DESKTOP)
    start = human_game(page, server, "kaboom", X_WINS_NEXT)
    winning = next(m["id"] for m in start["legal"] if _ends_the_game(page, server, start, m["id"]))
    human_game_state = page.request.post(f"{server}api/games/{start['id']}/moves", data={"move": winning}).json()
    assert human_game_state["outcome"]["winner"] == 0
    page.goto(f"{server}#/game/{start['id']}")
    page.wait_for_function(READY)
    assert "X wins" in page.inner_text("#status")
    colour = page.evaluate("getComputedStyle(document.getElementById('status')).color")
    ink = page.evaluate("getComputedStyle(document.body).color")
    assert colour == ink, (colour, ink)
    page.close()


def test_the_addresss_ply_follows_the_arrow_keys(server, browser):
    page = browser.new_page(viewport=DESKTOP)
    state = human_game(page, server, "kaboom", moves=[None] * 4)
    page.goto(f"{server}#/replay/web/{state['id']}?ply=1")
    page.wait_for_function("() => window.page && window.page.state && window.page.state.ply === 1")
    for key, ply in (("ArrowRight", 2), ("ArrowRight", 3), ("ArrowLeft", 2)):
        page.keyboard.press(key)
        page.wait_for_function(f"() => window.page.state.ply === {ply}")
        assert page.evaluate("location.hash") == f"#/replay/web/{state['id']}?ply={ply}"
    page.reload()  # the address opens the ply it names
    page.wait_for_function("() => window.page && window.page.state")
    assert page.evaluate("window.page.state.ply") == 2
    page.close()


def test_an_empty_tournaments_page_says_how_to_run_one(server, browser, tmp_path):
    page = browser.new_page(viewport=PHONE)
    page.goto(f"{server}#/tournaments")
    page.wait_for_selector(".empty-tournaments")
    text = page.inner_text(".listing")
    assert "No tournaments yet" in text
    assert "boomboard tournament kaboom random greedy" in text and "--arena-db" in text
    command = page.locator(".empty-tournaments pre").bounding_box()
    assert command["x"] + command["width"] <= PHONE["width"]  # the whole command in view
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(tmp_path, page, "tournaments-empty")
    page.close()


def _ends_the_game(page, server: str, state: dict, action: int) -> bool:
    after = page.request.post(f"{server}api/position", data={"game": state["game"], "position": state["start"],
                                                              "actions": [action]})
    assert after.ok, after.text()
    return after.json()["outcome"] is not None


def _hex(css: str) -> str:
    """``rgb(r, g, b)`` as ``#rrggbb``."""
    red, green, blue = (int(part) for part in css[css.index("(") + 1:css.index(")")].split(",")[:3])
    return f"#{red:02x}{green:02x}{blue:02x}"
