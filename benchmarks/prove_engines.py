"""The prover on a game's proof engine against the same prover on state arrays, in one run.

Proves the same Connect-4 positions (Pascal Pons' notation: the columns
played, 1 to 7) with :class:`~boomboard.search.prover.Prover` twice: on
Kaboom's bitboards (its proof engine, the default where the board fits)
and on its state arrays (``own_engine=False``), each position with an
empty table, and prints per position the proof, the nodes and the CPU time
of each, and the nodes a CPU second; the two proofs must agree.

    python benchmarks/prove_engines.py 274552224131661 5455174361263362 32164625
"""

from __future__ import annotations

import argparse
import time

import boomboard
from boomboard.search.prover import Prover

GAME = "kaboom(rows=6,cols=7,bombs=0)"


def prove(prover: Prover, moves: str):
    """The proof of the position after ``moves``, with an empty table, and its CPU seconds."""
    state = prover.game.new_initial_state()
    for column in moves:
        state.apply_action(int(column) - 1)
    prover.clear()
    started = time.process_time()
    proof = prover.prove(state)
    return proof, time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("positions", nargs="+", help="positions as Pons writes them (columns 1 to 7)")
    parser.add_argument("--table-bits", type=int, default=22, help="the prover's table: 2^N entries (default 22)")
    args = parser.parse_args()
    game = boomboard.load_game(GAME)
    provers = {"bitboards": Prover(game, table_bits=args.table_bits),
               "state arrays": Prover(game, table_bits=args.table_bits, own_engine=False)}
    for prover in provers.values():
        prove(prover, "4444333")  # compiles (or loads) the search before anything is timed
    print(f"{GAME}, table 2^{args.table_bits} entries, each position with an empty table\n")
    print("| position | proof | engine | nodes | CPU s | nodes a CPU s |\n|---|---|---|---:|---:|---:|")
    totals = {name: [0, 0.0] for name in provers}
    for moves in args.positions:
        proofs = set()
        for name, prover in provers.items():
            proof, seconds = prove(prover, moves)
            proofs.add((proof.value, proof.plies))
            totals[name][0] += proof.nodes
            totals[name][1] += seconds
            outcome = proof.value + ("" if proof.plies is None else f" in {proof.plies}")
            print(f"| {moves} | {outcome} | {name} | {proof.nodes:,} | {seconds:.3f} | "
                  f"{proof.nodes / seconds / 1e6:.2f} M |", flush=True)
        if len(proofs) != 1:
            raise SystemExit(f"the engines disagree on {moves}: {proofs}")
    for name, (nodes, seconds) in totals.items():
        print(f"| all | | {name} | {nodes:,} | {seconds:.3f} | {nodes / seconds / 1e6:.2f} M |")


if __name__ == "__main__":
    main()
