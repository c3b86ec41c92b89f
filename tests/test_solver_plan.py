"""``boomboard solve --plan``, and a dense solve too big for the machine refused before it starts."""

from __future__ import annotations

import subprocess
import sys
from types import SimpleNamespace

import pytest
from typer.testing import CliRunner

import boomboard
from boomboard import solver
from boomboard.cli.main import app
from boomboard.solver.dense_plan import fit, plan

GAME = "kaboom(rows=3,cols=3,connect=3)"


def test_the_plan_counts_what_the_solve_stores(tmp_path):
    game = boomboard.load_game(GAME)
    counted = plan(game)
    table = solver.solve(game, db=tmp_path, progress=False, settings=solver.SolveSettings(method="dense"))
    assert counted.records == table.meta["records"] == len(table)
    assert counted.levels == table.meta["levels"]
    assert counted.largest_level <= counted.working_set <= counted.records
    unfolded = plan(game, symmetric=False)
    assert counted.records < unfolded.records < 2 * counted.records  # mirror images stored once


def test_plan_on_the_command_line_prints_the_counts_and_solves_nothing(tmp_path):
    result = CliRunner().invoke(app, ["solve", "kaboom", "--rows", "3", "--cols", "3", "--connect", "3", "--plan",
                                      "--cores", "8", "--db", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert f"{plan(boomboard.load_game(GAME)).records:,} records" in result.output
    assert "on 8 cores" in result.output
    assert not any(tmp_path.iterdir())


def test_the_plan_says_when_this_machine_would_read_the_levels_through_a_mapped_file(tmp_path, monkeypatch):
    import psutil

    arguments = ["solve", "kaboom", "--rows", "3", "--cols", "3", "--connect", "3", "--plan", "--db", str(tmp_path)]
    assert "mapped window" not in CliRunner().invoke(app, arguments).output
    monkeypatch.setattr(psutil, "virtual_memory", lambda: SimpleNamespace(total=1000))
    result = CliRunner().invoke(app, arguments)
    assert result.exit_code == 0 and "mapped window file" in result.output


def test_a_game_without_a_ranking_has_no_plan():
    done = subprocess.run([sys.executable, "-m", "boomboard", "solve", "explocus", "--plan"], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 2 and "cannot be solved densely" in done.stdout and "Traceback" not in done.stderr


def test_a_board_too_big_for_memory_is_mapped_and_refused_only_without_disk():
    counted = plan(boomboard.load_game(GAME))
    table_bytes = counted.records  # more than the 0.35 bytes a record measured
    assert fit(counted, memory=1 << 40, free_disk=1 << 40) == (False, None)
    assert fit(counted, memory=counted.memory_bytes(), free_disk=1 << 40) == (True, None)
    mapped, problem = fit(counted, memory=counted.memory_bytes(), free_disk=table_bytes)
    assert mapped and "disk" in problem and "uncompressed" in problem  # the window needs its working set
    assert fit(counted, memory=1 << 40, free_disk=table_bytes) == (False, None)
    assert "Linux" in fit(counted, memory=counted.memory_bytes(), free_disk=1 << 40, can_map=False)[1]
    assert "disk" in fit(counted, memory=1 << 40, free_disk=10)[1]


def test_a_dense_solve_that_cannot_fit_is_refused_before_it_writes(tmp_path, monkeypatch):
    import psutil
    import shutil

    monkeypatch.setattr(psutil, "virtual_memory", lambda: SimpleNamespace(total=1000))
    monkeypatch.setattr(shutil, "disk_usage", lambda path: SimpleNamespace(free=10_000))
    with pytest.raises(solver.SolveError, match="too big to solve densely here.*--plan"):
        solver.solve(boomboard.load_game(GAME), db=tmp_path, progress=False, settings=solver.SolveSettings(method="dense"))
    assert not any(tmp_path.rglob("*"))


def test_a_resumed_solve_counts_what_it_already_wrote_as_free(tmp_path, monkeypatch):
    import shutil

    from boomboard.solver.dense_driver import _how_it_fits
    from boomboard.solver.dense_layout import DenseLayout
    from boomboard.solver.dense_plan import MEASURED_BYTES_PER_RECORD

    layout = DenseLayout(boomboard.load_game(GAME), True)
    need = int(layout.totals.sum() * MEASURED_BYTES_PER_RECORD) + 1
    monkeypatch.setattr(shutil, "disk_usage", lambda path: SimpleNamespace(free=need // 4))
    work = tmp_path / "start.work"
    with pytest.raises(solver.SolveError, match="too big"):
        _how_it_fits(layout, work, memory=1 << 40)
    work.mkdir()
    (work / "level-000.bin").write_bytes(b"\x01" * need)  # finished levels, on the disk already
    assert _how_it_fits(layout, work, memory=1 << 40) is False  # fits, in memory
