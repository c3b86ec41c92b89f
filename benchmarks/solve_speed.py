"""Solver speed: positions solved per second, one core, with memory and disk.

Each game is solved from scratch into a temporary folder, in a process of
its own (the compiled code is loaded first, on a tiny game, so compiling is
not timed): everything the solve does is counted. Reported: the CPU time of
the process and the wall time (on a shared machine the CPU figure is the one
to compare), the process's peak memory (RSS, numba and numpy included: the
first row, ``(numba)``, is what a process that only loads a game's compiled
kernels holds) and the table's bytes on disk.

"positions" is the number of reachable non-terminal positions (the hashed
solver's count), also for a dense table, which stores every rank of its
tiers, reachable or not: so the rates of the methods compare. For the games
whose hashed solve is not cheap, the count the hashed solver found is given
below (``REACHABLE``).

Run: ``python benchmarks/solve_speed.py [--games kaboom@dense ...] [--markdown]``;
``@memory``, ``@tiers`` or ``@dense`` picks the solver (default: auto);
``@dense-numba`` is the dense solver with numba's passes, where ``@dense``
runs those built ahead of time (``boomboard compile`` builds them; the
"numba loaded" column says which ran).
Targets: Kaboom at least 1 million positions a second (GamesmanPy, the
pure-Python GAMESMAN, solves about 25 thousand); dense: Connect-4 on 5x5 at
least 2.5 million a CPU second in 150 MB and 25 MB of disk, Kaboom 4x4 at
least 2 million.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import boomboard  # noqa: E402
from boomboard import solver  # noqa: E402

GAMES = ["kaboom(rows=3,cols=3,connect=3)", "kaboom(rows=4,cols=4,bombs=0)", "kaboom@memory", "kaboom@tiers",
         "kaboom@dense", "kaboom@dense-numba", "kaboom(rows=5,cols=5,bombs=0)@dense",
         "kaboom(rows=5,cols=5,bombs=0)@dense-numba", "jump61(size=3)", "jump61(size=3)@tiers", "expendibots:3"]
# the hashed solver's counts (docs/results/solved.md), for the games whose hashed solve is not cheap
REACHABLE = {"kaboom(rows=5,cols=5,bombs=0)": 50_722_290, "kaboom": 19_601_709}


def solve_once(spec: str, db: str) -> dict:
    spec, _, method = spec.partition("@")
    saved = os.environ.get("BOOMBOARD_AHEAD")
    if method == "dense-numba":  # numba's passes even where they are built ahead of time
        os.environ["BOOMBOARD_AHEAD"], method = "0", "dense"
    name, _, tokens = spec.partition(":")
    game = boomboard.load_game(name)
    wall, cpu = time.perf_counter(), time.process_time()
    try:
        table = solver.solve(game, db=db, progress=False, force=True,
                             settings=solver.SolveSettings(tokens=int(tokens or 0), method=method or "auto", threads=1))
    finally:
        os.environ.pop("BOOMBOARD_AHEAD", None)
        if saved is not None:
            os.environ["BOOMBOARD_AHEAD"] = saved
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    disk = sum(p.stat().st_size for p in Path(table.folder).iterdir())
    return {"stored": len(table), "dense": table.meta.get("kind") == "dense", "cpu": cpu, "wall": wall, "disk": disk,
            "numba": "numba" in sys.modules}


def peak_rss_mb() -> float:
    """This process's peak memory: the kernel's high-water mark of this
    program (``getrusage`` would also count the parent's, which a child
    inherits across fork and exec)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def in_child(spec: str, db: str) -> tuple[dict, float]:
    """Solve ``spec`` in a child process; its result and its peak RSS in MB."""
    done = subprocess.run([sys.executable, __file__, "--one", spec, "--db", db], stdout=subprocess.PIPE, text=True)
    if done.returncode:
        raise SystemExit(f"{spec}: the solve failed ({done.returncode})")
    result = json.loads(done.stdout)
    return result, result["rss"]


def reachable(spec: str, result: dict, db: str) -> int:
    """The reachable non-terminal positions of ``spec``'s game."""
    name = spec.partition("@")[0]
    if not result["dense"]:
        return result["stored"]
    if name in REACHABLE:
        return REACHABLE[name]
    return in_child(f"{name}@memory", db)[0]["stored"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", default=GAMES,
                        help="game strings; expendibots:T for T-token endgames; @tiers, @memory or @dense picks "
                             "the solver")
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--one", help=argparse.SUPPRESS)  # the child: solve one game, print the result
    parser.add_argument("--db", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        if args.one == "(numba)":
            game = boomboard.load_game("kaboom(rows=2,cols=3,connect=2)")
            game.new_initial_state().legal_actions()
            print(json.dumps({"stored": 0, "dense": False, "cpu": 0, "wall": 0, "disk": 0, "numba": True,
                              "rss": peak_rss_mb()}))
        else:
            print(json.dumps({**solve_once(args.one, args.db), "rss": peak_rss_mb()}))
        return

    with tempfile.TemporaryDirectory() as db:
        for warm in ("jump61(size=2)", "jump61(size=2)@tiers", "kaboom(rows=2,cols=3,connect=2)@dense-numba"):
            solve_once(warm, db)  # load (or compile) the code once
        rows = [("(numba)", 0, 0.0, 0.0, in_child("(numba)", db)[1], 0, True)]
        for spec in args.games:
            result, rss = in_child(spec, db)
            count = reachable(spec, result, db)
            rows.append((spec, count, result["cpu"], result["wall"], rss, result["disk"], result["numba"]))

    from rules_speed import commit, machine, print_table  # the child processes need none of it

    header = ("game", "positions", "CPU s", "wall s", "positions/CPU s", "peak RSS MB", "disk MB", "numba loaded")
    cells = [(s, f"{n:,}", f"{c:.2f}", f"{w:.2f}", f"{n / c:,.0f}" if c else "", f"{rss:.0f}", f"{disk / 1e6:.1f}",
              "yes" if numba else "no") for s, n, c, w, rss, disk, numba in rows]
    load = os.getloadavg()[0]
    print_table(header, cells, args.markdown,
                f"Machine: {machine()}; commit {commit()}; load {load:.1f}; solve speed (one core).")


if __name__ == "__main__":
    main()
