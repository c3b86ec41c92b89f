"""Connect-4 (Kaboom without bombs) solved twice, board by board: by
boomboard's dense solver and by the BDD solver of markus7800/Connect4-Strong-Solver
(Edelkamp and Kissmann's symbolic method), each in its own process, with its
CPU time, peak resident memory and disk; the start's value and the BDD's
position count are checked against John Tromp's published table.

    python benchmarks/bdd_vs_dense.py /tmp/bdd-c4/src/connect4/build/solve.out \\
        --boards 4x4:20,6x4:24,7x4:26 --tables /work/tables/c4

BOARDS are Tromp's WIDTHxHEIGHT keys, each with the BDD solver's
log2_tablesize after a colon (it allocates 2**N nodes: 24 is under 1 GiB,
28 about 16 GiB). Build the peer with ``make solve`` in its src/connect4
folder. Each board's line is printed as soon as both solvers are done; the
dense solve runs again from scratch (--force) so that its time is a whole
solve. A mismatch with Tromp makes the script exit with status 1.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

PUBLISHED = Path(__file__).resolve().parent / "published" / "tromp-connect4.json"
TROMP_VALUES = {"+": "win", "=": "tie", "-": "lose"}  # for the first player


@dataclass
class Run:
    """One solver's measured run on one board."""

    cpu_s: float
    peak_mib: float
    disk_bytes: int
    value: str  # win, tie or lose for the first player
    positions: int | None = None  # reachable positions, where the solver counts them
    remoteness: int | None = None
    records: int | None = None


def parse_board(text: str) -> tuple[int, int, int]:
    """``'7x4:26'`` -> (width 7, height 4, log2_tablesize 26)."""
    match = re.fullmatch(r"(\d+)x(\d+):(\d+)", text.strip())
    if not match:
        raise SystemExit(f"bad board {text!r}: expected WIDTHxHEIGHT:LOG2_TABLESIZE, e.g. 7x4:26")
    return int(match[1]), int(match[2]), int(match[3])


def parse_bdd_output(text: str) -> tuple[str, int]:
    """The start's value for the first player and the number of reachable
    positions, from the output of the BDD solver's solve.out.

    It prints the total of the forward (reachability) pass, then the
    retrograde pass from the last ply down to ply 0, each ply ending in a
    ``win=.. draw=.. loss=..`` line counted for the player who moved first;
    ply 0 holds only the empty board."""
    total = re.search(r"Total number of positions for width=\d+ x height=\d+ board: (\d+)", text)
    ply_zero = re.search(r"^Ply 0/\d+:\s*\n(?:.*\n)*?\s*win=(\d+) draw=(\d+) loss=(\d+)", text, re.MULTILINE)
    if not total or not ply_zero:
        raise ValueError("the BDD solver's output has no position total or no ply-0 counts (did it finish?)")
    win, draw, loss = (int(n) for n in ply_zero.groups())
    if win + draw + loss != 1:
        raise ValueError(f"ply 0 should hold one position, the empty board, not {win + draw + loss}")
    value = "win" if win else "tie" if draw else "lose"
    return value, int(total[1])


def parse_dense_output(text: str) -> tuple[str, int, int]:
    """The start's value and remoteness and the number of dense records,
    from ``boomboard solve``'s summary."""
    start = re.search(r"^start: (win|tie|lose) in (\d+) for ", text, re.MULTILINE)
    records = re.search(r"([\d,]+) dense records", text)
    if not start or not records:
        raise ValueError("boomboard solve's output has no start value or no record count (did it finish?)")
    return start[1], int(start[2]), int(records[1].replace(",", ""))


def disk_usage(folder: Path) -> int:
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())


def measured(command: list[str], cwd: Path) -> tuple[str, float, float]:
    """Run ``command``; its output, CPU seconds (user + system, threads and
    waited-for children included) and peak resident MiB (the largest process)."""
    with open(cwd / "output.txt", "w+") as out:
        process = subprocess.Popen(command, cwd=cwd, stdout=out, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read()
    if process.returncode:
        raise RuntimeError(f"{' '.join(command)} failed ({process.returncode}):\n{text[-2000:]}")
    return text, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024  # ru_maxrss is in KiB on Linux


def solve_dense(width: int, height: int, folder: Path, threads: int) -> Run:
    folder.mkdir(parents=True, exist_ok=True)
    tables = folder / "tables"
    command = [sys.executable, "-m", "boomboard", "solve", "kaboom", "--rows", str(height), "--cols", str(width),
               "--bombs", "0", "--method", "dense", "--threads", str(threads), "--db", str(tables), "--force", "--quiet"]
    text, cpu, peak = measured(command, folder)
    value, remoteness, records = parse_dense_output(text)
    return Run(cpu, peak, disk_usage(tables), value, remoteness=remoteness, records=records)


def solve_bdd(solver: Path, width: int, height: int, log2_tablesize: int, folder: Path) -> Run:
    folder.mkdir(parents=True, exist_ok=True)
    text, cpu, peak = measured([str(solver), str(log2_tablesize), str(width), str(height)], folder)
    value, positions = parse_bdd_output(text)
    return Run(cpu, peak, disk_usage(folder / f"solution_w{width}_h{height}"), value, positions=positions)


def table_line(board: str, published: dict, dense: Run, bdd: Run) -> tuple[str, bool]:
    tromp_value = TROMP_VALUES.get(published["result"].get(board, ""))
    tromp_count = published["position_count"].get(board)
    same = (tromp_value in (None, dense.value) and tromp_value in (None, bdd.value) and dense.value == bdd.value
            and tromp_count in (None, bdd.positions))
    line = (f"| {board} | {tromp_value or '-'} | {dense.value} in {dense.remoteness} | {bdd.value} | "
            f"{f'{tromp_count:,}' if tromp_count else '-'} | {bdd.positions:,} | {dense.records:,} | "
            f"{dense.cpu_s:,.1f} | {bdd.cpu_s:,.1f} | {dense.peak_mib:,.0f} | {bdd.peak_mib:,.0f} | "
            f"{dense.disk_bytes / 2**20:,.1f} | {bdd.disk_bytes / 2**20:,.1f} | {'yes' if same else 'NO'} |")
    return line, same


HEADER = ["| board (width x height) | Tromp | dense: value in plies | BDD: value | Tromp: positions | "
          "BDD: positions | dense: records | dense: CPU s | BDD: CPU s | dense: peak MiB | BDD: peak MiB | "
          "dense: disk MiB | BDD: disk MiB | agree |",
          "|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bdd_solver", type=Path, help="the BDD solver's built solve.out")
    parser.add_argument("--boards", required=True, help="WIDTHxHEIGHT:LOG2_TABLESIZE, comma-separated, in order")
    parser.add_argument("--tables", type=Path, required=True, help="folder for both solvers' tables")
    parser.add_argument("--threads", type=int, default=1, help="dense solver's threads (default 1; the BDD is serial)")
    args = parser.parse_args()
    published = json.loads(PUBLISHED.read_text())
    boards = [parse_board(text) for text in args.boards.split(",")]
    print("\n".join(HEADER), flush=True)
    mismatches = 0
    for width, height, log2_tablesize in boards:
        board = f"{width}x{height}"
        dense = solve_dense(width, height, args.tables / board / "dense", args.threads)
        bdd = solve_bdd(args.bdd_solver.resolve(), width, height, log2_tablesize, args.tables / board / "bdd")
        line, same = table_line(board, published, dense, bdd)
        mismatches += not same
        print(line, flush=True)
    sys.exit(1 if mismatches else 0)


if __name__ == "__main__":
    main()
