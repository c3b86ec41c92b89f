"""boomboard's games inside OpenSpiel: registration, OpenSpiel's own API
checks, its MCTS bot, alpha-beta search and bot evaluation."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install 'boomboard[openspiel]'")

import boomboard  # noqa: E402
import boomboard.openspiel as bo  # noqa: E402
from boomboard.observation import observation_layout  # noqa: E402
from open_spiel.python.algorithms import evaluate_bots, mcts, minimax  # noqa: E402
from open_spiel.python.bots.uniform_random import UniformRandomBot  # noqa: E402

# Small variants (short games) of every game, and each Kaboom variant.
SMALL = [
    "kaboom",
    "kaboom(misere=True)",
    "kaboom(superbomb=True,bombs=2)",
    "jump61(size=3)",
    "expendibots",
    "explocus(size=4)",
    "hexplocus(side=3)",
    "chain_reaction(rows=3,cols=3)",
]


def test_every_game_is_registered_with_every_parameter():
    registered = set(pyspiel.registered_names())
    for info in boomboard.registered_games():
        assert bo.spiel_name(info.name) in registered
        game = pyspiel.load_game(bo.spiel_name(info.name))
        assert set(game.get_parameters()) == {p.name for p in info.parameters}
    game = pyspiel.load_game("boomboard_kaboom(rows=4,cols=5,misere=True)")
    assert str(game.boomboard_game) == "kaboom(cols=5,misere=true)"
    assert game.num_distinct_actions() == 2 * 5 + 4 * 5 + 1
    assert game.max_game_length() == game.boomboard_game.max_game_length()
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    with pytest.raises(boomboard.ParameterError, match="rows"):
        pyspiel.load_game("boomboard_kaboom(rows=40)")


@pytest.mark.parametrize("name", SMALL + ["jump61", "explocus", "hexplocus", "chain_reaction"])
def test_openspiel_random_simulation_checks_pass(name):
    # OpenSpiel's own conformance test: random games, cloning, observation and
    # information strings and tensors, and serialize/deserialize round trips.
    game = pyspiel.load_game(bo.spiel_name(name))
    sims = 2 if name in ("explocus", "hexplocus") else 5
    pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)


@pytest.mark.parametrize("name", SMALL)
def test_states_follow_boomboard_exactly(name):
    game = pyspiel.load_game(bo.spiel_name(name))
    layout = observation_layout(game.boomboard_game)
    rng = np.random.default_rng(4)
    state, reference = game.new_initial_state(), game.boomboard_game.new_initial_state()
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal == sorted(legal) == reference.legal_actions()
        assert state.legal_actions_mask() == reference.legal_actions_mask().tolist()
        for player in (0, 1):
            expected = layout.encode(reference, player).ravel()
            assert np.array_equal(np.asarray(state.observation_tensor(player)), expected)
        assert state.observation_string(0) == str(reference)
        action = int(rng.choice(legal))
        assert state.action_to_string(state.current_player(), action) == reference.action_to_string(action)
        state.apply_action(action)
        reference.apply_action(action)
        assert bo.boomboard_state(state) == reference
    assert state.returns() == reference.returns()
    again = game.deserialize_state(state.serialize())
    assert again.history() == state.history() and str(again) == str(state)
    assert str(pickle.loads(pickle.dumps(state))) == str(state)


def mcts_score(name: str, evaluator_for, simulations: int, games: int = 10) -> float:
    """Points (1 win, 0.5 tie) of OpenSpiel's MCTS bot against a random bot,
    seats alternating."""
    game = pyspiel.load_game(bo.spiel_name(name))
    rng = np.random.RandomState(0)
    points = 0.0
    for k in range(games):
        seat = k % 2
        searcher = mcts.MCTSBot(game, 2.0, simulations, evaluator_for(k, rng), random_state=rng)
        opponent = UniformRandomBot(1 - seat, rng)
        bots = [searcher, opponent] if seat == 0 else [opponent, searcher]
        points += (evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)[seat] + 1) / 2
    return points


# MCTS games against a random player: the Explocus boards with three stacks a
# side (setup parameter), so that a won game is also a short one.
MCTS_GAMES = [
    ("kaboom", 100),
    ("kaboom(misere=True)", 100),
    ("kaboom(superbomb=True,bombs=2)", 100),
    ("jump61(size=3)", 60),
    ("expendibots", 60),
    ("explocus(size=4,setup=b1b1b1./..../..../.w1w1w1 w)", 60),
    ("hexplocus(side=3,setup=b1b2b1/..../...../..../w1w2w1 w)", 60),
    ("chain_reaction(rows=3,cols=3)", 60),
]


@pytest.mark.parametrize("name,simulations", MCTS_GAMES)
def test_openspiel_mcts_with_compiled_playouts_beats_random(name, simulations):
    assert mcts_score(name, lambda k, rng: bo.PlayoutEvaluator(1, seed=k), simulations) >= 8


@pytest.mark.parametrize("name", ["kaboom(rows=4,cols=5)", "jump61(size=3)"])
def test_openspiel_mcts_with_its_own_rollouts_beats_random(name):
    assert mcts_score(name, lambda k, rng: mcts.RandomRolloutEvaluator(1, rng), simulations=50) >= 8


def brute_force_value(state) -> int:
    """The game value for the player to move, by plain negamax over boomboard states."""
    if state.is_terminal():
        return int(state.returns()[state.player_to_move()])
    return max(-brute_force_value(state.child(a)) for a in state.legal_actions())


@pytest.mark.parametrize("name", ["kaboom(rows=3,cols=3,connect=3,bombs=0)", "kaboom(rows=2,cols=3,connect=2)",
                                  "jump61(size=2)", "chain_reaction(rows=2,cols=2)"])
def test_openspiel_alpha_beta_solves_small_games_like_brute_force(name):
    game = pyspiel.load_game(bo.spiel_name(name))
    value, action = minimax.alpha_beta_search(game, maximum_depth=100)
    assert value == brute_force_value(game.boomboard_game.new_initial_state())
    assert action in game.new_initial_state().legal_actions()


def test_depth_limited_alpha_beta_uses_boomboard_evaluation():
    game = pyspiel.load_game("boomboard_kaboom")
    state = game.new_initial_state()
    for text in ("A", "D", "A", "D", "A"):  # X threatens A4; O must block
        state.apply_action(bo.boomboard_state(state).string_to_action(text))
    value, action = minimax.alpha_beta_search(game, state=state, value_function=bo.value_function(1),
                                              maximum_depth=2, maximizing_player_id=1)
    assert state.action_to_string(1, action) == "A"
    assert -1.0 < value < 1.0


def test_boomboard_agents_play_as_openspiel_bots():
    game = pyspiel.load_game("boomboard_kaboom")
    rng = np.random.RandomState(1)
    points = 0.0
    for seat in (0, 1, 0, 1):
        ours = bo.BoomboardBot("alphabeta:depth=3", seat, seed=seat)
        bots = [ours, UniformRandomBot(1, rng)] if seat == 0 else [UniformRandomBot(0, rng), ours]
        points += evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)[seat]
    assert points >= 3


def uniform_random_value(state) -> float:
    """Player 0's expected return when both players play uniformly at random, exactly."""
    if state.is_terminal():
        return state.returns()[0]
    legal = state.legal_actions()
    return sum(uniform_random_value(state.child(a)) for a in legal) / len(legal)


def test_playout_evaluator_estimates_the_random_play_value():
    game = pyspiel.load_game("boomboard_kaboom(rows=3,cols=3,connect=3,bombs=0)")
    state = game.new_initial_state()
    for action in (1, 0, 1):  # B, A, B: X threatens B3
        state.apply_action(action)
    exact = uniform_random_value(bo.boomboard_state(state))
    estimate = bo.PlayoutEvaluator(n_rollouts=4000, seed=0).evaluate(state)
    assert abs(estimate[0] - exact) < 0.05 and estimate[1] == -estimate[0]
    assert 0.2 < exact < 0.8  # a position worth estimating: neither side is sure to win
    with pytest.raises(TypeError, match="boomboard"):
        bo.boomboard_state(pyspiel.load_game("tic_tac_toe").new_initial_state())
