"""One voice, read off the page in Debian's chromium (Playwright): the
analysis's headline, its evaluation bar and the value chart's point for the
position shown say the same thing in every game; a replay's chart at ply k
is the analysis of ply k; the bar's labels are legible and whole at any
share, and the estimated-quality colours are no player's colour. The
agreement over HTTP is tests/test_web_voice.py's."""

from __future__ import annotations

import colorsys
import os
import re
import shutil
from pathlib import Path

import pytest

import boomboard
from browser_helpers import requires_chromium  # noqa: E402
from web_helpers import OWNER  # noqa: E402

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install .[test])")
pytestmark = requires_chromium

# A small variant of each game, as tests/test_web_voice.py analyses them.
GAMES = [("expendibots", '{"white": [[2, 3, 3], [1, 0, 0]], "black": [[1, 6, 6], [1, 5, 2]]}'),
         ("jump61(size=3)", None), ("kaboom", None), ("explocus(size=4)", None), ("hexplocus(side=3)", None),
         ("chain_reaction(rows=4,cols=4)", None)]
DESKTOP, PHONE = {"width": 1280, "height": 800}, {"width": 390, "height": 844}
SHOWN = ("() => { const p = window.page; return p && p.state && p.analysis && p.analysis.eval && p.values"
         " && document.querySelector('.analysis .headline-value') && document.querySelector('.chart .point.current'); }")


def shot(tmp_path: Path, page, name: str) -> None:
    """A screenshot in the test's folder, and in ``$BOOMBOARD_SCREENSHOTS`` when set."""
    path = tmp_path / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    if os.environ.get("BOOMBOARD_SCREENSHOTS"):
        Path(os.environ["BOOMBOARD_SCREENSHOTS"]).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(os.environ["BOOMBOARD_SCREENSHOTS"]) / path.name)


def game_with_moves(page, server: str, game: str, position: str | None, plies: int) -> dict:
    """A human-against-human game made over the API, with its first ``plies``
    legal moves played; its last state."""
    answer = page.request.post(f"{server}api/games", data={"game": game, "players": ["human", "human"],
                                                          "position": position}, headers=OWNER)
    assert answer.ok, answer.text()
    state = answer.json()
    for _ in range(plies):
        if state["outcome"] is not None:
            break
        answer = page.request.post(f"{server}api/games/{state['id']}/moves", data={"move": state["legal"][0]["id"]},
                                   headers=OWNER)
        assert answer.ok, answer.text()
        state = answer.json()
    return state


def what_the_page_says(page) -> dict:
    """The headline, the bar's label and the chart's current point, as shown."""
    page.wait_for_function(SHOWN, timeout=120_000)
    return {"headline": page.inner_text(".analysis .headline-value"),
            "bar": page.get_attribute(".analysis .eval", "aria-label"),
            "point": page.get_attribute(".chart .point.current", "aria-label"),
            "ply": page.evaluate("window.page.state.ply")}


def assert_one_voice(said: dict, names: list[str]):
    """The chart's point names the headline's value, and the bar splits it."""
    first, second = (name.capitalize() for name in names)
    assert said["point"].startswith(f"ply {said['ply']}: {said['headline']} ("), said
    share = int(re.match(rf"{first} (\d+)%, {second} (\d+)%$", said["bar"]).group(1))
    estimate = re.fullmatch(rf"{first} (\d+)%", said["headline"])
    if estimate:
        assert share == int(estimate.group(1)) and said["point"].endswith("(estimate)"), said
    else:  # an exact result: the winner's whole share, or an even split
        assert said["point"].endswith("(exact)"), said
        expected = 100 if said["headline"].startswith(first) else 0 if said["headline"].startswith(second) else 50
        assert share == expected, said


@pytest.mark.parametrize("game,position", GAMES, ids=[g[0].split("(")[0] for g in GAMES])
def test_headline_bar_and_chart_agree_on_the_page_in_every_game(server, browser, tmp_path, game, position):
    page = browser.new_page(viewport=DESKTOP)
    state = game_with_moves(page, server, game, position, 2)
    page.goto(f"{server}#/game/{state['id']}")
    page.click("#analysis")
    assert_one_voice(what_the_page_says(page), list(boomboard.load_game(game).player_names))
    page.close()


def test_a_replays_chart_at_each_ply_is_that_plys_analysis_and_the_moves_are_marked(server, browser, tmp_path):
    page = browser.new_page(viewport=DESKTOP)
    state = game_with_moves(page, server, "kaboom", None, 5)
    page.goto(f"{server}#/replay/web/{state['id']}?ply=0")
    page.wait_for_selector("#analysis")
    page.click("#analysis")
    for ply in range(4):
        said = what_the_page_says(page)
        assert said["ply"] == ply
        assert_one_voice(said, ["x", "o"])
        page.click("#forward")
        page.wait_for_function(f"() => window.page.state.ply === {ply + 1} && !window.page.analysis.loading"
                               " && window.page.analysis.eval", timeout=120_000)
    # the history: each move marked as the analysis of its position judged it
    marks = page.evaluate("window.page.values.filter((p) => p.move).map((p) => p.move.mark)")
    shown = [page.locator(f'#move-list td.move[data-ply="{ply + 1}"] .history-mark').all_inner_texts()
             for ply in range(len(marks))]
    assert [texts[0] if texts else "" for texts in shown] == marks
    shot(tmp_path, page, "voice-replay-desktop")
    page.close()


@pytest.fixture(scope="module")
def expendibots_game(server, browser) -> dict:
    """An Expendibots game a move in, shown at both sizes: the server keeps a game's analyses, so its
    positions are searched once, not once a size."""
    page = browser.new_page()
    state = game_with_moves(page, server, "expendibots", None, 1)
    page.close()
    return state


@pytest.mark.parametrize("viewport,name", [(DESKTOP, "desktop"), (PHONE, "phone")])
def test_the_analysis_at_desktop_and_phone_sizes(server, browser, expendibots_game, tmp_path, viewport, name):
    page = browser.new_page(viewport=viewport)
    state = expendibots_game
    page.goto(f"{server}#/game/{state['id']}")
    page.click("#analysis")
    assert_one_voice(what_the_page_says(page), ["white", "black"])
    legend = page.inner_text(".analysis .legend")
    assert "winning move (exact)" in legend and "estimate" in legend
    assert "White's expected score" in page.inner_text(".analysis")
    shot(tmp_path, page, f"voice-expendibots-{name}")
    page.close()


# The page's colour maths: a colour's relative luminance and the contrast of two (WCAG 2).
CONTRAST = """([label, ground]) => {
  const rgb = (css) => css.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const luminance = (css) => {
    const [r, g, b] = rgb(css).map((c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [a, b] = [luminance(label), luminance(ground)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}"""


# The bar drawn by the page's own evalBar for a value, measured as drawn: its box, and each label's text, box,
# whether it is whole (nothing cut off) and its contrast against the page. One call a bar: the measures are the page's
# own (getBoundingClientRect, innerText, getComputedStyle), read at once.
MEASURE_BAR = f"""([value, names, colours]) => {{
  document.querySelector('.listing').replaceChildren(evalBar(value, names, colours));
  const contrast = {CONTRAST};
  const box = (node) => {{ const r = node.getBoundingClientRect(); return {{ x: r.x, width: r.width }}; }};
  const ground = getComputedStyle(document.body).backgroundColor;
  return {{ bar: box(document.querySelector('.eval')),
    labels: [...document.querySelectorAll('.eval-label')].map((label) => ({{
      text: label.innerText, box: box(label), whole: label.scrollWidth <= label.clientWidth + 1,
      colour: getComputedStyle(label).color, ground, contrast: contrast([getComputedStyle(label).color, ground]) }})) }};
}}"""


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_bars_labels_are_legible_and_whole_at_every_share(server, browser, viewport):
    page = browser.new_page(viewport=viewport)
    page.goto(f"{server}#/games")
    page.wait_for_selector(".listing")
    for game, _ in GAMES:
        loaded = boomboard.load_game(game)
        names, colours = list(loaded.player_names), list(loaded.presentation.colours)
        for value, share in ((-1.0, 0), (-0.48, 26), (0.0, 50), (1.0, 100)):
            drawn = page.evaluate(MEASURE_BAR, [value, names, colours])
            box = drawn["bar"]
            assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
            assert [label["text"].strip() for label in drawn["labels"]] == [f"{names[0].capitalize()} {share}%",
                                                                            f"{names[1].capitalize()} {100 - share}%"]
            for label in drawn["labels"]:
                inner = label["box"]
                assert box["x"] - 0.5 <= inner["x"] and inner["x"] + inner["width"] <= box["x"] + box["width"] + 0.5
                assert label["whole"], (game, share, label)  # nothing cut off
                assert label["contrast"] >= 4.5, (game, share, label["colour"], label["ground"])
    page.close()


def test_estimated_quality_is_no_players_colour_and_win_tie_lose_keep_theirs(server, browser):
    page = browser.new_page(viewport=DESKTOP)
    page.goto(f"{server}#/games")
    page.wait_for_selector(".listing")
    ramp = [page.evaluate(f"qualityColour({loss})") for loss in (0.0, 0.1, 0.2, 0.3)]
    page.close()
    hues = {round(float(h)) for h in (re.match(r"hsl\((\d+)", colour).group(1) for colour in ramp)}
    assert len(hues) == 1  # one hue: its lightness, not its hue, says how good
    ramp_hue = hues.pop() / 360
    lightness = [int(re.search(r"(\d+)%\)", colour).group(1)) for colour in ramp]
    assert lightness == sorted(lightness) and lightness[0] < lightness[-1]  # paler as a move gives more away
    for game, _ in GAMES:
        presentation = boomboard.load_game(game).presentation
        exact = presentation.result_colours()  # the page's exact colours come with the game
        for colour in [*presentation.colours, exact["win"], exact["tie"], exact["lose"]]:
            r, g, b = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
            hue, light, saturation = colorsys.rgb_to_hls(r, g, b)
            if saturation < 0.2 or light < 0.15 or light > 0.9:
                continue  # white, black, greys: no hue to mistake
            distance = min(abs(hue - ramp_hue), 1 - abs(hue - ramp_hue)) * 360
            assert distance >= 40, (game, colour, distance)
