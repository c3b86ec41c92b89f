"""Solve many small variants one after the other, one thread, one JSON
line a variant; then print their table and draw their heat maps.

    python benchmarks/small_boards.py solve VARIANTS.txt --db DIR --out RESULTS.jsonl
    python benchmarks/small_boards.py table RESULTS.jsonl
    python benchmarks/small_boards.py pictures RESULTS.jsonl --axes rows,cols,bombs,misere,superbomb --folder DIR

VARIANTS.txt holds a game string a line (``kaboom(rows=3,cols=4,bombs=2)``).
``solve`` skips the variants RESULTS.jsonl already holds, so a killed run
resumes where it stopped; each line records the start's value and
remoteness, every first move's, the positions and records, the bytes on
disk, the CPU and wall seconds the solve took (the process's own CPU
time, so other load on the machine does not count) and the process's peak
resident memory so far. ``pictures`` draws
the lab's heat maps and first-move strips (``boomboard.lab.picture``) of
the solved variants, the first two ``--axes`` down and across.
"""

from __future__ import annotations

import argparse
import json
import resource
import time
from pathlib import Path

from boomboard.lab.picture import write_pictures
from boomboard.lab.store import Row
from boomboard.registry import load_game
from boomboard.solver import SolveSettings, analyze, solve


def solve_one(name: str, db: Path) -> dict:
    """The record of solving variant ``name`` into ``db``."""
    game = load_game(name)
    before, began = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
    table = solve(game, db, progress=False, settings=SolveSettings(threads=1))
    after = resource.getrusage(resource.RUSAGE_SELF)
    meta = table.meta
    analysis = analyze(game.new_initial_state(), db)
    return {
        "variant": name, "game_string": str(game), "params": game.get_parameters(),
        "cpu_s": round(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, 2),
        "wall_s": round(time.perf_counter() - began, 2), "peak_rss_kib": after.ru_maxrss,
        "kind": meta.get("kind"), "positions": meta["positions"], "records": meta.get("records"),
        "bytes": meta["bytes"], "values": meta["values"], "max_remoteness": meta["max_remoteness"],
        "start": meta["start"],
        "moves": [{"move": m.notation, "action": m.action, "value": m.value, "remoteness": m.remoteness}
                  for m in analysis.moves],
    }


def read_results(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()] if path.exists() else []


def solve_all(variants: Path, db: Path, out: Path) -> None:
    done = {record["variant"] for record in read_results(out)}
    for name in (line.strip() for line in variants.read_text().splitlines()):
        if name and name not in done:
            record = solve_one(name, db)
            with out.open("a") as handle:
                handle.write(json.dumps(record) + "\n")
            print(name, record["start"], f"{record['cpu_s']} CPU s", flush=True)


def table(records: list[dict]) -> list[str]:
    lines = ["| variant | value for the first player | remoteness | positions | records | CPU s | on disk |",
             "|---|---|---:|---:|---:|---:|---:|"]
    for record in records:
        start = record["start"]
        lines.append(f"| `{record['game_string']}` | {start['value']} | {start['remoteness']} | "
                     f"{record['positions']:,} | {record['records'] or record['positions']:,} | "
                     f"{record['cpu_s']:,.1f} | {record['bytes']:,} B |")
    return lines


def rows_of(records: list[dict]) -> list[Row]:
    """The records as the lab's rows (exact values only), for its pictures."""
    return [Row(record["game_string"], record["game_string"].partition("(")[0], record["params"],
                {"value": record["start"]["value"], "remoteness": record["start"]["remoteness"],
                 "moves": record["moves"], "positions": record["positions"], "seconds": record["cpu_s"]},
                None, None) for record in records]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("solve", "table", "pictures"))
    parser.add_argument("file", type=Path, help="solve: the variants; table, pictures: the results")
    parser.add_argument("--db", type=Path, default=Path("build/small-boards"))
    parser.add_argument("--out", type=Path, default=Path("build/small-boards.jsonl"))
    parser.add_argument("--axes", default="rows,cols")
    parser.add_argument("--folder", type=Path, default=Path("build/small-boards-pictures"))
    parser.add_argument("--prefix", default="small", help="pictures: the start of each file's name")
    parser.add_argument("--suffix", default="svg", help="pictures: svg or png")
    args = parser.parse_args()
    if args.command == "solve":
        solve_all(args.file, args.db, args.out)
    elif args.command == "table":
        print("\n".join(table(read_results(args.file))))
    else:
        records = read_results(args.file)
        args.folder.mkdir(parents=True, exist_ok=True)
        game = records[0]["game_string"].partition("(")[0]
        axes = args.axes.split(",")
        records.sort(key=lambda record: tuple(record["params"][axis] for axis in axes))
        for path in write_pictures(rows_of(records), game, axes, args.folder, args.suffix):
            print(path.rename(path.with_name(f"{args.prefix}-{path.name}")))


if __name__ == "__main__":
    main()
