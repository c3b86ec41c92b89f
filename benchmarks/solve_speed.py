"""Solver speed: positions solved per second, one core.

Each game is solved from scratch into a temporary folder (the compiled code
is loaded first, on a tiny game, so compiling is not timed): enumeration,
retrograde analysis and writing the table, all counted. Both the CPU time of
the process and the wall time are reported; on a shared machine the CPU
figure is the one to compare.

Run: ``python benchmarks/solve_speed.py [--games kaboom ...] [--markdown]``.
Target (issue 4): at least 1 million positions a second for Kaboom
(GamesmanPy, the pure-Python GAMESMAN, solves about 25 thousand).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")


import boomboard  # noqa: E402
from boomboard import solver  # noqa: E402

from rules_speed import commit, machine, print_table  # noqa: E402

GAMES = ["kaboom(rows=3,cols=3,connect=3)", "kaboom(rows=4,cols=4,bombs=0)", "kaboom", "kaboom@tiers",
         "jump61(size=3)", "jump61(size=3)@tiers", "expendibots:3"]


def solve_once(spec: str, db: str) -> tuple[solver.Table, float, float]:
    spec, _, method = spec.partition("@")
    name, _, tokens = spec.partition(":")
    game = boomboard.load_game(name)
    wall, cpu = time.perf_counter(), time.process_time()
    table = solver.solve(game, db=db, progress=False, tokens=int(tokens or 0), force=True, method=method or "auto")
    return table, time.process_time() - cpu, time.perf_counter() - wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", default=GAMES,
                        help="game strings; expendibots:T for T-token endgames; @tiers or @memory picks the solver")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as db:
        solve_once("jump61(size=2)", db)  # load the compiled code
        solve_once("jump61(size=2)@tiers", db)
        rows = []
        for spec in args.games:
            table, cpu, wall = solve_once(spec, db)
            rows.append((spec, len(table), cpu, wall, len(table) / cpu, len(table) / wall))

    header = ("game", "positions", "CPU s", "wall s", "positions/CPU s", "positions/wall s")
    cells = [(s, f"{n:,}", f"{c:.2f}", f"{w:.2f}", f"{n / c:,.0f}", f"{n / w:,.0f}") for s, n, c, w, *_ in rows]
    print_table(header, cells, args.markdown, f"Machine: {machine()}; commit {commit()}; solve speed (one core).")

if __name__ == "__main__":
    main()
