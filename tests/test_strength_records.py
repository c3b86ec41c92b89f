"""The recorded strength games (benchmarks/results/strength.jsonl, shown in
docs/results/strength.md) meet the bar: in every game, at least 100 games per
pairing, colours alternated, and ``ai`` scores at least 99% against random
and 90% against greedy."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest

import boomboard

RECORDS = Path(__file__).parent.parent / "benchmarks" / "results" / "strength.jsonl"


def scores() -> dict[tuple[str, str, str], list[float]]:
    """(game, agent, opponent) -> the agent's points in each game."""
    found: dict[tuple[str, str, str], list[float]] = defaultdict(list)
    for line in RECORDS.read_text().splitlines():
        record = json.loads(line)
        first = 0.5 if record["winner"] is None else float(record["winner"] == 0)
        found[record["game"], record["first"], record["second"]].append(first)
        found[record["game"], record["second"], record["first"]].append(1.0 - first)
    return found


@pytest.mark.parametrize("game_name", boomboard.game_names())
@pytest.mark.parametrize("opponent, bar", [("random", 0.99), ("greedy", 0.90)])
def test_ai_clears_the_bar_over_at_least_100_games_with_colours_alternated(game_name, opponent, bar):
    points = scores()[game_name, "ai", opponent]
    assert len(points) >= 100
    assert sum(points) / len(points) >= bar
    records = [json.loads(line) for line in RECORDS.read_text().splitlines()]
    firsts = [r["first"] for r in records if r["game"] == game_name and {r["first"], r["second"]} == {"ai", opponent}]
    assert firsts.count("ai") == firsts.count(opponent)
