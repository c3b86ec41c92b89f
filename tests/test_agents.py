"""Agents from spec strings: settings, errors, budgets and the terminal's view of them."""

from __future__ import annotations

import time

import pytest

import boomboard
from boomboard.agents import AiAgent, AlphaBetaAgent, MctsAgent, make_agent
from boomboard.core import ParameterError


def test_specs_build_agents_with_typed_settings():
    agent = make_agent("alphabeta:depth=6,table_bits=12", seed=3)
    assert isinstance(agent, AlphaBetaAgent) and agent.depth == 6 and agent.seed == 3
    agent = make_agent("mcts:simulations=5000,exploration=1.4")
    assert isinstance(agent, MctsAgent) and agent.simulations == 5000 and agent.exploration == 1.4
    assert make_agent("alphabeta:time=0.25").move_time == 0.25


@pytest.mark.parametrize("spec, message", [
    ("alphabeta:depth=six", "expected an integer"),
    ("mcts:time=fast", "expected a number"),
    ("alphabeta:simulations=10", "no setting 'simulations'"),
    ("greedy:depth=2", "no setting 'depth'"),
    ("alphabeta:depth=0", "must be positive"),
    ("alphabeta:depth", "expected key=value"),
    ("deepblue", "unknown agent"),
])
def test_bad_specs_say_what_was_expected(spec, message):
    with pytest.raises(ParameterError, match=message):
        make_agent(spec)


@pytest.mark.parametrize("game_name", ["kaboom", "jump61", "expendibots", "explocus", "hexplocus", "chain_reaction"])
def test_ai_picks_its_game_setting_and_plays_legal_moves(game_name, tmp_path, monkeypatch):
    monkeypatch.setenv("BOOMBOARD_DB", str(tmp_path))  # no solved board to play from: it searches
    game = boomboard.load_game(game_name)
    agent = make_agent("ai:time=0.05", seed=1)
    assert isinstance(agent, AiAgent)
    agent.new_game(game, 0)
    state = game.new_initial_state()
    assert agent.choose_action(state.clone()) in state.legal_actions()
    assert "depth" in agent.last_thinking or "simulations" in agent.last_thinking


def test_a_game_budget_is_shared_out_and_kept():
    game = boomboard.load_game("jump61(size=5)")
    agents = [make_agent("alphabeta:game_time=1.0", seed=1), make_agent("mcts:game_time=1.0", seed=2)]
    spent = [0.0, 0.0]
    for player, agent in enumerate(agents):
        agent.new_game(game, player)
    state = game.new_initial_state()
    while not state.is_terminal():
        player = state.current_player()
        began = time.process_time()
        action = agents[player].choose_action(state.clone())
        spent[player] += time.process_time() - began
        state.apply_action(action)
    assert max(spent) <= 1.05, spent


@pytest.mark.parametrize("spec", ["alphabeta:time=0.2", "alphabeta:time=0.2,quiescence=4", "mcts:time=0.2"])
def test_a_move_budget_covers_the_whole_choice_within_five_percent(spec):
    game = boomboard.load_game("expendibots")
    agent = make_agent(spec, seed=5)
    agent.new_game(game, 0)
    state = game.new_initial_state()
    for _ in range(4):
        began = time.process_time()
        action = agent.choose_action(state.clone())
        assert time.process_time() - began <= 0.21
        state.apply_action(action)
        state.apply_action(max(state.legal_actions()))  # the opponent moves (a move, not a boom)


def test_quiescence_is_a_setting_that_may_be_off_but_not_negative():
    assert make_agent("alphabeta:quiescence=0").quiescence == 0
    assert make_agent("alphabeta:quiescence=6").quiescence == 6
    with pytest.raises(ParameterError, match="must be 0 or more"):
        make_agent("alphabeta:quiescence=-1")


def test_agents_play_on_to_a_repetition_tie_and_show_only_the_line_that_can_be_played(monkeypatch):
    # Equal searchers at the Expendibots start shuffle into a 4th repetition (without the keep count, whose
    # contempt for trading down makes them wander to the turn limit instead);
    # the expected line read from the table must stop where the game would.
    from boomboard.games.expendibots import evaluation

    game = boomboard.load_game("expendibots")
    params = game.params_array.copy()
    params[evaluation.P_WEIGHTS + evaluation.KEEP] = 0
    monkeypatch.setattr(game, "params_array", params)
    agents = [make_agent("alphabeta:depth=4", seed=1), make_agent("alphabeta:depth=4", seed=2)]
    for player, agent in enumerate(agents):
        agent.new_game(game, player)
    state = game.new_initial_state()
    while not state.is_terminal() and state.ply() < 200:
        state.apply_action(agents[state.current_player()].choose_action(state.clone()))
        assert "pv" in agents[1 - state.current_player() if not state.is_terminal() else 0].last_thinking
    assert state.outcome().reason.name == "REPETITION"


@pytest.mark.parametrize("game_name, quiescence, contempt", [
    ("explocus", 4, 0), ("hexplocus", 4, 0), ("kaboom", 0, 0), ("jump61", 0, 0), ("expendibots", 0, 50)])
def test_ai_uses_the_search_settings_measured_to_pay_off_in_its_game(game_name, quiescence, contempt):
    agent = make_agent("ai:time=0.05", seed=1)
    agent.new_game(boomboard.load_game(game_name), 0)
    assert (agent.delegate.quiescence, agent.delegate.contempt) == (quiescence, contempt)


def test_ai_in_a_game_measured_best_with_mcts_keeps_only_the_settings_mcts_takes(monkeypatch):
    game = boomboard.load_game("jump61(size=4)")
    monkeypatch.setattr(type(game), "ai_settings", ("mcts", {"exploration": 2.0, "reductions": 1}))
    agent = make_agent("ai:time=0.05,variety_plies=4,depth=3", seed=1)
    agent.new_game(game, 0)
    assert isinstance(agent.delegate, MctsAgent)
    assert (agent.delegate.exploration, agent.delegate.move_time) == (2.0, 0.05)
    state = game.new_initial_state()
    assert agent.choose_action(state.clone()) in state.legal_actions()
    assert "simulations" in agent.last_thinking


def test_an_unknown_kind_lists_the_known_ones_in_plain_words():
    """A person who typed a wrong agent reads the agents to choose from and where
    each is described, not how the package's layers import each other (the
    reference says when the learned kind is registered)."""
    from boomboard.core.errors import ParameterError

    with pytest.raises(ParameterError) as raised:
        make_agent("no-such-kind")
    message = str(raised.value)
    assert "known agents: human, random, greedy, alphabeta, mcts, ai, solver" in message
    assert message.endswith("(docs/reference/agents.md describes each)") and "layer" not in message
