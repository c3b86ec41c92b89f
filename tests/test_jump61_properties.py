"""Property tests for Jump61 on several board sizes."""

import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import boomboard
from boomboard import InvalidPositionError
from boomboard.games.jump61 import write_dump
from reference.jump61 import jump61_reference

SETTINGS = settings(deadline=None, max_examples=40)
choices = st.lists(st.integers(0, 10**6), max_size=80)


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


def squares(state):
    size = state.game.size
    return [(r, c) for r in range(1, size + 1) for c in range(1, size + 1)]


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
        assert state.string_to_action(name.replace(" ", ":")) == action


def check_each_move_adds_exactly_one_spot_and_colours_only_for_the_mover(game, data):
    _, trail = play(game, data.draw(choices))
    for before, after in zip(trail, trail[1:]):
        mover = game.player_names[before.current_player()]
        assert after.total_spots() == before.total_spots() + 1
        assert after.total_spots() == sum(after.spots(r, c) for r, c in squares(after))
        for r, c in squares(after):
            if after.colour(r, c) != before.colour(r, c):
                assert after.colour(r, c) == mover  # a move only ever paints the mover's colour
        row, col = divmod(after.history()[-1], game.size)
        assert after.colour(row + 1, col + 1) == mover


def check_positions_settle_and_finished_games_have_no_actions(game, data):
    _, trail = play(game, data.draw(choices))
    for step in trail:
        overfull = [sq for sq in squares(step) if step.spots(*sq) > step.neighbours(*sq)]
        if step.is_terminal():
            assert step.legal_actions() == [] and step.outcome().winner in (0, 1)
            assert {step.colour(*sq) for sq in squares(step)} == {game.player_names[step.outcome().winner]}
        else:
            assert step.legal_actions() and overfull == []
            assert step.ply() < game.max_game_length()


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
    size, cells = game.size, game.num_distinct_actions()
    neighbours = [4 - (q < size) - (q >= cells - size) - (q % size == 0) - (q % size == size - 1) for q in range(cells)]
    colours = data.draw(st.lists(st.sampled_from([0, 1, 2]), min_size=cells, max_size=cells))
    if data.draw(st.booleans()):  # a one-coloured board
        colours = [data.draw(st.sampled_from([1, 2]))] * cells
    # a possible board, then maybe a few squares set to anything
    spots = [1 if c == 0 else data.draw(st.integers(1, n)) for c, n in zip(colours, neighbours)]
    for _ in range(data.draw(st.integers(0, 3))):
        square = data.draw(st.integers(0, cells - 1))
        colours[square], spots[square] = data.draw(st.integers(0, 2)), data.draw(st.integers(0, 9))
    text = write_dump(size, spots, colours)
    reference = jump61_reference(size)
    finished = len(set(colours)) == 1 and colours[0] != 0
    possible = (all(s >= 1 for s in spots) and all(s == 1 for s, c in zip(spots, colours) if c == 0)
                and (finished or all(s <= n for s, n in zip(spots, neighbours)))
                and sum(spots) <= sum(neighbours) + 1)
    if not possible:
        with pytest.raises(InvalidPositionError):
            game.state_from_notation(text)
        with pytest.raises(ValueError):
            reference.from_notation(text)
        return
    state = game.state_from_notation(text)
    assert state.to_notation() == text == reference.to_notation(reference.from_notation(text))
    assert state.is_terminal() == finished
    assert state.player_to_move() == (sum(spots) - cells) % 2
    assert [state.squares_of(0), state.squares_of(1)] == [colours.count(1), colours.count(2)]


CHECKS = [check_serialize_and_pickle_round_trip_with_history, check_position_and_action_notation_round_trip,
          check_each_move_adds_exactly_one_spot_and_colours_only_for_the_mover,
          check_positions_settle_and_finished_games_have_no_actions, check_clone_is_independent,
          check_loaded_positions_are_validated]


@pytest.mark.parametrize("check", CHECKS, ids=lambda check: check.__name__[6:])
@pytest.mark.parametrize("name", ["jump61", "jump61(size=2)", "jump61(size=3)", "jump61(size=5)"])
@SETTINGS
@given(data=st.data())
def test_property(check, name, data):
    check(boomboard.load_game(name), data)
