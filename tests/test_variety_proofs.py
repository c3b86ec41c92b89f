"""The search agents' variety (a random choice among the moves scored near
the best) never takes a move that a proof by search shows worse than the
best, where the proof fits the agent's budget for it: on a board the
solver's table settles, every choice is checked against the table's values."""

from __future__ import annotations

import random

import pytest

from boomboard.agents import make_agent
from boomboard.agents.search_agents import AI_MARGIN, PROOF_MIN_NODES
from boomboard.registry import load_game
from boomboard.search.alphabeta import AlphaBeta
from boomboard.search.prover import NotProvedError, Prover
from boomboard.solver import analyze, solve

# Kaboom 3x4, lines of 3: a depth-2 search scores worse moves within the margin of the best in about a quarter of
# its positions, and the whole game is a table of 0.1 s
GAME = "kaboom(rows=3,cols=4,connect=3)"
RANK = {"lose": 0, "tie": 1, "draw": 1, "win": 2}
SEEDS = range(12)


@pytest.fixture(scope="module")
def solved(tmp_path_factory):
    game = load_game(GAME)
    db = tmp_path_factory.mktemp("variety")
    solve(game, db, progress=False)
    return game, db


def best_and_worse(state, db) -> tuple[set[int], set[int]]:
    """The moves the table shows keep the position's value, and those it shows worse."""
    moves = analyze(state, db).moves
    best = max(RANK[move.value] for move in moves)
    return ({move.action for move in moves if RANK[move.value] == best},
            {move.action for move in moves if RANK[move.value] < best})


def proved_within_the_agents_budget(game, state) -> bool:
    """Whether a proof of ``state`` fits the least budget an agent gives one (a depth-2 search's share is less)."""
    try:
        Prover(game, table_bits=16).prove(state, nodes=PROOF_MIN_NODES, best_moves=True)
    except NotProvedError:
        return False
    return True


def random_positions(game, rng, most_plies: int):
    """Unfinished positions after fewer than ``most_plies`` random plies from the start, one after another, forever."""
    while True:
        state = game.new_initial_state()
        for _ in range(rng.randrange(most_plies)):
            if not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            yield state


def positions_with_worse_near_best(game, db, count: int) -> list:
    """Positions (random play from the start, seeded) where a depth-2 search's near-best moves include a best one and
    a worse one, so that a choice at random among them could lose value, and a proof fits the agent's budget."""
    searcher, found = AlphaBeta(game, table_bits=14), []
    for state in random_positions(game, random.Random(7), most_plies=8):
        if len(found) == count:
            break
        searcher.clear()
        near_best = set(searcher.search(state, depth=2, margin=AI_MARGIN).near_best)
        best, worse = best_and_worse(state, db)
        if near_best & best and near_best & worse and proved_within_the_agents_budget(game, state):
            found.append(state)
    return found


@pytest.mark.parametrize("spec", ["ai:depth=2,solved=0",  # Kaboom's ai: the trap scan chooses
                                  f"alphabeta:depth=2,margin={AI_MARGIN},proofs=1"])  # a plain random choice
def test_variety_never_chooses_a_move_the_table_shows_worse(solved, spec):
    game, db = solved
    for state in positions_with_worse_near_best(game, db, 4):
        best, worse = best_and_worse(state, db)
        assert worse, "the position must offer a worse move, or the test shows nothing"
        chosen = set()
        for seed in SEEDS:
            agent = make_agent(spec, seed=seed)
            agent.new_game(game, state.current_player())
            chosen.add(agent.choose_action(state))
        assert chosen <= best, f"{state.to_notation()}: chose {sorted(chosen - best)}, which the table shows worse"


def positions_a_depth_one_search_gets_wrong(game, db, count: int) -> list:
    """Positions (random play, seeded) where a depth-1 search's move is one the table shows worse, and a proof fits
    the agent's least budget for it."""
    searcher, found = AlphaBeta(game, table_bits=14), []
    for state in random_positions(game, random.Random(11), most_plies=10):
        if len(found) == count:
            break
        searcher.clear()
        best, _ = best_and_worse(state, db)
        if searcher.search(state, depth=1).action not in best and proved_within_the_agents_budget(game, state):
            found.append(state)
    return found


def test_once_a_game_is_proved_each_move_is_proved_even_where_the_search_sees_one_best(solved):
    """After its first proof in a game the agent proves every position, not
    only where its search leaves a choice, so a move the search alone would
    play and the table shows worse is never played."""
    game, db = solved
    spec = f"alphabeta:depth=1,margin={AI_MARGIN},proofs=1"
    for state in positions_a_depth_one_search_gets_wrong(game, db, 4):
        best, _ = best_and_worse(state, db)
        agent = make_agent(spec, seed=0)
        agent.new_game(game, state.current_player())
        assert not agent.proving
        agent.proving = True  # as after a proof earlier in the game
        assert agent.choose_action(state) in best, state.to_notation()
        agent.new_game(game, state.current_player())
        assert not agent.proving  # a new game starts unproved


def test_a_finished_proof_puts_the_agent_into_proving(solved):
    game, db = solved
    state = positions_with_worse_near_best(game, db, 1)[0]
    agent = make_agent(f"alphabeta:depth=2,margin={AI_MARGIN},proofs=1", seed=0)
    agent.new_game(game, state.current_player())
    agent.choose_action(state)
    assert agent.proving
