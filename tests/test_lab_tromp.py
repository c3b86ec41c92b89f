"""Kaboom without bombs is Connect-4: a sweep reproduces John Tromp's
published values and position counts (benchmarks/published/tromp-connect4.json)
on every board it solves here, the boards CI can afford."""

from __future__ import annotations

import json
from pathlib import Path

from boomboard.lab import Settings, Store, explore, parse_grid

PUBLISHED = json.loads((Path(__file__).resolve().parent.parent / "benchmarks" / "published"
                        / "tromp-connect4.json").read_text())
# Tromp's + = - are the first player's win, tie and loss
VALUES = {"+": "win", "=": "tie", "-": "lose"}


def test_the_connect_4_sweep_reproduces_tromps_values_and_position_counts(tmp_path):
    grid = parse_grid("kaboom", {"rows": "1..4", "cols": "1..4", "connect": "4", "bombs": "0"})
    with Store(tmp_path / "lab.sqlite") as store:
        explore(grid, store, Settings(budget=200_000, games=0, workers=1))
        rows = store.rows()
    compared_counts = compared_values = 0
    for row in rows:
        assert row.exact is not None, row.variant
        board = f"{row.params['cols']}x{row.params['rows']}"  # Tromp: width (columns) x height (rows)
        assert row.exact["positions"] == PUBLISHED["position_count"][board], board
        compared_counts += 1
        if board in PUBLISHED["result"]:
            assert row.exact["value"] == VALUES[PUBLISHED["result"][board]], board
            compared_values += 1
    # every board with a side of 4 (a shorter board cannot hold a line of 4), 4x4 among them
    assert compared_counts == 7 and compared_values == 1
