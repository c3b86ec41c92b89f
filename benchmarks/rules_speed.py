"""Rules-engine speed: random-playout actions per second, per game.

For each game, from its default start:

* ``python``: a random game through the Python ``State`` API, one
  ``legal_actions()`` and one ``apply_action()`` per step;
* ``compiled``: random games inside compiled code (``core.playout``);
* the same Python loop over OpenSpiel's C++ ``connect_four`` through
  ``pyspiel``, measured in the same run, as the reference point.

Run: ``python benchmarks/rules_speed.py [--seconds 2] [--rounds 3] [--markdown]``.
Compile time is excluded (each loop is warmed up first). One core.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import subprocess
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numba  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

import boomboard  # noqa: E402
from boomboard.core.playout import random_playouts  # noqa: E402

GAMES = boomboard.game_names()


def python_loop_rate(new_state, seconds: float, seed: int = 0) -> float:
    """Actions per second of random games through a Python game API."""
    rng = random.Random(seed)
    actions = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        state = new_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            actions += 1
    return actions / (time.perf_counter() - started)


def compiled_rate(game, seconds: float) -> float:
    start = game.new_initial_state()
    random_playouts(start, 2)  # compile
    games, actions, elapsed, seed = 16, 0, 0.0, 0
    while elapsed < seconds:
        began = time.perf_counter()
        played, _ = random_playouts(start, games, seed)
        elapsed += time.perf_counter() - began
        actions += played
        seed += 1
        games *= 2
    return actions / elapsed


def pyspiel_rate(seconds: float) -> float | None:
    try:
        import pyspiel
    except ImportError:
        return None
    connect_four = pyspiel.load_game("connect_four")
    return python_loop_rate(connect_four.new_initial_state, seconds)


def machine() -> str:
    cpu = platform.processor() or "unknown CPU"
    try:
        with open("/proc/cpuinfo") as info:
            cpu = next(line.split(":", 1)[1].strip() for line in info if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{cpu}, {os.cpu_count()} cores; Python {platform.python_version()}, numba {numba.__version__}"


def commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def print_table(header, rows, markdown: bool, title: str, caption: str | None = None) -> None:
    """The figures as a Markdown table (for docs/results/benchmarks.md, under its
    ``title`` line) or as a rich table in the terminal."""
    if markdown:
        print(f"{title}\n")
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for row in rows:
            print("| " + " | ".join(row) + " |")
        return
    table = Table(title=title, caption=caption)
    for column in header:
        table.add_column(column, justify="left" if column == "game" else "right")
    for row in rows:
        table.add_row(*row)
    Console().print(table)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    parser.add_argument("--rounds", type=int, default=3,
                        help="measure everything this many times, interleaved, and report medians")
    parser.add_argument("--games", nargs="*", default=GAMES)
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table for docs/results/benchmarks.md")
    args = parser.parse_args()

    games = {name: boomboard.load_game(name) for name in args.games}
    for game in games.values():
        python_loop_rate(game.new_initial_state, 0.2)  # compile and load the caches
    # Shared machines drift by tens of percent over a minute, so every figure
    # is measured in each round, the peer included, and the medians compared.
    samples: dict[str, list[float]] = {}
    for _ in range(args.rounds):
        reference_rate = pyspiel_rate(args.seconds)
        if reference_rate is not None:
            samples.setdefault("pyspiel", []).append(reference_rate)
        for name, game in games.items():
            samples.setdefault(name + "/python", []).append(python_loop_rate(game.new_initial_state, args.seconds))
            samples.setdefault(name + "/compiled", []).append(compiled_rate(game, args.seconds))
    reference = statistics.median(samples["pyspiel"]) if "pyspiel" in samples else None
    rows = [(name, statistics.median(samples[name + "/python"]), statistics.median(samples[name + "/compiled"]))
            for name in games]

    def ratio(value: float) -> str:
        return f"{value / reference:.2f}x" if reference else "n/a"

    header = ["game", "python State (actions/s)", "vs pyspiel", "compiled (actions/s)", "vs pyspiel"]
    if args.markdown:
        print(f"Machine: {machine()}; commit {commit()}; median of {args.rounds} rounds of {args.seconds:g} s per figure.\n")
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for name, python_rate, fast_rate in rows:
            print(f"| {name} | {python_rate:,.0f} | {ratio(python_rate)} | {fast_rate:,.0f} | {ratio(fast_rate)} |")
        if reference:
            print(f"| pyspiel connect_four (reference) | {reference:,.0f} | 1.00x | | |")
        return
    table = Table(title=f"random-playout actions per second ({machine()}; commit {commit()})")
    for column in header:
        table.add_column(column, justify="right" if column != "game" else "left")
    for name, python_rate, fast_rate in rows:
        table.add_row(name, f"{python_rate:,.0f}", ratio(python_rate), f"{fast_rate:,.0f}", ratio(fast_rate))
    if reference:
        table.add_row("pyspiel connect_four", f"{reference:,.0f}", "1.00x", "", "")
    Console().print(table)


if __name__ == "__main__":
    main()
