"""Solved-table storage: block compression of a table's values, and lookup latency.

Two measurements, on a table already solved (e.g. ``boomboard solve kaboom
--db /tmp/blk-db``):

* ``compress``: the table's values (``values.blk``, or an older table's
  ``values.npy``) written as block files (:mod:`boomboard.solver.format.blockstore`)
  at each zstandard level and block size: the size against the raw array,
  the time to write, the time to decode it all, and the time of one random
  item read with a cold cache (one block decompressed and checked);
* ``analyze``: :func:`boomboard.solver.analyze` of random positions of the
  table (each lookup of the position and its children), after the table is
  opened, and the time of the first one (opening the table included).

Run::

    python benchmarks/table_storage.py compress --db /tmp/blk-db [--game kaboom]
    python benchmarks/table_storage.py analyze --db /tmp/blk-db [--game kaboom]

``analyze`` uses only the solver's public calls, so it also times an older
boomboard (``PYTHONPATH=/path/to/old/src``) on its own tables.
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
import time
from pathlib import Path

import numpy as np

import boomboard
from boomboard import solver


def _values(folder: Path) -> np.ndarray:
    if (folder / "values.npy").is_file():
        return np.load(folder / "values.npy")
    from boomboard.solver.format.blockstore import BlockFile

    return BlockFile(folder / "values.blk").read_all()


def compress(folder: Path, levels: list[int], sizes: list[int], reads: int) -> None:
    from boomboard.solver.format.blockstore import BlockFile, write_blocks

    values = _values(folder)
    raw = values.nbytes
    print(f"{folder}: {len(values):,} values, {raw / 1e6:.1f} MB raw")
    print("| level | block items | size (MB) | of raw | write (s) | decode all (MB/s) | one random read (us) |")
    print("|---|---|---|---|---|---|---|")
    rng = np.random.default_rng(0)
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "values.blk"
        for level in levels:
            for size in sizes:
                began = time.perf_counter()
                write_blocks(path, values, block_items=size, level=level)
                wrote = time.perf_counter() - began
                stored = BlockFile(path)
                began = time.perf_counter()
                assert np.array_equal(stored.read_all(), values)
                decoded = time.perf_counter() - began
                stored = BlockFile(path, cache_blocks=1)
                picks = rng.integers(0, len(values), reads)
                began = time.perf_counter()
                for i in picks:
                    stored[int(i)]
                one = (time.perf_counter() - began) / reads
                on_disk = path.stat().st_size
                print(f"| {level} | {size:,} | {on_disk / 1e6:.1f} | {on_disk / raw:.1%} | {wrote:.2f} | "
                      f"{raw / decoded / 1e6:,.0f} | {one * 1e6:,.0f} |", flush=True)


def analyze(game_name: str, db: str, count: int) -> None:
    game = boomboard.load_game(game_name)
    began = time.perf_counter()
    first = solver.analyze(game.new_initial_state(), db=db)
    opened = time.perf_counter() - began
    table = solver.open_table(game, db=db)
    rng = random.Random(1)
    states = [table.state_at(rng.randrange(len(table))) for _ in range(count)]
    lookups = sum(1 + len(state.legal_actions()) for state in states)
    began = time.perf_counter()
    for state in states:
        solver.analyze(state, db=db)
    spent = time.perf_counter() - began
    print(f"{game}: start {first.value} in {first.remoteness}; first analyze (table opened) {opened * 1e3:.1f} ms; "
          f"{count} random positions: {spent / count * 1e3:.2f} ms an analyze, {spent / lookups * 1e6:.0f} us "
          f"a lookup ({lookups / count:.1f} lookups an analyze)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["compress", "analyze"])
    parser.add_argument("--db", required=True)
    parser.add_argument("--game", default="kaboom")
    parser.add_argument("--levels", default="1,3,9,19")
    parser.add_argument("--sizes", default="16384,65536,262144,1048576")
    parser.add_argument("--count", type=int, default=2000, help="positions analysed / random reads")
    args = parser.parse_args()
    print(f"load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f} (1, 5, 15 min)")
    if args.what == "compress":
        folder = solver.table.table_dir(boomboard.load_game(args.game), "start", args.db)
        compress(folder, [int(x) for x in args.levels.split(",")], [int(x) for x in args.sizes.split(",")],
                 args.count)
    else:
        analyze(args.game, args.db, args.count)


if __name__ == "__main__":
    main()
