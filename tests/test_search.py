"""The searches see tactics, checked against a plain minimax over the Python
``State`` (tests/reference_search.py style: no pruning, no tables)."""

from __future__ import annotations

import ast
import itertools
import random
import time
from pathlib import Path

import pytest
from no_jit import run_json_script
from reference.negamax import ReferenceNegamax

import boomboard
from boomboard.agents import make_agent
from boomboard.search import alphabeta
from boomboard.search.alphabeta import MATE_BOUND, AlphaBeta
from boomboard.search.mcts import Mcts

# Small boards keep the reference minimax quick; every game and variant is here.
GAMES = ["kaboom", "kaboom(misere=true)", "kaboom(superbomb=true,rows=5,cols=5)", "jump61(size=3)",
         "jump61(size=4)", "expendibots", "explocus(size=5)", "hexplocus(side=3)",
         "chain_reaction(rows=3,cols=3)"]
# In Misère Kaboom a win in one (making the opponent connect) is too rare to sample.
SAMPLED = [name for name in GAMES if "misere" not in name]


def forced_result(state, plies: int):
    """Plain minimax: plies to a forced win (> 0) or loss (< 0) for the player to
    move within ``plies``, the fastest win and slowest loss; None if neither."""
    if plies == 0:
        return None
    best_win, slowest_loss, all_lose = None, 0, True
    for action in state.legal_actions():
        child = state.child(action)
        if child.is_terminal():
            mover_value = child.returns()[state.current_player()]
            if mover_value > 0:
                return 1
            if mover_value == 0:
                all_lose = False
            else:
                slowest_loss = max(slowest_loss, 1)
            continue
        result = forced_result(child, plies - 1)
        if result is None or result == 0:
            all_lose = False
        elif result < 0:  # the opponent loses: we win
            win = -result + 1
            best_win = win if best_win is None else min(best_win, win)
        else:
            slowest_loss = max(slowest_loss, result + 1)
    if best_win is not None:
        return best_win
    return -slowest_loss if all_lose else None


def random_positions(game, count, seed, max_actions=400):
    """Up to ``count`` ongoing positions of seeded random games, made as they
    are asked for: a test that stops early plays no more games than it looks at."""
    rng = random.Random(seed)
    for _ in range(count):
        state = game.new_initial_state()
        while True:
            target = rng.randrange(max_actions)
            while not state.is_terminal() and state.ply() < target:
                state.apply_action(rng.choice(state.legal_actions()))
            if not state.is_terminal():
                break
            state = game.new_initial_state()
        yield state


def winning_actions(state):
    mover = state.current_player()
    return [a for a in state.legal_actions() if is_won_by(state.child(a), mover)]


def is_won_by(state, player) -> bool:
    return state.is_terminal() and state.returns()[player] > 0


def losing_in_one(state, action):
    """Whether after ``action`` the opponent has an immediate win."""
    child = state.child(action)
    return not child.is_terminal() and bool(winning_actions(child))


@pytest.mark.parametrize("quiescence", [0, 4])
@pytest.mark.parametrize("game_name", GAMES)
def test_alphabeta_forced_results_match_plain_minimax(game_name, quiescence):
    game = boomboard.load_game(game_name)
    searcher = AlphaBeta(game, table_bits=16, quiescence=quiescence)
    plies = 3 if game.name in ("kaboom", "jump61") else 2
    checked = decided = 0
    for state in random_positions(game, 40, seed=len(game_name)):
        expected = forced_result(state, plies)
        result = searcher.search(state, depth=plies)
        checked += 1
        if expected is None:
            assert result.forced_result is None or abs(result.forced_result) > plies, state.to_notation()
            continue
        decided += 1
        assert result.forced_result == expected, (state.to_notation(), expected, result)
        if expected > 0:  # the move chosen wins as fast
            assert forced_result(state.child(result.action), plies - 1) == -(expected - 1) or expected == 1
    assert checked == 40


@pytest.mark.parametrize("game_name", SAMPLED)
@pytest.mark.parametrize("spec", ["alphabeta:depth=2", "greedy", "mcts:simulations=3000"])
def test_agents_take_every_win_in_one(game_name, spec):
    game = boomboard.load_game(game_name)
    positions = list(itertools.islice((s for s in random_positions(game, 300, seed=7) if winning_actions(s)), 8))
    assert positions, "no win-in-one found among the sample positions"
    agent = make_agent(spec, seed=1)
    for state in positions:
        agent.new_game(game, state.current_player())
        assert agent.choose_action(state.clone()) in winning_actions(state), state.to_notation()


@pytest.mark.parametrize("game_name", SAMPLED)
def test_alphabeta_avoids_every_avoidable_loss_in_one(game_name):
    game = boomboard.load_game(game_name)
    agent = make_agent("alphabeta:depth=3", seed=1)
    tested = 0
    for state in random_positions(game, 300, seed=11):
        if winning_actions(state):
            continue
        safe = [a for a in state.legal_actions() if not losing_in_one(state, a)]
        if not safe or len(safe) == len(state.legal_actions()):
            continue
        agent.new_game(game, state.current_player())
        assert not losing_in_one(state, agent.choose_action(state.clone())), state.to_notation()
        tested += 1
        if tested == 8:
            break
    assert tested > 0, "no avoidable loss-in-one found among the sample positions"


def test_alphabeta_plays_the_fastest_win_and_the_slowest_loss():
    game = boomboard.load_game("kaboom")
    # The rulebook's position 14: the detonation at C2 wins at once.
    state = game.state_from_notation("(x 0 0 xoxx o@*o -ooo -xxx)")
    result = AlphaBeta(game).search(state, depth=6)
    assert state.action_to_string(result.action) == "C2!"
    assert result.forced_result == 1 and result.score > MATE_BOUND


def test_time_budget_is_kept_within_five_percent():
    game = boomboard.load_game("expendibots")
    searcher = AlphaBeta(game)
    searcher.search(game.new_initial_state(), depth=2)  # compile / load before timing
    for state in random_positions(game, 3, seed=3, max_actions=20):
        began = time.process_time()
        result = searcher.search(state, seconds=0.5)
        spent = time.process_time() - began
        assert spent <= 0.525, spent
        assert result.depth >= 2


def test_mcts_keeps_its_time_budget_and_counts_simulations():
    game = boomboard.load_game("jump61")
    searcher = Mcts(game)
    searcher.search(game.new_initial_state(), simulations=10)
    began = time.process_time()
    result = searcher.search(game.new_initial_state(), seconds=0.3)
    assert time.process_time() - began <= 0.315
    assert result.simulations > 100
    exact = searcher.search(game.new_initial_state(), simulations=500)
    assert exact.simulations == 500


def test_seeded_agents_replay_the_same_game():
    game = boomboard.load_game("jump61(size=4)")

    def play(seed):
        agents = [make_agent("mcts:simulations=200", seed=seed), make_agent("greedy", seed=seed + 1)]
        state = game.new_initial_state()
        for player, agent in enumerate(agents):
            agent.new_game(game, player)
        while not state.is_terminal():
            state.apply_action(agents[state.current_player()].choose_action(state.clone()))
        return state.history()

    assert play(4) == play(4)


def test_contempt_makes_the_side_to_move_avoid_a_repetition():
    game = boomboard.load_game("expendibots")
    state = game.new_initial_state()
    for text in ["MOVE 1 from (0, 1) to (0, 2).", "MOVE 1 from (0, 6) to (0, 5).", "MOVE 1 from (0, 2) to (0, 1)."]:
        state.play(text)
    back = state.string_to_action("MOVE 1 from (0, 5) to (0, 6).")  # Black repeats the start
    # Without contempt a repetition is worth 0, as good as anything level; with
    # contempt it costs the side to move, which then plays anything else.
    keen = AlphaBeta(game, table_bits=16, contempt=100_000).search(state, depth=1)
    assert keen.action != back and keen.score > -100_000
    # The other way round (a side that wants the tie) it repeats, scoring it.
    content = AlphaBeta(game, table_bits=16, contempt=-100_000).search(state, depth=1)
    assert content.action == back and content.score == 100_000


@pytest.mark.parametrize("game_name", GAMES)
def test_alphabeta_scores_match_a_reference_negamax(game_name):
    """The compiled search's root score at depths 1 to 3 (2 in Expendibots,
    whose branching is widest) is the exact negamax value of a plain alpha-beta
    search over ``State`` (tests/reference/negamax.py), and its move is one
    of the moves that score it (a forced result found sooner ends the
    deepening early: deeper iterations could not change it)."""
    game = boomboard.load_game(game_name)
    reference = ReferenceNegamax(game)
    deepest = 2 if game.name == "expendibots" else 3
    positions = [game.new_initial_state(), *random_positions(game, 4, seed=len(game_name), max_actions=60)]
    for state in positions:
        for depth in range(1, deepest + 1):
            result = AlphaBeta(game, table_bits=12).search(state, depth=depth)
            scores = reference.root_scores(state, depth)
            best = max(scores.values())
            assert result.score == best, (state.to_notation(), depth)
            assert scores[result.action] == best, (state.to_notation(), depth)


SEARCH_PACKAGE = Path(alphabeta.__file__).parent
LONGEST_FUNCTION, MOST_POSITIONAL_PARAMETERS = 80, 10


def test_search_functions_are_short_and_take_few_positional_parameters():
    """No function in boomboard/search/ over 80 lines or 10 positional parameters."""
    too_big = set()
    for path in sorted(SEARCH_PACKAGE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = node.end_lineno - node.lineno + 1
                positional = len(node.args.posonlyargs) + len(node.args.args)
                if lines > LONGEST_FUNCTION or positional > MOST_POSITIONAL_PARAMETERS:
                    too_big.add(f"{path.name} {node.name}")
    assert too_big == set()


NO_JIT_SEARCH_SCRIPT = """
import json, random, boomboard
from boomboard.search.alphabeta import AlphaBeta
from boomboard.search.mcts import Mcts
out = {}
for name in ("kaboom", "jump61(size=3)", "expendibots", "explocus(size=5)", "hexplocus(side=3)",
             "chain_reaction(rows=3,cols=3)"):
    game = boomboard.load_game(name)
    state, rng = game.new_initial_state(), random.Random(3)
    for _ in range(6):
        state.apply_action(rng.choice(state.legal_actions()))
    found = {}
    depth = 2 if game.name == "expendibots" else 3  # its depth 3 was 7 of the plain run's 10 CPU s
    for label, options in {"plain": {}, "pruning": {"quiescence": 2, "reductions": 1, "null_move": 1}}.items():
        result = AlphaBeta(game, table_bits=10, **options).search(state, depth=depth, margin=30)
        found[label] = [result.action, result.score, result.nodes, result.principal_variation, result.near_best]
    mcts = Mcts(game, capacity=1 << 12).search(state, simulations=100, seed=1)
    found["mcts"] = [mcts.action, mcts.value, mcts.simulations, mcts.nodes]
    out[name] = found
print(json.dumps(out))
"""


def test_searches_run_as_plain_python_with_the_same_results():
    """With numba's compiler switched off (NUMBA_DISABLE_JIT=1) the search
    templates run as the Python they are written in, and search the same trees."""
    plain, compiled = run_json_script(NO_JIT_SEARCH_SCRIPT, "1"), run_json_script(NO_JIT_SEARCH_SCRIPT, "0")
    assert plain == compiled
    assert all(found["pruning"][2] > 10 for found in plain.values())
