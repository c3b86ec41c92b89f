"""Prove a game's start and every first move by search (``analyze --prove``'s prover), or say how far each got.

For boards the solver's tables do not reach (issue 48: Kaboom 7x6 with one
bomb each). Every position gets ``--seconds`` of CPU time; one prover
keeps its transposition table from position to position within a process
(the first moves' proofs share much with each other and with the start's),
and the start is proved last. Each position's result is a JSON line in
``--out`` as soon as it is known: a rerun goes on with the positions not
yet there, and ``--part K/N`` takes every N-th position from the K-th (the
start goes with part 0), so N processes share the work. ``--report``
prints the table of every line in the files given, proved or not.

    python benchmarks/prove_first_moves.py "kaboom(rows=6,cols=7,bombs=1)" --seconds 600 \\
        --table-bits 26 --part 0/2 --out first-moves-0.jsonl
    python benchmarks/prove_first_moves.py --report first-moves-0.jsonl first-moves-1.jsonl
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from pathlib import Path

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

import boomboard
from boomboard.search.prover import MAX_TABLE_BITS, NotProvedError, Prover

START = "start"


def positions(game) -> list[tuple[str, list[int]]]:
    """The first moves' positions in action order, then the start: (label, actions from the start)."""
    start = game.new_initial_state()
    return [(start.action_to_string(action), [action]) for action in start.legal_actions()] + [(START, [])]


def prove_one(prover: Prover, game, actions: list[int], seconds: float) -> dict:
    state = game.new_initial_state()
    for action in actions:
        state.apply_action(action)
    mover = state.current_player()
    began = time.process_time()
    try:
        proof = prover.prove(state, seconds=seconds)
    except NotProvedError as stopped:
        return {"proved": False, "known": stopped.proved, "nodes": stopped.nodes, "seconds": round(stopped.seconds, 1),
                "mover": mover}
    return {"proved": True, "value": proof.value, "plies": proof.plies, "nodes": proof.nodes,
            "seconds": round(time.process_time() - began, 1), "mover": mover}


def run(args) -> None:
    game = boomboard.load_game(args.game)
    done = set()
    if args.out.exists():
        done = {json.loads(line)["position"] for line in args.out.read_text().splitlines() if line.strip()}
    part, parts = (int(x) for x in args.part.split("/"))
    # the start (last in the list) goes with part 0; the first moves are dealt round the parts
    mine = [(label, actions) for index, (label, actions) in enumerate(positions(game))
            if (label == START and part == 0) or (label != START and index % parts == part)]
    prover = Prover(game, table_bits=args.table_bits)
    print(f"{game}: {len(mine)} positions in this part, {len(mine) - len([m for m in mine if m[0] in done])} to "
          f"prove, {args.seconds:g} CPU s each; {platform.processor() or platform.machine()}", flush=True)
    todo = [(label, actions) for label, actions in mine if label not in done]
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TimeRemainingColumn())
    with Progress(*columns) as progress:
        task = progress.add_task("positions", total=len(todo))
        for label, actions in todo:
            progress.update(task, description=f"proving {label}")
            row = {"game": str(game), "position": label, **prove_one(prover, game, actions, args.seconds),
                   "seconds_limit": args.seconds, "table_bits": args.table_bits}
            with args.out.open("a") as out:
                out.write(json.dumps(row) + "\n")
            progress.console.print(describe(row), soft_wrap=True)  # a table row on one line, however wide
            progress.advance(task)


def describe(row: dict) -> str:
    who = "the first player" if row["mover"] == 0 else "the second player"
    if row["proved"]:
        result = row["value"] + (f" in {row['plies']} plies" if row["plies"] is not None else "")
    else:
        result = f"not proved; proved so far: {row['known'] or 'nothing'}"
    return (f"| {row['position']} | {who} | {result} | {row['nodes']:,} | {row['seconds']:,.1f} |")


def report(paths: list[Path]) -> None:
    rows = [json.loads(line) for path in paths for line in path.read_text().splitlines() if line.strip()]
    order = {label: index for index, (label, _) in enumerate(positions(boomboard.load_game(rows[0]["game"])))}
    print("| position | to move | result for the player to move | nodes | CPU s |")
    print("|---|---|---|---:|---:|")
    for row in sorted(rows, key=lambda row: order[row["position"]]):
        print(describe(row))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", nargs="?", help="a game string, e.g. kaboom(rows=6,cols=7,bombs=1)")
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--table-bits", type=int, default=24, choices=range(10, MAX_TABLE_BITS + 1),
                        metavar=f"10..{MAX_TABLE_BITS}")
    parser.add_argument("--part", default="0/1", help="K/N: every N-th first move from the K-th (the start: K=0)")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--report", type=Path, nargs="+", help="print the table of these files' lines and stop")
    args = parser.parse_args(argv)
    if args.report:
        report(args.report)
    elif args.game and args.out:
        run(args)
    else:
        parser.error("give a game and --out, or --report FILES")


if __name__ == "__main__":
    main()
