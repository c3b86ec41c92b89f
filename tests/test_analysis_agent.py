"""The ``analysis`` agent plays the move the analysis board stars: the best
move of :func:`boomboard.analysis.analyse_state`, whose own ``loss`` is 0,
chosen with its seed among equally good ones; in a solved game that is a
perfect move. Its strength against ``ai`` is measured in
``benchmarks/analysis_vs_ai.py``."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

import boomboard
from boomboard.agents import agent_kinds, make_agent
from boomboard.analysis import analyse_state, best_moves
from boomboard.core.errors import ParameterError
from boomboard.search.calibration import analysis_model


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
    with pytest.raises(ParameterError, match="depth=0.*must be positive"):
        make_agent("analysis:depth=0")
    with pytest.raises(ParameterError, match="no setting 'time'"):
        make_agent("analysis:time=1")


def test_a_smaller_budget_plays_the_star_of_the_analysis_at_that_budget(tmp_path):
    state = seeded_position("jump61(size=5)", seed=4, plies=6)
    model = analysis_model(state.game)
    small = analyse_state(state, tmp_path, replace(model, depth=2, nodes=3_000))
    full = analyse_state(state, tmp_path)
    assert small["depth"] < full["depth"]  # the budget was used, not the game's
    agent = make_agent(f"analysis:db={tmp_path},depth=2,nodes=3000", seed=1)
    agent.new_game(state.game, state.current_player())
    assert agent.choose_action(state) == small["pv"][0]["id"]


def test_in_a_game_with_quiescence_the_star_is_the_sharper_searchs_even_when_shallower(tmp_path):
    """HExplocus's ``ai`` searches pending explosions past its horizon; the
    analysis's first search does not. With a node budget that leaves the
    deeper search shallower than the first, the star is still the quiescent
    search's best move (a depth-4 search blind to explosions lost 7 games of
    7 to ``ai``; benchmarks/results/2026-11-29-analysis-vs-ai.md)."""
    from boomboard.analysis import TABLE_BITS, _sharpening
    from boomboard.search.alphabeta import AlphaBeta

    state = seeded_position("hexplocus", seed=5, plies=12)
    budget = replace(analysis_model(state.game), depth=3, nodes=4_000)
    sharp = AlphaBeta(state.game, table_bits=TABLE_BITS, neutral=True, **_sharpening(state.game))
    assert sharp.quiescence > 0
    result = sharp.search(state, nodes=budget.nodes)
    assert result.depth < budget.depth  # the quiescent search is the shallower one here
    analysis = analyse_state(state, tmp_path, budget)
    assert analysis["pv"][0]["id"] == result.action and analysis["depth"] == result.depth


def test_the_star_is_a_move_that_beat_the_best_in_the_iteration_the_budget_cut_short(tmp_path):
    """The deeper search searches its previous best move first at each
    depth, so a move that scores above it before the node budget runs out is
    better at that depth: ``ai`` plays it, and so does the analysis (starring
    the last finished iteration's move instead, it won 6 HExplocus games of
    24 against ``ai``)."""
    from boomboard.analysis import TABLE_BITS, _sharpening
    from boomboard.search.alphabeta import AlphaBeta

    state = seeded_position("jump61(size=4)", seed=10, plies=12)
    budget = replace(analysis_model(state.game), depth=3, nodes=3_000)
    deep = AlphaBeta(state.game, table_bits=TABLE_BITS, neutral=True, **_sharpening(state.game))
    finished = []
    result = deep.search(state, nodes=budget.nodes, on_iteration=lambda iteration: finished.append(iteration.action))
    assert result.action != finished[-1]  # the iteration the budget cut short found a better move
    assert analyse_state(state, tmp_path, budget)["pv"][0]["id"] == result.action


def test_the_deeper_search_reduces_late_quiet_moves_where_the_games_ai_does(tmp_path):
    """Expendibots' ``ai`` searches late quiet moves shallower first, which
    takes it a ply or two deeper in the same time; the analysis's deeper
    search does too, so in the same nodes it reaches deeper than without."""
    from boomboard.analysis import TABLE_BITS
    from boomboard.search.alphabeta import AlphaBeta

    state = seeded_position("expendibots", seed=0, plies=2)
    assert state.game.ai_settings[1]["reductions"] > 0
    budget = replace(analysis_model(state.game), depth=3, nodes=60_000)
    plain = AlphaBeta(state.game, table_bits=TABLE_BITS, neutral=True).search(state, nodes=budget.nodes)
    assert analyse_state(state, tmp_path, budget)["depth"] > plain.depth


def test_a_warm_agent_keeps_its_tables_between_moves_and_a_cold_one_does_not(tmp_path):
    state = seeded_position("jump61(size=4)", seed=2, plies=2)
    warm, cold = make_agent(f"analysis:db={tmp_path},warm=1"), make_agent(f"analysis:db={tmp_path}")
    for agent in (warm, cold):
        agent.new_game(state.game, state.current_player())
        agent.choose_action(state)
    tables = warm.tables
    assert tables is not None and tables.deep.tt_keys.any() and cold.tables is None
    state.apply_action(warm.choose_action(state))
    warm.choose_action(state)
    assert warm.tables is tables
