"""Proof by search against Pascal Pons' Connect-4 solver, on his test sets, in one run.

Pons' solver (github.com/PascalPons/connect4, built with ``make``; nobody here
wrote it) and boomboard's prover (:mod:`boomboard.search.prover`, on
``kaboom(rows=6,cols=7,bombs=0)``) score the same positions of his published
test sets (lines ``moves score``: the columns played, 1 to 7, and the exact
score for the player to move). The table says, per set: how many positions
the prover proved within its per-position CPU limit, how many of those agree
with the published score exactly and in value alone (win, tie, loss), how
many Pons' solver itself reproduces, and the CPU time per position of each,
with the ratio. Pons' solver runs once per set, its positions on standard
input, its CPU time read from the finished child (less that of a run with no
input: loading and allocating); it runs without an opening book, as the
prover does. A position not proved within the limit counts at the limit, so
a ratio over a set with such positions is a lower bound (marked ``>=``).

    python benchmarks/prove_vs_pons.py /tmp/pons/c4solver /tmp/pons/tests/Test_L3_R1:100 \\
        /tmp/pons/tests/Test_L2_R1:100 --seconds 10

A file's ``:N`` suffix takes its first N positions (default ``--positions``).
With ``--repeat N`` each set runs N times on each side, interleaved, and the
table compares the median CPU times.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import boomboard
from boomboard.search.prover import NotProvedError, Prover

GAME = "kaboom(rows=6,cols=7,bombs=0)"
CELLS = 42


def pons_score(pieces: int, value: str, plies: int | None) -> int:
    """Pons' score of a proof: a win whose winning piece comes with ``n``
    pieces on the board before it scores (42 + 1 - n) // 2, a loss the opposite."""
    if value == "tie":
        return 0
    magnitude = (CELLS + 1 - (pieces + plies - 1)) // 2
    return magnitude if value == "win" else -magnitude


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


def read_set(argument: str, default_count: int) -> tuple[str, list[tuple[str, int]]]:
    path, _, count = argument.partition(":")
    lines = [line.split() for line in Path(path).read_text().splitlines() if line.strip()]
    return Path(path).name, [(moves, int(score)) for moves, score in lines[:int(count or default_count)]]


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_pons(solver: str, positions: list[tuple[str, int]]) -> tuple[list[int], float]:
    """Pons' scores and CPU seconds for ``positions`` (less the solver's start-up)."""
    def run(text: str) -> tuple[str, float]:
        before = children_cpu()
        with tempfile.TemporaryDirectory() as folder:  # no opening book there
            done = subprocess.run([solver], input=text, capture_output=True, text=True, cwd=folder, check=True)
        return done.stdout, children_cpu() - before

    _, start_up = run("")
    output, spent = run("".join(moves + "\n" for moves, _ in positions))
    scores = [int(line.split()[1]) for line in output.splitlines() if line.strip()]
    return scores, max(0.0, spent - start_up)


def run_prover(prover: Prover, positions: list[tuple[str, int]], seconds: float) -> tuple[list[int | None], float]:
    """The prover's scores (``None``: not proved within ``seconds``) and its CPU seconds."""
    game = prover.game
    scores: list[int | None] = []
    spent = 0.0
    for moves, _ in positions:
        state = game.new_initial_state()
        for column in moves:
            state.apply_action(int(column) - 1)
        started = time.process_time()
        try:
            proof = prover.prove(state, seconds=seconds)
            scores.append(pons_score(len(moves), proof.value, proof.plies))
        except NotProvedError:
            scores.append(None)
        spent += time.process_time() - started
    return scores, spent


def prove_along(prover: Prover, line: str, seconds: float) -> None:
    """How far from the start the prover gets within ``seconds`` a position:
    the positions after each prefix of ``line`` (Pons' notation), proved by
    bisection over the prefix's length; prints the earliest proved."""
    game = prover.game
    rows = []

    def attempt(plies: int) -> bool:
        state = game.new_initial_state()
        for column in line[:plies]:
            state.apply_action(int(column) - 1)
        prover.clear()
        started = time.process_time()
        try:
            proof = prover.prove(state, seconds=seconds, best_moves=True)
            outcome = (f"{proof.value}" + ("" if proof.plies is None else f" in {proof.plies}")
                       + f", best {' '.join(str(a + 1) for a in proof.best_moves)}")
        except NotProvedError:
            outcome = "not proved"
        rows.append((plies, outcome, time.process_time() - started))
        return outcome != "not proved"

    low, high = 0, len(line)  # proved from ``high`` plies on; the start at ``low`` not (yet) known
    if not attempt(high):
        print(f"\nthe line's last position is not proved within {seconds:g} s")
        return
    if attempt(low):
        high = low
    while high - low > 1:
        middle = (low + high) // 2
        if attempt(middle):
            high = middle
        else:
            low = middle
    print(f"\nalong the line {line}, {seconds:g} CPU s a position (the table cleared before each):\n")
    print("| plies played | proof | CPU s |\n|---:|---|---:|")
    for plies, outcome, spent in sorted(rows):
        print(f"| {plies} | {outcome} | {spent:.2f} |")
    print(f"\nearliest proved: after {high} plies")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("solver", help="Pons' built solver (c4solver)")
    parser.add_argument("sets", nargs="+", help="his test files, each optionally PATH:N for its first N positions")
    parser.add_argument("--positions", type=int, default=100, help="positions per set without :N (default 100)")
    parser.add_argument("--seconds", type=float, default=10.0, help="the prover's CPU limit a position (default 10)")
    parser.add_argument("--table-bits", type=int, default=22, help="the prover's table: 2^N entries (default 22)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="run each set this many times on each side (Pons' a fresh process, the prover's table "
                             "cleared) and compare the medians: Pons' whole run of an easy set is a few times the "
                             "10 ms of the CPU clock's resolution (default 1)")
    parser.add_argument("--line", help="also: how early along this line of moves (Pons' notation) it proves "
                                       "within --line-seconds a position")
    parser.add_argument("--line-seconds", type=float, default=10.0, help="CPU s a position along --line")
    args = parser.parse_args()

    game = boomboard.load_game(GAME)
    prover = Prover(game, table_bits=args.table_bits)
    warm = game.new_initial_state()
    for column in "4444333":
        warm.apply_action(int(column) - 1)
    prover.prove(warm, seconds=60)  # compiles (or loads) the search before anything is timed
    prover.clear()

    print(f"prover: {GAME}, table 2^{args.table_bits} entries, {args.seconds:g} CPU s a position at most; "
          f"Pons' solver: {args.solver}, no opening book\n")
    print("| set | positions | proved in the limit | exact score agrees | value agrees | Pons agrees "
          "| Pons CPU ms a position | prover CPU ms a position | ratio |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for argument in args.sets:
        name, positions = read_set(argument, args.positions)
        pons_runs, our_runs = [], []
        for _ in range(max(1, args.repeat)):  # interleaved, so that a change of the machine's load touches both
            pons, pons_seconds = run_pons(args.solver, positions)
            prover.clear()
            ours, our_seconds = run_prover(prover, positions, args.seconds)
            pons_runs.append(pons_seconds)
            our_runs.append(our_seconds)
        pons_seconds, our_seconds = statistics.median(pons_runs), statistics.median(our_runs)
        published = [score for _, score in positions]
        proved = [(o, p) for o, p in zip(ours, published) if o is not None]
        exact = sum(o == p for o, p in proved)
        value = sum(sign(o) == sign(p) for o, p in proved)
        pons_agrees = sum(a == p for a, p in zip(pons, published))
        n = len(positions)
        ratio = our_seconds / pons_seconds if pons_seconds > 0 else float("inf")
        bound = "" if len(proved) == n else ">= "
        print(f"| {name} | {n} | {len(proved)} | {exact} | {value} | {pons_agrees} | {1e3 * pons_seconds / n:.3f} "
              f"| {1e3 * our_seconds / n:.3f} | {bound}{ratio:,.1f} |", flush=True)
        for (moves, score), mine in zip(positions, ours):
            if mine is not None and mine != score:
                print(f"  disagreement: {moves} published {score}, prover {mine}")
    if args.line:
        prove_along(prover, args.line, args.line_seconds)


if __name__ == "__main__":
    main()
