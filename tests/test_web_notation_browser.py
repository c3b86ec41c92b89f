"""Expendibots speaks one notation in a real browser (Playwright driving
Debian's chromium, headless): the board is labelled a to h and 1 to 8, the
move list, the analysis and the input's placeholder write moves as
``1 b1 b2`` and ``boom d4``, a move typed in the course referee's form is
listed in that notation, and the rules page's board is labelled as its text
names the squares. Screenshots go to the test's temporary folder."""

from __future__ import annotations

import re

import pytest

from browser_helpers import requires_chromium  # noqa: E402

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install .[test])")
pytestmark = requires_chromium

LABELS = list("abcdefgh") + [str(row) for row in range(1, 9)]
MOVE = re.compile(r"boom [a-h][1-8]|\d+ [a-h][1-8] [a-h][1-8]")
COURSE_WORDS = re.compile(r"MOVE|BOOM at|\(\d, \d\)")
WAIT_MS = 120_000  # a loaded machine's analysis; each wait returns as soon as its condition holds


def _label_texts(page, board: str) -> list[str]:
    return page.locator(f"{board} text.label").all_text_contents()


def _move_list(page) -> list[str]:
    return [t for t in page.locator("#move-list td.move").all_inner_texts() if t != "…"]


def test_expendibots_board_move_list_and_analysis_speak_a_to_h(server, browser, tmp_path):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{server}#/?game=expendibots")
    page.select_option("#game-select", "expendibots")
    page.select_option("#side-0", "human")
    page.select_option("#side-1", "human")
    page.click("#start")
    page.wait_for_url(re.compile(r"#/game/"))
    page.wait_for_selector("svg.board text.label")
    assert _label_texts(page, "svg.board") == LABELS
    assert page.get_attribute("#move-input", "placeholder") == "move, e.g. boom a1"

    page.fill("#move-input", "MOVE 1 from (1, 0) to (1, 1).")  # the course's form, typed
    page.press("#move-input", "Enter")
    page.wait_for_function("() => window.page.state.ply === 1 && !window.page.animating")
    page.click('[data-cell="d7"]')  # Black's move by clicks: from d7 to d6
    page.click('[data-cell="d6"]')
    page.wait_for_function("() => window.page.state.ply === 2 && !window.page.animating")
    assert _move_list(page) == ["1 b1 b2", "1 d7 d6"]

    page.click("#analysis")
    page.wait_for_function("() => window.page.analysis && window.page.analysis.moves", timeout=WAIT_MS)
    analysis = page.locator(".analysis").inner_text()
    assert MOVE.search(analysis) and not COURSE_WORDS.search(analysis), analysis
    shown = page.evaluate("window.page.analysis.moves.map((m) => m.text)")
    assert shown and all(MOVE.fullmatch(text) for text in shown), shown
    page.screenshot(path=str(tmp_path / "expendibots-notation-game.png"), full_page=True)

    page.set_viewport_size({"width": 390, "height": 844})  # a phone: the same labels
    page.wait_for_selector("svg.board text.label")
    assert _label_texts(page, "svg.board") == LABELS
    page.screenshot(path=str(tmp_path / "expendibots-notation-phone.png"))


def test_expendibots_rules_page_board_is_labelled_as_its_text_names_squares(server, browser, tmp_path):
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    page.goto(f"{server}rules/expendibots")
    page.wait_for_selector(".example-board svg text.label")
    assert _label_texts(page, ".example-board svg") == LABELS
    assert page.inner_text("#example-caption").startswith("Example: boom b2")
    text = page.inner_text(".rules-text")
    assert "columns a to h" in text and "boom b2" in text
    page.screenshot(path=str(tmp_path / "expendibots-notation-rules.png"), full_page=True)
