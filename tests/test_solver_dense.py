"""The dense solver: Kaboom's ranking, and dense tables against the hashed solver's."""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import time
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from no_jit import run_json_script
from process_helpers import as_from_a_terminal
from solve_helpers import steps_saved, stop_after, watch_steps

import boomboard
from boomboard import solver
from boomboard.core.layout import HEADER, PLAYER
from boomboard.games.kaboom import bitboard, dense_engine
from boomboard.solver.dense.engine import dense_engine as dense_engine_of
from boomboard.solver.format.blockstore import CorruptTableError

# CI-sized variants: every value of each agrees with the hashed solver's
VARIANTS = ["kaboom(rows=3,cols=3,connect=3,bombs=0)", "kaboom(rows=3,cols=3,connect=3)",
            "kaboom(rows=3,cols=3,connect=3,misere=true)", "kaboom(rows=3,cols=3,connect=3,superbomb=true)",
            "kaboom(rows=3,cols=4,connect=3)", "kaboom(rows=4,cols=4,connect=3,bombs=0)"]


def spec_of(game):
    return np.array(game.solver_dense_spec(), dtype=np.int64)


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    return tmp_path_factory.mktemp("dense")


@pytest.fixture(scope="module")
def kaboom3(db):
    game = boomboard.load_game("kaboom(rows=3,cols=3,connect=3)")
    return solver.solve(game, db=db / "dense", progress=False, settings=solver.SolveSettings(method="dense"))


@pytest.mark.parametrize("name", ["kaboom(rows=3,cols=3,connect=3,bombs=0)", "kaboom(rows=3,cols=3,connect=3)",
                                  "kaboom(rows=2,cols=3,connect=2,bombs=2,superbomb=true)"])
def test_every_rank_of_every_tier_unranks_and_ranks_back(name):
    game = boomboard.load_game(name)
    kernels, dspec, params = game.kernels, spec_of(game), game.params_array
    s, stepped = game.initial_array().copy(), game.initial_array().copy()
    cursor = np.empty(16, dtype=np.int64)
    positions = 0
    for tier in range(kernels.dense_tier_count(dspec)):
        cursor[0] = -1
        mirror = kernels.dense_mirror_tier(dspec, tier)
        assert kernels.dense_mirror_tier(dspec, mirror) == tier
        assert kernels.dense_tier_size(dspec, mirror) == kernels.dense_tier_size(dspec, tier)
        for rank in range(kernels.dense_tier_size(dspec, tier)):
            legal = kernels.dense_unrank(dspec, tier, rank, params, s)
            assert kernels.dense_unrank_next(dspec, tier, rank, params, stepped, cursor) == legal
            if not legal:
                continue
            positions += 1
            assert np.array_equal(s, stepped)
            assert kernels.dense_locate(dspec, s, params) == (tier, rank)
            state = game.state_from_array(s.copy())
            assert not state.is_terminal() and state.legal_actions()
            kernels.dense_mirror(dspec, s, params)
            assert kernels.dense_locate(dspec, s, params)[0] == mirror
    assert positions > 100


def random_position(game, rng):
    """A position reached by random play (not finished), or ``None``."""
    state = game.new_initial_state()
    for _ in range(rng.randrange(game.max_game_length())):
        if state.is_terminal():
            return None
        state.apply_action(rng.choice(state.legal_actions()))
    return None if state.is_terminal() else state


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["kaboom(rows=4,cols=4,connect=3,bombs=1)", "kaboom(rows=3,cols=4,connect=3,bombs=2)",
                        "kaboom(rows=4,cols=5,bombs=1,superbomb=true)", "kaboom(rows=5,cols=5,bombs=0)",
                        "kaboom(rows=4,cols=3,connect=3,bombs=2,misere=true)"]), st.integers(0, 2**32))
def test_reachable_positions_rank_and_unrank_to_themselves(name, seed):
    game = boomboard.load_game(name)
    state = random_position(game, random.Random(seed))
    if state is None:
        return
    kernels, dspec, params = game.kernels, spec_of(game), game.params_array
    tier, rank = kernels.dense_locate(dspec, state.array, params)
    assert 0 <= rank < kernels.dense_tier_size(dspec, tier)
    back = game.initial_array().copy()
    assert kernels.dense_unrank(dspec, tier, rank, params, back)
    assert back[PLAYER] == state.array[PLAYER] and np.array_equal(back[HEADER:], state.array[HEADER:])
    geometry = game.dense_engine_params()
    assert dense_engine.dense_locate(dspec, dense_engine.load_position(state.array, geometry), geometry) == (tier, rank)


RANKS_IN_A_RUN = 200  # a large tier is checked on three runs of this many ranks: its start, middle and end
ALL_TIERS_UP_TO = 50_000  # a board with more tiers is checked on TIERS_CHECKED of them at random (seeded)
TIERS_CHECKED = 5000


def tiers_to_check(count: int) -> list[int]:
    return list(range(count)) if count <= ALL_TIERS_UP_TO else sorted(random.Random(0).sample(range(count),
                                                                                              TIERS_CHECKED))


def runs_of_ranks(size: int) -> list[range]:
    """The ranks of a tier to check: all of them, or three runs of a large one."""
    if size <= 3 * RANKS_IN_A_RUN:
        return [range(size)]
    middle = size // 2
    return [range(RANKS_IN_A_RUN), range(middle, middle + RANKS_IN_A_RUN), range(size - RANKS_IN_A_RUN, size)]


@pytest.mark.parametrize("name", ["kaboom(rows=3,cols=3,connect=3,bombs=0)", "kaboom(rows=3,cols=3,connect=3)",
                                  "kaboom(rows=2,cols=3,connect=2,bombs=2,superbomb=true)",
                                  "kaboom(rows=3,cols=4,connect=3,bombs=2)"])
def test_the_bitboard_engine_unranks_locates_and_mirrors_as_the_ranking_does(name):
    """Kaboom's dense engine against ``ranking.py`` on every rank of every
    tier (of a board with many tiers, 5,000 of them at random; of a large
    tier, runs of ranks at its start, middle and end: the 25.7 million ranks
    of Kaboom 3x4 with 2 bombs would take minutes; the solve-to-the-same-bytes
    test below covers every position of smaller boards): the same ranks are
    positions, each the same position (its bitboards those of the state
    array, ``load_position`` and ``bitboard.from_array`` alike), located and
    mirrored alike."""
    game = boomboard.load_game(name)
    kernels, dspec, params, geometry = game.kernels, spec_of(game), game.params_array, game.dense_engine_params()
    s, pos, image = game.initial_array().copy(), dense_engine.new_position(geometry), bitboard.new_position()
    cursors = np.empty(16, dtype=np.int64), np.empty(16, dtype=np.int64)
    positions = 0
    for tier in tiers_to_check(kernels.dense_tier_count(dspec)):
        for run in runs_of_ranks(kernels.dense_tier_size(dspec, tier)):
            cursors[0][0] = cursors[1][0] = -1  # each run unranks its first rank afresh
            for rank in run:
                legal = kernels.dense_unrank_next(dspec, tier, rank, params, s, cursors[0])
                assert dense_engine.dense_unrank_next(dspec, tier, rank, geometry, pos, cursors[1]) == legal
                if not legal:
                    continue
                positions += 1
                bitboard.from_array(s, geometry, image)
                assert np.array_equal(pos, image) and np.array_equal(dense_engine.load_position(s, geometry), image)
                assert dense_engine.dense_locate(dspec, pos, geometry) == (tier, rank)
                kernels.dense_mirror(dspec, s, params)
                dense_engine.dense_mirror(dspec, pos, geometry)
                bitboard.from_array(s, geometry, image)
                assert np.array_equal(pos, image)
    assert positions > 500


@pytest.mark.parametrize("name", VARIANTS)
def test_the_bitboard_engine_and_state_arrays_solve_to_the_same_bytes(tmp_path, monkeypatch, name):
    """Every variant solved on bitboards (Kaboom's dense engine) and on state
    arrays (the reference, for boards the words do not fit) gives the same
    files, and each table looks the other's positions up alike."""
    game = boomboard.load_game(name)
    settings = solver.SolveSettings(method="dense")
    on_bitboards = solver.solve(game, db=tmp_path / "bitboards", progress=False, settings=settings)
    assert on_bitboards.layout.engine.position.dtype == np.uint64
    monkeypatch.setattr(type(game), "dense_engine_params", lambda self: None)
    on_arrays = solver.solve(game, db=tmp_path / "arrays", progress=False, settings=settings)
    assert on_arrays.layout.engine.params is game.params_array
    assert_same_files(on_bitboards.folder, on_arrays.folder)
    assert on_bitboards.meta["start"] == on_arrays.meta["start"]
    for i in random.Random(2).sample(range(len(on_arrays)), min(len(on_arrays), 2000)):
        try:
            entry = on_arrays.entry_at(i)
        except solver.NotSolvedError:  # a rank that is no position
            continue
        assert on_bitboards.lookup(on_arrays.state_at(i)) == entry


@pytest.mark.parametrize("name", VARIANTS)
def test_dense_tables_agree_with_the_hashed_solver_on_every_position(db, name):
    game = boomboard.load_game(name)
    hashed = solver.solve(game, db=db / "memory", progress=False, settings=solver.SolveSettings(method="memory"))
    dense = solver.solve(game, db=db / "dense", progress=False, settings=solver.SolveSettings(method="dense", threads=2))
    assert dense.meta["kind"] == "dense" and dense.meta["start"] == hashed.meta["start"]
    checked = range(len(hashed)) if len(hashed) < 60000 else random.Random(1).sample(range(len(hashed)), 60000)
    for i in checked:
        state = hashed.state_at(i)
        assert dense.lookup(state) == hashed.entry_at(i), state.to_notation()
    assert solver.verify(dense) is None


def test_symmetry_on_and_off_give_the_same_values_and_mirrors_are_looked_up(db, kaboom3):
    game = kaboom3.game
    full = solver.solve(game, db=db / "no-symmetry", progress=False,
                        settings=solver.SolveSettings(method="dense", symmetry=False))
    assert full.meta["symmetric"] is False and kaboom3.meta["symmetric"] is True
    assert len(kaboom3) < 0.8 * len(full)  # tiers that are not their own mirror are stored once
    dspec, params = spec_of(game), game.params_array
    mirrored = 0
    for i in range(len(full)):
        try:
            entry = full.entry_at(i)
        except solver.NotSolvedError:  # a rank that is no position
            continue
        state = full.state_at(i)
        assert kaboom3.lookup(state) == entry
        image = state.array.copy()
        game.kernels.dense_mirror(dspec, image, params)
        tier = game.kernels.dense_locate(dspec, image, params)[0]
        mirrored += game.kernels.dense_mirror_tier(dspec, tier) < tier
        assert kaboom3.lookup(game.state_from_array(image)) == entry
    assert mirrored > 1000


def test_analysis_and_the_agent_read_dense_tables(db, kaboom3):
    state = kaboom3.game.new_initial_state()
    analysis = solver.analyze(state, db=db / "dense")
    assert (analysis.value, analysis.remoteness) == ("win", 15)
    assert analysis.moves[0].notation == "B" and analysis.moves[0].remoteness == 15


@pytest.mark.parametrize("stops", [(20,), (35, 12), (0,)])
def test_a_killed_dense_solve_resumes_to_the_same_bytes(tmp_path, monkeypatch, kaboom3, stops):
    game = kaboom3.game
    for stop in stops:
        stop_after(monkeypatch, ("dense level", stop))
        with pytest.raises(KeyboardInterrupt):
            solver.solve(game, db=tmp_path, progress=False, settings=solver.SolveSettings(method="dense"))
        assert solver.open_table(game, db=tmp_path) is None
    resumed = steps_saved(monkeypatch)
    table = solver.solve(game, db=tmp_path, progress=False, settings=solver.SolveSettings(method="dense"))
    assert resumed[:1] == ([("dense level", min(stops) - 1)] if min(stops) else [])  # nothing solved again
    assert_same_files(table.folder, kaboom3.folder)


def assert_same_files(folder, other):
    names = sorted(p.name for p in folder.glob("level-*"))
    assert names and names == sorted(p.name for p in other.glob("level-*"))
    for name in names:
        assert (folder / name).read_bytes() == (other / name).read_bytes(), name


@pytest.mark.parametrize("sent", [signal.SIGKILL, signal.SIGINT], ids=["kill -9", "Ctrl-C"])
def test_a_dense_solve_killed_by_a_signal_resumes_to_the_same_bytes(tmp_path, db, sent):
    name = "kaboom(rows=3,cols=4,connect=3)"
    progress = tmp_path / str(boomboard.load_game(name)) / "start.work" / "progress.json"
    with as_from_a_terminal():
        process = subprocess.Popen([sys.executable, "-m", "boomboard", "solve", "kaboom", "--rows", "3", "--cols",
                                    "4", "--connect", "3", "--method", "dense", "--threads", "1",
                                    "--db", str(tmp_path), "--quiet"], stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, text=True)
    try:
        while process.poll() is None:
            try:
                record = json.loads(progress.read_text())
            except (OSError, ValueError):
                record = {}
            if record.get("next", 999) < 60:  # of 117 levels
                process.send_signal(sent)
                break
            time.sleep(0.002)
    finally:
        output = process.communicate(timeout=600)[0]
    stopped = -signal.SIGKILL if sent == signal.SIGKILL else 130  # Ctrl-C: stopped, in one line, no traceback
    assert process.returncode == stopped and "Traceback" not in output, ("not stopped, or not first", output)
    game = boomboard.load_game(name)
    table = solver.solve(game, db=tmp_path, progress=False, settings=solver.SolveSettings(method="dense"))
    fresh = solver.solve(game, db=db / "fresh", progress=False, settings=solver.SolveSettings(method="dense"))
    assert_same_files(table.folder, fresh.folder)
    assert table.meta["values"] == fresh.meta["values"]


def test_threads_write_the_same_bytes(tmp_path, kaboom3):
    table = solver.solve(kaboom3.game, db=tmp_path, progress=False, settings=solver.SolveSettings(method="dense", threads=1))
    assert_same_files(table.folder, kaboom3.folder)


def test_a_damaged_level_file_is_named_in_a_clear_error(tmp_path, kaboom3):
    table = solver.solve(kaboom3.game, db=tmp_path, progress=False, settings=solver.SolveSettings(method="dense"))
    path = max(table.folder.glob("level-*"), key=lambda p: p.stat().st_size)
    data = bytearray(path.read_bytes())
    data[100] ^= 0xFF
    path.write_bytes(bytes(data))
    fresh = solver.table.load_table(kaboom3.game, table.folder)
    with pytest.raises(CorruptTableError, match=f"level {int(path.stem.split('-')[1])} of the table .* damaged"):
        solver.verify(fresh)


def test_the_verifier_finds_a_wrong_value_stored_with_a_valid_checksum(tmp_path, kaboom3):
    """A value written wrong by the solver itself (its block's checksum
    right) is what ``--verify`` is for: it names the first such record."""
    from boomboard.solver.dense.store import open_writer, read_level
    from boomboard.solver.format.values import VALUE_SHIFT, WIN

    table = solver.solve(kaboom3.game, db=tmp_path, progress=False, settings=solver.SolveSettings(method="dense"))
    level = max(range(table.layout.level_count), key=lambda k: int(table.layout.totals[k]))
    records = read_level(table.layout, table.folder, level).copy()
    i = int(np.flatnonzero(records >> VALUE_SHIFT == WIN)[7])
    records[i] += 1  # a win one move slower than it is
    with open_writer(table.layout, table.folder, level) as writer:
        writer.append(records)
    seen = []
    fresh = solver.table.load_table(kaboom3.game, table.folder)
    assert fresh.verify(done=seen.append) == int(fresh.offsets[level]) + i
    assert 0 < sum(seen) <= len(fresh)


def test_auto_picks_dense_and_other_methods_stay_hashed(tmp_path):
    game = boomboard.load_game("kaboom(rows=3,cols=3,connect=3,bombs=0)")
    assert solver.solve(game, db=tmp_path / "auto", progress=False).meta["kind"] == "dense"
    assert "kind" not in solver.solve(game, db=tmp_path / "memory", progress=False,
                                      settings=solver.SolveSettings(method="memory")).meta
    with pytest.raises(solver.SolveError, match="densely"):
        solver.solve(boomboard.load_game("expendibots"), db=tmp_path, progress=False,
                     settings=solver.SolveSettings(tokens=2, method="dense"))


NO_JIT_SCRIPT = """
import json, sys, tempfile, boomboard
from boomboard import solver
game = boomboard.load_game("kaboom(rows=2,cols=3,connect=2,bombs=1)")
with tempfile.TemporaryDirectory() as db:
    table = solver.solve(game, db=db, progress=False, settings=solver.SolveSettings(method="dense"))
    print(json.dumps([table.meta["values"], table.meta["start"], solver.verify(table)]))
"""


def test_the_dense_solver_runs_as_plain_python_with_the_same_table():
    results = [run_json_script(NO_JIT_SCRIPT, disable) for disable in ("1", "0")]
    assert results[0] == results[1] and results[0][2] is None


def test_levels_read_through_a_mapped_window_give_the_same_bytes_and_free_its_disk(tmp_path, db, monkeypatch):
    """A board whose levels do not fit in memory reads them through a sparse,
    memory-mapped window file; its table is byte for byte the in-memory one,
    the window's disk use stays near the working set, and it is deleted."""
    import psutil

    from boomboard.solver.dense.layout import DenseLayout
    from boomboard.solver.dense.plan import plan_of

    game = boomboard.load_game("kaboom(rows=3,cols=4,connect=3)")
    fresh = solver.solve(game, db=db / "fresh", progress=False, settings=solver.SolveSettings(method="dense"))
    counted = plan_of(DenseLayout(game, True))
    monkeypatch.setattr(psutil, "virtual_memory", lambda: SimpleNamespace(total=counted.memory_bytes()))
    window = tmp_path / str(game) / "start.work" / "window.raw"
    allocated = []

    def stop_once(step):
        allocated.append(window.stat().st_blocks * 512)
        if step == ("dense level", 50) and len(allocated) < 100:
            raise KeyboardInterrupt

    watch_steps(monkeypatch, stop_once)
    with pytest.raises(KeyboardInterrupt):
        solver.solve(game, db=tmp_path, progress=False, settings=solver.SolveSettings(method="dense"))
    table = solver.solve(game, db=tmp_path, progress=False, settings=solver.SolveSettings(method="dense"))
    assert_same_files(table.folder, fresh.folder)
    assert not list(table.folder.glob("window*"))
    raw = counted.records * 2
    assert 0 < max(allocated) <= counted.memory_bytes() + 4096 * counted.levels < raw


def test_memory_to_plan_with_can_be_given(tmp_path, monkeypatch, kaboom3):
    """``memory=`` (``--memory``) makes a solve that fits read through the window all the same."""
    window = tmp_path / str(kaboom3.game) / "start.work" / "window.raw"
    seen = []
    kernels = dense_engine_of(kaboom3.game).passes  # the passes this solve runs (Kaboom's: on bitboards)
    compiled = list(kernels.solve_level.dispatcher.signatures)
    watch_steps(monkeypatch, lambda step: seen.append(window.exists()))
    table = solver.solve(kaboom3.game, db=tmp_path, progress=False,
                         settings=solver.SolveSettings(method="dense", memory=1000))
    assert seen and all(seen) and not window.exists()
    # the window hands the scan the kind of array the in-memory solve did: nothing is compiled again for it
    assert compiled and kernels.solve_level.dispatcher.signatures == compiled
    assert_same_files(table.folder, kaboom3.folder)
