"""Jump61 solved densely against the hashed solvers, and what the dense tables of larger boards would need.

Each row solves one board from scratch into a temporary folder on one core
(the compiled code is loaded first, on 2 x 2, so compiling is not timed):
``memory`` and ``tiers`` are the hashed solvers (records: the positions
reached), ``dense`` the dense one (records: every board its tiers number,
the canonical half with the mirror; positions: the records it scores, the
boards that are positions). The CPU figure is the one to compare on a shared machine.

Then, for each board size, the dense layout without solving: records per
level (2 bytes each, uncompressed) with and without the mirror, and the
memory the solver holds at once (a level and the level its moves reach).

Run: ``python benchmarks/jump61_dense.py [--sizes 3] [--layout 2 3 4] [--markdown]``.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import boomboard  # noqa: E402
from boomboard import solver  # noqa: E402
from boomboard.games.jump61 import ranking  # noqa: E402

from rules_speed import commit, machine, print_table  # noqa: E402

METHODS = ("memory", "tiers", "dense")


def solve_once(size: int, method: str, db: str) -> tuple[solver.Table, float, float]:
    game = boomboard.load_game(f"jump61(size={size})")
    wall, cpu = time.perf_counter(), time.process_time()
    table = solver.solve(game, db=db, progress=False, force=True, settings=solver.SolveSettings(method=method))
    return table, time.process_time() - cpu, time.perf_counter() - wall


def layout_row(size: int) -> tuple:
    """Records of the whole dense table, with the mirror and without; the largest
    level's; the most memory two adjacent levels take (bytes, 2 a record)."""
    game = boomboard.load_game(f"jump61(size={size})")
    sizes = ranking.tier_sizes(game.params_array)
    levels = max(level for level, _, _ in sizes) + 1
    full, mirrored = [0] * levels, [0] * levels
    for (level, a, b), count in sizes.items():
        full[level] += count
        if a <= b:
            mirrored[level] += count
    pair = max(mirrored[i] + mirrored[i + 1] for i in range(levels - 1))
    return size, sum(full), sum(mirrored), max(mirrored), 2 * sum(mirrored), 2 * pair


def human(n: float) -> str:
    for unit in ("B", "KB", "MB", "GB", "TB", "PB"):
        if n < 1000:
            return f"{n:.3g} {unit}"
        n /= 1000
    return f"{n:.3g} EB"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="*", type=int, default=[3], help="boards to solve every way")
    parser.add_argument("--layout", nargs="*", type=int, default=[2, 3, 4], help="boards to lay out (no solving)")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()

    rows = []
    with tempfile.TemporaryDirectory() as db:
        for method in METHODS:
            solve_once(2, method, db)  # load the compiled code
        for size in args.sizes:
            for method in METHODS:
                table, cpu, wall = solve_once(size, method, db)
                records, positions = len(table), table.meta["positions"]
                rows.append((f"{size}x{size} {method}", f"{records:,}", f"{positions:,}", f"{cpu:.2f}",
                             f"{wall:.2f}", f"{records / cpu:,.0f}", f"{positions / cpu:,.0f}",
                             human(table.meta["bytes"])))
    header = ("board, solver", "records", "positions", "CPU s", "wall s", "records/CPU s", "positions/CPU s",
              "on disk")
    print_table(header, rows, args.markdown, f"Machine: {machine()}; commit {commit()}; Jump61 solved (one core).")
    print()
    cells = []
    for size, full, mirrored, largest, total_bytes, pair_bytes in map(layout_row, args.layout):
        cells.append((f"{size}x{size}", f"{full:,}", f"{mirrored:,}", f"{largest:,}", human(total_bytes),
                      human(pair_bytes)))
    header = ("board", "records", "with the mirror", "largest level", "bytes (mirror)", "two levels in memory")
    print_table(header, cells, args.markdown, "Jump61's dense layout, 2 bytes a record before compression.")


if __name__ == "__main__":
    main()
