"""The ``analysis`` agent plays the move the analysis board stars: the best
move of :func:`boomboard.analysis.analyse_state`, whose own ``loss`` is 0,
chosen with its seed among equally good ones; in a solved game that is a
perfect move. Its strength against ``ai`` is measured in
``benchmarks/analysis_vs_ai.py``."""

from __future__ import annotations

import random

import pytest

import boomboard
from boomboard.agents import agent_kinds, make_agent
from boomboard.analysis import analyse_state, best_moves
from boomboard.core.errors import ParameterError


def seeded_position(game: str, seed: int, plies: int):
    rng = random.Random(seed)
    state = boomboard.load_game(game).new_initial_state()
    for _ in range(plies):
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("game", ["jump61(size=4)", "kaboom(rows=5,cols=5)"])
def test_the_agent_plays_a_move_the_analysis_ranks_best(game, tmp_path):
    state = seeded_position(game, seed=3, plies=4)
    result = analyse_state(state, tmp_path)
    agent = make_agent(f"analysis:db={tmp_path}", seed=1)
    agent.new_game(state.game, state.current_player())
    action = agent.choose_action(state)
    assert action in best_moves(state, result)
    move = next(m for m in result["moves"] if m["id"] == action)
    assert move["loss"] == 0.0 and move["mark"] == "" and move["eval"] == result["eval"]
    assert move["eval"]["text"] in agent.last_thinking
    if result["source"] == "search":  # the star leads the expected line, and no move is listed above it
        assert result["pv"][0]["id"] == action
        sign = 1 if state.current_player() == 0 else -1
        assert all(sign * m["eval"]["value"] <= sign * move["eval"]["value"] for m in result["moves"])


def test_best_moves_from_a_table_are_every_equally_quickest_win_and_no_other():
    state = seeded_position("kaboom(rows=4,cols=4,connect=3,bombs=0)", seed=2, plies=2)
    result = {"source": "solver", "moves": [{"id": a, "value": v, "remoteness": r, "score": None}
                        for a, v, r in ((0, "win", 5), (1, "win", 3), (2, "tie", 2), (3, "win", 3), (4, "lose", 9))]}
    assert best_moves(state, result) == [1, 3]


def test_the_analysis_agent_is_a_spec_kind_with_a_table_folder(tmp_path):
    assert "analysis" in agent_kinds()
    assert make_agent(f"analysis:db={tmp_path}").db == str(tmp_path)
    with pytest.raises(ParameterError, match="unknown setting|known settings|depth"):
        make_agent("analysis:depth=3")
