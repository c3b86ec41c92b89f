"""Build a proved opening book: one side's best moves, each proved by boomboard's prover.

Where the prover shows the start is a win for ``--side`` (Connect-4 on 7x6:
``kaboom(rows=6,cols=7,bombs=0)``, a first-player win), it walks the game's
tree two plies at a time: where ``--side`` is to move it finds one move proved
to keep the win (:func:`winning_move`), and it follows that move with every
reply the opponent has, not only the best ones, so the book answers any
opponent.

Where the start is a loss for ``--side``, the book holds out: the start is
proved exactly (the plies perfect play lasts), and at each position of the
loser, one move that loses no sooner than perfect defence allows; at each
position of the winner, every move that wins as soon as perfect play can
(:func:`keeping_entry`, one null-window search a move: :meth:`Prover.keeps`),
each of them followed, since a perfect opponent may play any. After a
winner's move that is not among its best, the loser does better than the
book's line, and ``ai`` proves on from there during the game.

It books every such position up to ``--plies`` plies; past them, ``ai``
proves the rest during the game. Each settled position is a JSON line in
``--work`` (the start's proof too: a rerun goes on where it stopped);
``--part K/N`` takes every N-th position of each ply from the K-th, so N
processes share the work, each waiting for the others to finish a ply
before it reads the next one. ``--out`` then writes the book
(:mod:`boomboard.search.book`, its ``proofs``; compressed where the name
ends in ``.zst``) from every line of one or more work files: both sides'
books of a game in one file.

    python benchmarks/proved_book.py "kaboom(rows=6,cols=7,bombs=0)" --side x --plies 12 \\
        --work /tmp/c4-x.jsonl --part 0/2 &
    python benchmarks/proved_book.py "kaboom(rows=6,cols=7,bombs=0)" --side x --plies 12 \\
        --work /tmp/c4-x.jsonl --part 1/2
    python benchmarks/proved_book.py "kaboom(rows=6,cols=7,bombs=0)" --side o --plies 13 \\
        --work /tmp/c4-o.jsonl
    python benchmarks/proved_book.py "kaboom(rows=6,cols=7,bombs=0)" --side x --plies 13 \\
        --work /tmp/c4-x.jsonl /tmp/c4-o.jsonl --out src/boomboard/games/kaboom/books/connect-four-7x6.json.zst
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
    """The work file's settled positions (its ``root`` line aside), by position."""
    done = {}
    if path.exists():
        for line in path.read_text().splitlines():
            entry = json.loads(line) if line.strip() else {}
            if "position" in entry:
                done[entry["position"]] = entry
    return done


def wait_for(path: Path, positions: list[str]) -> dict[str, dict]:
    """The work file once every one of ``positions`` is in it (the other parts' share)."""
    while True:
        done = read_work(path)
        if all(p in done for p in positions):
            return done
        time.sleep(POLL_SECONDS)


def root_value(game, prover: Prover, args, exact: bool) -> tuple[str, int | None]:
    """The start's value for the player to move (with its plies where
    ``exact``), from the work file's ``root`` line, else proved and written
    there (by part 0; the other parts wait for it)."""
    start = game.new_initial_state().to_notation()
    while True:
        for line in args.work.read_text().splitlines() if args.work.exists() else []:
            entry = json.loads(line) if line.strip() else {}
            if entry.get("root") == start and (entry["plies"] is not None or not exact):
                return entry["value"], entry["plies"]
        if not args.part.startswith("0/"):
            time.sleep(POLL_SECONDS)
            continue
        began = time.process_time()
        proof = prover.prove(game.new_initial_state(), exact=exact)
        with args.work.open("a") as out:
            out.write(json.dumps({"root": start, "value": proof.value, "plies": proof.plies, "nodes": proof.nodes,
                                  "seconds": round(time.process_time() - began, 3)}) + "\n")


def build(game, args) -> None:
    """Book ``--side``'s moves: winning ones where it wins (every reply of the
    opponent followed), else, where it loses, the moves that lose no sooner
    than perfect defence allows (each best move of the opponent followed)."""
    side = game.player_names.index(args.side)
    prover = Prover(game, table_bits=args.table_bits)
    start = game.new_initial_state()
    value, _ = root_value(game, prover, args, exact=False)
    if value == "tie":
        raise SystemExit(f"{game} is a tie: neither side has a winning or losing line to book")
    if (value == "win") == (start.current_player() == side):
        first = [start] if start.current_player() == side else [start.child(a) for a in start.legal_actions()]
        walk(game, args, [state.to_notation() for state in first], first[0].ply(), 2,
             lambda state, ply: winning_entry(prover, state), after_winning_move)
    else:
        value, plies = root_value(game, prover, args, exact=True)
        ends = start.ply() + plies  # the ply at which perfect play ends, from every position it reaches
        walk(game, args, [start.to_notation()], start.ply(), 1,
             lambda state, ply: keeping_entry(prover, state, ply, ends, side), after_kept_moves)


def winning_entry(prover: Prover, state) -> dict:
    action, nodes = winning_move(prover, state)
    return {"move": state.action_to_string(action), "nodes": nodes}


def keeping_entry(prover: Prover, state, ply: int, ends: int, loser: int) -> dict:
    """The moves of ``state``, a position at ``ply`` of perfect play that ends
    at ply ``ends`` with a loss for ``loser``, that keep its value: the
    loser's first found, centre-out, or every one of the winner's (its
    choices, which the book must all follow)."""
    plies = ends - ply
    losing = state.current_player() == loser
    value = "lose" if losing else "win"
    kept = []
    for action in centre_out(state):
        if prover.keeps(state, action, value, plies):
            kept.append(state.action_to_string(action))
            if losing:
                break
    if not kept:
        raise ValueError(f"no move keeps a {value} in {plies} plies at {state.to_notation()}")
    return {"value": value, "plies": plies, "moves": kept}


def walk(game, args, positions: list[str], ply: int, step: int, settle, follow) -> None:
    """Settle each position of each ply from ``ply`` (``settle(state, ply)``, this part's
    share; each a line in the work file as it is done; a position's
    notation need not say its ply), then go ``step`` plies on to the positions
    ``follow`` reaches from the settled ones, up to ``--plies``."""
    k, n = (int(x) for x in args.part.split("/"))
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TimeRemainingColumn())
    with Progress(*columns) as progress, args.work.open("a") as out:
        while positions and ply <= args.plies:
            done = read_work(args.work)
            mine = [p for i, p in enumerate(positions) if i % n == k and p not in done]
            task = progress.add_task(f"ply {ply}: {len(positions)} positions", total=len(mine))
            for position in mine:
                state = game.state_from_notation(position)
                began = time.process_time()
                entry = {"position": position, "ply": ply, **settle(state, ply)}
                out.write(json.dumps({**entry, "seconds": round(time.process_time() - began, 3)}) + "\n")
                out.flush()
                progress.advance(task)
            done = wait_for(args.work, positions)
            found: dict[str, None] = {}
            for position in positions:
                found.update(dict.fromkeys(follow(game.state_from_notation(position), done[position])))
            positions, ply = list(found), ply + step


def after_winning_move(state, entry: dict) -> list[str]:
    """The positions two plies on: after the booked move, every reply."""
    after = state.child(state.string_to_action(entry["move"]))
    if after.is_terminal():
        return []
    return [reached.to_notation() for reached in map(after.child, after.legal_actions()) if not reached.is_terminal()]


def after_kept_moves(state, entry: dict) -> list[str]:
    """The positions after each of the entry's moves."""
    return [reached.to_notation() for reached in (state.child(state.string_to_action(m)) for m in entry["moves"])
            if not reached.is_terminal()]


def write_book(game, args) -> None:
    """The book of every work file's lines up to ``--plies``: a winning move
    where one was booked, the moves that lose no sooner where the booked side
    loses (the winner's positions of that walk are not written)."""
    proofs, built = {}, []
    for work in args.work:
        lines = [entry for entry in read_work(work).values() if entry["ply"] <= args.plies]
        for entry in lines:
            if "move" in entry:
                proofs[entry["position"]] = [[entry["move"], "win", None]]
            elif entry["value"] == "lose":
                proofs[entry["position"]] = [[move, "lose", entry["plies"]] for move in entry["moves"]]
        roots = [entry for entry in map(json.loads, work.read_text().splitlines()) if "root" in entry]
        part = {"work": work.name, "positions": len(lines), "plies": args.plies,
                "cpu_seconds": round(sum(entry["seconds"] for entry in lines + roots))}
        if all("nodes" in entry for entry in lines):  # a winner's walk counts its nodes; a loser's keeps none
            part["nodes"] = sum(entry["nodes"] for entry in lines)
        built.append(part)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    book = {"game": str(game), "format": FORMAT,
            "built": {"by": "benchmarks/proved_book.py", "parts": built, "table_bits": args.table_bits,
                      "commit": commit, "date": time.strftime("%Y-%m-%d"),
                      "machine": platform.processor() or platform.machine()},
            "positions": {}, "proofs": dict(sorted(proofs.items()))}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_book_file(args.out, book)
    seconds = sum(part["cpu_seconds"] for part in built)
    print(f"wrote {len(proofs)} proved positions ({seconds / 3600:.2f} CPU hours) to {args.out}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--side", required=True, help="the player whose winning moves are booked, by name")
    parser.add_argument("--plies", type=int, default=8, help="book that side's positions up to this ply")
    parser.add_argument("--table-bits", type=int, default=24)
    parser.add_argument("--part", default="0/1", help="K/N: this process's share of each ply")
    parser.add_argument("--work", type=Path, nargs="+", required=True,
                        help="where each proved position is kept (a rerun resumes); with --out, one or more")
    parser.add_argument("--out", type=Path, help="write the book from the work files (no proving)")
    args = parser.parse_args(argv)
    game = boomboard.load_game(args.game)
    if args.out:
        write_book(game, args)
    elif len(args.work) > 1:
        parser.error("a build writes one work file")
    else:
        args.work = args.work[0]
        build(game, args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
