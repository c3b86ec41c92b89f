"""The lab's page, /lab/GAME: the explored variants as heat maps and
first-move strips, from the store ``boomboard explore`` writes."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from boomboard.lab import Settings, Store, explore, parse_grid  # noqa: E402
from boomboard.web import WebSettings, create_app  # noqa: E402
from browser_helpers import requires_chromium  # noqa: E402
from web_helpers import assert_error, serving  # noqa: E402


# 3x3 without a bomb is solved within the budget (694 positions), with one bomb it is not (20,879)
GRID = {"rows": "2..3", "cols": "3", "connect": "3", "bombs": "0,1"}


def _sweep(store_path: Path) -> list:
    grid = parse_grid("kaboom", GRID)
    with Store(store_path) as store:
        explore(grid, store, Settings(budget=5_000, games=2, depth=2, workers=1))
        return store.rows()


@pytest.fixture(scope="module")
def explored(tmp_path_factory):
    folder = tmp_path_factory.mktemp("lab")
    rows = _sweep(folder / "boomboard" / "lab.sqlite")  # where XDG_DATA_HOME=folder puts the default store
    return folder, rows


def test_the_lab_answer_holds_a_heat_map_a_family_with_every_variant(explored, tmp_path):
    folder, rows = explored
    app = create_app(tmp_path / "web.sqlite3", WebSettings(workers=0, lab_store=folder / "boomboard" / "lab.sqlite"))
    with TestClient(app) as client:
        answer = client.get("/api/lab/kaboom").json()
        assert answer["axes"][:2] == ["rows", "cols"]
        assert {family["title"] for family in answer["families"]} == {
            "kaboom, connect=3, bombs=0, misere=false, superbomb=false",
            "kaboom, connect=3, bombs=1, misere=false, superbomb=false"}
        cells = {cell["variant"]: cell for family in answer["families"] for cell in family["cells"]}
        assert set(cells) == {row.variant for row in rows}
        for row in rows:
            cell = cells[row.variant]
            assert cell["exact"] == row.exact and cell["estimate"] == row.estimate
            assert cell["text"].startswith("~") == (row.exact is None)
        assert client.get("/lab/kaboom").headers["content-type"].startswith("text/html")
        assert_error(client.get("/api/lab/nosuchgame"), 400, "unknown game")
        assert_error(client.get("/lab/nosuchgame"), 400, "unknown game")


def test_a_game_not_explored_yet_has_no_families(tmp_path):
    app = create_app(tmp_path / "web.sqlite3", WebSettings(workers=0, lab_store=tmp_path / "none.sqlite"))
    with TestClient(app) as client:
        answer = client.get("/api/lab/jump61").json()
    assert answer == {"name": "jump61", "title": "Jump61", "axes": ["size"], "families": [],
                      "results": {"win": "#1a9a1a", "tie": "#e0c020", "lose": "#6d4c2f", "draw": "#e0c020"}}
    assert not (tmp_path / "none.sqlite").exists()  # reading never creates a store


@requires_chromium
def test_the_lab_page_in_a_browser_draws_each_variant_estimated_ones_hatched(explored, tmp_path, monkeypatch, browser):
    folder, rows = explored
    monkeypatch.setenv("XDG_DATA_HOME", str(folder))  # the server's default lab store is the one swept
    with serving(tmp_path, "--workers", "1") as address:
        page = browser.new_page(viewport={"width": 1100, "height": 760})
        page.goto(f"{address}lab/kaboom")
        page.wait_for_selector(".lab-map")
        exact = page.locator(".lab-map .lab-exact")
        estimated = page.locator(".lab-map .lab-estimated")
        assert exact.count() == sum(row.exact is not None for row in rows)
        assert estimated.count() == sum(row.exact is None for row in rows) >= 1
        assert estimated.first.inner_text().startswith("~")
        assert "repeating-linear-gradient" in estimated.first.evaluate("e => getComputedStyle(e).backgroundImage")
        strips = page.locator(".lab-strip")
        assert strips.count() == sum(row.exact is not None for row in rows)
        page.screenshot(path=str(tmp_path / "lab-kaboom.png"), full_page=True)
        page.close()


@pytest.fixture(scope="module")
def one_board_explored(tmp_path_factory):
    """Expendibots' one board (no parameters to sweep) measured by self-play, in the default store's place."""
    folder = tmp_path_factory.mktemp("lab-one-board")
    with Store(folder / "boomboard" / "lab.sqlite") as store:
        explore(parse_grid("expendibots", {}), store, Settings(budget=1_000, games=2, depth=1, workers=1))
        return folder, store.rows()


def test_a_game_with_no_parameters_has_its_one_board_as_one_cell(one_board_explored, tmp_path):
    folder, rows = one_board_explored
    app = create_app(tmp_path / "web.sqlite3", WebSettings(workers=0, lab_store=folder / "boomboard" / "lab.sqlite"))
    with TestClient(app) as client:
        answer = client.get("/api/lab/expendibots").json()
    assert answer["axes"] == [] and len(rows) == 1
    [family] = answer["families"]
    assert (family["title"], family["down"], family["across"]) == ("expendibots", [None], [None])
    [cell] = family["cells"]
    assert cell["variant"] == rows[0].variant == "expendibots"
    assert cell["estimate"] == rows[0].estimate and cell["exact"] is None
    assert cell["text"] == f"~{rows[0].estimate['score']:.2f}"


@requires_chromium
def test_the_lab_page_of_a_game_with_no_parameters_draws_its_board(one_board_explored, tmp_path, monkeypatch,
                                                                   browser):
    folder, rows = one_board_explored
    monkeypatch.setenv("XDG_DATA_HOME", str(folder))
    with serving(tmp_path, "--workers", "1") as address:
        page = browser.new_page(viewport={"width": 1100, "height": 760})
        page.goto(f"{address}lab/expendibots")
        page.wait_for_selector(".lab-map")
        cell = page.locator(".lab-map .lab-estimated")
        assert cell.count() == 1
        assert cell.inner_text() == f"~{rows[0].estimate['score']:.2f}"
        assert page.locator(".lab-map tbody th").inner_text() == "its board"
        assert "undefined" not in page.locator(".lab").inner_text()
        assert page.locator(".lab-map .lab-details").inner_text().startswith("self-play (2 games, depth 1)")
        page.screenshot(path=str(tmp_path / "lab-expendibots.png"), full_page=True)
        page.close()
