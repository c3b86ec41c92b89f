"""Passes built ahead of time (boomboard.ahead): the same tables, without numba."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from types import SimpleNamespace

import numpy as np
import pytest

import boomboard
from boomboard import solver
from boomboard.ahead import AheadModule, AheadUnavailable, load_ahead
from boomboard.solver.dense.engine import build_passes_ahead

GAME = "kaboom(rows=3,cols=4,connect=3)"
TEMPLATE = "boomboard.solver.dense.kernels"

SOLVE = """
import json, sys
from pathlib import Path
import boomboard
from boomboard import solver
table = solver.solve(boomboard.load_game(sys.argv[1]), db=sys.argv[2], progress=False,
                     settings=solver.SolveSettings(method="dense", threads=1))
print(json.dumps({"numba": "numba" in sys.modules, "folder": str(table.folder), "start": table.meta["start"],
                  "peak_kb": int(Path("/proc/self/status").read_text().split("VmHWM:")[1].split()[0])}))
"""


@pytest.fixture(scope="module")
def built():
    game = boomboard.load_game(GAME)
    try:  # boomboard compile builds them; a bare checkout may not have
        if load_ahead(TEMPLATE, game.kernels_module) is None:
            game.build_ahead(TEMPLATE)  # the state arrays' passes, which the tests below turn off and damage
        build_passes_ahead(game)  # the passes its solves play on: its dense engine's (bitboards)
    except AheadUnavailable as why:
        if os.environ.get("CI") == "true":  # CI installs a C compiler (scripts/system-deps): fail, not skip
            raise
        pytest.skip(str(why))
    return game


def test_a_one_thread_dense_solve_runs_without_numba_and_writes_numbas_bytes(built, tmp_path, monkeypatch):
    from boomboard import ahead

    done = subprocess.run([sys.executable, "-c", SOLVE, GAME, str(tmp_path / "ahead")], capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["numba"] is False
    assert result["peak_kb"] < 120_000  # numba's runtime alone is above that
    monkeypatch.setattr(ahead, "_loaded", {})
    monkeypatch.setenv("BOOMBOARD_AHEAD", "0")  # numba's passes, one thread too
    numba_table = solver.solve(built, db=tmp_path / "numba", progress=False,
                               settings=solver.SolveSettings(method="dense", threads=1))
    ahead_files = sorted((tmp_path / "ahead").rglob("level-*"))
    assert [p.name for p in ahead_files] == sorted(p.name for p in numba_table.folder.glob("level-*"))
    assert all(p.read_bytes() == (numba_table.folder / p.name).read_bytes() for p in ahead_files)
    assert result["start"] == numba_table.meta["start"]


def test_calls_of_other_types_go_to_numbas_version():
    """A module built ahead reads whatever it is given as its signature's
    types (a wrong dtype would read memory wrongly), so every call is checked."""
    built = SimpleNamespace(tally=lambda records, counts: "ahead")
    fallback = SimpleNamespace(tally=lambda records, counts: "numba", NO_POSITION=7)
    module = AheadModule(built, {"tally": [["array", "uint16", 1], ["array", "int64", 1]]}, lambda: fallback)
    counts = np.zeros(4, dtype=np.int64)
    records = np.zeros(8, dtype=np.uint16)
    assert module.tally(records, counts) == "ahead"
    records.flags.writeable = False
    assert module.tally(records, counts) == "ahead"  # read-only is only a compile-time type
    assert module.tally(np.zeros(8, dtype=np.int32), counts) == "numba"
    assert module.tally(np.zeros(16, dtype=np.uint16)[::2], counts) == "numba"
    assert module.tally(np.zeros((2, 4), dtype=np.uint16), counts) == "numba"
    assert module.tally([0, 0], counts) == "numba"
    assert module.NO_POSITION == 7  # a name not built


def test_the_built_module_can_be_turned_off(built, monkeypatch):
    from boomboard import ahead

    monkeypatch.setattr(ahead, "_loaded", {})
    monkeypatch.setenv("BOOMBOARD_AHEAD", "0")
    assert load_ahead(TEMPLATE, built.kernels_module) is None
    assert not getattr(built.compiled(TEMPLATE, ahead=True), "ahead", False)
    monkeypatch.setattr(ahead, "_loaded", {})
    monkeypatch.setenv("BOOMBOARD_AHEAD", "1")
    assert built.compiled(TEMPLATE, ahead=True).ahead


def test_a_damaged_build_is_passed_over_for_numbas_passes(built, tmp_path, monkeypatch):
    from boomboard import ahead

    damaged = tmp_path / ("damaged" + ahead._path(TEMPLATE, built.kernels_module).suffix)
    damaged.write_bytes(b"not a shared library")
    damaged.with_suffix(".json").write_text("{}")
    monkeypatch.setattr(ahead, "_loaded", {})
    monkeypatch.setattr(ahead, "_path", lambda template, kernels: damaged)
    assert load_ahead(TEMPLATE, built.kernels_module) is None
    table = solver.solve(built, db=tmp_path / "db", progress=False, settings=solver.SolveSettings(method="dense", threads=1))
    assert table.meta["start"]["value"] == "win"


def test_the_passes_build_ahead_for_a_game_whose_kernels_allocate(built, tmp_path, monkeypatch):
    """Jump61's cascade allocates its queue. Built ahead of time, a pass
    compiled without reference counting compiles the game's kernels it calls
    without it too, and those refuse to allocate: so the passes that call a
    game's kernels keep it (``built``: a C compiler is here)."""
    from boomboard import ahead

    game = boomboard.load_game("jump61(size=2)")
    fresh = tmp_path / ("fresh" + ahead._path(TEMPLATE, game.kernels_module).suffix)
    monkeypatch.setattr(ahead, "_path", lambda template, kernels: fresh)  # built here, whatever the cache holds
    monkeypatch.setattr(ahead, "_loaded", {})
    assert game.build_ahead(TEMPLATE) == fresh and fresh.is_file()
