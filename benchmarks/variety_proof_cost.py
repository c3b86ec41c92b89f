"""What the variety check costs `ai`, and what it gains, game by game.

Where `ai` leaves a random choice among near-best moves (Kaboom's trap scan
chooses on every move), it first tries to prove the position within a
quarter of the search's nodes (``PROOF_SHARE``) and keeps to the moves the
proof shows best. For each game, on its default board (and Connect-4, Kaboom
with no bombs on 7x6), this plays ``--games`` games of ``ai:depth=D,solved=0``
with the check (``proofs=1``) against the same agent without it
(``proofs=0``), colours alternating, seeds paired, and prints:

* the moves the checking side made, its proof attempts and the proofs that
  finished;
* its CPU seconds a move in the search and in the proofs (the overhead);
* the score of the checking side (a win 1, a tie 1/2) with its 95% Wilson
  interval.

A fixed depth keeps the searches the same on a loaded machine (``--time``
plays timed moves instead); the CPU times are the process's own. Run:
``python benchmarks/variety_proof_cost.py [--games 20] [--depth 4 | --time
0.05] [--only "kaboom;jump61"] [--markdown]``. One core.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

sys.path.insert(0, str(Path(__file__).parent))
from rules_speed import commit, machine  # noqa: E402

from boomboard.agents import make_agent  # noqa: E402
from boomboard.lab.measure import wilson_interval  # noqa: E402
from boomboard.registry import game_names, load_game  # noqa: E402

CONNECT_FOUR = "kaboom(rows=6,cols=7,bombs=0)"


@dataclass
class Tally:
    """What the checking side did, over all its games of one board."""

    moves: int = 0
    attempts: int = 0
    proved: int = 0
    search_seconds: float = 0.0
    proof_seconds: float = 0.0
    score: float = 0.0
    games: int = 0
    outcomes: list[str] = field(default_factory=list)


def counted(agent, tally: Tally):
    """``agent``'s alpha-beta delegate, its proof attempts counted into ``tally``."""
    delegate = agent.delegate
    prove = delegate._proved_best

    def counting(state, nodes, seconds, plan):
        proved, proof_seconds = prove(state, nodes, seconds, plan)
        tally.attempts += delegate.prover is not None
        tally.proved += proved is not None
        tally.proof_seconds += proof_seconds
        return proved, proof_seconds

    delegate._proved_best = counting
    return delegate


def play(game, budget: str, seed: int, checking_side: int, tally: Tally) -> None:
    """One game, the checking agent on ``checking_side``; its moves and result go into ``tally``."""
    agents = [make_agent(f"ai:{budget},solved=0,proofs={int(side == checking_side)}", seed=seed + side)
              for side in (0, 1)]
    state = game.new_initial_state()
    for player, agent in enumerate(agents):
        agent.new_game(game, player)
    counted(agents[checking_side], tally)
    while not state.is_terminal():
        mover = state.current_player()
        began = time.process_time()
        action = agents[mover].choose_action(state)
        if mover == checking_side:
            tally.moves += 1
            tally.search_seconds += time.process_time() - began
        for agent in agents:
            agent.observe(state, action)
        state.apply_action(action)
    result = state.returns()[checking_side]
    tally.score += (result + 1) / 2
    tally.games += 1
    tally.outcomes.append({1: "W", 0: "T", -1: "L"}[int(result)])


def measure(spec: str, games: int, budget: str) -> Tally:
    game = load_game(spec)
    tally = Tally()
    play(game, budget, 10_000, 0, Tally())  # compiles the game's searches and the prover, uncounted
    for index in range(games):
        play(game, budget, 2 * index, index % 2, tally)
    tally.search_seconds -= tally.proof_seconds  # the move's time less its proofs: the search's
    return tally


def rows(results: dict[str, Tally]) -> list[str]:
    lines = ["| board | checking side's moves | proof attempts | proofs finished | search CPU ms a move | "
             "proof CPU ms a move | overhead | score of the checking side (95%) |",
             "|---|---:|---:|---:|---:|---:|---:|---|"]
    for name, t in results.items():
        low, high = wilson_interval(t.score, t.games)
        search, proof = 1000 * t.search_seconds / t.moves, 1000 * t.proof_seconds / t.moves
        lines.append(f"| `{name}` | {t.moves} | {t.attempts} | {t.proved} | {search:.1f} | {proof:.1f} | "
                     f"{100 * proof / search:.0f}% | {t.score / t.games:.2f} ({low:.2f}-{high:.2f}) "
                     f"over {t.games} games: {''.join(t.outcomes)} |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--time", type=float, help="CPU seconds a move instead of a depth (then a proof gets a "
                                                   "quarter of the search's time, too)")
    parser.add_argument("--only", default="", help="game strings separated by ;  (default: every game's default "
                                                   "board and Connect-4 7x6)")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    boards = args.only.split(";") if args.only else [*game_names(), CONNECT_FOUR]
    budget = f"depth={args.depth}" if args.time is None else f"time={args.time}"
    results = {}
    for spec in boards:
        began = time.process_time()
        results[spec] = measure(spec, args.games, budget)
        print(f"{spec}: {time.process_time() - began:.1f} CPU s", file=sys.stderr, flush=True)
    if args.markdown:
        print(f"Machine: {machine()}; commit {commit()}; `ai:{budget},solved=0`, {args.games} games a board.\n")
    print("\n".join(rows(results)))


if __name__ == "__main__":
    main()
