"""The trap tie-break (boomboard.search.traps), checked against solved tables:
it counts the opponent's losing replies as the solver does, plays the
tying move that sets the most traps, and never plays a move that gives a
value away."""

from __future__ import annotations

import random

import pytest

import boomboard
from boomboard import solver
from boomboard.agents import make_agent
from boomboard.core.errors import ParameterError
from boomboard.search.alphabeta import AlphaBeta
from boomboard.search.traps import SHALLOW, count_traps

GAME = "kaboom(rows=4,cols=4,bombs=0)"  # 4x4 connect four: a tie, solved in a second or two
# Tied positions with exactly two tying moves: after the first (the trap) 2
# or 3 of the opponent's replies lose, each only after more than SHALLOW
# plies; after the second none does, or (the third) 3 lose at once, which
# an opponent sees through: no trap.
TRAPS = [
    ("(x 0 0 xo-x o--o ---x ----)", "B", "C", (3, 0), (0, 0)),
    ("(x 0 0 x-ox o--o ---x ----)", "C", "B", (3, 0), (0, 0)),
    ("(o 0 0 -xxo -oxo -x-- ----)", "C", "D", (2, 0), (0, 3)),
]
SEEDS = range(8)
_FOR_THE_MOVER = {"win": "lose", "lose": "win", "tie": "tie"}


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    return solver.solve(boomboard.load_game(GAME), db=tmp_path_factory.mktemp("solved"), progress=False)


def value_after(table, state, action) -> str:
    """The solved value of ``action`` for the player who plays it."""
    return _FOR_THE_MOVER[table.lookup(state.child(action)).value]


def losing_replies(table, state) -> tuple[int, int]:
    """How many of the replies in ``state`` lose, after more than SHALLOW plies, then within them."""
    if state.is_terminal():
        return 0, 0
    after = [table.lookup(state.child(a)) for a in state.legal_actions()]
    return (sum(e.value == "win" and e.remoteness > SHALLOW for e in after),
            sum(e.value == "win" and e.remoteness <= SHALLOW for e in after))


def choices(spec: str, state) -> set[str]:
    picked = set()
    for seed in SEEDS:
        agent = make_agent(spec, seed=seed)
        agent.new_game(state.game, state.current_player())
        picked.add(state.action_to_string(agent.choose_action(state.clone())))
    return picked


@pytest.mark.parametrize("position, trap, other, trap_losing, other_losing", TRAPS)
def test_the_positions_are_what_they_claim(table, position, trap, other, trap_losing, other_losing):
    state = table.game.state_from_notation(position)
    assert table.lookup(state).value == "tie"
    tying = [state.action_to_string(a) for a in state.legal_actions() if value_after(table, state, a) == "tie"]
    assert sorted(tying) == sorted([trap, other])
    assert losing_replies(table, state.child(state.string_to_action(trap))) == trap_losing
    assert losing_replies(table, state.child(state.string_to_action(other))) == other_losing


@pytest.mark.parametrize("position, trap, other, trap_losing, other_losing", TRAPS)
def test_traps_play_the_tying_move_that_sets_the_most_traps(table, position, trap, other, trap_losing,
                                                            other_losing):
    state = table.game.state_from_notation(position)
    # Kaboom's ai_settings turn traps on: plain ``ai`` sets them too.
    for spec in ("alphabeta:depth=12,margin=10,traps=1", "ai:depth=12", "ai:time=0.1"):
        assert choices(spec, state) == {trap}, spec
    # Without traps the two tying moves are chosen between at random: some seed plays the other.
    assert choices("alphabeta:depth=12,margin=10", state) == {trap, other}
    assert choices("ai:depth=12,traps=0", state) == {trap, other}


@pytest.mark.parametrize("position, trap, other, trap_losing, other_losing", TRAPS)
def test_trap_counts_agree_with_the_solver(table, position, trap, other, trap_losing, other_losing):
    state = table.game.state_from_notation(position)
    searcher = AlphaBeta(table.game)
    for action in state.legal_actions():
        count = count_traps(searcher, state, action, depth=16)  # to the end of the game: every loss proven
        child = state.child(action)
        assert count.replies == (0 if child.is_terminal() else len(child.legal_actions()))
        # Refuted: a reply wins for the opponent, i.e. the move loses (and its replies are not counted).
        assert count.refuted == (value_after(table, state, action) == "lose")
        assert count.losing == (0 if count.refuted else losing_replies(table, child)[0])


def test_traps_never_give_a_value_away(table):
    """From random positions the solver knows, the move ``ai`` with traps
    plays keeps the position's value: a win stays a win, a tie a tie."""
    game, rng = table.game, random.Random(5)
    checked = 0
    while checked < 30:
        state = game.new_initial_state()
        for _ in range(rng.randrange(6, 11)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal() or table.lookup(state).value == "lose":
            continue
        agent = make_agent("ai:depth=12", seed=checked)  # traps on, from Kaboom's ai_settings
        agent.new_game(game, state.current_player())
        action = agent.choose_action(state.clone())
        assert value_after(table, state, action) == table.lookup(state).value, (state.to_notation(), action)
        checked += 1


def test_traps_is_a_setting():
    assert make_agent("ai:traps=1").settings == {"traps": 1}
    assert make_agent("alphabeta:traps=0").traps == 0
    with pytest.raises(ParameterError):
        make_agent("alphabeta:traps=-1")
    with pytest.raises(ParameterError):
        make_agent("mcts:traps=1")
