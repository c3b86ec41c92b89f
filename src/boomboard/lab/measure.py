"""What the lab measures of one variant: exact values where the solver
finishes within the budget, and estimates from ``ai`` self-play.

Exact (:func:`solve_exactly`): the strong solver (:mod:`boomboard.solver`,
in memory, so every position it finds is counted once, mirror images
apart) stops once it finds more than ``budget`` positions; within it, the
start's value and remoteness for the first player, every first move's value
for the first player, the positions reachable from the start (finished ones
included: the positions the game can be in, as Connect-4's published counts
count them) and the seconds it took.

Estimated (:func:`self_play`): ``games`` games of ``ai`` against itself at
a fixed depth (``ai:depth=D,solved=0``: never from a table, seeded, so the
same games every run; a sweep plays them in chunks, :func:`play_games`, and
joins the games' records with :func:`summarize`), giving:

* the first player's score (a win 1, a tie or draw 1/2, a loss 0) with its
  95% Wilson interval;
* the draw rate (games without a winner);
* the game length in plies: median and interquartile range, and how many
  games the game's action limit ended (``capped``: a tie the rules call at
  that many actions, in Expendibots and Explocus, not a finished game);
* decisiveness and lead changes as Ludii defines them (its metrics
  ``Decisiveness`` and ``LeadChange``), with the evaluation of a one-ply
  search as the state evaluation (for the player to move; the opponent's
  is its negative): *lead changes* is, per game, the number of moves before
  which the set of players with the highest evaluation differs from the set
  before the previous move (the first move counts, as in Ludii), divided by
  the number of moves; *decisiveness* is, per game with a winner, the share
  of its moves played before the winner's evaluation first exceeds the
  highest the loser ever had (1 if it never does, and for games without a
  winner). Both are averaged over the games.

Where both exist (:func:`agreement`), the exact value agrees with the
estimate when the first player's exact score lies in the interval.
"""

from __future__ import annotations

import math
import shutil
import statistics
import time
from pathlib import Path

from ..core.game import Game
from ..core.outcome import Reason
from ..core.state import State

Z95 = 1.959963984540054  # the normal quantile of a two-sided 95% interval
EXACT_SCORE = {"win": 1.0, "tie": 0.5, "draw": 0.5, "lose": 0.0}  # the first player's score, by the start's value


def solve_exactly(game: Game, budget: int, folder: Path) -> dict | None:
    """``game`` solved into ``folder`` (removed afterwards), or ``None`` when
    it has more than ``budget`` positions or positions the solver cannot
    encode. Any other failure (a folder that cannot be written, a damaged
    one) is raised: a sweep must not store a variant as beyond the budget
    when its solve only failed."""
    from ..solver import PositionSpaceTooLarge, SolveSettings, TooManyPositions, analyze, solve

    began = time.perf_counter()
    try:
        table = solve(game, folder, progress=False, settings=SolveSettings(max_positions=budget, method="memory"))
    except (TooManyPositions, PositionSpaceTooLarge):
        shutil.rmtree(folder, ignore_errors=True)
        return None
    start = game.new_initial_state()
    analysis = analyze(start, folder)
    result = {
        "value": analysis.value,
        "remoteness": analysis.remoteness,
        "moves": [{"move": m.notation, "action": m.action, "value": m.value, "remoteness": m.remoteness}
                  for m in analysis.moves],
        "positions": len(table) + finished_positions(table),
        "seconds": time.perf_counter() - began,
    }
    shutil.rmtree(folder, ignore_errors=True)
    return result


def finished_positions(table) -> int:
    """The finished positions one move from the positions ``table`` holds
    (a table keeps only the positions where the game goes on)."""
    finished: set[State] = set()
    for index in range(len(table)):
        state = table.state_at(index)
        for action in state.legal_actions():
            child = state.child(action)
            if child.is_terminal():
                finished.add(child)
    return len(finished)


def self_play(game: Game, games: int, depth: int, seed: int = 0) -> dict:
    """The estimates of ``games`` games of ``ai:depth=depth`` against itself
    (game ``i`` seeded ``seed + 2i`` and ``seed + 2i + 1``)."""
    return summarize(play_games(game, 0, games, depth, seed), depth)


def play_games(game: Game, first: int, stop: int, depth: int, seed: int = 0) -> list[dict]:
    """Games ``first`` to ``stop - 1`` of a self-play (game ``i`` seeded
    ``seed + 2i`` and ``seed + 2i + 1``, so a chunk of the games plays what
    the whole run plays there): each one's first-player return, length,
    whether the action limit ended it, decisiveness and lead changes, as
    plain values a store can keep."""
    from ..agents import make_agent
    from ..search.alphabeta import AlphaBeta

    evaluator = AlphaBeta(game, table_bits=12)  # cleared before each evaluation: a chunk's games see what a whole run's do
    records = []
    for index in range(first, stop):
        agents = [make_agent(f"ai:depth={depth},solved=0", seed=seed + 2 * index + side) for side in (0, 1)]
        record = _play(game, agents, evaluator)
        records.append({"first_return": float(record["returns"][0]), "plies": record["plies"],
                        "capped": bool(record["capped"]), "decisiveness": record["decisiveness"],
                        "lead_changes": record["lead_changes"]})
    return records


def summarize(records: list[dict], depth: int) -> dict:
    """The estimates of the games ``records`` holds (see :func:`play_games`), in their order."""
    games = len(records)
    scores = [(record["first_return"] + 1) / 2 for record in records]
    lengths = [record["plies"] for record in records]
    low, high = wilson_interval(sum(scores), games)
    quartiles = statistics.quantiles(lengths, n=4, method="inclusive") if games > 1 else [lengths[0]] * 3
    return {
        "games": games,
        "depth": depth,
        "score": sum(scores) / games,
        "score_low": low,
        "score_high": high,
        "draw_rate": sum(record["first_return"] == 0 for record in records) / games,
        "length_median": statistics.median(lengths),
        "length_iqr": quartiles[2] - quartiles[0],
        "capped": sum(record["capped"] for record in records),
        "decisiveness": sum(record["decisiveness"] for record in records) / games,
        "lead_changes": sum(record["lead_changes"] for record in records) / games,
    }


def _play(game: Game, agents: list, evaluator) -> dict:
    """One game between ``agents`` (first player first), with each position's
    evaluation for both players before each move."""
    state = game.new_initial_state()
    for player, agent in enumerate(agents):
        agent.new_game(game, player)
    evaluations = []  # per move: (first player's, second player's) evaluation of the position before it
    while not state.is_terminal():
        evaluator.clear()
        score = evaluator.search(state, depth=1).score
        mover = state.current_player()
        evaluations.append((score, -score) if mover == 0 else (-score, score))
        action = agents[mover].choose_action(state)
        for agent in agents:
            agent.observe(state, action)
        state.apply_action(action)
    returns = state.returns()
    winner = None if returns[0] == returns[1] else (0 if returns[0] > returns[1] else 1)
    return {"returns": returns, "plies": len(evaluations), "capped": state.outcome().reason == Reason.TURN_LIMIT,
            "decisiveness": decisiveness(evaluations, winner), "lead_changes": lead_changes(evaluations)}


def lead_changes(evaluations: list[tuple[int, int]]) -> float:
    """Ludii's lead changes of one game: how often the leaders (the players
    with the highest evaluation) differ from those before the previous move,
    the first move counted, per move."""
    if not evaluations:
        return 0.0
    changes, before = 0, frozenset()
    for pair in evaluations:
        leaders = frozenset(player for player in (0, 1) if pair[player] == max(pair))
        changes += leaders != before
        before = leaders
    return changes / len(evaluations)


def decisiveness(evaluations: list[tuple[int, int]], winner: int | None) -> float:
    """Ludii's decisiveness of one game: the share of its moves played before
    the winner's evaluation first exceeds the highest the loser ever had
    (1 if it never does, or if nobody won)."""
    if winner is None or not evaluations:
        return 1.0
    threshold = max(pair[1 - winner] for pair in evaluations)
    for index, pair in enumerate(evaluations):
        if pair[winner] > threshold:
            return index / len(evaluations)
    return 1.0


def wilson_interval(total: float, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a mean score ``total / n`` in [0, 1]."""
    p = total / n
    denominator = 1 + Z95 ** 2 / n
    centre = (p + Z95 ** 2 / (2 * n)) / denominator
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 ** 2 / (4 * n * n)) / denominator
    # at 0 and 1 the interval's end is the mean itself, exactly (rounding would leave it a hair off)
    low = 0.0 if p <= 0.0 else max(0.0, centre - half)
    high = 1.0 if p >= 1.0 else min(1.0, centre + half)
    return low, high


def agreement(exact: dict | None, estimate: dict | None) -> str | None:
    """``"agrees"`` when the first player's exact score lies in the
    estimate's interval, ``"disagrees"`` when not, ``None`` without both."""
    if exact is None or estimate is None:
        return None
    score = EXACT_SCORE[exact["value"]]
    return "agrees" if estimate["score_low"] <= score <= estimate["score_high"] else "disagrees"


def measure(game_string: str, budget: int, games: int, depth: int, folder: str) -> dict:
    """Everything the lab records of the variant ``game_string``, in one go:
    its exact values (or ``None``), its estimates and their agreement. A
    sweep measures the same in parts (:func:`solve_part`, :func:`play_part`)
    and joins them with :func:`variant_result`."""
    exact = solve_part(game_string, budget, folder)
    return variant_result(game_string, exact, play_part(game_string, depth, 0, games) if games else None, depth)


def solve_part(game_string: str, budget: int, folder: str) -> dict | None:
    """The exact part of the variant ``game_string`` (see :func:`solve_exactly`).
    A process pool's or Ray's task: it takes and returns plain values."""
    from ..registry import load_game

    return solve_exactly(load_game(game_string), budget, Path(folder))


def play_part(game_string: str, depth: int, first: int, stop: int) -> list[dict]:
    """Self-play games ``first`` to ``stop - 1`` of the variant ``game_string``
    (see :func:`play_games`). A process pool's or Ray's task."""
    from ..registry import load_game

    return play_games(load_game(game_string), first, stop, depth)


def variant_result(game_string: str, exact: dict | None, records: list[dict] | None, depth: int) -> dict:
    """A variant's row from its parts: the exact values (or ``None``) and the
    records of its self-play games in game order (``None``: no self-play)."""
    estimate = summarize(records, depth) if records else None
    return {"variant": game_string, "exact": exact, "estimate": estimate, "agreement": agreement(exact, estimate)}
