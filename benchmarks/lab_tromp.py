"""Kaboom without bombs is Connect-4: sweep its boards with the lab and
compare each solved one with John Tromp's published value and position
count (benchmarks/published/tromp-connect4.json), as a Markdown table.

    python benchmarks/lab_tromp.py --rows 1..5 --cols 1..5 --budget 5000000 --store build/tromp.sqlite

A board the lab did not solve within the budget is listed as such; any
mismatch makes the script exit with status 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from boomboard.lab import Settings, Store, explore, parse_grid

PUBLISHED = Path(__file__).resolve().parent / "published" / "tromp-connect4.json"
VALUES = {"+": "win", "=": "tie", "-": "lose"}  # Tromp's signs, for the first player


def compare(rows, published: dict) -> tuple[list[str], int]:
    """The table's lines and the number of mismatches."""
    lines = ["| board (width x height) | Tromp: value | lab: value | Tromp: positions | lab: positions | same |",
             "|---|---|---|---:|---:|---|"]
    mismatches = 0
    for row in sorted(rows, key=lambda r: (r.params["cols"], r.params["rows"])):
        board = f"{row.params['cols']}x{row.params['rows']}"
        value = VALUES.get(published["result"].get(board, ""), "")
        count = published["position_count"].get(board)
        if row.exact is None:
            lines.append(f"| {board} | {value or '-'} | beyond the budget | {count or '-':,} | - | - |"
                         if count else f"| {board} | {value or '-'} | beyond the budget | - | - | - |")
            continue
        same = (not value or value == row.exact["value"]) and (count is None or count == row.exact["positions"])
        mismatches += not same
        lines.append(f"| {board} | {value or '-'} | {row.exact['value']} | "
                     f"{f'{count:,}' if count else '-'} | {row.exact['positions']:,} | {'yes' if same else 'NO'} |")
    return lines, mismatches


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", default="1..4")
    parser.add_argument("--cols", default="1..4")
    parser.add_argument("--budget", type=int, default=1_000_000)
    parser.add_argument("--workers", type=int, default=0)
    parser.add_argument("--store", default="build/lab-tromp.sqlite")
    args = parser.parse_args()
    grid = parse_grid("kaboom", {"rows": args.rows, "cols": args.cols, "connect": "4", "bombs": "0"})
    with Store(args.store) as store:
        explore(grid, store, Settings(budget=args.budget, games=0, workers=args.workers))
        rows = [row for row in store.rows("kaboom") if row.variant in {str(g) for g in grid.variants}]
    lines, mismatches = compare(rows, json.loads(PUBLISHED.read_text()))
    print("\n".join(lines))
    sys.exit(1 if mismatches else 0)


if __name__ == "__main__":
    main()
