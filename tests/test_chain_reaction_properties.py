"""Property tests for Chain Reaction on several grid sizes."""

import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import boomboard
from boomboard import InvalidPositionError
from boomboard.core import TERMINAL_PLAYER
from boomboard.games.chain_reaction import write_position
from reference.chain_reaction import chain_reaction_reference

SETTINGS = settings(deadline=None, max_examples=40)
choices = st.lists(st.integers(0, 10**6), max_size=140)


def play(game, picks):
    """A state after the actions ``picks`` chooses (by index into the legal list), and every state on the way."""
    state = game.new_initial_state()
    trail = [state.clone()]
    for pick in picks:
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply_action(legal[pick % len(legal)])
        trail.append(state.clone())
    return state, trail


def cells(state):
    return [state.action_to_string(a) for a in range(state.game.num_distinct_actions())]


def check_serialize_and_pickle_round_trip_with_history(game, data):
    state, _ = play(game, data.draw(choices))
    for restored in (game.deserialize_state(state.serialize()), pickle.loads(pickle.dumps(state))):
        assert restored == state
        assert restored.history() == state.history()
        assert restored.legal_actions() == state.legal_actions()
        assert restored.outcome() == state.outcome()


def check_position_and_action_notation_round_trip(game, data):
    state, _ = play(game, data.draw(choices))
    text = state.to_notation()
    loaded = game.state_from_notation(text)
    assert loaded == state and loaded.to_notation() == text
    assert loaded.legal_actions() == state.legal_actions()
    assert loaded.outcome() == state.outcome() and loaded.current_player() == state.current_player()
    for action in state.legal_actions():
        name = state.action_to_string(action)
        assert state.string_to_action(name) == action
        assert state.string_to_action(name.upper()) == action


def check_a_move_adds_one_orb_and_a_cascade_conserves_them(game, data):
    _, trail = play(game, data.draw(choices))
    for before, after in zip(trail, trail[1:]):
        mover = game.player_names[before.current_player()]
        assert after.total_orbs() == before.total_orbs() + 1 == after.ply()
        assert after.total_orbs() == sum(after.orbs(c) for c in cells(after))
        assert after.orbs_of(0) + after.orbs_of(1) == after.total_orbs()
        assert after.orbs_of(before.current_player()) > before.orbs_of(before.current_player())  # never loses one
        for c in cells(after):
            assert (after.owner(c) == "empty") == (after.orbs(c) == 0)
            if after.owner(c) != before.owner(c) and after.owner(c) != "empty":
                assert after.owner(c) == mover  # a move only ever paints the mover's colour
        assert after.owner(after.action_to_string(after.history()[-1])) in (mover, "empty")


def check_no_cell_is_unstable_after_a_move_unless_the_game_ended(game, data):
    _, trail = play(game, data.draw(choices))
    for step in trail:
        unstable = [c for c in cells(step) if step.orbs(c) >= step.critical_mass(c)]
        if step.is_terminal():
            winner = step.outcome().winner
            assert step.legal_actions() == [] and winner in (0, 1) and step.orbs_of(1 - winner) == 0
            assert step.current_player() == TERMINAL_PLAYER and step.player_to_move() == 1 - winner
        else:
            assert step.legal_actions() and unstable == []
            assert step.ply() < game.max_game_length()
            assert step.total_orbs() < 2 or (step.orbs_of(0) > 0 and step.orbs_of(1) > 0)


def check_clone_is_independent(game, data):
    state, _ = play(game, data.draw(choices))
    if state.is_terminal():
        return
    before, history = state.to_notation(), state.history()
    twin = state.clone()
    twin.apply_action(twin.legal_actions()[-1])
    assert state.to_notation() == before and state.history() == history
    assert twin.history() == history + [twin.history()[-1]]


def check_the_engine_and_the_reference_agree_on_each_move(game, data):
    reference = chain_reaction_reference(game.rows, game.cols)
    state, trail = play(game, data.draw(choices))
    position = reference.initial()
    for step, action in zip(trail[1:], state.history()):
        position = reference.play(position, step.first_state().action_to_string(action))
        assert reference.to_notation(position) == step.to_notation()


def check_loaded_positions_are_validated(game, data):
    rows, cols, n = game.rows, game.cols, game.num_distinct_actions()
    mass = [4 - (q < cols) - (q >= n - cols) - (q % cols == 0) - (q % cols == cols - 1) for q in range(n)]
    owners = data.draw(st.lists(st.sampled_from([0, 1, 2]), min_size=n, max_size=n))
    if data.draw(st.booleans()):  # one colour only
        colour = data.draw(st.sampled_from([1, 2]))
        owners = [colour if o else 0 for o in owners]
    # a stable grid, then maybe a few cells set to anything
    counts = [0 if o == 0 else data.draw(st.integers(1, m - 1)) for o, m in zip(owners, mass)]
    for _ in range(data.draw(st.integers(0, 2))):
        cell = data.draw(st.integers(0, n - 1))
        owners[cell] = data.draw(st.integers(1, 2))
        counts[cell] = data.draw(st.integers(1, 6))
    total = sum(counts)
    player = total % 2 if data.draw(st.integers(0, 9)) else 1 - total % 2
    text = write_position(rows, cols, counts, owners, player)
    reference = chain_reaction_reference(rows, cols)
    present = {o for o, c in zip(owners, counts) if c}
    finished = total >= 2 and len(present) == 1
    possible = (player == total % 2 and total <= sum(m - 1 for m in mass) + 1
                and (total != 1 or present == {1})
                and (finished or all(c < m for c, m in zip(counts, mass)))
                and (not finished or (present == {2 - player} and total >= 3)))
    if not possible:
        with pytest.raises(InvalidPositionError):
            game.state_from_notation(text)
        with pytest.raises(ValueError):
            reference.from_notation(text)
        return
    state = game.state_from_notation(text)
    assert state.to_notation() == text == reference.to_notation(reference.from_notation(text))
    assert state.is_terminal() == finished
    assert [state.orbs_of(0), state.orbs_of(1)] == [sum(c for c, o in zip(counts, owners) if o == p) for p in (1, 2)]


CHECKS = [check_serialize_and_pickle_round_trip_with_history, check_position_and_action_notation_round_trip,
          check_a_move_adds_one_orb_and_a_cascade_conserves_them,
          check_no_cell_is_unstable_after_a_move_unless_the_game_ended, check_clone_is_independent,
          check_the_engine_and_the_reference_agree_on_each_move, check_loaded_positions_are_validated]


@pytest.mark.parametrize("check", CHECKS, ids=lambda check: check.__name__[6:])
@pytest.mark.parametrize("name", ["chain_reaction", "chain_reaction(rows=2,cols=2)", "chain_reaction(rows=3,cols=3)",
                                  "chain_reaction(rows=4,cols=7)"])
@SETTINGS
@given(data=st.data())
def test_property(check, name, data):
    check(boomboard.load_game(name), data)
