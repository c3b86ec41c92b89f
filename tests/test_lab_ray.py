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
