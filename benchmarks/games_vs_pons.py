"""Games of Connect-4 on 7x6 between ``ai`` and Pascal Pons' solver, in either colour.

Pons' solver (github.com/PascalPons/connect4, built with ``make``; nobody here
wrote it) plays perfectly: at each of its turns it scores every move exactly
(its ``-a`` analysis, run without an opening book) and plays one of its best
at random (a seeded choice), so its games vary only where perfect play does.
``ai`` plays ``kaboom(rows=6,cols=7,bombs=0)`` at its default settings (one
CPU second a move; its proved opening book). Each finished game is a JSON
line in ``--records`` (a rerun plays only the games still missing); each
analysis of Pons' is kept in ``--cache`` (one line a position), so a
position analysed once costs nothing in later games or runs.

Every game record holds the moves (Pons' notation: columns 1 to 7), who won,
the plies, ``ai``'s CPU seconds and what it said of each of its moves, and
Pons' score of every position it moved from: with perfect play on both sides
that score never changes from the start's (the first player wins with its
21st piece, ply 41), so a game of ``ai`` as the second player that lasts 41
plies lost no sooner than perfect defence allows, and a score of Pons' that
grows marks the move of ``ai`` that shortened it.

    python benchmarks/games_vs_pons.py /tmp/pons/c4solver --games 10 --ai-plays x \\
        --records benchmarks/results/games-vs-pons.jsonl --cache /tmp/pons-analyses.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import tempfile
import time
from pathlib import Path

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

import boomboard
from boomboard.agents import make_agent

GAME = "kaboom(rows=6,cols=7,bombs=0)"
NOT_PLAYABLE = -1000  # Pons' score of a full column


class Pons:
    """Pons' solver as a child process, analysing one position a line (its
    table kept between them), with a cache of its analyses on disk."""

    def __init__(self, solver: str, cache: Path):
        self.folder = tempfile.TemporaryDirectory()  # no opening book there
        self.child = subprocess.Popen([solver, "-a"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=subprocess.DEVNULL, text=True, cwd=self.folder.name)
        self.cache_path = cache
        self.cache: dict[str, list[int]] = {}
        if cache.exists():
            for line in cache.read_text().splitlines():
                if line.strip():
                    entry = json.loads(line)
                    self.cache[entry["moves"]] = entry["scores"]

    def scores(self, moves: str) -> list[int]:
        """Pons' exact score of each column (1 to 7) for the player to move after ``moves``."""
        if moves not in self.cache:
            began = time.time()
            self.child.stdin.write(moves + "\n")
            self.child.stdin.flush()
            fields = self.child.stdout.readline().split()
            scores = [int(x) for x in fields[-7:]]
            self.cache[moves] = scores
            with self.cache_path.open("a") as out:
                out.write(json.dumps({"moves": moves, "scores": scores, "seconds": round(time.time() - began, 2)})
                          + "\n")
        return self.cache[moves]

    def close(self) -> None:
        self.child.stdin.close()
        self.child.wait()
        self.folder.cleanup()


def play(pons: Pons, ai_player: int, seed: int) -> dict:
    """One game; ``ai_player`` 0 moves first."""
    game = boomboard.load_game(GAME)
    agent = make_agent("ai", seed=seed)
    agent.new_game(game, ai_player)
    rng = random.Random(seed)
    state, moves, thinking, pons_scores, ai_seconds = game.new_initial_state(), "", [], [], 0.0
    while not state.is_terminal():
        if state.current_player() == ai_player:
            began = time.process_time()
            action = agent.choose_action(state)
            ai_seconds += time.process_time() - began
            said = getattr(getattr(agent, "delegate", agent), "last_thinking", "")
            thinking.append(f"{len(moves) + 1}. {state.action_to_string(action)}: {said}")
        else:
            scores = pons.scores(moves)
            best = max(scores)
            pons_scores.append(best)
            action = rng.choice([column for column, score in enumerate(scores) if score == best])
        agent.observe(state, action)
        state.apply_action(action)
        moves += str(action + 1)
    returns = state.returns()
    winner = None if returns[0] == returns[1] else ("ai" if returns[ai_player] > 0 else "pons")
    return {"game": GAME, "seed": seed, "ai_plays": game.player_names[ai_player], "moves": moves,
            "plies": len(moves), "winner": winner, "pons_scores": pons_scores, "ai_cpu_seconds": round(ai_seconds, 2),
            "ai_thinking": thinking}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("solver", help="Pons' built solver (c4solver)")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--ai-plays", choices=("x", "o"), required=True, help="ai's side: x moves first")
    parser.add_argument("--records", type=Path, required=True, help="one JSON line a game (a rerun resumes)")
    parser.add_argument("--cache", type=Path, required=True, help="Pons' analyses, one JSON line a position")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    ai_player = ("x", "o").index(args.ai_plays)
    done = [json.loads(line) for line in args.records.read_text().splitlines() if line.strip()] \
        if args.records.exists() else []
    seeds = [args.seed + i for i in range(args.games)]
    played = {(r["ai_plays"], r["seed"]) for r in done}
    todo = [s for s in seeds if (args.ai_plays, s) not in played]
    pons = Pons(args.solver, args.cache)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TimeRemainingColumn())
    try:
        with Progress(*columns) as progress, args.records.open("a") as out:
            task = progress.add_task(f"ai as {args.ai_plays} against Pons", total=len(todo))
            for seed in todo:
                record = play(pons, ai_player, seed)
                out.write(json.dumps(record) + "\n")
                out.flush()
                done.append(record)
                progress.advance(task)
    finally:
        pons.close()
    mine = [r for r in done if r["ai_plays"] == args.ai_plays and r["seed"] in seeds]
    wins = sum(r["winner"] == "ai" for r in mine)
    losses = sum(r["winner"] == "pons" for r in mine)
    print(f"ai as {args.ai_plays}: {len(mine)} games, won {wins}, tied {len(mine) - wins - losses}, lost {losses}; "
          f"plies {sorted(r['plies'] for r in mine)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
