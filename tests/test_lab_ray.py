"""``boomboard explore --backend ray``: the same store from a local Ray instance."""

from __future__ import annotations

import pytest

from boomboard.lab import Settings, Store, explore, parse_grid
from test_lab import comparable

ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'boomboard[ray]')")


def test_the_ray_backend_stores_what_the_process_pool_stores(tmp_path, local_ray):
    grid = parse_grid("kaboom", {"rows": "2", "cols": "3..4", "connect": "3", "bombs": "0"})
    with Store(tmp_path / "local.sqlite") as store:
        explore(grid, store, Settings(games=2, depth=2, workers=1))
        local = comparable(store.rows())
    with Store(tmp_path / "ray.sqlite") as store:
        assert explore(grid, store, Settings(games=2, depth=2, workers=1, backend="ray")) == 2
        assert comparable(store.rows()) == local
    assert len(local) == 2 and all(row[2] is not None for row in local)


def stop_a_sweep_after_its_first_result() -> None:
    """Runs a sweep of a quick task and two long ones on the one-CPU instance,
    stops it after the quick one's result (as a KeyboardInterrupt raised where
    it waits would) and checks that a new task then runs at once: a long task
    still running would keep it waiting 1,000 s or more (the long tasks
    only sleep: they cost no CPU while they last)."""
    import time

    from boomboard.lab.sweep import Job, _ray_results, _run_on_ray

    jobs = [Job("v", "quick", time.sleep, (0.1,)), Job("v", "long", time.sleep, (1_000.0,)),
            Job("v", "longer", time.sleep, (1_500.0,))]
    results = _ray_results(jobs, Settings(workers=1, backend="ray"))
    assert next(results)[0] is jobs[0]
    results.close()
    after = ray.remote(num_cpus=1)(_run_on_ray).remote(time.sleep, 0.0)
    # A new worker replaces the killed one in about 1.5 s idle (20 tries at a load of 3), but took over 45 s
    # once at load 11 to 14 (benchmarks/results/2026-11-30-suite-time.md): 300 s is for a loaded machine.
    assert ray.get(after, timeout=300) is None


def test_a_sweep_that_stops_cancels_the_tasks_it_was_waiting_for(local_ray):
    """Ctrl-C, an error or a caller that stops reading ends the results'
    generator: the tasks still queued or running are cancelled, where on a
    cluster they would have played on for nobody."""
    stop_a_sweep_after_its_first_result()


def test_a_cancel_that_ray_loses_is_sent_again(local_ray, monkeypatch):
    """Ray loses a cancel that reaches a task pushed to its worker but not yet
    started, and the task runs to its end (a 20 s task in about 1 of 10 tries
    here: the cause of this file's cancel check failing now and then in whole
    suite runs). The loss is made certain here by dropping the first cancel of
    each task; the sweep cancels what has not ended again."""
    dropped = set()
    cancel = ray.cancel

    def cancel_but_lose_the_first(ref, **options):
        if ref in dropped:
            cancel(ref, **options)
        dropped.add(ref)

    monkeypatch.setattr(ray, "cancel", cancel_but_lose_the_first)
    stop_a_sweep_after_its_first_result()
    assert len(dropped) == 2
