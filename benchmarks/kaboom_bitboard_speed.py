"""Kaboom's bitboard engine against the array engine and OpenSpiel, in one run.

Perft from the start of 7x6 Kaboom without bombs (Connect-4) and with one
bomb each, counted by:

* ``array, core.perft``: the array engine (``rules.py``) through the
  project's compiled perft (``boomboard.core.perft``), which allocates a
  move list and a copy of the position at every node;
* ``array, stack``: the array engine in the same loop as the bitboard's
  perft (positions on a stack allocated once), so the two engines differ in
  nothing else;
* ``bitboard``: ``games/kaboom/bitboard.py``'s perft;
* ``pyspiel connect_four``: OpenSpiel's C++ game driven from Python
  (``legal_actions`` and ``child`` per node: **Python-driven**, so its
  figure measures the binding as much as the engine); bombs=0 only.

Every count is checked equal across engines. The figure is perft leaves a
CPU second of this process (``time.process_time``: a shared machine's load
slows it less than the wall clock): the last ply is counted from the legal
actions without playing them (bulk counting), the same in every engine. Each figure is the median of
``--rounds`` rounds, the engines interleaved in each round; compile time is
excluded.

Run: ``python benchmarks/kaboom_bitboard_speed.py [--depth 8] [--python-depth 7] [--rounds 3]``.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numpy as np  # noqa: E402

import boomboard  # noqa: E402
from boomboard.core.perft import compiled_perft  # noqa: E402
from boomboard.games.kaboom import bitboard, rules  # noqa: E402
from boomboard.jit import njit  # noqa: E402

BOARDS = {"7x6, bombs=0 (Connect-4)": "kaboom(rows=6,cols=7,bombs=0)",
          "7x6, bombs=1": "kaboom(rows=6,cols=7,bombs=1)"}


@njit
def array_stack_perft(s, params, depth, n_actions):
    """The array engine's perft in bitboard.perft's loop (a stack allocated once)."""
    stack = np.empty((depth, s.shape[0]), dtype=s.dtype)
    moves = np.empty((depth, n_actions), dtype=np.int32)
    counts = np.zeros(depth, dtype=np.int64)
    tried = np.zeros(depth, dtype=np.int64)
    stack[0] = s
    counts[0] = rules.legal_actions(stack[0], params, moves[0])
    if depth == 1:
        return counts[0]
    total = 0
    level = 0
    while level >= 0:
        if tried[level] == counts[level]:
            level -= 1
            continue
        child = stack[level + 1]
        for i in range(s.shape[0]):
            child[i] = stack[level, i]
        rules.apply_action(child, params, moves[level, tried[level]])
        tried[level] += 1
        if level + 2 == depth:
            total += rules.legal_actions(child, params, moves[level + 1])
        else:
            level += 1
            counts[level] = rules.legal_actions(child, params, moves[level])
            tried[level] = 0
    return total


def pyspiel_perft(state, depth: int) -> int:
    if state.is_terminal():
        return 0
    actions = state.legal_actions()
    if depth == 1:
        return len(actions)
    return sum(pyspiel_perft(state.child(action), depth - 1) for action in actions)


def engines(name: str, depth: int, python_depth: int) -> dict:
    """Each engine's perft of the board ``name`` as a function of nothing, with its depth."""
    game = boomboard.load_game(name)
    state = game.new_initial_state()
    geo = game.bitboard_geometry()
    pos = bitboard.new_position()
    bitboard.from_array(state.array, geo, pos)
    found = {
        "array, core.perft": (depth, lambda: compiled_perft(state, depth)),
        "array, stack": (depth, lambda: array_stack_perft(state.array, game.params_array, depth,
                                                          game.num_distinct_actions())),
        "bitboard": (depth, lambda: bitboard.perft(pos, geo, depth)),
    }
    if game["bombs"] == 0:
        try:
            import pyspiel
        except ImportError:
            return found
        connect_four = pyspiel.load_game("connect_four")
        found["pyspiel connect_four (Python-driven)"] = (
            python_depth, lambda: pyspiel_perft(connect_four.new_initial_state(), python_depth))
    return found


def bitboard_perft(name: str, depth: int) -> int:
    game = boomboard.load_game(name)
    geo = game.bitboard_geometry()
    pos = bitboard.new_position()
    bitboard.from_array(game.new_initial_state().array, geo, pos)
    return bitboard.perft(pos, geo, depth)


def timed(count) -> tuple[int, float]:
    started = time.process_time()
    leaves = count()
    return leaves, time.process_time() - started


def machine() -> str:
    cpu = platform.processor() or "unknown CPU"
    try:
        with open("/proc/cpuinfo") as info:
            cpu = next(line.split(":", 1)[1].strip() for line in info if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{cpu}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=8, help="perft depth of the compiled engines")
    parser.add_argument("--python-depth", type=int, default=7, help="perft depth of the Python-driven pyspiel")
    parser.add_argument("--rounds", type=int, default=3, help="rounds, engines interleaved; medians reported")
    args = parser.parse_args()
    print(f"Machine: {machine()} at the start")
    for board, name in BOARDS.items():
        measured = engines(name, args.depth, args.python_depth)
        counts = {}
        for depth, count in measured.values():  # compile (and check) first, untimed
            counts.setdefault(depth, set()).add(count())
        for depth, found in counts.items():  # pyspiel's depth too
            found.add(bitboard_perft(name, depth))
        assert all(len(found) == 1 for found in counts.values()), f"{board}: the engines' counts differ: {counts}"
        rates: dict[str, list[float]] = {engine: [] for engine in measured}
        for _ in range(args.rounds):
            for engine, (_, count) in measured.items():
                leaves, seconds = timed(count)
                rates[engine].append(leaves / seconds)
        bitboard_rate = statistics.median(rates["bitboard"])
        print(f"\n{board}:")
        print("| engine | perft depth | leaves | leaves a CPU second | bitboard is faster by |")
        print("|---|---:|---:|---:|---:|")
        for engine, (depth, _) in measured.items():
            rate = statistics.median(rates[engine])
            print(f"| {engine} | {depth} | {next(iter(counts[depth])):,} | {rate:,.0f} | {bitboard_rate / rate:.1f}x |")
    print(f"\nload average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
