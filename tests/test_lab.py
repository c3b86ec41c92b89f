"""The variant lab: sweeps agree with ``boomboard solve``, a killed sweep
resumes to the same store, estimates agree with exact values, Ludii's
metrics, pictures, and clear errors for bad grids."""

from __future__ import annotations

import copy
import sqlite3
import subprocess
import sys

import pytest

import boomboard
from boomboard import solver
from boomboard.core.errors import BoomboardError
from boomboard.lab import MAX_VARIANTS, GridError, Settings, Store, explore, parse_grid
from boomboard.lab.measure import EXACT_SCORE, decisiveness, lead_changes, measure, self_play, wilson_interval
from boomboard.lab.store import ESTIMATE_COLUMNS
from boomboard.lab.sweep import MAX_BUDGET
from process_helpers import kill_when

# boards of 6 and 9 cells, plain and misère, with and without a bomb (the
# 12-cell boards with a bomb took the lab a minute each: the 16-variant sweep
# to 3 by 4 is benchmarks/lab_sweep_check.py)
SMALL_GRID = {"rows": "2..3", "cols": "3", "connect": "3", "bombs": "0,1", "misere": "both"}


def comparable(rows):
    """The store's rows without what is measured again each run (seconds)."""
    return [(row.variant, row.params, row.exact and {k: v for k, v in row.exact.items() if k != "seconds"},
             row.estimate, row.agreement) for row in rows]


def test_a_small_sweep_gives_the_values_boomboard_solve_gives(tmp_path):
    grid = parse_grid("kaboom", SMALL_GRID)
    assert len(grid.variants) == 8 and not grid.refused
    with Store(tmp_path / "lab.sqlite") as store:
        assert explore(grid, store, Settings(games=0, workers=1)) == 8
        rows = store.rows("kaboom")
    assert len(rows) == 8
    for row in rows:
        game = boomboard.load_game(row.variant)
        solver.solve(game, tmp_path / "db", progress=False)  # the command's default method (dense)
        analysis = solver.analyze(game.new_initial_state(), tmp_path / "db")
        assert row.exact is not None, row.variant
        assert (row.exact["value"], row.exact["remoteness"]) == (analysis.value, analysis.remoteness), row.variant
        assert [(m["move"], m["value"], m["remoteness"]) for m in row.exact["moves"]] == \
            [(m.notation, m.value, m.remoteness) for m in analysis.moves], row.variant
        assert row.estimate is None and row.agreement is None


def test_a_sweep_beyond_its_budget_estimates_and_a_second_sweep_measures_nothing_again(tmp_path):
    grid = parse_grid("kaboom", {"rows": "3", "cols": "3", "connect": "3", "bombs": "0,1"})
    with Store(tmp_path / "lab.sqlite") as store:
        # 3x3 with no bomb has 694 positions, with one bomb 20,879: a budget between splits them
        explore(grid, store, Settings(budget=5_000, games=2, depth=2, workers=1))
        rows = {row.params["bombs"]: row for row in store.rows()}
        assert rows[0].exact["positions"] == 694 and rows[0].estimate["games"] == 2
        assert rows[1].exact is None and rows[1].estimate is not None and rows[1].agreement is None
        assert explore(grid, store, Settings(budget=5_000, games=2, depth=2, workers=1)) == 0


def _rows_now(path) -> int:
    if not path.exists():
        return 0
    try:
        with Store(path) as store:
            return len(store.measured())
    except BoomboardError:
        return 0


def test_a_sweep_killed_midway_resumes_and_ends_with_the_store_of_an_unbroken_one(tmp_path):
    options = ["--rows", "2..3", "--cols", "3", "--connect", "3", "--bombs", "0,1", "--games", "3",
               "--depth", "3", "--workers", "1", "--quiet"]
    killed = tmp_path / "killed.sqlite"
    command = [sys.executable, "-m", "boomboard", "explore", "kaboom", *options, "--store", str(killed)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    kill_when(process, lambda: _rows_now(killed) >= 1, "a variant stored")
    process.stderr.close()
    stored = _rows_now(killed)
    assert 1 <= stored < 4, "the sweep was to be killed midway"
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert f"({stored} already in" in done.stdout
    unbroken = tmp_path / "unbroken.sqlite"
    grid = parse_grid("kaboom", {"rows": "2..3", "cols": "3", "connect": "3", "bombs": "0,1"})
    with Store(unbroken) as store:
        explore(grid, store, Settings(games=3, depth=3, workers=1))
        expected = comparable(store.rows())
    with Store(killed) as store:
        assert comparable(store.rows()) == expected
    assert len(expected) == 4


@pytest.mark.parametrize("variant", ["kaboom(rows=2,cols=3,connect=2,bombs=0)",
                                     "kaboom(rows=2,cols=3,connect=3,bombs=0)",
                                     "kaboom(rows=3,cols=3,connect=3,bombs=0)",
                                     "kaboom(rows=2,cols=3,connect=3,bombs=0,misere=true)"])
def test_estimates_agree_with_the_exact_values_on_solved_boards(tmp_path, variant):
    # deep enough to see every game to its end: ai plays these boards perfectly
    result = measure(variant, budget=100_000, games=6, depth=10, folder=str(tmp_path / "work"))
    exact, estimate = result["exact"], result["estimate"]
    assert estimate["score_low"] <= EXACT_SCORE[exact["value"]] <= estimate["score_high"]
    assert result["agreement"] == "agrees"
    if exact["value"] == "tie":
        assert estimate["draw_rate"] == 1.0
    # perfect play lasts the remoteness of the start, whoever wins
    assert estimate["length_median"] == exact["remoteness"]


def test_ludii_lead_changes_count_each_change_of_leaders_the_first_included_per_move():
    # leaders before each move: {0}, {0}, {0, 1}, {1}: changes at moves 1, 3 and 4
    assert lead_changes([(5, -5), (3, -3), (0, 0), (-2, 2)]) == 3 / 4
    assert lead_changes([(1, -1)] * 5) == 1 / 5


def test_ludii_decisiveness_is_the_share_of_moves_before_the_winner_passes_the_losers_best():
    # the loser's best is 4 (before move 2); the winner first exceeds it before move 3 (index 3 of 5)
    evaluations = [(1, -1), (-4, 4), (2, -2), (6, -6), (9, -9)]
    assert decisiveness(evaluations, winner=0) == 3 / 5
    assert decisiveness(evaluations, winner=None) == 1.0
    assert decisiveness([(3, -3), (3, -3)], winner=0) == 0.0


def test_wilson_interval_holds_the_mean_and_stays_within_0_and_1():
    low, high = wilson_interval(10, 10)
    assert high == 1.0 and 0.69 < low < 0.73  # 10 of 10: 0.722, as the closed form gives
    assert wilson_interval(0, 6)[0] == 0.0  # exactly: a first player who always loses agrees with "lose"
    low, high = wilson_interval(5, 10)
    assert low < 0.5 < high and abs((0.5 - low) - (high - 0.5)) < 1e-12


def test_grids_the_game_does_not_allow_are_clear_errors_naming_the_limits():
    with pytest.raises(GridError, match=r"--rows: 0 is outside what explore sweeps, 1\.\.8"):
        parse_grid("kaboom", {"rows": "0..3"})
    with pytest.raises(GridError, match=r"kaboom cannot sweep --size; it sweeps --rows 1\.\.8, --cols 1\.\.8"):
        parse_grid("kaboom", {"size": "3"})
    with pytest.raises(GridError, match=r"a range goes from low to high, e\.g\. 2\.\.3"):
        parse_grid("kaboom", {"rows": "3..2"})
    with pytest.raises(GridError, match=r"whole numbers"):
        parse_grid("kaboom", {"cols": "three"})
    with pytest.raises(GridError, match=r"--misere takes both, true or false"):
        parse_grid("kaboom", {"misere": "maybe"})
    with pytest.raises(GridError, match=r"expendibots has no parameters to sweep: explore measures its one "
                                        r"board, without --size"):
        parse_grid("expendibots", {"size": "5"})
    with pytest.raises(GridError, match=f"more than the {MAX_VARIANTS:,} one sweep may hold"):
        parse_grid("kaboom", {"rows": "1..8", "cols": "1..8", "connect": "1..8", "bombs": "0..4"})
    with pytest.raises(BoomboardError, match=f"1..{MAX_BUDGET:,} positions"):
        Settings(budget=0).check()
    with pytest.raises(BoomboardError, match=r"--depth must be 1\.\.12"):
        Settings(depth=40).check()


def test_no_grid_options_sweep_the_default_board_alone_even_of_a_game_with_nothing_to_sweep(tmp_path):
    # Expendibots declares no sweepable parameters: its one board is still a variant to estimate
    grid = parse_grid("expendibots", {})
    assert [str(game) for game in grid.variants] == ["expendibots"] and grid.axes == {}
    assert [str(game) for game in parse_grid("jump61", {}).variants] == [str(boomboard.load_game("jump61"))]
    with Store(tmp_path / "lab.sqlite") as store:
        assert explore(grid, store, Settings(budget=1, games=2, depth=1, workers=1)) == 1
        (row,) = store.rows("expendibots")
    assert row.variant == "expendibots" and row.exact is None and row.estimate["games"] == 2


def test_games_the_action_limit_ends_are_counted_as_capped():
    # the same rules with an action limit of 12: no Expendibots game ends sooner, so every one is capped
    short = copy.copy(boomboard.load_game("expendibots"))
    short.action_limit = 12
    estimate = self_play(short, games=3, depth=1)
    assert estimate["capped"] == 3 and estimate["length_median"] == 12 and estimate["draw_rate"] == 1.0
    # a finished game is not capped: Kaboom has no action limit
    assert self_play(boomboard.load_game("kaboom(rows=2,cols=3,connect=3,bombs=0)"), games=2, depth=2)["capped"] == 0


def test_a_store_written_before_a_column_existed_gets_it_and_keeps_its_rows(tmp_path):
    path = tmp_path / "old.sqlite"
    older = [name for name in ESTIMATE_COLUMNS if name != "capped"]
    with sqlite3.connect(path) as connection:  # the store as written before games at the action limit were counted
        connection.execute("CREATE TABLE variants (variant TEXT PRIMARY KEY, game TEXT NOT NULL, params TEXT NOT NULL, "
                           "value TEXT, remoteness INTEGER, moves TEXT, positions INTEGER, seconds REAL, "
                           + "".join(f"{name} REAL, " for name in older) + "agreement TEXT)")
        connection.execute(f"INSERT INTO variants (variant, game, params, {', '.join(older)}) VALUES "
                           f"('jump61(size=3)', 'jump61', '{{\"size\": 3}}', {', '.join('1' * len(older))})")
    connection.close()
    grid = parse_grid("jump61", {"size": "2"})
    with Store(path) as store:
        assert explore(grid, store, Settings(budget=1, games=2, depth=1, workers=1)) == 1
        rows = {row.variant: row for row in store.rows("jump61")}
    assert rows["jump61(size=3)"].estimate["capped"] is None and rows["jump61(size=3)"].estimate["games"] == 1
    assert rows["jump61(size=2)"].estimate["capped"] == 0 and rows["jump61(size=2)"].estimate["games"] == 2


def test_a_grid_combination_the_game_refuses_is_skipped_with_its_reason():
    grid = parse_grid("kaboom", {"rows": "2", "cols": "2..3", "connect": "3"})
    assert [str(game) for game in grid.variants] == ["kaboom(rows=2,cols=3,connect=3)"]
    assert grid.refused[0][0]["cols"] == 2 and "at most max(rows, cols) = 2" in grid.refused[0][1]


def test_the_command_line_refuses_a_bad_grid_in_one_line(tmp_path):
    done = subprocess.run([sys.executable, "-m", "boomboard", "explore", "kaboom", "--rows", "0..9",
                           "--store", str(tmp_path / "lab.sqlite")], capture_output=True, text=True, timeout=300)
    assert done.returncode == 2
    assert "error: --rows: 0 is outside what explore sweeps, 1..8" in done.stdout
    assert "Traceback" not in done.stderr and not (tmp_path / "lab.sqlite").exists()


def test_a_store_that_is_not_sqlite_is_refused(tmp_path):
    path = tmp_path / "lab.sqlite"
    path.write_text("not a database, just words " * 100)
    with pytest.raises(BoomboardError, match="cannot open the lab store"):
        Store(path)


def test_pictures_draw_a_cell_a_variant_estimated_cells_apart(tmp_path):
    pytest.importorskip("matplotlib")
    from boomboard.lab.picture import ESTIMATED_COLOUR, draw_heat_map, write_pictures

    grid = parse_grid("kaboom", {"rows": "2..3", "cols": "3", "connect": "3", "bombs": "0,1"})
    with Store(tmp_path / "lab.sqlite") as store:
        explore(grid, store, Settings(budget=1_000, games=2, depth=2, workers=1))
        rows = store.rows()
    written = write_pictures(rows, "kaboom", list(grid.axes), tmp_path)
    assert {path.name for path in written} >= {"kaboom-heat-connect3-bombs0-miserefalse-superbombfalse.svg",
                                               "kaboom-moves-connect3-bombs0-miserefalse-superbombfalse.svg"}
    assert all(path.stat().st_size > 1000 for path in written)
    from matplotlib.colors import to_rgba

    for bombs in (0, 1):  # without a bomb solved within the budget, with one beyond it
        family = [row for row in rows if row.params["bombs"] == bombs]
        figure = draw_heat_map(family, list(grid.axes), f"{bombs} bombs")
        cells = {patch.get_gid(): patch for patch in figure.axes[0].patches}
        assert set(cells) == {f"variant:{row.variant}" for row in family}
        for row in family:
            assert (row.exact is None) == bool(bombs), row.variant
            assert (cells[f"variant:{row.variant}"].get_facecolor() == to_rgba(ESTIMATED_COLOUR)) == bool(bombs)
            assert (cells[f"variant:{row.variant}"].get_hatch() == "//") == bool(bombs)


def test_a_game_with_no_parameters_gets_a_map_of_its_one_board(tmp_path):
    pytest.importorskip("matplotlib")
    from boomboard.lab.picture import ONE_BOARD, draw_heat_map

    command = [sys.executable, "-m", "boomboard", "explore", "expendibots", "--games", "2", "--depth", "1",
               "--workers", "1", "--quiet", "--store", str(tmp_path / "lab.sqlite"), "--pictures", str(tmp_path)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "expendibots-heat.svg" in "".join(done.stdout.split())  # the console may wrap the path
    assert (tmp_path / "expendibots-heat.svg").stat().st_size > 1000
    with Store(tmp_path / "lab.sqlite") as store:
        [row] = store.rows()
    figure = draw_heat_map([row], [], "expendibots")
    [cell] = figure.axes[0].patches
    assert cell.get_gid() == "variant:expendibots" and cell.get_hatch() == "//"  # estimated, not solved
    assert [label.get_text() for label in figure.axes[0].get_yticklabels()] == [ONE_BOARD]
    assert f"~{row.estimate['score']:.2f}" in [text.get_text() for text in figure.axes[0].texts]
