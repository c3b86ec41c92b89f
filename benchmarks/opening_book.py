"""Build a game's opening book from recorded games (:mod:`boomboard.search.book`).

Reads game records (JSON lines with ``actions`` in the game's notation, as
``expendibots_course_match.py`` and the arena write them), takes the
positions of their first ``--plies`` plies where the side named by the
record's ``ours`` was to move (every position with ``--both-sides``) and
that ``--min-games`` games or more reached, and searches each for
``--seconds`` CPU seconds with the game's ``ai`` settings. Each finished
position is a JSON line in ``--work`` (a rerun goes on where it stopped;
``--part K/N`` searches every N-th position from the K-th, so N processes
share the work); ``--out`` then writes the book from every line there.

    python benchmarks/opening_book.py expendibots benchmarks/results/expendibots-course*.jsonl \\
        --plies 16 --min-games 2 --seconds 12 --work /tmp/book.jsonl \\
        --out src/boomboard/games/expendibots/book.json

With ``--learn`` it searches nothing: it writes the records' results (each
move ``ours`` played in the first ``--plies`` plies, with its games and
points: :func:`boomboard.search.book.results_of_games`) into the book at
``--out`` as its ``results``, keeping the book's positions.
"""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
import time
from collections import Counter
from pathlib import Path

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

import boomboard
from boomboard.agents.search_agents import AI_MARGIN
from boomboard.search.book import FORMAT, build_entry, results_of_games


def book_positions(game, paths: list[Path], plies: int, min_games: int, both_sides: bool) -> list[str]:
    """The positions to book, most often reached first (position notations)."""
    reached: Counter[str] = Counter()
    for path in paths:
        for line in path.read_text().splitlines():
            record = json.loads(line)
            if "actions" not in record or ("ours" not in record and not both_sides):
                continue
            state = game.new_initial_state()
            seen = set()
            for action in record["actions"][:plies]:
                if both_sides or game.player_names[state.current_player()] == record["ours"]:
                    seen.add(state.to_notation())
                state.play(action)
                if state.is_terminal():
                    break
            reached.update(seen)
    return [position for position, games in reached.most_common() if games >= min_games]


def _built(args, **how) -> dict:
    """How a book (or its results) was built, for its ``built``/``learnt`` field."""
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    return {**how, "plies": args.plies, "min_games": args.min_games, "records": [p.name for p in args.records],
            "commit": commit, "date": time.strftime("%Y-%m-%d"),
            "machine": platform.processor() or platform.machine()}


def learn(game, args) -> int:
    """Write the records' results into the book at ``args.out``."""
    if args.out is None:
        raise SystemExit("--learn writes into a book: give it --out")
    book = json.loads(args.out.read_text()) if args.out.exists() else {"game": str(game), "format": FORMAT,
                                                                        "positions": {}}
    records = [json.loads(line) for path in args.records for line in path.read_text().splitlines() if line.strip()]
    book["results"] = results_of_games(game, records, args.plies, args.min_games)
    book["learnt"] = _built(args, games=sum(1 for r in records if "actions" in r and "ours" in r))
    args.out.write_text(json.dumps(book, indent=0) + "\n")
    print(f"wrote the results of {book['learnt']['games']} games, {len(book['results'])} positions, to {args.out}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("records", nargs="+", type=Path)
    parser.add_argument("--plies", type=int, default=16)
    parser.add_argument("--min-games", type=int, default=2)
    parser.add_argument("--both-sides", action="store_true")
    parser.add_argument("--seconds", type=float, default=12.0)
    parser.add_argument("--margin", type=int, default=AI_MARGIN)
    parser.add_argument("--part", default="0/1", help="K/N: this process's share of the positions")
    parser.add_argument("--work", type=Path, help="where each searched position is kept (a rerun resumes)")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--learn", action="store_true", help="write the records' results into --out; no search")
    args = parser.parse_args(argv)
    game = boomboard.load_game(args.game)
    if args.learn:
        return learn(game, args)
    if args.work is None:
        raise SystemExit("a search needs --work, where each position searched is kept")
    k, n = (int(x) for x in args.part.split("/"))
    positions = book_positions(game, args.records, args.plies, args.min_games, args.both_sides)
    done = {}
    if args.work.exists():
        for line in args.work.read_text().splitlines():
            entry = json.loads(line)
            done[entry["position"]] = entry
    todo = [p for i, p in enumerate(positions) if i % n == k and p not in done]
    print(f"{len(positions)} positions to book, {len(done)} done, {len(todo)} for this part")
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TimeRemainingColumn())
    with Progress(*columns) as progress, args.work.open("a") as out:
        task = progress.add_task("searching", total=len(todo))
        for position in todo:
            state = game.state_from_notation(position)
            moves = build_entry(game, state, args.seconds, args.margin)
            out.write(json.dumps({"position": position, "moves": moves}) + "\n")
            out.flush()
            progress.advance(task)
    if args.out:
        entries = {}
        for line in args.work.read_text().splitlines():
            entry = json.loads(line)
            entries[entry["position"]] = entry["moves"]
        book = {"game": str(game), "format": FORMAT,
                "built": _built(args, seconds=args.seconds, margin=args.margin, both_sides=args.both_sides),
                "positions": dict(sorted(entries.items()))}
        args.out.write_text(json.dumps(book, indent=0) + "\n")
        print(f"wrote {len(entries)} positions to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
