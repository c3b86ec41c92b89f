"""Is the analysis at least as strong as the AI it advises (issue 46)?

For each game, ``analysis`` (a player that always plays the analysis
board's starred move: :mod:`boomboard.agents.analysis_agent`, with no solver
table, so its searches speak) plays ``ai`` at the web's medium level
(``ai:time=0.5``, CPU seconds a move), colours alternating, in the arena
(``boomboard match``), every game written to one arena database as it is
played. Run again with the same ``--db``, it finishes a stopped match
(``boomboard resume``) and starts only the games' matches not begun. Then it
prints, per game, the analysis's wins, ties and losses as first and second
player, its score with a 95% interval, and the CPU seconds a move each side
took::

    python benchmarks/analysis_vs_ai.py --db analysis-vs-ai.sqlite3 --games jump61 chain_reaction --each 40

The analysis's budget is its own (each game's model: a depth for the move
list, a node budget for the best move; docs/explanation/analysis.md), not a
clock, so its moves do not depend on the machine's load; ``ai``'s is CPU
time, so neither does its strength, only the wall time a match takes.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from boomboard.arena.store import open_store

GAMES = ["expendibots", "jump61", "kaboom", "explocus", "hexplocus", "chain_reaction"]


def match_of(store, game: str, players: list[str]):
    """The match of ``players`` in ``game`` already in the database, if any."""
    return next((t for t in store.tournaments() if t.game == game and t.players == players), None)


def play(db: Path, game: str, players: list[str], each: int, workers: int, tables: str, seed: int) -> None:
    """Play (or finish) the match of ``game``, its agents seeded from ``seed``
    game by game; the tables folder is empty, for the analysis."""
    command = [sys.executable, "-m", "boomboard"]
    store = open_store(db)
    existing = match_of(store, game, players)
    store.close()
    if existing is None:
        command += ["match", game, *players, "-n", str(each), "-j", str(workers), "--seed", str(seed), "--db", str(db)]
    elif existing.played < existing.slots:
        command += ["resume", str(existing.id), "-j", str(workers), "--db", str(db)]
    else:
        return
    subprocess.run(command, check=True, env={**os.environ, "BOOMBOARD_DB": tables})


def interval(scores: list[float]) -> tuple[float, float]:
    """The mean score and the half width of its 95% interval (normal approximation)."""
    mean = statistics.fmean(scores)
    spread = statistics.pstdev(scores) / math.sqrt(len(scores)) if len(scores) > 1 else 0.5
    return mean, 1.96 * spread


def report(db: Path, games: list[str], players: list[str]) -> None:
    print("| game | games | as first (W-T-L) | as second (W-T-L) | score (95%) | CPU s a move: analysis, ai |")
    print("|---|---|---|---|---|---|")
    store = open_store(db)
    try:
        for game in games:
            record = match_of(store, game, players)
            if record is None or not store.slot_results(record.id):
                continue
            tally = {0: [0, 0, 0], 1: [0, 0, 0]}
            scores = []
            for _, first, _second, winner in store.slot_results(record.id):
                side = 0 if first == players[0] else 1
                result = 0.5 if winner is None else float(winner == side)
                tally[side][{1.0: 0, 0.5: 1, 0.0: 2}[result]] += 1
                scores.append(result)
            seconds = _seconds_a_move(store, record.id, players[0])
            mean, half = interval(scores)
            print(f"| {game} | {len(scores)} | {'-'.join(map(str, tally[0]))} | {'-'.join(map(str, tally[1]))} "
                  f"| {100 * mean:.1f}% ± {100 * half:.1f} | {seconds[0]:.2f}, {seconds[1]:.2f} |")
    finally:
        store.close()


def _seconds_a_move(store, tournament_id: int, analysis: str) -> tuple[float, float]:
    """The median CPU seconds a move of the analysis and of its opponent."""
    mine, theirs = [], []
    for record in store.games(limit=1_000_000, tournament_id=tournament_id):
        for ply, cpu in enumerate(record.cpu):
            if cpu is not None:
                (mine if record.players[ply % 2] == analysis else theirs).append(cpu)
    return (statistics.median(mine) if mine else math.nan, statistics.median(theirs) if theirs else math.nan)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True, help="the arena database (kept: run again to resume)")
    parser.add_argument("--games", nargs="+", default=GAMES)
    parser.add_argument("--each", type=int, default=40, help="games per game, colours alternating")
    parser.add_argument("--workers", type=int, default=1, help="games played at once")
    parser.add_argument("--opponent", default="ai:time=0.5")
    parser.add_argument("--player", default="analysis",
                        help="the analysis's spec: analysis:depth=4,nodes=125000 with --opponent ai:time=0.125 "
                             "scales both budgets by about a quarter, for a game whose match would take too long")
    parser.add_argument("--seed", type=int, default=1,
                        help="seeds the agents game by game (the arena's --seed): another seed, other games")
    parser.add_argument("--report", action="store_true", help="only print the table")
    args = parser.parse_args(argv)
    players = [args.player, args.opponent]
    if not args.report:
        with tempfile.TemporaryDirectory() as tables:
            for game in args.games:
                play(args.db, game, players, args.each, args.workers, tables, args.seed)
    report(args.db, args.games, players)


if __name__ == "__main__":
    main(sys.argv[1:])
