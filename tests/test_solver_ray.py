"""``boomboard solve --backend ray``: a dense solve's levels as tasks on a local Ray instance."""

from __future__ import annotations

import os

import pytest

import boomboard
from boomboard import solver
from boomboard.solver.dense import ray as dense_ray
from solve_helpers import steps_saved, stop_after

ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'boomboard[ray]')")

GAME = "kaboom(rows=3,cols=3,connect=3)"


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def dying_once(marker):
    """A Ray task that scores a part as :func:`dense_ray.score_part` does, but
    kills its own worker the first time any worker runs it (``marker`` says
    it did): the fault Ray must recover from by running the part again. A
    closure, so Ray ships it to the workers by value."""
    score_part = dense_ray.score_part

    def score_part_or_die_once(*args, **kwargs):
        if not marker.exists():
            marker.touch()
            os._exit(1)
        return score_part(*args, **kwargs)

    return score_part_or_die_once


@pytest.fixture(scope="module")
def local_table(tmp_path_factory):
    return solver.solve(boomboard.load_game(GAME), db=tmp_path_factory.mktemp("local"), progress=False,
                        settings=solver.SolveSettings(method="dense"))


def same_files(folder, other):
    names = sorted(p.name for p in folder.glob("level-*"))
    return bool(names) and names == sorted(p.name for p in other.glob("level-*")) and all(
        (folder / name).read_bytes() == (other / name).read_bytes() for name in names)


def test_a_ray_solve_writes_the_local_solve_bytes_even_when_a_worker_dies(tmp_path, monkeypatch, local_ray,
                                                                          local_table):
    killed = tmp_path / "killed-once"
    monkeypatch.setattr(dense_ray, "score_part", dying_once(killed))
    table = solver.solve(local_table.game, db=tmp_path / "db", progress=False, settings=solver.SolveSettings(backend="ray"))
    assert killed.exists(), "no worker was killed: the retry was not tested"
    assert same_files(table.folder, local_table.folder)
    assert table.meta["values"] == local_table.meta["values"]
    assert table.meta["start"] == local_table.meta["start"]
    state = local_table.game.new_initial_state()
    assert table.lookup(state) == local_table.lookup(state)


def test_a_ray_solve_stopped_midway_resumes_here_to_the_same_bytes(tmp_path, monkeypatch, local_ray, local_table):
    stop_after(monkeypatch, ("dense level", 20))
    with pytest.raises(KeyboardInterrupt):
        solver.solve(local_table.game, db=tmp_path, progress=False, settings=solver.SolveSettings(backend="ray"))
    resumed = steps_saved(monkeypatch)
    table = solver.solve(local_table.game, db=tmp_path, progress=False)
    assert resumed[0] == ("dense level", 19)
    assert same_files(table.folder, local_table.folder)


def test_ray_is_refused_for_a_game_that_cannot_be_solved_densely(tmp_path):
    with pytest.raises(solver.SolveError, match="backend ray"):
        solver.solve(boomboard.load_game("kaboom(rows=3,cols=3,connect=3)"), db=tmp_path, progress=False,
                     settings=solver.SolveSettings(method="memory", backend="ray"))
    with pytest.raises(solver.SolveError, match="unknown backend"):
        solver.solve(boomboard.load_game(GAME), db=tmp_path, progress=False, settings=solver.SolveSettings(backend="mpi"))


def test_ray_workers_read_levels_through_their_own_window_when_memory_is_short(tmp_path, local_ray, local_table):
    table = solver.solve(local_table.game, db=tmp_path, progress=False, settings=solver.SolveSettings(backend="ray", memory=1000))
    assert same_files(table.folder, local_table.folder)
    assert not list(table.folder.glob("window*"))  # the workers' windows are on their own disk


def test_a_worker_deletes_the_windows_of_workers_no_longer_running(tmp_path, monkeypatch):
    import subprocess
    import sys

    monkeypatch.setattr(dense_ray.tempfile, "gettempdir", lambda: str(tmp_path))
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True).stdout.strip()
    (tmp_path / f"{dense_ray.WINDOW_PREFIX}{gone}").mkdir()
    (tmp_path / f"{dense_ray.WINDOW_PREFIX}{os.getpid()}").mkdir()
    dense_ray._delete_dead_windows()
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"{dense_ray.WINDOW_PREFIX}{os.getpid()}"]
