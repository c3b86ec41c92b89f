"""benchmarks/openspiel_mcts.py plays whole games between ``ai`` and
OpenSpiel's MCTSBot through the adapter, with a clock on MCTSBot."""

from __future__ import annotations


import pytest
from benchmark_scripts import load_benchmark

pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install 'boomboard[openspiel]'")



@pytest.fixture(scope="module")
def bench():
    return load_benchmark("openspiel_mcts", "openspiel_mcts_bench")


@pytest.mark.parametrize("game_name", ["jump61", "kaboom", "explocus", "hexplocus"])
def test_a_short_game_is_recorded_with_both_sides_moving(bench, game_name):
    index = 1  # ai second, so MCTS makes the first move after the opening
    record = bench.play_game(game_name, index, 0.002, opening=2)
    assert record["game"] == game_name and record["ai_player"] == 1
    assert record["winner"] in (0, 1, None)
    assert record["ai_points"] == (0.5 if record["winner"] is None else float(record["winner"] == 1))
    assert len(record["opening_actions"]) == 2
    assert record["plies"] == 2 + record["ai_moves"] + record["mcts_moves"] == 2 + len(record["actions"])
    # MCTS made its moves through the adapter, each after at least two
    # simulations (the root evaluated, then expanded), the clock stopping it
    # long before its unreachable max_simulations.
    assert record["mcts_moves"] >= 1
    assert len(record["mcts_simulations"]) == record["mcts_moves"]
    assert all(2 <= n < 100_000 for n in record["mcts_simulations"])
    returns = record["returns"]
    assert returns == ([0.0, 0.0] if record["winner"] is None else
                       [1.0, -1.0] if record["winner"] == 0 else [-1.0, 1.0])


def test_the_timed_bot_stops_at_its_cpu_budget(bench):
    import pyspiel
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("boomboard_jump61")
    state = game.new_initial_state()
    few = bench.TimedMCTSBot(game, 0.005, mcts.RandomRolloutEvaluator(1))
    more = bench.TimedMCTSBot(game, 0.1, mcts.RandomRolloutEvaluator(1))
    assert few.step(state) in state.legal_actions()
    assert more.step(state) in state.legal_actions()
    assert 2 <= few.simulations[0] < more.simulations[0]
