"""Playing strength: a cross table per game among agents (by default random,
greedy, alpha-beta and MCTS).

Every pairing plays ``--games`` games with colours alternated (game ``i`` of a
pairing: the row agent moves first when ``i`` is even); the searching agents
(alphabeta, mcts, ai) get the same CPU time per move, ``--time``. Other specs
can be compared with ``--agents``, e.g. whether quiescence pays off:
``--agents alphabeta alphabeta:quiescence=4``. Each finished game is appended to a JSON-lines
file at once, so a run that is stopped resumes where it was; ``--markdown``
prints the tables for ``docs/results/strength.md``.

Run: ``python benchmarks/strength.py --games 100 --time 0.02 --agents random greedy ai mcts --markdown``
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import os
import random
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

from rich.console import Console  # noqa: E402
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn  # noqa: E402

import boomboard  # noqa: E402
from boomboard.agents import make_agent  # noqa: E402

from rules_speed import commit, machine  # noqa: E402
sys.path.insert(0, str(Path(__file__).parent))  # its sibling modules, however it is loaded
from records import read_records  # noqa: E402

GAMES = boomboard.game_names()
KINDS = ["random", "greedy", "alphabeta", "mcts"]
TIMED = ("alphabeta", "mcts", "ai")


def spec(agent: str, seconds: float) -> str:
    """The agent's spec with the move time added where it searches."""
    kind, _, settings = agent.partition(":")
    if kind not in TIMED:
        return agent
    return f"{kind}:{settings + ',' if settings else ''}time={seconds:g}"


def play(game_name: str, first: str, second: str, seed: int, opening: int = 0, opening_seed: int = 0) -> dict:
    """One game; returns who won (0: first, 1: second, None: tie), its length and reason.

    With ``opening``, the game starts after that many random actions (seeded
    by ``opening_seed``, so both colourings of a pairing share the opening).
    """
    game = boomboard.load_game(game_name)
    agents = [make_agent(first, seed=seed), make_agent(second, seed=seed + 1)]
    state = game.new_initial_state()
    rng = random.Random(opening_seed)
    while opening and state.ply() < opening and not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    if state.is_terminal():  # too short an opening game: start again without one
        state = game.new_initial_state()
    for player, agent in enumerate(agents):
        agent.new_game(game, player)
    while not state.is_terminal():
        action = agents[state.current_player()].choose_action(state.clone())
        for agent in agents:
            agent.observe(state, action)
        state.apply_action(action)
    outcome = state.outcome()
    return {"winner": outcome.winner, "plies": state.ply(), "reason": outcome.reason.name}


def scheduled(games: list[str], n: int, seconds: float, kinds: list[str]):
    for game_name in games:
        for row, column in itertools.combinations(kinds, 2):
            for i in range(n):
                first, second = (row, column) if i % 2 == 0 else (column, row)
                yield {"game": game_name, "row": row, "column": column, "index": i, "first": first,
                       "second": second, "time": seconds}


def key(record: dict) -> tuple:
    return record["game"], record["row"], record["column"], record["index"], record["time"]


def run(args) -> list[dict]:
    path = Path(args.results)
    done = {key(record): record for record in read_records(path)}
    todo = [job for job in scheduled(args.games, args.n, args.time, args.agents) if key(job) not in done]
    columns = [TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("{task.fields[rate]:.2f} games/s"), TimeRemainingColumn()]
    with (Progress(*columns, console=Console(stderr=True)) as progress, ProcessPoolExecutor(args.workers) as pool,
          path.open("a") as out):
        task = progress.add_task("games", total=len(todo), rate=0.0)
        futures = {pool.submit(play, job["game"], spec(job["first"], job["time"]),
                               spec(job["second"], job["time"]), 1000 * job["index"] + 17, args.opening,
                               job["index"] // 2): job for job in todo}
        for future in as_completed(futures):
            job = futures[future]
            record = {**job, **future.result()}
            out.write(json.dumps(record) + "\n")
            out.flush()
            done[key(record)] = record
            progress.advance(task)
            elapsed = progress.tasks[0].elapsed or 1e-9
            progress.update(task, rate=progress.tasks[0].completed / elapsed)
    return [done[key(job)] for job in scheduled(args.games, args.n, args.time, args.agents)]


def cross_tables(records: list[dict], kinds: list[str]) -> str:
    lines = []
    for game_name in dict.fromkeys(record["game"] for record in records):
        score: dict[tuple[str, str], float] = {}
        count: dict[tuple[str, str], int] = {}
        lengths = []
        for record in (r for r in records if r["game"] == game_name):
            first_kind, second_kind = record["first"], record["second"]
            winner = record["winner"]
            points_first = 0.5 if winner is None else (1.0 if winner == 0 else 0.0)
            for me, other, points in ((first_kind, second_kind, points_first),
                                      (second_kind, first_kind, 1.0 - points_first)):
                score[me, other] = score.get((me, other), 0.0) + points
                count[me, other] = count.get((me, other), 0) + 1
            lengths.append(record["plies"])
        lines.append(f"### {game_name}\n")
        lines.append("| score of row vs column | " + " | ".join(kinds) + " | total |")
        lines.append("|---|" + "---|" * (len(kinds) + 1))
        for me in kinds:
            cells, total_points, total_games = [], 0.0, 0
            for other in kinds:
                if me == other:
                    cells.append("")
                    continue
                points, games = score.get((me, other), 0.0), count.get((me, other), 0)
                total_points, total_games = total_points + points, total_games + games
                cells.append(f"{100 * points / games:.1f}% ({games})" if games else "")
            total = f"{100 * total_points / total_games:.1f}%" if total_games else ""
            lines.append(f"| {me} | " + " | ".join(cells) + f" | {total} |")
        lines.append(f"\nGames last {sum(lengths) / len(lengths):.0f} actions on average.\n")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", dest="n", type=int, default=100, help="games per pairing")
    parser.add_argument("--time", type=float, default=0.05, help="CPU seconds per move for the searching agents")
    parser.add_argument("--agents", nargs="+", default=KINDS, help="agent specs to pair up")
    parser.add_argument("--opening", type=int, default=0,
                        help="random actions before the agents play (the same for both colourings)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--only", dest="games", nargs="*", default=GAMES, help="games to play")
    parser.add_argument("--results", default=str(Path(__file__).parent / "results" / "strength.jsonl"),
                        help="JSON lines, one game each; an existing file is resumed")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    records = run(args)
    if args.markdown:
        print(f"Machine: {machine()}; commit {commit()}; {args.n} games per pairing, "
              f"{args.time:g} CPU s per move for {', '.join(k for k in args.agents if k.split(':')[0] in TIMED)}.\n")
    print(cross_tables(records, args.agents))


if __name__ == "__main__":
    main()
