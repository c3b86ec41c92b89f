"""Jump61's ranks within tiers (games/jump61/ranking.py): sizes, round trips, bad input."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import boomboard
from boomboard.core.errors import ParameterError
from boomboard.core.layout import PLY
from boomboard.games.jump61 import ranking
from boomboard.games.jump61.rules import DEGREE, SPOTS

SIZES = (2, 3, 4)


def game_of(size):
    return boomboard.load_game(f"jump61(size={size})")


def brute_force_tier_counts(game):
    """Every board of every square state (white with 1 spot, red or blue with 1..d),
    counted by its spots: the tier sizes, found without the ranking's recurrence."""
    cells = game.size ** 2
    degrees = game.params_array[DEGREE:DEGREE + cells]
    excess = np.zeros(1, dtype=np.int64)
    for d in degrees:
        states = np.array([0] + list(range(d)) * 2)  # white, then red and blue with 1..d spots
        excess = np.add.outer(excess, states).ravel()
    return np.bincount(excess).tolist()


@pytest.mark.parametrize("size", (2, 3))
def test_tier_sizes_equal_a_brute_force_count(size):
    game = game_of(size)
    spec = ranking.rank_spec(game.params_array)
    counts = brute_force_tier_counts(game)
    assert ranking.tier_counts(game.params_array) == counts
    assert [ranking.tier_size(spec, t) for t in range(len(counts) + 1)] == counts + [0]


def every_rank_round_trips(game, tier, ranks):
    spec = ranking.rank_spec(game.params_array)
    s = game.initial_array().copy()
    seen = set()
    for r in ranks:
        ranking.unrank(spec, tier, r, game.params_array, s)
        assert ranking.tier_of(spec, s, game.params_array) == tier
        assert s[0] == tier % 2  # the player to move: Red in the even tiers
        assert ranking.rank(spec, s, game.params_array) == r
        seen.add(s.tobytes())
    assert len(seen) == len(ranks)  # unrank never gives two ranks one board


@pytest.mark.parametrize("size", (2, 3))
def test_every_rank_of_the_small_tiers_round_trips(size):
    game = game_of(size)
    spec = ranking.rank_spec(game.params_array)
    tiers = spec[ranking.R_TIERS]
    for tier in range(tiers):
        count = ranking.tier_size(spec, tier)
        if count <= 30_000:
            every_rank_round_trips(game, tier, range(count))
        else:  # a middle tier of 3x3: its ends and a stride through it
            every_rank_round_trips(game, tier, list(range(2000)) + list(range(count - 2000, count))
                                   + list(range(2000, count - 2000, count // 3000)))


def play(game, picks):
    state = game.new_initial_state()
    for pick in picks:
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply_action(legal[pick % len(legal)])
    return state


@settings(deadline=None, max_examples=60)
@given(st.sampled_from(SIZES), st.lists(st.integers(0, 10**6), max_size=60))
def test_reachable_positions_round_trip(size, picks):
    game = game_of(size)
    spec = ranking.rank_spec(game.params_array)
    state = play(game, picks)
    s = state.array
    r = ranking.rank(spec, s, game.params_array)
    cells = size * size
    if state.is_terminal() and np.any(s[SPOTS:SPOTS + cells] > game.params_array[DEGREE:DEGREE + cells]):
        assert r == -1  # a board won mid-cascade may hold an overfull square: no tier holds it
        return
    tier = ranking.tier_of(spec, s, game.params_array)
    assert tier == s[PLY]  # each move adds one spot
    assert 0 <= r < ranking.tier_size(spec, tier)
    back = game.initial_array().copy()
    ranking.unrank(spec, tier, r, game.params_array, back)
    expected = s.copy()
    expected[PLY] = 0
    assert np.array_equal(back, expected)


def test_boards_no_tier_holds_have_no_rank():
    game = game_of(3)
    spec = ranking.rank_spec(game.params_array)
    s = game.initial_array().copy()
    s[SPOTS] = 3  # a corner holds at most 2
    s[SPOTS + 9] = 1
    assert ranking.rank(spec, s, game.params_array) == -1
    s = game.initial_array().copy()
    s[SPOTS + 4] = 2  # white, with a spot more than it started with
    assert ranking.rank(spec, s, game.params_array) == -1


def test_a_rank_past_its_tier_is_refused():
    game = game_of(2)
    spec = ranking.rank_spec(game.params_array)
    s = game.initial_array().copy()
    for tier, r in ((0, ranking.tier_size(spec, 0)), (1, -1), (9, 0)):
        with pytest.raises(ValueError, match="no such rank"):
            ranking.unrank(spec, tier, r, game.params_array, s)


def test_boards_too_big_for_64_bit_ranks_are_refused():
    with pytest.raises(ParameterError, match="more than a 64-bit rank"):
        ranking.rank_spec(game_of(5).params_array)
