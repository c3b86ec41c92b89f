"""``ai`` against OpenSpiel's own MCTS bot at equal time, through our OpenSpiel adapter.

OpenSpiel's side is ``open_spiel.python.algorithms.mcts.MCTSBot`` as its
``examples/mcts.py`` builds it (UCT constant 2, one random rollout per leaf
with ``RandomRolloutEvaluator``, MCTS-Solver on), playing the ``pyspiel``
game that :mod:`boomboard.openspiel` registers: every move it searches, and
every rollout it plays, goes through the adapter's ``pyspiel.State``.
``MCTSBot`` has no clock, only ``max_simulations``, so :class:`TimedMCTSBot`
stops its search when the CPU seconds a move (``time.process_time``) are
spent: the same budget ``ai`` gets (``ai:time=...``, built by the arena's
spec builder).

Each game starts after a seeded random opening of ``--opening`` actions,
shared by a pair of games (game ``i`` and ``i + 1``, ``i`` even), in which
``ai`` moves first in game ``i`` and second in ``i + 1``; so every opening
is played with both colours. Each finished game is appended to a JSON-lines
file at once (``--results``); a run that is stopped resumes where it was,
and running the command again prints the table without playing a game.
``--solved`` replays the games of a solved game (Kaboom, after ``boomboard
solve kaboom``) against perfect play, to tell ties the game forces from
mistakes; docs/results/strength.md ("Against OpenSpiel's MCTS") has the results.

Run: ``python benchmarks/openspiel_mcts.py --games 40 --time 0.1``
"""

from __future__ import annotations

import argparse
import datetime
import importlib.metadata
import json
import os
import random
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from time import process_time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402
from open_spiel.python.algorithms import mcts  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,  # noqa: E402
                           TimeElapsedColumn, TimeRemainingColumn)

from boomboard.arena.specs import build_agent  # noqa: E402
from boomboard.openspiel import PlayoutEvaluator, boomboard_state, spiel_name  # noqa: E402
sys.path.insert(0, str(Path(__file__).parent))  # its sibling modules, however it is loaded
from records import read_records  # noqa: E402

GAMES = ["jump61", "kaboom", "explocus", "hexplocus"]
RESULTS = Path(__file__).parent / "results" / "openspiel-mcts.jsonl"
UCT_C = 2.0  # OpenSpiel's examples/mcts.py default


class _TimeUp(Exception):
    """Raised inside OpenSpiel's search loop when the move's CPU time is spent."""


class TimedMCTSBot(mcts.MCTSBot):
    """OpenSpiel's ``MCTSBot``, searching for ``seconds`` of CPU time a move
    instead of a fixed number of simulations.

    OpenSpiel's ``mcts_search`` runs ``for _ in range(max_simulations)``
    with no clock. Rather than copy that loop (its backup and MCTS-Solver
    logic), the search runs unchanged with an unreachable
    ``max_simulations``, and the tree descent that starts each simulation
    (``_apply_tree_policy``) raises :class:`_TimeUp` once the budget is
    spent. It raises before the simulation touches the tree, so the tree
    holds exactly the finished simulations, and the move is chosen from it
    as ``MCTSBot`` chooses (the most visited root child).
    """

    def __init__(self, game: pyspiel.Game, seconds: float, evaluator: mcts.Evaluator, uct_c: float = UCT_C,
                 random_state: np.random.RandomState | None = None):
        super().__init__(game, uct_c, sys.maxsize, evaluator, solve=True, random_state=random_state)
        self.seconds = seconds
        self._deadline = 0.0
        self._root: mcts.SearchNode | None = None
        self.simulations: list[int] = []  # simulations finished for each move

    def _apply_tree_policy(self, root, state):
        self._root = root
        # Only once the root has children: the first simulation evaluates
        # the root, the second expands it; a move needs its children.
        if root.children and process_time() >= self._deadline:
            raise _TimeUp
        return super()._apply_tree_policy(root, state)

    def mcts_search(self, state):
        self._deadline = process_time() + self.seconds
        try:
            root = super().mcts_search(state)  # returns early only when it solved the root
        except _TimeUp:
            root = self._root
        self.simulations.append(root.explore_count)
        return root


def play_game(game_name: str, index: int, seconds: float, opening: int = 2, ai: str = "ai",
              rollouts: int = 1, evaluator: str = "random") -> dict:
    """Game ``index`` of ``game_name`` between ``ai`` (first when ``index`` is
    even) and :class:`TimedMCTSBot`, ``seconds`` CPU seconds a move each.

    The game is the ``pyspiel`` game our adapter registers; the MCTS bot
    searches it through ``pyspiel`` calls, ``ai`` is given the boomboard
    state under it (as :class:`boomboard.openspiel.BoomboardBot` does).
    ``evaluator``: ``random`` is OpenSpiel's ``RandomRolloutEvaluator``;
    ``playout`` is our :class:`boomboard.openspiel.PlayoutEvaluator` (the same
    estimate, its rollouts compiled), to see what MCTS does with more simulations.
    """
    game = pyspiel.load_game(spiel_name(game_name))
    ai_player = index % 2
    ai_agent = build_agent(f"{ai}{',' if ':' in ai else ':'}time={seconds:g}", seed=1000 * index + 17)
    rng = np.random.RandomState(1000 * index + 29)
    if evaluator == "random":
        leaf_evaluator = mcts.RandomRolloutEvaluator(rollouts, rng)
    else:
        leaf_evaluator = PlayoutEvaluator(rollouts, seed=1000 * index + 31)
    bot = TimedMCTSBot(game, seconds, leaf_evaluator, random_state=rng)

    state = game.new_initial_state()
    opening_rng = random.Random(index // 2)  # the same opening for both colourings
    opening_actions = []
    while len(opening_actions) < opening and not state.is_terminal():
        action = opening_rng.choice(state.legal_actions())
        opening_actions.append(action)
        state.apply_action(action)
    if state.is_terminal():  # an opening that ends the game: play from the start instead
        state, opening_actions = game.new_initial_state(), []
    ai_agent.new_game(boomboard_state(state).game, ai_player)  # loads ai's compiled search before the clock
    leaf_evaluator.evaluate(state.clone())  # likewise the playouts' compiled code, off MCTS's first move

    cpu = [0.0, 0.0]  # ai, mcts
    moves = [0, 0]
    actions = []  # after the opening, for replaying a game (with the solver, say)
    while not state.is_terminal():
        player = state.current_player()
        began = process_time()
        if player == ai_player:
            action = ai_agent.choose_action(boomboard_state(state).clone())
            side = 0
        else:
            action = bot.step(state)
            side = 1
        cpu[side] += process_time() - began
        moves[side] += 1
        ai_agent.observe(boomboard_state(state), action)
        actions.append(action)
        state.apply_action(action)  # through the adapter's pyspiel state

    outcome = boomboard_state(state).outcome()
    ai_points = 0.5 if outcome.winner is None else float(outcome.winner == ai_player)
    return {"game": game_name, "index": index, "time": seconds, "ai": ai, "rollouts": rollouts,
            "evaluator": evaluator, "opening": opening, "opening_actions": opening_actions,
            "ai_player": ai_player,
            "winner": outcome.winner, "ai_points": ai_points, "plies": boomboard_state(state).ply(),
            "reason": outcome.reason.name, "returns": state.returns(),
            "ai_moves": moves[0], "mcts_moves": moves[1], "ai_cpu": round(cpu[0], 4), "mcts_cpu": round(cpu[1], 4),
            "mcts_simulations": bot.simulations, "actions": actions}


def key(record: dict) -> tuple:
    return (record["game"], record["index"], record["time"], record["ai"], record["rollouts"],
            record["evaluator"], record["opening"])


def environment() -> dict:
    """What the games were played with: versions, machine, date, commit."""
    try:
        cpu = subprocess.run(["lscpu"], capture_output=True, text=True, check=True).stdout
        model = next(line.split(":", 1)[1].strip() for line in cpu.splitlines() if line.startswith("Model name"))
    except (OSError, subprocess.CalledProcessError, StopIteration):
        model = "unknown CPU"
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                                check=True, cwd=Path(__file__).parent).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown"
    return {"openspiel": importlib.metadata.version("open_spiel"),
            "boomboard": importlib.metadata.version("boomboard"),
            "numba": importlib.metadata.version("numba"), "python": sys.version.split()[0],
            "machine": f"{model}, {os.cpu_count()} cores", "commit": commit,
            "date": datetime.date.today().isoformat()}


def scheduled(args) -> list[dict]:
    return [{"game": name, "index": i, "time": args.time, "ai": args.ai, "rollouts": args.rollouts,
             "evaluator": args.evaluator, "opening": args.opening}
            for name in args.games for i in range(args.first, args.first + args.n)]


def run(args) -> list[dict]:
    path = Path(args.results)
    done = {key(record): record for record in read_records(path)}
    todo = [job for job in scheduled(args) if key(job) not in done]
    if todo:
        env = environment()  # once per run: every game of it shares these
        columns = [TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                   TextColumn("{task.fields[rate]:.2f} games/min"), TimeElapsedColumn(), TimeRemainingColumn()]
        path.parent.mkdir(parents=True, exist_ok=True)
        with (Progress(*columns, console=Console(stderr=True)) as progress,
              ProcessPoolExecutor(args.workers) as pool, path.open("a") as out):
            task = progress.add_task("ai vs OpenSpiel MCTS", total=len(todo), rate=0.0)
            futures = {pool.submit(play_game, job["game"], job["index"], job["time"], job["opening"], job["ai"],
                                   job["rollouts"], job["evaluator"]): job for job in todo}
            for future in as_completed(futures):
                record = {**future.result(), **env}
                out.write(json.dumps(record) + "\n")
                out.flush()
                done[key(record)] = record
                progress.advance(task)
                elapsed = progress.tasks[0].elapsed or 1e-9
                progress.update(task, rate=60 * progress.tasks[0].completed / elapsed)
    return [done[key(job)] for job in scheduled(args)]


def table(records: list[dict]) -> str:
    lines = ["| game | games | ai won as first | ai won as second | draws | ai lost | ai score | plies "
             "| ai CPU s/move | MCTS CPU s/move | MCTS simulations/move |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for name in dict.fromkeys(r["game"] for r in records):
        games = [r for r in records if r["game"] == name]
        firsts = [r for r in games if r["ai_player"] == 0]
        seconds = [r for r in games if r["ai_player"] == 1]
        wins_first = sum(r["ai_points"] == 1.0 for r in firsts)
        wins_second = sum(r["ai_points"] == 1.0 for r in seconds)
        draws = sum(r["ai_points"] == 0.5 for r in games)
        losses = sum(r["ai_points"] == 0.0 for r in games)
        score = 100 * sum(r["ai_points"] for r in games) / len(games)
        plies = sum(r["plies"] for r in games) / len(games)
        ai_moves = sum(r["ai_moves"] for r in games) or 1
        mcts_moves = sum(r["mcts_moves"] for r in games) or 1
        simulations = [s for r in games for s in r["mcts_simulations"]]
        lines.append(f"| {name} | {len(games)} | {wins_first}/{len(firsts)} | {wins_second}/{len(seconds)} "
                     f"| {draws} | {losses} | {score:.1f}% | {plies:.0f} "
                     f"| {sum(r['ai_cpu'] for r in games) / ai_moves:.3f} "
                     f"| {sum(r['mcts_cpu'] for r in games) / mcts_moves:.3f} "
                     f"| {np.mean(simulations):.0f} (median {np.median(simulations):.0f}) |")
    return "\n".join(lines)


_FOR_THE_MOVER = {"win": "lose", "lose": "win", "tie": "tie", "draw": "draw"}  # a child's value, for its parent's mover
_WORSE = {("win", "tie"), ("win", "lose"), ("win", "draw"), ("tie", "lose"), ("draw", "lose")}


def solved_review(records: list[dict], db: str | None) -> str:
    """Where a game is solved (``boomboard solve``), the perfect-play value of
    each game's start (after its opening) and every move that gave a value
    away (a win let go, a tie turned into a loss), by side: what separates a
    score from what flawless play would get."""
    import boomboard
    from boomboard import solver

    lines = ["| game | starts: side to move wins / ties / loses | games replayed | ai: wins let go "
             "| ai: ties lost | MCTS: wins let go | MCTS: ties lost |", "|---|---|---|---|---|---|---|"]
    for name in dict.fromkeys(r["game"] for r in records):
        game = boomboard.load_game(name)
        solved = solver.open_table(game, db)
        if solved is None:
            continue
        starts = {"win": 0, "tie": 0, "lose": 0, "draw": 0}
        given_away = {("ai", "win"): 0, ("ai", "tie"): 0, ("mcts", "win"): 0, ("mcts", "tie"): 0}
        replayed = 0
        for record in (r for r in records if r["game"] == name):
            state = game.new_initial_state()
            for action in record["opening_actions"]:
                state.apply_action(action)
            starts[solved.lookup(state).value] += 1
            if "actions" not in record:  # recorded before the actions were kept
                continue
            replayed += 1
            for action in record["actions"]:
                side = "ai" if state.current_player() == record["ai_player"] else "mcts"
                before = solved.lookup(state).value
                state.apply_action(action)
                if state.is_terminal():
                    continue  # a finished game's result is its value: no loss of value here
                after = _FOR_THE_MOVER[solved.lookup(state).value]
                if (before, after) in _WORSE:
                    given_away[side, "win" if before == "win" else "tie"] += 1
        lines.append(f"| {name} | {starts['win']} / {starts['tie']} / {starts['lose']} | {replayed} "
                     f"| {given_away['ai', 'win']} | {given_away['ai', 'tie']} "
                     f"| {given_away['mcts', 'win']} | {given_away['mcts', 'tie']} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", dest="n", type=int, default=20, help="games per game (both colours alternated)")
    parser.add_argument("--first", type=int, default=0,
                        help="the first game's number (its opening's seed): later numbers give other openings")
    parser.add_argument("--time", type=float, default=0.1, help="CPU seconds a move, for both sides")
    parser.add_argument("--ai", default="ai", help="our agent's spec (the time is added)")
    parser.add_argument("--rollouts", type=int, default=1, help="random rollouts per MCTS leaf")
    parser.add_argument("--evaluator", choices=["random", "playout"], default="random",
                        help="MCTS leaf evaluator: OpenSpiel's RandomRolloutEvaluator, or boomboard's compiled "
                             "PlayoutEvaluator (the same estimate, faster)")
    parser.add_argument("--opening", type=int, default=2, help="random actions before the players take over")
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--only", dest="games", nargs="*", default=GAMES, help="games to play")
    parser.add_argument("--results", default=str(RESULTS), help="JSON lines, one game each; resumed if it exists")
    parser.add_argument("--solved", metavar="DB", nargs="?", const="", default=None,
                        help="also review the games of solved games (Kaboom: boomboard solve kaboom) against "
                             "perfect play, from the solver's tables in DB (default: its usual folder)")
    args = parser.parse_args()
    records = run(args)
    first = records[0] if records else environment()
    runs = sorted({(r["date"], r["commit"]) for r in records})
    leaf = "RandomRolloutEvaluator" if args.evaluator == "random" else "boomboard's PlayoutEvaluator"
    print(f"`ai` (spec `{args.ai}`) against OpenSpiel {first['openspiel']} `MCTSBot` (UCT c={UCT_C:g}, "
          f"{args.rollouts} random rollout a leaf with {leaf}, solver on), {args.time:g} CPU s a move each, "
          f"{args.opening}-action random openings, each with both colours.\n")
    print(f"Machine: {first['machine']}; Python {first['python']}, numba {first['numba']}; "
          f"played {', '.join(f'{d} at {c}' for d, c in runs)}.\n")
    print(table(records))
    if args.solved is not None:
        print("\nAgainst perfect play (moves that gave a value away, counted by side):\n")
        print(solved_review(records, args.solved or None))


if __name__ == "__main__":
    main()
