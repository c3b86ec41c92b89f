"""Property tests for Explocus (square board); test_hexplocus_properties.py
runs the same properties on the hexagonal board."""

import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import boomboard
from boomboard import InvalidPositionError
from boomboard.games.explocus.notation import write_position

SETTINGS = settings(deadline=None, max_examples=40)
choices = st.lists(st.integers(0, 10**6), max_size=60)


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


def board_stacks(state):
    board = state.game.board
    return [int(h) for h in state.array[-board.ncells:]]


def check_serialize_and_pickle_round_trip_with_history(game, data):
    state, _ = play(game, data.draw(choices))
    for restored in (state.game.deserialize_state(state.serialize()), pickle.loads(pickle.dumps(state))):
        assert restored == state
        assert restored.history() == state.history()
        assert restored.legal_actions() == state.legal_actions()
        assert restored.repetitions() == state.repetitions()
        assert restored.outcome() == state.outcome()


def check_position_and_action_notation_round_trip(game, data):
    state, _ = play(game, data.draw(choices))
    text = state.to_notation()
    loaded = state.game.state_from_notation(text)
    assert loaded == state and loaded.to_notation() == text
    assert loaded.legal_actions() == state.legal_actions()
    for action in state.legal_actions():
        name = state.action_to_string(action)
        assert state.string_to_action(name) == action
        assert state.string_to_action(name.swapcase()) == action


def check_stones_are_conserved_and_only_move_to_the_mover(game, data):
    state, trail = play(game, data.draw(choices))
    total = trail[0].stones(0) + trail[0].stones(1)
    for before, after in zip(trail, trail[1:]):
        mover = before.current_player()
        assert after.stones(0) + after.stones(1) == total == sum(abs(h) for h in board_stacks(after))
        assert after.stones(mover) - before.stones(mover) == before.stones(1 - mover) - after.stones(1 - mover)
        assert after.stones(mover) >= before.stones(mover)


def check_positions_settle_and_finished_games_have_no_actions(game, data):
    state, trail = play(game, data.draw(choices))
    capacity = state.game.board.capacity
    for step in trail:
        if step.is_terminal():
            assert step.legal_actions() == [] and step.outcome() is not None
            assert step.outcome().winner is not None or step.outcome().reason.name in ("REPETITION", "TURN_LIMIT")
        else:
            assert step.legal_actions()
            assert all(abs(h) < c for h, c in zip(board_stacks(step), capacity))


def check_clone_is_independent(game, data):
    state, _ = play(game, data.draw(choices))
    if state.is_terminal():
        return
    before, history = state.to_notation(), state.history()
    twin = state.clone()
    twin.apply_action(twin.legal_actions()[-1])
    assert state.to_notation() == before and state.history() == history
    assert twin.history() == history + [twin.history()[-1]]


def check_loaded_positions_are_validated(game, data):
    board = game.board
    heights = [st.sampled_from([0, 0, 0]) | st.integers(1 - c, c - 1) for c in board.capacity]
    cells = data.draw(st.tuples(*heights).map(list))
    if data.draw(st.booleans()):  # remove one side's stones, or
        cells = [h if (h > 0) == data.draw(st.booleans()) else 0 for h in cells]
    if data.draw(st.booleans()):  # put any stack anywhere
        cells[data.draw(st.integers(0, board.ncells - 1))] = data.draw(st.integers(-9, 9))
    player = data.draw(st.integers(0, 1))
    text = write_position(board, cells, player)
    white, black = sum(h for h in cells if h > 0), -sum(h for h in cells if h < 0)
    possible = (0 < white + black < board.edges
                and (not (white and black) or all(abs(h) < c for h, c in zip(cells, board.capacity))))
    if not possible:
        with pytest.raises(InvalidPositionError):
            game.state_from_notation(text)
        return
    state = game.state_from_notation(text)
    assert state.to_notation() == text
    assert state.is_terminal() == (white == 0 or black == 0)
    assert (state.stones(0), state.stones(1)) == (white, black)


CHECKS = [check_serialize_and_pickle_round_trip_with_history, check_position_and_action_notation_round_trip,
          check_stones_are_conserved_and_only_move_to_the_mover,
          check_positions_settle_and_finished_games_have_no_actions, check_clone_is_independent,
          check_loaded_positions_are_validated]


@pytest.mark.parametrize("check", CHECKS, ids=lambda check: check.__name__[6:])
@pytest.mark.parametrize("name", ["explocus", "explocus(size=4)", "explocus(size=5)"])
@SETTINGS
@given(data=st.data())
def test_property(check, name, data):
    check(boomboard.load_game(name), data)
