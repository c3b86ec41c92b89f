"""Property tests for Kaboom: round trips, what each action changes exactly,
and that loaded positions are validated, over random games and parameters."""

from __future__ import annotations

import pickle
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import boomboard
from boomboard import BoomboardError, InvalidPositionError, NotationError
from boomboard.games.kaboom import KaboomGame


@st.composite
def games(draw):
    rows = draw(st.integers(1, 7))
    cols = draw(st.integers(1, 7))
    return boomboard.load_game(
        "kaboom", rows=rows, cols=cols,
        connect=draw(st.integers(1, min(max(rows, cols), 5))),
        bombs=draw(st.integers(0, min(rows * cols, 4))),
        misere=draw(st.booleans()), superbomb=draw(st.booleans()))


@st.composite
def played(draw, max_plies=60):
    """A game and a state reached by random play (possibly finished)."""
    game = draw(games())
    rng = random.Random(draw(st.integers(0, 2**32)))
    state = game.new_initial_state()
    for _ in range(draw(st.integers(0, max_plies))):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return game, state


def board_counts(state):
    """How many x, o, * and @ stand on the board."""
    rows = state.to_notation()[1:-1].split()[3:]
    return {char: sum(row.count(char) for row in rows) for char in "xo*@"}


SETTINGS = settings(deadline=None, max_examples=150)


@SETTINGS
@given(played())
def test_serialize_and_pickle_round_trip_with_history(case):
    game, state = case
    for restored in (game.deserialize_state(state.serialize()), pickle.loads(pickle.dumps(state))):
        assert restored == state
        assert restored.history() == state.history()
        assert restored.legal_actions() == state.legal_actions()
        assert restored.outcome() == state.outcome()


@SETTINGS
@given(played())
def test_position_and_action_notation_round_trip(case):
    game, state = case
    loaded = game.state_from_notation(state.to_notation())
    assert loaded == state and loaded.legal_actions() == state.legal_actions()
    assert loaded.outcome() == state.outcome()
    assert game.state_from_notation(state.to_notation().upper()) == state
    rebuilt, again = KaboomGame.from_position_string(state.to_notation(), **{
        key: value for key, value in game.get_parameters().items() if key not in ("rows", "cols")})
    assert rebuilt == game and again == state
    for action in state.legal_actions():
        name = state.action_to_string(action)
        assert state.string_to_action(name) == action
        assert state.string_to_action(f" {name.lower()} ") == action


@SETTINGS
@given(played(max_plies=40), st.integers(0, 2**32))
def test_each_action_changes_exactly_what_it_should(case, seed):
    game, state = case
    if state.is_terminal():
        return
    bombs_of = lambda s, p: s.bombs_in_hand(p) + s.bombs_on_board(p)  # noqa: E731
    action = random.Random(seed).choice(state.legal_actions())
    move = state.action_to_string(action)
    mover = state.current_player()
    piece, bomb = "xo"[mover], "*@"[mover]
    before, counts = state.clone(), board_counts(state)
    state.apply_action(action)
    after = board_counts(state)
    assert state.ply() == before.ply() + 1 and state.player_to_move() == 1 - mover
    if move == "pass":
        assert after == counts and before.legal_actions() == [action]
        assert bombs_of(state, 1 - mover) > 0 and state.bombs_on_board(mover) == 0
    elif move.endswith("!"):
        # the bomb and whatever its blasts reached are gone, nothing else changes
        assert all(after[c] <= counts[c] for c in "xo*@")
        assert after[bomb] < counts[bomb]
        assert state.bombs_in_hand(0) == before.bombs_in_hand(0)
        assert state.bombs_in_hand(1) == before.bombs_in_hand(1)
    else:
        dropped = bomb if move.endswith("*") else piece
        assert after == {**counts, dropped: counts[dropped] + 1}
        assert state.bombs_in_hand(mover) == before.bombs_in_hand(mover) - (dropped == bomb)
        assert state.column_height(move[0]) == before.column_height(move[0]) + 1
    for player in (0, 1):
        assert bombs_of(state, player) <= bombs_of(before, player) <= game["bombs"]
        assert state.bombs_on_board(player) == after["*@"[player]]


@SETTINGS
@given(games(), st.integers(0, 2**32))
def test_every_game_ends_within_max_game_length_and_ends_stay_ended(game, seed):
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        assert state.legal_actions(), "an ongoing game always has an action (a pass at least)"
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.ply() <= game.max_game_length()
    assert state.legal_actions() == [] and state.outcome() is not None
    assert game.state_from_notation(state.to_notation()).outcome() == state.outcome()


@SETTINGS
@given(played(), st.integers(0, 2**32))
def test_clone_is_independent(case, seed):
    game, state = case
    if state.is_terminal():
        return
    twin = state.clone()
    before = state.to_notation()
    twin.apply_action(random.Random(seed).choice(twin.legal_actions()))
    assert state.to_notation() == before and len(twin.history()) == len(state.history()) + 1


CELL_TEXT = st.text(alphabet="xoXO*@-", min_size=0, max_size=5)
SHAPED_ROWS = st.lists(st.text(alphabet="xoXO*@-", min_size=4, max_size=4), min_size=4, max_size=4)


@st.composite
def stacked_rows(draw):
    """Four columns of pieces resting on the bottom, as rows bottom first."""
    columns = [draw(st.text(alphabet="xo*@", max_size=4)).ljust(4, "-") for _ in range(4)]
    return ["".join(column[r] for column in columns) for r in range(4)]


@SETTINGS
@given(st.sampled_from("xoXOz"), st.integers(-1, 3), st.integers(-1, 3),
       st.one_of(st.lists(CELL_TEXT, max_size=5), SHAPED_ROWS, stacked_rows()))
def test_loaded_positions_are_validated(letter, x_bombs, o_bombs, rows):
    game = boomboard.load_game("kaboom", rows=4, cols=4, connect=4, bombs=2)
    text = f"({letter} {x_bombs} {o_bombs} {' '.join(rows)})"
    try:
        state = game.state_from_notation(text)
    except InvalidPositionError:
        return
    # accepted: the position is possible
    assert letter in "xoXO" and len(rows) == 4 and all(len(row) == 4 for row in rows)
    columns = ["".join(row[c] for row in rows) for c in range(4)]
    assert all("-" not in column.rstrip("-") for column in columns), "no floating pieces"
    for player, bomb in enumerate("*@"):
        assert 0 <= state.bombs_in_hand(player) and state.bombs_in_hand(player) + text.count(bomb) <= 2
    assert state.to_notation() == text.lower()


@SETTINGS
@given(st.text(max_size=40))
def test_any_text_gives_a_state_or_one_of_our_errors(text):
    game = boomboard.load_game("kaboom")
    try:
        game.state_from_notation(text)
    except (NotationError, InvalidPositionError):
        pass
    state = game.state_from_notation("(o 0 1 xoxx --*o --oo --x-)")
    try:
        state.string_to_action(text)
    except BoomboardError:
        pass
