"""Property tests for Expendibots over random positions and random games."""

import json
import pickle

from hypothesis import given, settings
from hypothesis import strategies as st

import boomboard
from boomboard import BoomboardError
from boomboard.games.expendibots.notation import format_tuple, parse_action
from reference.expendibots import chained

GAME = boomboard.load_game("expendibots")
SETTINGS = settings(deadline=None, max_examples=60)


@st.composite
def positions(draw):
    """A possible position as JSON: up to 12 tokens a colour on distinct squares."""
    squares = draw(st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7)), unique=True, min_size=2, max_size=16))
    data = {"white": [], "black": []}
    budget = {"white": 12, "black": 12}
    for index, (x, y) in enumerate(squares):
        colour = ("white", "black")[index % 2] if index < 2 else draw(st.sampled_from(["white", "black"]))
        if budget[colour] == 0:
            continue
        n = draw(st.integers(1, min(4, budget[colour])))
        budget[colour] -= n
        data[colour].append([n, x, y])
    if draw(st.booleans()):
        data["turn"] = "black"
    return json.dumps(data)


picks = st.lists(st.integers(0, 10**6), max_size=40)


def play(start, choices):
    state = GAME.new_initial_state() if start is None else GAME.state_from_notation(start)
    trail = [state.clone()]
    for pick in choices:
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply_action(legal[pick % len(legal)])
        trail.append(state.clone())
    return state, trail


starts = st.one_of(st.none(), positions())


def cells(state):
    """{(x, y): signed tokens} of every stack."""
    found = {}
    for sign, colour in ((1, "white"), (-1, "black")):
        for n, x, y in state.stacks(colour):
            found[(x, y)] = sign * n
    return found


@SETTINGS
@given(starts, picks)
def test_serialize_and_pickle_round_trip_with_history(start, choices):
    state, _ = play(start, choices)
    for restored in (GAME.deserialize_state(state.serialize()), pickle.loads(pickle.dumps(state))):
        assert restored == state
        assert restored.history() == state.history()
        assert restored.legal_actions() == state.legal_actions()
        assert restored.repetitions() == state.repetitions()
        assert restored.outcome() == state.outcome()


@SETTINGS
@given(starts, picks)
def test_position_and_action_notations_round_trip(start, choices):
    state, _ = play(start, choices[:11])  # too short for a 4th repetition, which the notation does not keep
    text = state.to_notation()
    loaded = GAME.state_from_notation(text)
    assert loaded == state and loaded.to_notation() == text
    assert loaded.legal_actions() == state.legal_actions()
    for action in state.legal_actions():
        written = state.action_to_string(action)
        assert state.string_to_action(written) == action
        assert state.string_to_action(written.lower().rstrip(".")) == action
        referee = state.action_to_tuple(action)
        assert state.tuple_to_action(referee) == action
        assert parse_action(format_tuple(referee)) == referee


@SETTINGS
@given(starts, picks)
def test_moves_carry_tokens_and_booms_clear_exactly_the_chain(start, choices):
    _, trail = play(start, choices)
    for before, after in zip(trail, trail[1:]):
        action = after.action_to_tuple(after.history()[-1])
        board, sign = cells(before), 1 - 2 * before.current_player()
        if action[0] == "MOVE":
            _, m, origin, target = action
            expected = dict(board)
            expected[origin] -= sign * m
            expected[target] = expected.get(target, 0) + sign * m
            expected = {sq: n for sq, n in expected.items() if n}
            assert [after.tokens(p) for p in (0, 1)] == [before.tokens(p) for p in (0, 1)]
        else:
            assert board[action[1]] * sign > 0
            cleared = chained(board, action[1])
            expected = {sq: n for sq, n in board.items() if sq not in cleared}
            for player, colour_sign in ((0, 1), (1, -1)):
                lost = sum(abs(board[sq]) for sq in cleared if board[sq] * colour_sign > 0)
                assert after.tokens(player) == before.tokens(player) - lost
        assert cells(after) == expected
        assert after.tokens(0) == sum(n for n in expected.values() if n > 0)
        assert after.tokens(1) == -sum(n for n in expected.values() if n < 0)


@SETTINGS
@given(starts, picks)
def test_results_follow_the_token_counts_and_finished_games_have_no_actions(start, choices):
    _, trail = play(start, choices)
    for state in trail:
        white, black = state.tokens(0), state.tokens(1)
        outcome = state.outcome()
        if white == 0 or black == 0:
            expected = None if white == black else (0 if white else 1)
            assert outcome is not None and outcome.winner == expected
        if outcome is None:
            assert state.legal_actions() and state.current_player() in (0, 1)
        else:
            assert state.legal_actions() == [] and state.current_player() == boomboard.core.TERMINAL_PLAYER


@SETTINGS
@given(starts, picks)
def test_clone_is_independent_of_the_original(start, choices):
    state, _ = play(start, choices[:5])
    if state.is_terminal():
        return
    before, history = state.to_notation(), state.history()
    twin = state.clone()
    twin.apply_action(twin.legal_actions()[-1])
    assert state.to_notation() == before and state.history() == history
    assert twin.history() == history + [twin.history()[-1]]


@SETTINGS
@given(positions())
def test_possible_positions_load_and_round_trip(text):
    state = GAME.state_from_notation(text)
    assert state.to_notation() == GAME.state_from_notation(state.to_notation()).to_notation()
    assert json.loads(state.to_notation())["white"] == sorted(json.loads(text)["white"], key=lambda s: (s[2], s[1]))


stack_values = st.one_of(st.integers(-3, 14), st.floats(allow_nan=False), st.text(max_size=2), st.booleans())


@SETTINGS
@given(st.dictionaries(st.sampled_from(["white", "black", "turn", "x"]),
                       st.one_of(st.lists(st.lists(stack_values, max_size=4), max_size=6),
                                 st.sampled_from(["white", "black", "red"]), st.integers())))
def test_loaded_positions_are_validated(data):
    text = json.dumps(data)
    try:
        state = GAME.state_from_notation(text)
    except BoomboardError:
        return
    for colour in ("white", "black"):
        assert state.tokens(colour) <= 12
        assert all(n >= 1 and 0 <= x < 8 and 0 <= y < 8 for n, x, y in state.stacks(colour))
    squares = [(x, y) for colour in ("white", "black") for _, x, y in state.stacks(colour)]
    assert len(squares) == len(set(squares)) == sum(len(data[c]) for c in ("white", "black"))


@SETTINGS
@given(st.text(max_size=60))
def test_any_text_gives_an_action_or_our_error(text):
    state = GAME.new_initial_state()
    try:
        action = state.string_to_action(text)
    except BoomboardError:
        return
    assert action in state.legal_actions()


@SETTINGS
@given(st.text(max_size=60))
def test_any_text_gives_a_position_or_our_error(text):
    try:
        GAME.state_from_notation(text)
    except BoomboardError:
        pass
