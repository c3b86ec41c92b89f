"""Issue 46, item 6 (its second sentence), in Debian's chromium (Playwright):
a replay's value chart fills point by point as each position's analysis is
ready, rather than all at once when the last one is. The stream itself over
HTTP is tests/test_web_shedding.py's."""

from __future__ import annotations

import pytest

from browser_helpers import requires_chromium  # noqa: E402

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install .[test])")
pytestmark = requires_chromium

# 6 points, each its position's search (about a CPU second each, whatever the board's size), found one after
# another: a chart drawn point by point shows 6 counts, one drawn once at the end 1. A 4x4 board's game
# (23 plies long: no point is its end).
GAME = "jump61(size=4)"
PLIES = 5
# Every number of points the chart has shown, in order, each time the page changes.
COUNT_POINTS = """() => {
  window.chartPoints = [];
  new MutationObserver(() => {
    const shown = document.querySelectorAll("svg.chart .dot").length;
    if (window.chartPoints[window.chartPoints.length - 1] !== shown) window.chartPoints.push(shown);
  }).observe(document.getElementById("view"), { childList: true, subtree: true });
}"""


def test_a_replays_value_chart_fills_point_by_point(server, browser):
    page = browser.new_page()
    answer = page.request.post(f"{server}api/games", data={"game": GAME, "players": ["human", "human"]})
    assert answer.ok, answer.text()
    state = answer.json()
    for _ in range(PLIES):  # each position's analysis a search of its own
        answer = page.request.post(f"{server}api/games/{state['id']}/moves", data={"move": state["legal"][0]["id"]})
        assert answer.ok, answer.text()
        state = answer.json()
    page.goto(f"{server}#/replay/web/{state['id']}?ply=0")
    page.wait_for_selector("#analysis")
    page.evaluate(COUNT_POINTS)
    page.click("#analysis")
    page.wait_for_function(f"() => document.querySelectorAll('svg.chart .dot').length === {PLIES + 1}",
                           timeout=300_000)
    shown = [count for count in page.evaluate("window.chartPoints") if count]
    assert shown == sorted(shown) and shown[-1] == PLIES + 1, shown
    assert len(shown) > PLIES // 2, shown  # drawn as the points came, not once at the end
    page.close()
