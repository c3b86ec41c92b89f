"""The web app in a real browser: Playwright driving Debian's chromium, headless.

For each of the six games a person's path is followed: open the new-game
page, choose a small variant and the random player as the opponent, start,
then play by clicking the board (a stack, then where it goes, then how many
where a count is asked; Kaboom's bomb button; Expendibots' boom button)
until the game ends. Each move must change the board drawn and lengthen the
move list. The server is the real command, ``boomboard serve``, on a free
port with a temporary database. Screenshots go to the test's temporary
folder; with ``BOOMBOARD_SCREENSHOTS=DIR`` those for the documentation are
also copied to DIR (``BOOMBOARD_SCREENSHOTS=docs/images`` makes the docs' pictures).
"""

from __future__ import annotations

import json
import os
import re
import urllib.request
from pathlib import Path

import pytest

import boomboard
from boomboard.agents.search_agents import GreedyAgent
from browser_helpers import requires_chromium  # noqa: E402
from web_helpers import OWNER  # noqa: E402

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install .[test])")
pytestmark = requires_chromium

# A small variant of each game, so that a game against random ends quickly.
GAMES = [
    ("expendibots", {}, '{"white": [[2, 3, 3], [1, 0, 0]], "black": [[1, 6, 6], [1, 5, 2]]}'),
    ("jump61", {"size": 3}, None),
    ("kaboom", {}, None),
    ("explocus", {"size": 4}, None),
    ("hexplocus", {"side": 3}, None),
    ("chain_reaction", {"rows": 4, "cols": 4}, None),
]

READY = ("() => window.page && window.page.state && !window.page.animating && "
         "(window.page.state.outcome !== null || (window.page.state.to_move !== null && "
         "window.page.state.players[window.page.state.to_move] === 'human'))")


# Screenshots at phone and desktop sizes go to $BOOMBOARD_ARTIFACTS (default
# build/screenshots, which CI keeps); BOOMBOARD_SCREENSHOTS=docs/images also
# copies the documentation's pictures there.
ARTIFACTS = Path(os.environ.get("BOOMBOARD_ARTIFACTS", Path(__file__).resolve().parent.parent / "build" / "screenshots"))
SIZES = {"desktop": {"width": 1100, "height": 760}, "phone": {"width": 390, "height": 844}}


def _artifact(page, name: str, docs: bool = False) -> None:
    """Keep the whole page as ``name``.png in the artifacts; one for the
    documentation (``docs``) also goes to ``$BOOMBOARD_SCREENSHOTS`` when it is
    set, as the screen shows it (the page's first screenful)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
    target = os.environ.get("BOOMBOARD_SCREENSHOTS")
    if target and docs:
        Path(target).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(target) / f"{name}.png"))


def wait_for_the_analysis(page) -> None:
    """Wait for the analysis's moves; past a minute, fail with what the page's analysis and state were."""
    try:
        page.wait_for_selector(".move-values li", timeout=60_000)
    except sync_api.TimeoutError:
        shown = page.evaluate("JSON.stringify({analysis: window.page.analysis, ply: window.page.state.ply, "
                              "thinking: window.page.state.thinking, to_move: window.page.state.to_move})")
        pytest.fail(f"no analysis after 60 s: {shown}; the panel says {page.inner_text('.analysis')!r}")


def _shots(tmp_path: Path, page, name: str, docs: bool = True) -> None:
    """Save a screenshot with the artifacts; those for the documentation (``docs``)
    also go to ``$BOOMBOARD_SCREENSHOTS`` when it is set."""
    _artifact(page, name, docs=docs)


def _click_gesture(page, gesture: dict, layout: dict) -> None:
    """Do what a person does to play ``gesture`` (see geometry.move_gestures)."""
    kind = gesture["kind"]
    cell = lambda name: page.locator(f'[data-cell="{name}"]')  # noqa: E731
    if kind == "pass":
        page.click("#pass")
    elif kind in ("drop", "bomb"):
        column = [c["name"] for c in layout["cells"] if c.get("group") == gesture["to"]]
        if kind == "bomb":
            page.click("#bomb-mode")
        cell(column[-1]).click()  # the top cell: empty while the column has room
    elif kind in ("add", "detonate"):
        cell(gesture["to"]).click()
    elif kind == "boom":
        cell(gesture["from"]).click()
        page.click("#boom")
    else:
        cell(gesture["from"]).click()
        cell(gesture["to"]).click()
        chooser = page.locator(f'.chooser [data-count="{gesture["count"]}"]')
        if chooser.count():
            chooser.click()


def _state_for_choice(data: dict):
    game = boomboard.load_game(data["game"])
    return game.state_from_notation(data["position"])


@pytest.mark.parametrize("name,params,position", GAMES, ids=[g[0] for g in GAMES])
def test_play_a_whole_game_by_clicking(server, browser, tmp_path, name, params, position):
    page = browser.new_page(viewport={"width": 1100, "height": 760})
    page.goto(f"{server}#/?game={name}")
    page.select_option("#game-select", name)
    for key, value in params.items():
        page.fill(f"#param-{key}", str(value))
    page.select_option("#side-0", "human")
    page.select_option("#side-1", "random")
    if position:
        page.fill("#position", position)
    page.click("#start")
    page.wait_for_url(re.compile(r"#/game/"))
    page.wait_for_function(READY)
    assert page.locator("svg.board [data-cell]").count() == len(page.evaluate("window.page.state.layout.cells"))
    chooser = GreedyAgent(seed=3)  # plays well enough to end games against random quickly
    moves = 0
    while True:
        page.wait_for_function(READY, timeout=90_000)
        data = page.evaluate("window.page.state")
        if data["outcome"] is not None:
            break
        if moves == 1:
            _shots(tmp_path, page, f"{name}-playing", docs=False)
        action = chooser.choose_action(_state_for_choice(data))
        gesture = next(g for g in data["legal"] if g["id"] == action)
        board_before = page.inner_html(".board-holder")
        _click_gesture(page, gesture, data["layout"])
        page.wait_for_function(f"() => window.page.state.ply > {data['ply']}", timeout=90_000)
        after = page.evaluate("window.page.state")
        assert after["moves"][data["ply"]]["text"] == gesture["text"]  # our click made this very move
        page.wait_for_function(READY, timeout=90_000)
        assert page.inner_html(".board-holder") != board_before
        assert page.locator("#move-list td.move").count() == page.evaluate("window.page.state.ply")
        moves += 1
        assert moves < 200, "the game should have ended by now"
    status = page.inner_text("#status")
    assert re.search(r"wins|Tie", status), status
    _shots(tmp_path, page, name)
    page.click("#new-game")  # back to the form, with the same game and variant chosen
    page.wait_for_selector("#start")
    assert page.input_value("#game-select") == name
    for key, value in params.items():
        assert page.input_value(f"#param-{key}") == str(value)
    page.close()


def test_phone_screen_keyboard_entry_and_analysis(server, browser, tmp_path):
    page = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2)
    page.goto(f"{server}#/?game=kaboom")
    page.select_option("#side-1", "custom")
    page.fill("#spec-1", "alphabeta:depth=x")
    page.click("#start")
    page.wait_for_selector("[role=alert]:has-text('depth')")  # a bad spec is refused, with the reason
    page.fill("#spec-1", "random:seed=5")
    page.click("#start")
    page.wait_for_function(READY)
    assert page.evaluate("window.page.state.players") == ["human", "random:seed=5"]
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width}px wide on a 390px screen"
    page.fill("#move-input", "q")
    page.press("#move-input", "Enter")
    page.wait_for_selector("[role=alert]")
    assert "no column Q" in page.inner_text("[role=alert]")
    page.fill("#move-input", "b")
    page.press("#move-input", "Enter")
    page.wait_for_function("() => window.page.state.ply >= 1")
    page.wait_for_function(READY)
    assert page.evaluate("window.page.state.moves[0].text") == "B"
    page.click("#analysis")
    wait_for_the_analysis(page)
    page.wait_for_selector("svg.chart", timeout=60_000)
    assert page.locator(".move-values li").count() == len(page.evaluate("window.page.state.legal"))
    assert page.locator(".cell .tint").count() > 0  # the legal drops are coloured by their value
    # the first screenful shows the analysis's headline and bar, under the board; the moves'
    # values come after the controls and the move list (tests/test_web_ux_browser.py)
    for part in (".analysis .headline", ".analysis .eval-bar"):
        box = _boxes(page, part)[0]
        assert box["bottom"] <= 844, f"{part} ends at {box['bottom']}px, below a phone's first screen"
    assert _boxes(page, "#move-list")[0]["bottom"] <= _boxes(page, ".move-values li.best")[0]["top"]
    _shots(tmp_path, page, "phone-kaboom-analysis")
    page.close()


def test_an_analysis_asked_for_while_the_ai_still_thinks_comes_once_it_has_moved(server, browser):
    # The AI's move is stored while its task still runs: a state can show the move and "thinking" both,
    # and the next one says only that the thinking ended. An analysis asked for in between waited for ever
    # ("the analysis follows its move"); seen as a 60 s timeout in the phone test above.
    page = browser.new_page()
    page.goto(f"{server}#/?game=kaboom")
    page.select_option("#side-1", "random")
    page.click("#start")
    page.wait_for_function(READY)
    page.fill("#move-input", "d")
    page.press("#move-input", "Enter")
    page.wait_for_function(f"() => window.page.state.ply >= 2 && ({READY})()")
    # in one go, so that none of the game's own events (its real state) comes in between
    said = page.evaluate("""async () => {
        await window.page.showNow({...window.page.state, thinking: true});
        document.querySelector("#analysis").click();
        const said = document.querySelector(".analysis").innerText;
        await window.page.showNow({...window.page.state, thinking: false});
        return said;
    }""")
    assert "analysis follows its move" in said, said
    wait_for_the_analysis(page)
    page.close()


def test_watch_ai_against_ai_then_replay_it(server, browser, tmp_path):
    page = browser.new_page(viewport={"width": 1100, "height": 760})
    page.goto(f"{server}#/?game=jump61")
    page.select_option("#game-select", "jump61")
    page.fill("#param-size", "3")
    page.select_option("#side-0", "random")
    page.select_option("#side-1", "greedy")
    page.click("#start")
    page.wait_for_url(re.compile(r"#/game/"))
    game_id = page.url.rsplit("/", 1)[1]
    seen_boards = set()
    while page.evaluate("!window.page.state || window.page.state.outcome === null"):
        seen_boards.add(page.inner_html(".board-holder"))
        page.wait_for_timeout(150)
    page.wait_for_function("!window.page.animating")
    assert len(seen_boards) >= 3  # the page followed the AIs' moves as they were played
    length = page.evaluate("window.page.state.ply")
    _shots(tmp_path, page, "jump61-watched", docs=False)
    page.click('a[href="/#/games"]')
    page.click(f'a[href="#/replay/web/{game_id}"]')
    # a replay opens at its start
    page.wait_for_function("() => window.page && window.page.state && window.page.state.ply === 0")
    start = page.inner_html(".board-holder")
    page.click("#last")
    page.wait_for_function(f"() => window.page.state.ply === {length} && !window.page.animating")
    assert page.inner_html(".board-holder") != start
    page.click("#first")
    page.wait_for_function("() => window.page.state.ply === 0 && !window.page.animating")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => window.page.state.ply === 1 && !window.page.animating")
    assert page.inner_text(".ply") == f"1 / {length}"
    page.close()


@pytest.fixture(scope="module")
def arena_server(tmp_path_factory):
    """The app with a stand-in arena store, served by uvicorn in a thread."""
    import threading

    import uvicorn

    from boomboard.web import WebSettings, create_app
    from web_fakes import FakeArena

    app = create_app(tmp_path_factory.mktemp("arena") / "web.sqlite3", WebSettings(workers=0), arena=FakeArena())
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        thread.join(0.05)
    port = server.servers[0].sockets[0].getsockname()[1]
    yield f"http://127.0.0.1:{port}/"
    server.should_exit = True
    thread.join(10)


def test_tournament_standings_rating_chart_and_arena_replays(arena_server, browser, tmp_path):
    page = browser.new_page(viewport={"width": 1100, "height": 760})
    page.goto(f"{arena_server}#/tournaments")
    page.click('a[href="#/tournaments/1"]')
    page.wait_for_selector("table.standings")
    rows = page.locator("table.standings tr")
    assert rows.count() == 3 and "ai" in rows.nth(1).inner_text() and "120 ± 80" in rows.nth(1).inner_text()
    assert page.locator("svg.rating-chart .dot").count() == 2
    page.goto(f"{arena_server}#/tournaments/2")  # infinite ratings: shown as such, not drawn
    page.wait_for_function("() => document.querySelectorAll('table.standings tr').length === 3"
                           " && document.querySelector('table.standings').innerText.includes('±∞')")
    assert page.locator("svg.rating-chart .dot").count() == 0
    assert page.locator("svg.rating-chart .tick-label").count() >= 2 and "NaN" not in page.inner_html("svg.rating-chart")
    page.goto(f"{arena_server}#/tournaments/1")
    page.wait_for_selector("table.standings")
    page.click('a[href="#/replay/arena/7"]')
    page.wait_for_function("() => window.page && window.page.state && window.page.state.ply === 0")
    page.click("#last")
    page.wait_for_function("() => window.page.state.ply === 7 && !window.page.animating")
    assert "X wins" in page.inner_text("#status")
    page.click("#back")
    page.wait_for_function("() => window.page.state.ply === 6 && !window.page.animating")
    assert page.locator("#move-list td.move").count() == 7
    page.click("#analysis")  # replays are analysed too: X's winning drop is found
    page.wait_for_selector("svg.chart", timeout=60_000)
    values = dict(zip([text.replace("★ ", "") for text in page.locator(".value-move").all_inner_texts()],
                      page.locator(".move-values li span").all_inner_texts()))
    assert values["A"] == "X wins in 1"  # exact, worded for the first player, counting the move
    # every position of the game, the start included: the chart fills point by point
    page.wait_for_function("() => document.querySelectorAll('svg.chart .dot').length === 8", timeout=60_000)
    _shots(tmp_path, page, "replay-analysis")
    page.close()


def _start(page, server, game, position, sides=("human", "human")):
    page.goto(f"{server}#/?game={game}")
    page.select_option("#game-select", game)
    page.select_option("#side-0", sides[0])
    page.select_option("#side-1", sides[1])
    page.fill("#position", position)
    page.click("#start")
    page.wait_for_url(re.compile(r"#/game/"))
    page.wait_for_function(READY)


def test_count_chooser_boom_button_and_an_animated_detonation(server, browser, tmp_path):
    page = browser.new_page(viewport={"width": 1100, "height": 760}, reduced_motion="no-preference")
    _start(page, server, "expendibots", '{"white": [[2, 3, 3], [1, 0, 0]], "black": [[1, 6, 6], [1, 5, 2]]}')
    page.click('[data-cell="d4"]')
    page.click('[data-cell="d5"]')
    assert page.locator(".chooser .count").all_inner_texts() == ["1", "2"]
    _shots(tmp_path, page, "expendibots-count-chooser")
    page.click('.chooser [data-count="2"]')
    page.wait_for_function("() => window.page.state.ply === 1 && !window.page.animating")
    assert page.evaluate("window.page.state.moves[0].text") == "2 d4 d5"
    page.click('[data-cell="g7"]')
    page.click("#boom")
    page.wait_for_function("() => window.page.state.ply === 2 && !window.page.animating")
    assert page.evaluate("window.page.state.moves[1].text") == "boom g7"
    corner = page.locator('[data-cell="a1"]').bounding_box()
    page.click("#flip")  # White's corner goes from bottom left to top right
    flipped = page.locator('[data-cell="a1"]').bounding_box()
    assert flipped["x"] > corner["x"] and flipped["y"] < corner["y"]
    page.keyboard.press("u")  # undo from the keyboard: back to before the boom
    page.wait_for_function("() => window.page.state.ply === 1 && !window.page.animating")
    assert page.locator('[data-cell="g7"] circle').count() == 1

    _start(page, server, "kaboom", "(x 0 0 xoxx o@*o -ooo -xxx)")
    page.evaluate("""() => { window.sawBoom = 0; new MutationObserver(() => {
        window.sawBoom = Math.max(window.sawBoom, document.querySelectorAll('.cell.boom').length);
    }).observe(document.getElementById('view'), { childList: true, subtree: true }); }""")
    page.click('[data-cell="C2"]')  # X's own bomb: a click detonates it
    page.wait_for_selector(".cell.boom")
    _shots(tmp_path, page, "kaboom-detonation")
    page.wait_for_function("() => window.page.state.ply === 1 && !window.page.animating")
    assert page.evaluate("window.sawBoom") >= 4  # the blast was shown, cell by cell, before the fall
    assert "X wins" in page.inner_text("#status")
    page.close()


COUNT_ANIMATIONS = """() => { window.animations = 0; const drawSteps = window.page.animate.bind(window.page);
    window.page.animate = (steps) => { window.animations += 1; return drawSteps(steps); }; }"""


@pytest.mark.parametrize("motion, animations", [("no-preference", 1), ("reduce", 0)])
def test_a_page_that_asks_for_less_motion_shows_a_detonations_result_without_its_steps(server, browser, motion,
                                                                                         animations):
    page = browser.new_page(viewport={"width": 1100, "height": 760}, reduced_motion=motion)
    _start(page, server, "kaboom", "(x 0 0 xoxx o@*o -ooo -xxx)")
    page.evaluate(COUNT_ANIMATIONS)
    page.click('[data-cell="C2"]')
    page.wait_for_function("() => window.page.state.ply === 1 && !window.page.animating")
    assert page.evaluate("window.animations") == animations
    assert "X wins" in page.inner_text("#status")
    page.close()


def test_while_a_cascade_plays_the_panel_already_shows_the_move_and_its_result(server, browser):
    # The board plays the cascade step by step (up to 2.6 s); the status, the
    # buttons and the move list are the new state's from its start, so a Pause
    # or a move's result is not shown seconds late.
    page = browser.new_page(viewport={"width": 1100, "height": 760}, reduced_motion="no-preference")
    _start(page, server, "kaboom", "(x 0 0 xoxx o@*o -ooo -xxx)")
    page.click('[data-cell="C2"]')
    page.wait_for_function("() => window.page.animating")
    during = page.evaluate("""() => [window.page.animating, document.getElementById('status').textContent,
        [...document.querySelectorAll('.moves td.move')].map((cell) => cell.textContent)]""")
    assert during[0] and "X wins" in during[1] and len(during[2]) == 1, during
    page.close()


# -- the first ten minutes, game by game ---------------------------------------------------
# A position a few moves into a small variant of each game, shared as a link.
SHARED = [
    ("expendibots", "expendibots", '{"white": [[2, 3, 3], [1, 0, 0]], "black": [[1, 6, 6], [1, 5, 2]]}'),
    ("jump61", "jump61(size=3)", None),
    ("kaboom", "kaboom", None),
    ("explocus", "explocus(size=4)", None),
    ("hexplocus", "hexplocus(side=3)", None),
]


def _shared_position(game_string: str, position: str | None) -> str:
    """The position after two moves (the first legal ones) from ``position``."""
    game = boomboard.load_game(game_string)
    state = game.new_initial_state() if position is None else game.state_from_notation(position)
    for _ in range(2):
        state.apply_action(state.legal_actions()[0])
    return state.to_people_notation()


@pytest.mark.parametrize("name,game_string,position", SHARED, ids=[s[0] for s in SHARED])
def test_rules_shared_link_chart_and_resign(server, browser, name, game_string, position):
    from urllib.parse import parse_qs, quote

    shared = _shared_position(game_string, position)
    for size, viewport in SIZES.items():
        # the rules page: the game's own rules, and its example's cascade played out
        page = _open_rules_at_step_two(browser, server, name, viewport)
        assert page.locator(".rules-text pre.diagram").count() >= 1
        assert page.locator(".example .cell.boom").count() >= 1
        if size == "phone":
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= viewport["width"], f"the rules page is {width}px wide on a phone"
        page.click("#play-this")
        page.wait_for_selector("#start")
        assert page.input_value("#game-select") == name
        page.close()

    page = browser.new_page(viewport=SIZES["desktop"])
    # a shared link opens the position for analysis; a game starts from it
    link = f"{server}#/position?game={quote(game_string)}&position={quote(shared)}"
    page.goto(link)
    page.wait_for_function("() => window.page && window.page.state && window.page.state.position")
    assert page.evaluate("window.page.state.position") == shared
    page.wait_for_selector(".analysis .eval-bar", timeout=60_000)
    page.click("#share")
    shared_link = page.input_value("#share-link")
    query = parse_qs(shared_link.split("#/position?", 1)[1])
    assert query == {"game": [game_string], "position": [shared]}
    page.click("#play-both")
    page.wait_for_url(re.compile(r"#/game/"))
    page.wait_for_function(READY)
    game_id = page.url.rsplit("/", 1)[1]
    assert page.evaluate("window.page.state.start") == shared
    # two moves typed in the game's notation: one numbered row (a row a move would make two), three points on
    # the chart, each position's analysis a search
    for ply in range(2):
        data = page.evaluate("window.page.state")
        if data["outcome"] is not None:
            break
        page.fill("#move-input", data["legal"][-1]["text"])
        page.press("#move-input", "Enter")
        page.wait_for_function(f"() => window.page.state.ply === {ply + 1}")
        page.wait_for_function(READY)
    plies = page.evaluate("window.page.state.ply")
    assert page.locator("#move-list tr").count() == (plies + 1) // 2  # moves numbered in pairs
    # the chart: one point a position, the current one agreeing with the headline; a click opens that ply
    page.click("#analysis")
    page.wait_for_function(f"() => document.querySelectorAll('svg.chart .point').length === {plies + 1}",
                           timeout=90_000)
    headline = page.inner_text(".analysis .headline-value")  # one voice: the chart's current point says the same
    assert page.get_attribute("svg.chart .point.current", "aria-label").startswith(f"ply {plies}: {headline} (")
    _artifact(page, f"{name}-desktop", docs=False)
    page.set_viewport_size(SIZES["phone"])
    page.wait_for_timeout(200)
    _artifact(page, f"{name}-phone", docs=False)
    page.set_viewport_size(SIZES["desktop"])
    page.click('svg.chart .point[data-ply="1"]')
    page.wait_for_url(re.compile(rf"#/replay/web/{game_id}\?ply=1"))
    page.wait_for_function("() => window.page && window.page.state && window.page.state.ply === 1 && !window.page.animating")
    page.click("#analysis")
    page.wait_for_selector(f'svg.chart .point[data-ply="{plies}"]', timeout=90_000)
    page.click(f'svg.chart .point[data-ply="{plies}"]')
    page.wait_for_function(f"() => window.page.state.ply === {plies} && !window.page.animating")
    # resigning asks first
    page.goto(f"{server}#/game/{game_id}")
    page.wait_for_function(READY)
    if page.evaluate("window.page.state.outcome") is None:
        page.click("#resign")
        page.click("#cancel-resign")
        assert page.evaluate("window.page.state.outcome") is None
        page.click("#resign")
        assert page.locator("#confirm-resign").is_visible()
        page.click("#confirm-resign")
        page.wait_for_function("() => window.page.state.outcome !== null")
        assert "resigned" in page.inner_text("#status")
        assert page.is_disabled("#undo") is False or page.evaluate("window.page.state.ply") == 0
    page.goto(f"{server}#/games")
    page.wait_for_selector(".game-list li")
    assert "resigned" in page.inner_text(".game-list li:first-child")
    page.close()


def test_watch_ai_vs_ai_plays_the_chosen_sides_and_offers_no_undo(server, browser):
    page = browser.new_page(viewport=SIZES["desktop"])
    page.goto(f"{server}#/?game=jump61")
    page.select_option("#game-select", "jump61")
    page.fill("#param-size", "3")
    page.select_option("#side-0", "random")
    page.select_option("#side-1", "greedy")
    # no table for this game: the solver cannot be chosen
    page.wait_for_function("() => document.querySelector('#side-0 option[value=solver]').disabled")
    page.click("#watch")
    page.wait_for_url(re.compile(r"#/game/"))
    page.wait_for_function("() => window.page && window.page.state")
    assert page.evaluate("window.page.state.players") == ["random", "greedy"]
    page.wait_for_selector("#stop")  # the watch page's controls are drawn
    assert page.locator("#undo").count() == 0 and page.locator("#resign").count() == 0  # no person plays here
    page.close()


# -- the layout: whole names, a scale, nothing cut off or pushed below the fold -----------------
WIDE = {"width": 1280, "height": 800}


def _start_both_human(page, server, game: str) -> str:
    """A game of ``game``'s default variant, a person on both sides, from the
    new-game page; returns its id."""
    page.goto(f"{server}#/?game={game}")
    page.select_option("#game-select", game)
    page.select_option("#side-0", "human")
    page.select_option("#side-1", "human")
    page.click("#start")
    page.wait_for_url(re.compile(r"#/game/"))
    page.wait_for_function(READY)
    return page.url.rsplit("/", 1)[1]


def _boxes(page, selector: str) -> list[dict]:
    return page.evaluate(f"""() => [...document.querySelectorAll({selector!r})].map((e) => {{
        const r = e.getBoundingClientRect();
        return {{ text: e.textContent, left: r.left, right: r.right, top: r.top, bottom: r.bottom }};
    }})""")


# The rules page plays its example out on timers: 1.4 s before step 1, 0.9 s a step after it.
EXAMPLE_TO_STEP_TWO_MS = 1400 + 900


def _open_rules_at_step_two(browser, server: str, game: str, viewport: dict):
    """A page of ``game``'s rules with its example's cascade at step 2, on the
    page's own clock (Playwright's, run forward), not 2.3 s of waiting. The
    clock must be the page's from its start: a page that then watches a game
    would wait on timers that never run."""
    page = browser.new_page(viewport=viewport, reduced_motion="no-preference")  # the example plays by itself
    page.clock.install(time=0)
    page.clock.pause_at(1000)  # the page's time stands still but for run_for: a loaded machine cannot move it on
    page.goto(f"{server}rules/{game}")
    page.wait_for_selector(".rules-text h3")
    page.wait_for_selector("#example-caption:has-text('Example')")  # the example's loop has begun: its first wait
    page.clock.run_for(EXAMPLE_TO_STEP_TWO_MS)
    caption = page.inner_text("#example-caption")
    assert re.search(r"step 2 of", caption), f"the rules of {game}: {caption!r} after the example's first two steps"
    return page


def test_the_rules_example_pauses_and_steps_on_request_and_waits_for_a_page_that_asks_for_less_motion(server, browser):
    # WCAG 2.2.2: moving content that starts by itself and goes on past 5 s can be paused
    page = _open_rules_at_step_two(browser, server, "kaboom", SIZES["desktop"])
    page.click("#example-play")
    page.clock.run_for(30_000)
    assert "step 2 of" in page.inner_text("#example-caption"), "the paused example went on"
    page.click("#example-next")
    assert "step 3 of" in page.inner_text("#example-caption")
    page.click("#example-play")
    page.clock.run_for(30_000)
    assert page.inner_text("#example-play") == "Pause"
    page.close()
    # a page that asks for less motion: the position before the move, still, until a button steps it
    page = browser.new_page(viewport=SIZES["desktop"])
    page.clock.install(time=0)
    page.clock.pause_at(1000)
    page.goto(f"{server}rules/kaboom")
    page.wait_for_selector("#example-caption:has-text('Example')")
    page.clock.run_for(30_000)
    first = page.inner_text("#example-caption")
    assert "step" not in first and page.inner_text("#example-play") == "Play", first
    page.click("#example-next")
    assert "step 1 of" in page.inner_text("#example-caption")
    assert page.locator(".example .cell.boom").count() >= 1
    page.click("#example-back")
    assert page.inner_text("#example-caption") == first
    page.close()


def _no_sideways_scroll(page, viewport: dict, what: str) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"], f"{what} is {width}px wide on a {viewport['width']}px screen"


def test_board_labels_stay_inside_a_phone_screen(server, browser):
    # A label must not touch the board's edge: 4 px to spare keeps a phone's wider font in view.
    spare = 4
    page = browser.new_page(viewport=SIZES["phone"])
    for game in [g[0] for g in GAMES]:
        _start_both_human(page, server, game)
        board = _boxes(page, "svg.board")[0]
        assert board["left"] >= 0 and board["right"] <= SIZES["phone"]["width"], (game, board)
        labels = _boxes(page, "svg.board text.label")
        assert labels, game
        for label in labels:
            room = min(label["left"] - board["left"], board["right"] - label["right"],
                       label["top"] - board["top"], board["bottom"] - label["bottom"])
            assert room >= spare, f"{game}: label {label['text']!r} has {room:.1f}px to the board's edge"
    page.close()


def test_a_shared_finished_game_offers_no_play_from_here(server, browser):
    from urllib.parse import quote

    state = boomboard.load_game("kaboom").new_initial_state()
    for move in "ABABABA":  # X fills column A: four in a row
        state.play(move)
    assert state.is_terminal()
    page = browser.new_page(viewport=SIZES["desktop"])
    page.goto(f"{server}#/position?game=kaboom&position={quote(state.to_notation())}")
    page.wait_for_function("() => window.page && window.page.state && window.page.state.outcome !== null")
    assert "X wins" in page.inner_text("#status")
    assert page.locator("#play-from-here").count() == 0 and page.locator("#play-both").count() == 0
    assert page.locator("#analysis").is_visible()  # still there to be analysed
    page.close()


def _read_scale(ticks: list[dict], x: float) -> float:
    """The value at screen position ``x`` on a scale whose first and last tick labels are ``ticks``."""
    first, last = ticks[0], ticks[-1]
    x0, x1 = (first["left"] + first["right"]) / 2, (last["left"] + last["right"]) / 2
    return float(first["text"]) + (x - x0) * (float(last["text"]) - float(first["text"])) / (x1 - x0)


def test_tournament_chart_shows_whole_names_on_a_labelled_elo_scale(arena_server, browser):
    from web_fakes import LONG_NAMES, FakeArena

    expected = {s.agent: s.elo for s in FakeArena().standings(3)}
    for size, viewport in SIZES.items():
        page = browser.new_page(viewport=viewport)
        page.goto(f"{arena_server}#/tournaments")
        page.wait_for_selector('a[href="#/tournaments/3"]')
        _artifact(page, f"tournaments-{size}")
        page.click('a[href="#/tournaments/3"]')
        page.wait_for_selector("svg.rating-chart .dot")
        assert page.locator(".rating-chart .agent-name").all_text_contents() == LONG_NAMES
        chart = _boxes(page, "svg.rating-chart")[0]
        scale = _boxes(page, "svg.rating-chart .scale")[0]
        for name in _boxes(page, "svg.rating-chart .agent-name"):  # whole, and clear of the plot
            assert chart["left"] <= name["left"] and name["right"] <= scale["left"], name
        ticks = _boxes(page, "svg.rating-chart .tick-label")
        values = [float(t["text"]) for t in ticks]
        assert len(values) >= 3 and values == sorted(values) and values[0] <= -190.8 and values[-1] >= 190.8
        # the scale reads each dot's Elo back (each agent's row: its dot, at the rating the store gave)
        dots = _boxes(page, "svg.rating-chart .dot")
        tolerance = (values[-1] - values[0]) / 100
        for name, dot in zip(LONG_NAMES, dots):
            assert abs(_read_scale(ticks, (dot["left"] + dot["right"]) / 2) - expected[name]) <= tolerance, (name, dot)
        _no_sideways_scroll(page, viewport, "the tournament page")
        _artifact(page, f"tournament-{size}")
        if size == "desktop":
            _artifact(page, "tournament", docs=True)
        page.close()


@pytest.mark.parametrize("game", [g[0] for g in GAMES])
def test_move_list_and_analysis_both_above_the_fold(server, browser, game):
    """At 1280x800 with the analysis open, the move list and the analysis are
    both in view; the live game is also kept as screenshots at every size."""
    page = browser.new_page(viewport=WIDE)
    game_id = _start_both_human(page, server, game)
    for ply in range(2):  # two moves typed, so that the move list has something to show
        page.fill("#move-input", page.evaluate("window.page.state.legal[0].text"))
        page.press("#move-input", "Enter")
        page.wait_for_function(f"() => window.page.state.ply === {ply + 1}")
        page.wait_for_function(READY)
    page.click("#analysis")
    page.wait_for_selector("svg.chart", timeout=90_000)
    moves = _boxes(page, "#move-list")[0]
    analysis = _boxes(page, ".analysis")[0]
    assert moves["bottom"] <= WIDE["height"], f"the move list ends at {moves['bottom']}px, below the fold"
    assert analysis["top"] <= WIDE["height"] / 2, f"the analysis starts at {analysis['top']}px"
    _no_sideways_scroll(page, WIDE, "the game page")
    _artifact(page, f"game-{game}-wide")
    page.close()
    for size, viewport in SIZES.items():
        page = browser.new_page(viewport=viewport)
        page.goto(f"{server}#/game/{game_id}")
        page.wait_for_function(READY)
        page.click("#analysis")
        page.wait_for_selector("svg.chart", timeout=90_000)
        _no_sideways_scroll(page, viewport, "the game page")
        _artifact(page, f"game-{game}-{size}")
        page.close()


@pytest.mark.parametrize("size", SIZES)
def test_every_page_at_phone_and_desktop_sizes(server, browser, size):
    """The pages not kept by the tests above, as CI artifacts in build/screenshots:
    the new-game form, a watched game and its replay, a shared position, the
    games list and each game's rules; none scrolls sideways."""
    from urllib.parse import quote

    viewport = SIZES[size]
    page = browser.new_page(viewport=viewport)
    page.goto(f"{server}#/?game=kaboom")
    page.wait_for_selector("#start")
    _no_sideways_scroll(page, viewport, "the new-game page")
    _artifact(page, f"new-game-{size}")

    page.select_option("#game-select", "jump61")
    page.fill("#param-size", "3")
    page.select_option("#side-0", "random")
    page.select_option("#side-1", "greedy")
    page.click("#watch")
    page.wait_for_url(re.compile(r"#/game/"))
    game_id = page.url.rsplit("/", 1)[1]
    page.wait_for_function("() => window.page && window.page.state && window.page.state.ply >= 1 && !window.page.animating")
    _no_sideways_scroll(page, viewport, "the watch page")
    _artifact(page, f"watch-{size}")
    page.wait_for_function("() => window.page.state.outcome !== null && !window.page.animating", timeout=90_000)

    page.goto(f"{server}#/replay/web/{game_id}?ply=2")
    page.wait_for_function("() => window.page && window.page.source === 'web' && window.page.state"
                           " && window.page.state.ply === 2 && !window.page.animating")
    page.click("#analysis")
    page.wait_for_selector("svg.chart", timeout=90_000)
    _no_sideways_scroll(page, viewport, "the replay page")
    _artifact(page, f"replay-{size}")

    shared = _shared_position("kaboom", None)
    page.goto(f"{server}#/position?game=kaboom&position={quote(shared)}")
    page.wait_for_function(f"() => window.page && window.page.source === 'position' && window.page.state"
                           f" && window.page.state.position === {json.dumps(shared)}")
    page.wait_for_selector("svg.chart", timeout=90_000)
    _no_sideways_scroll(page, viewport, "a shared position")
    _artifact(page, f"shared-position-{size}")

    page.goto(f"{server}#/games")
    page.wait_for_selector(".game-list li")
    _no_sideways_scroll(page, viewport, "the games page")
    _artifact(page, f"games-{size}")

    page.close()

    for game in [g[0] for g in GAMES]:
        page = _open_rules_at_step_two(browser, server, game, viewport)
        _no_sideways_scroll(page, viewport, f"the rules of {game}")
        _artifact(page, f"rules-{game}-{size}", docs=size == "desktop" and game == "kaboom")
        page.close()


def _post(server: str, path: str, body: dict) -> dict:
    request = urllib.request.Request(server + path.lstrip("/"), data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json", **OWNER})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


def _random_game(server: str, game: str, params: dict, plies: int, seed: int) -> str:
    """A game between two people on the server, ``plies`` random moves into it
    (fewer where it ends first); returns its id."""
    import random

    variant = f"{game}({','.join(f'{k}={v}' for k, v in params.items())})" if params else game
    state = boomboard.load_game(variant).new_initial_state()
    game_id = _post(server, "/api/games", {"game": game, "params": params, "players": ["human", "human"]})["id"]
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        action = rng.choice(state.legal_actions())
        _post(server, f"/api/games/{game_id}/moves", {"move": state.action_to_string(action)})
        state.apply_action(action)
    return game_id


def test_the_move_list_scrolls_to_the_current_move_not_the_page(server, browser):
    # A finished 4x4 Chain Reaction game: 25 plies, more rows than the list's box shows.
    game_id = _random_game(server, "chain_reaction", {"rows": 4, "cols": 4}, 200, seed=2)
    for size, viewport in SIZES.items():
        page = browser.new_page(viewport=viewport)
        page.goto(f"{server}#/game/{game_id}")
        page.wait_for_function("() => window.page && window.page.state && window.page.state.outcome !== null"
                               " && !window.page.animating")
        assert page.evaluate("(() => { const b = document.querySelector('.move-scroll');"
                             " return b.scrollHeight > b.clientHeight; })()"), "the list should overflow its box"
        box = _boxes(page, ".move-scroll")[0]
        current = _boxes(page, "#move-list td.current")
        assert [c["text"] for c in current] == [page.evaluate("window.page.state.moves.at(-1).text")]
        assert box["top"] <= current[0]["top"] and current[0]["bottom"] <= box["bottom"], (size, box, current)
        assert page.evaluate("window.scrollY") == 0, f"the page scrolled on a {size} screen"
        page.close()


@pytest.mark.parametrize("game", [g[0] for g in GAMES])
def test_move_list_and_analysis_headline_in_view_below_the_wide_layout(server, browser, game):
    """Narrower than the three columns (1200 px) but wider than a phone, with
    the analysis open and a full move list: the list and the analysis headline
    with its bar are both above the fold."""
    game_id = _random_game(server, game, {}, 30, seed=1)
    for viewport in ({"width": 1100, "height": 760}, {"width": 800, "height": 600}):
        page = browser.new_page(viewport=viewport)
        page.goto(f"{server}#/game/{game_id}")
        page.wait_for_function(READY)
        page.click("#analysis")
        page.wait_for_selector(".analysis .headline", timeout=90_000)
        moves, headline = _boxes(page, ".moves")[0], _boxes(page, ".analysis .headline")[0]
        bars = _boxes(page, ".analysis .eval-bar")
        assert moves["bottom"] <= viewport["height"], f"{viewport}: the move list ends at {moves['bottom']}px"
        assert headline["bottom"] <= viewport["height"], f"{viewport}: the headline ends at {headline['bottom']}px"
        assert all(bar["bottom"] <= viewport["height"] for bar in bars), (viewport, bars)
        _no_sideways_scroll(page, viewport, "the game page")
        page.close()
