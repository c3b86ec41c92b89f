"""A solved table against full-depth alpha-beta, on random stored positions.

The solver and :class:`boomboard.search.alphabeta.AlphaBeta` share nothing
but the rules: the search walks the game tree from the position with the
engine's own states, so a position where both agree on value and remoteness
is checked by a second program. Positions are drawn at random among the
table's ranks (a dense table's ranks that are no position are skipped) and
kept if their value is among ``--values`` and, for wins and losses, their
remoteness at most ``--most-remoteness`` (a full-depth search of a long win
would take too long); ties need the whole game searched, so they are kept
only up to ``--most-tie-remoteness``.

Run: ``python benchmarks/table_check.py 'kaboom(rows=5,cols=5)' --db DIR --samples 1000``;
``--out FILE`` appends the result as one JSON line.
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from pathlib import Path

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

import boomboard
from boomboard import solver
from boomboard.solver.analysis import search_disagreements


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", help="the solved game, name(key=value,...)")
    parser.add_argument("--db", type=Path, default=None, help="the folder of solved tables")
    parser.add_argument("--samples", type=int, default=1000, help="positions of each kind to check")
    parser.add_argument("--most-remoteness", type=int, default=11, help="longest win or loss checked")
    parser.add_argument("--most-tie-remoteness", type=int, default=7, help="longest tie checked")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None, help="append the result here as a JSON line")
    args = parser.parse_args()

    game = boomboard.load_game(args.game)
    table = solver.open_table(game, db=args.db)
    if table is None:
        raise SystemExit(f"no solved table of {game} in {args.db or 'the default folder'}")
    began, cpu = time.perf_counter(), time.process_time()
    kinds = [(("win", "lose"), args.most_remoteness), (("tie",), args.most_tie_remoteness)]
    rows = []
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn()) as bar:
        for seed, (values, most) in enumerate(kinds, start=args.seed):
            task = bar.add_task(" and ".join(values), total=args.samples)
            drawn, wrong = search_disagreements(table, args.samples, seed, values, most,
                                                checked_one=lambda task=task: bar.advance(task))
            rows.append({"values": list(values), "most_remoteness": most, "checked": args.samples,
                         "ranks_drawn": drawn, "disagreements": [[p, f"{e.value} {e.remoteness}", r]
                                                                 for p, e, r in wrong]})
    record = {"game": str(game), "records": len(table), "seed": args.seed, "rows": rows,
              "wall_s": round(time.perf_counter() - began, 1), "cpu_s": round(time.process_time() - cpu, 1),
              "machine": f"{platform.processor() or platform.machine()}, {platform.python_version()}",
              "date": time.strftime("%Y-%m-%d")}
    for row in rows:
        print(f"{' and '.join(row['values'])} (remoteness at most {row['most_remoteness']}): {row['checked']} "
              f"checked ({row['ranks_drawn']:,} ranks drawn), {len(row['disagreements'])} disagreements")
    print(f"{record['cpu_s']} CPU s")
    if args.out:
        with args.out.open("a") as handle:
            handle.write(json.dumps(record) + "\n")


if __name__ == "__main__":
    main()
