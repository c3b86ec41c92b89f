"""Build a proved opening book: one side's winning moves, each proved by boomboard's prover.

For a game whose start the prover can show is a win for ``--side`` (Connect-4 on
7x6: ``kaboom(rows=6,cols=7,bombs=0)``, a first-player win), it walks the
game's tree ply by ply: where ``--side`` is to move it finds one move proved to
keep the win (:func:`winning_move`), and it follows that move with every reply
the opponent has, not only the best ones, so the book answers any opponent.
It books every such position up to ``--plies`` plies; past them, ``ai``
proves the rest during the game. Each finished position is a JSON line in
``--work`` (a rerun goes on where it stopped); ``--part K/N`` takes every N-th
position of each ply from the K-th, so N processes share the work, each
waiting for the others to finish a ply before it reads the next one.
``--out`` then writes the book (:mod:`boomboard.search.book`, its
``proofs``; compressed where the name ends in ``.zst``) from every line there.

    python benchmarks/proved_book.py "kaboom(rows=6,cols=7,bombs=0)" --side x --plies 8 \\
        --work /tmp/c4book.jsonl --part 0/2 &
    python benchmarks/proved_book.py "kaboom(rows=6,cols=7,bombs=0)" --side x --plies 8 \\
        --work /tmp/c4book.jsonl --part 1/2
    python benchmarks/proved_book.py "kaboom(rows=6,cols=7,bombs=0)" --side x --plies 8 \\
        --work /tmp/c4book.jsonl --out src/boomboard/games/kaboom/books/connect-four-7x6.json.zst
"""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
import time
from pathlib import Path

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

import boomboard
from boomboard.search.book import FORMAT, write_book_file
from boomboard.search.prover import NotProvedError, Prover

FIRST_NODES = 1 << 12  # a first try at each candidate move; each round gives the ones still open four times more
POLL_SECONDS = 5.0


def centre_out(state) -> list[int]:
    """The legal actions, those nearest the middle of the action ids first
    (where a winning move most often is, in a game of lines)."""
    actions = state.legal_actions()
    middle = (min(actions) + max(actions)) / 2
    return sorted(actions, key=lambda a: (abs(a - middle), a))


def winning_move(prover: Prover, state) -> tuple[int, int]:
    """A move of ``state`` proved to win for the player to move, and the nodes
    spent. The position is proved first (the prover's own move order finds
    the win); then, with that proof in its table, each candidate move is
    tried with a small budget, those still open with four times more each
    round: the winning one proves at once from the table, and the others
    cost little. Raises ValueError when the position is no win."""
    root = prover.prove(state, exact=False)
    if root.value != "win":
        raise ValueError(f"{state.to_notation()} is no win for the player to move: {root.value}")
    open_moves, budget, spent = centre_out(state), FIRST_NODES, root.nodes
    while open_moves:
        for action in list(open_moves):
            child = state.child(action)
            if child.is_terminal():
                if child.returns()[state.current_player()] > 0:
                    return action, spent
                open_moves.remove(action)
                continue
            try:
                proof = prover.prove(child, nodes=budget, exact=False)
            except NotProvedError as stopped:
                spent += stopped.nodes
                continue
            spent += proof.nodes
            if proof.value == "lose":
                return action, spent
            open_moves.remove(action)
        budget *= 4
    raise ValueError(f"no move wins at {state.to_notation()}")


def read_work(path: Path) -> dict[str, dict]:
    done = {}
    if path.exists():
        for line in path.read_text().splitlines():
            if line.strip():
                entry = json.loads(line)
                done[entry["position"]] = entry
    return done


def next_ply(game, positions: list[str], done: dict[str, dict]) -> list[str]:
    """The positions two plies on: after each position's booked move, every reply."""
    found: dict[str, None] = {}
    for position in positions:
        state = game.state_from_notation(position)
        after = state.child(state.string_to_action(done[position]["move"]))
        if after.is_terminal():
            continue
        for reply in after.legal_actions():
            reached = after.child(reply)
            if not reached.is_terminal():
                found.setdefault(reached.to_notation())
    return list(found)


def wait_for(path: Path, positions: list[str]) -> dict[str, dict]:
    """The work file once every one of ``positions`` is in it (the other parts' share)."""
    while True:
        done = read_work(path)
        if all(p in done for p in positions):
            return done
        time.sleep(POLL_SECONDS)


def build(game, args) -> None:
    k, n = (int(x) for x in args.part.split("/"))
    side = game.player_names.index(args.side)
    prover = Prover(game, table_bits=args.table_bits)
    start = game.new_initial_state()
    positions = [start.to_notation()] if start.current_player() == side else \
        [start.child(a).to_notation() for a in start.legal_actions()]
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TimeRemainingColumn())
    with Progress(*columns) as progress, args.work.open("a") as out:
        ply = game.state_from_notation(positions[0]).ply()
        while positions and ply <= args.plies:
            done = read_work(args.work)
            mine = [p for i, p in enumerate(positions) if i % n == k and p not in done]
            task = progress.add_task(f"ply {ply}: {len(positions)} positions", total=len(mine))
            for position in mine:
                state = game.state_from_notation(position)
                began = time.process_time()
                action, nodes = winning_move(prover, state)
                out.write(json.dumps({"position": position, "ply": ply, "move": state.action_to_string(action),
                                      "nodes": nodes, "seconds": round(time.process_time() - began, 3)}) + "\n")
                out.flush()
                progress.advance(task)
            done = wait_for(args.work, positions)
            positions, ply = next_ply(game, positions, done), ply + 2


def write_book(game, args) -> None:
    done = {position: entry for position, entry in read_work(args.work).items() if entry["ply"] <= args.plies}
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    seconds = sum(entry["seconds"] for entry in done.values())
    book = {"game": str(game), "format": FORMAT,
            "built": {"by": "benchmarks/proved_book.py", "side": args.side, "plies": args.plies,
                      "table_bits": args.table_bits, "cpu_seconds": round(seconds),
                      "nodes": sum(entry["nodes"] for entry in done.values()), "commit": commit,
                      "date": time.strftime("%Y-%m-%d"), "machine": platform.processor() or platform.machine()},
            "positions": {},
            "proofs": {position: [[entry["move"], "win", None]] for position, entry in sorted(done.items())}}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_book_file(args.out, book)
    print(f"wrote {len(done)} proved positions ({seconds / 3600:.2f} CPU hours) to {args.out}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--side", required=True, help="the player whose winning moves are booked, by name")
    parser.add_argument("--plies", type=int, default=8, help="book that side's positions up to this ply")
    parser.add_argument("--table-bits", type=int, default=24)
    parser.add_argument("--part", default="0/1", help="K/N: this process's share of each ply")
    parser.add_argument("--work", type=Path, required=True, help="where each proved position is kept (a rerun resumes)")
    parser.add_argument("--out", type=Path, help="write the book from the work file (no proving)")
    args = parser.parse_args(argv)
    game = boomboard.load_game(args.game)
    if args.out:
        write_book(game, args)
    else:
        build(game, args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
