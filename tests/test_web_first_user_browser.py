"""The user's game comes first, in Debian's chromium through Playwright, on a
real ``boomboard serve`` with two worker processes: the watch page of an
AI-vs-AI game offers Pause and Stop and nothing that plays, and Stop ends
the game; the user's own AI move is answered while two watched games search,
without waiting behind their queue (told by the order in which the games'
changes arrive, not by the clock)."""

from __future__ import annotations

import json
import urllib.request

import pytest
from browser_helpers import requires_chromium  # noqa: E402
from web_helpers import OWNER, serving  # noqa: E402

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install .[test])")
pytestmark = requires_chromium

# Each watched move searches for 3 s of CPU time, so that a move of the user's AI (a 2-ply search)
# that waited behind the watched games' queue would come after at least two of their moves.
WATCHED_SIDE = "ai:time=3"
USER_SIDE = "alphabeta:depth=2"
WAIT_MS = 240_000  # a budget a loaded machine cannot exhaust; every wait ends as soon as its condition holds


def api(base, method, path, body=None):
    request = urllib.request.Request(base + path, method=method, data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json", **OWNER})
    with urllib.request.urlopen(request, timeout=120) as response:
        return json.loads(response.read())


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with serving(tmp_path_factory.mktemp("first-user"), "--workers", "2") as address:
        yield address




def test_the_watch_page_offers_pause_and_stop_and_nothing_that_plays(server, browser, tmp_path):
    game = api(server, "POST", "api/games", {"game": "kaboom", "players": ["random", "random"], "pace": 1.0})
    page = browser.new_page(viewport={"width": 1100, "height": 800})
    try:
        page.goto(f"{server}#/game/{game['id']}")
        page.wait_for_selector("#stop:not([disabled])")
        for control in ("#move-input", "#bomb-mode", "#undo", "#resign", "button[type=submit]"):
            assert page.locator(control).count() == 0, control  # nothing a watcher cannot use
        page.click("#pause")
        # a move that arrives with the pause is animated first; the buttons are drawn after it
        page.wait_for_function("() => window.page.state.paused && !window.page.state.thinking && !window.page.animating",
                               timeout=WAIT_MS)
        assert page.inner_text("#pause") == "Resume" and "Paused" in page.inner_text("#status")
        page.screenshot(path=str(tmp_path / "watch-paused.png"))
        page.click("#pause")
        page.wait_for_function("() => !window.page.state.paused", timeout=WAIT_MS)
        page.click("#stop")
        page.wait_for_function("() => window.page.state.stopped && !window.page.animating", timeout=WAIT_MS)
        assert "Stopped" in page.inner_text("#status") and page.locator("#stop[disabled]").count() == 1
        page.screenshot(path=str(tmp_path / "watch-stopped.png"))
    finally:
        page.close()
    stopped = api(server, "GET", f"api/games/{game['id']}")
    assert stopped["stopped"] and not stopped["thinking"] and stopped["outcome"]["reason"] == "stopped"


# Records, in the order they arrive, the changes of the watched games (their plies).
RECORD_WATCHED = """(ids) => {
  window.arrivals = [];
  window.watchers = ids.map((id) => {
    const source = new EventSource(`/api/games/${id}/events`);
    source.onmessage = (event) => { const s = JSON.parse(event.data); window.arrivals.push(["watched", s.id, s.ply]); };
    return source;
  });
}"""


def _play_first_legal_move(page) -> int:
    """Types the first legal move and sends it; returns the ply the AI's answer makes."""
    ply = page.evaluate("() => window.page.state.ply")
    page.fill("#move-input", page.evaluate("() => window.page.state.legal[0].text"))
    page.press("#move-input", "Enter")
    return ply + 2


def test_the_users_ai_move_is_answered_ahead_of_two_watched_games(server, browser):
    watched = [api(server, "POST", "api/games", {"game": "kaboom", "players": [WATCHED_SIDE, WATCHED_SIDE], "pace": 0})
               for _ in range(2)]
    mine = api(server, "POST", "api/games", {"game": "kaboom", "players": ["human", USER_SIDE]})
    page = browser.new_page(viewport={"width": 1100, "height": 800})
    try:
        page.goto(f"{server}#/game/{mine['id']}")
        page.wait_for_selector("#move-input:not([disabled])")
        page.evaluate(RECORD_WATCHED, [game["id"] for game in watched])
        # Both watched games have moved (their code is loaded), and the user's AI has answered once (its too).
        page.wait_for_function("""(ids) => ids.every((id) => window.arrivals.some(([, game, ply]) => game === id && ply >= 1))""",
                               arg=[game["id"] for game in watched], timeout=WAIT_MS)
        answer = _play_first_legal_move(page)
        page.wait_for_function(f"() => window.page.state.ply === {answer} && !window.page.state.thinking",
                               timeout=WAIT_MS)
        page.wait_for_function("() => window.page.state.to_move === 0 && !window.page.animating", timeout=WAIT_MS)
        # The measured move: from the moment it is stored (the watched games are searching) to the AI's answer.
        page.evaluate("""() => {
          window.mine = [];
          window.mineSource = new EventSource(`/api/games/${window.page.id}/events`);
          window.mineSource.onmessage = (event) => {
            const s = JSON.parse(event.data);
            window.mine.push(s.ply);
            window.arrivals.push(["mine", s.id, s.ply]);
          };
        }""")
        page.wait_for_function("() => window.mine.length >= 1")
        assert all(api(server, "GET", f"api/games/{game['id']}")["thinking"] for game in watched)
        answer = _play_first_legal_move(page)
        page.wait_for_function(f"() => window.mine.includes({answer})", timeout=WAIT_MS)
        arrivals = page.evaluate("() => window.arrivals")
        page.wait_for_function(f"() => window.page.state.ply >= {answer}", timeout=WAIT_MS)  # and the page shows it
    finally:
        page.close()
        for game in watched:
            api(server, "POST", f"api/games/{game['id']}/stop", {})
    mine_plies = [(index, ply) for index, (kind, _, ply) in enumerate(arrivals) if kind == "mine"]
    # the user's move as stored (its own event, unless the answer came within the same look of the stream)
    moved = next(index for index, ply in mine_plies if ply >= answer - 1)
    answered = next(index for index, ply in mine_plies if ply == answer)  # the AI's answer to it
    before = {}
    for kind, game_id, ply in arrivals[:moved]:
        if kind == "watched":
            before[game_id] = max(ply, before.get(game_id, 0))
    watched_moves = {(game_id, ply) for kind, game_id, ply in arrivals[moved:answered]
                     if kind == "watched" and ply > before.get(game_id, 0)}
    # Behind the watched games' queue, the answer would have come after the move each of them was
    # searching; ahead of it, at most the one move already running on the watched games' worker ends first.
    assert len(watched_moves) <= 1, arrivals[moved:answered + 1]


def test_a_refused_analysis_says_so_and_retries_by_itself(server, browser, tmp_path):
    """The server sheds the first two analyses (503 with Retry-After, as under load): the page says it
    waits and asks again by itself until it gets one, never stuck at "analysing..."."""
    game = api(server, "POST", "api/games", {"game": "kaboom", "players": ["human", "human"]})
    page = browser.new_page(viewport={"width": 1100, "height": 800})
    refused = []

    def shed_twice(route):
        if len(refused) < 2:
            refused.append(route.request.url)
            route.fulfill(status=503, headers={"Retry-After": "1", "Content-Type": "application/json"},
                          body=json.dumps({"error": "the server's AI workers are busy"}))
        else:
            route.continue_()

    try:
        page.route("**/api/games/*/analysis", shed_twice)
        page.goto(f"{server}#/game/{game['id']}")
        page.wait_for_selector("#move-input:not([disabled])")
        page.click("#analysis")
        page.wait_for_function("() => (document.querySelector('#analysis-state') || {}).textContent"
                               "?.includes('the analysis waits')", timeout=WAIT_MS)
        page.screenshot(path=str(tmp_path / "analysis-refused.png"))
        # asked again, unprompted, and answered
        page.wait_for_function("() => window.page.analysis && window.page.analysis.moves", timeout=WAIT_MS)
        assert len(refused) == 2 and page.locator("#analysis-state").count() == 0
    finally:
        page.close()
