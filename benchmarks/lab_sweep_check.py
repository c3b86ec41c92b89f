"""The variant lab's exact values against ``boomboard solve`` on the 16-variant
grid: Kaboom on 2 to 3 rows by 3 to 4 columns, connect 3, with and without a
bomb, plain and misère.

The test suite sweeps the 8 variants of 3 columns
(tests/test_lab.py::test_a_small_sweep_gives_the_values_boomboard_solve_gives);
the 3 by 4 boards with a bomb (558,953 positions) took the lab about a minute
each, so the whole grid is checked here. Prints each variant's positions, the
lab's seconds and whether its value, remoteness and every move's value and
remoteness are those of ``boomboard solve``; exits 1 if any differ.

    python benchmarks/lab_sweep_check.py [--workers 2]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import boomboard
from boomboard import solver
from boomboard.lab import Settings, Store, explore, parse_grid

GRID = {"rows": "2..3", "cols": "3..4", "connect": "3", "bombs": "0,1", "misere": "both"}


def agrees(row, db: Path) -> bool:
    """Whether the lab's exact value of ``row`` is what the solver's table says."""
    game = boomboard.load_game(row.variant)
    solver.solve(game, db, progress=False)
    analysis = solver.analyze(game.new_initial_state(), db)
    return (row.exact is not None
            and (row.exact["value"], row.exact["remoteness"]) == (analysis.value, analysis.remoteness)
            and [(m["move"], m["value"], m["remoteness"]) for m in row.exact["moves"]]
            == [(m.notation, m.value, m.remoteness) for m in analysis.moves])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2, help="the sweep's worker processes")
    args = parser.parse_args()
    began = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        with Store(Path(folder) / "lab.sqlite") as store:
            explore(parse_grid("kaboom", GRID), store, Settings(games=0, workers=args.workers))
            rows = store.rows("kaboom")
        results = [(row, agrees(row, Path(folder) / "db")) for row in rows]
    print("| variant | positions | lab seconds | as boomboard solve |\n|---|---|---|---|")
    for row, same in results:
        print(f"| {row.variant} | {row.exact['positions'] if row.exact else '-'} | "
              f"{row.exact['seconds'] if row.exact else 0:.1f} | {'yes' if same else 'NO'} |")
    print(f"{sum(same for _, same in results)} of {len(results)} variants agree "
          f"({time.perf_counter() - began:.0f} s wall)")
    sys.exit(0 if len(results) == 16 and all(same for _, same in results) else 1)


if __name__ == "__main__":
    main()
