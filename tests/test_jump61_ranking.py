"""Jump61's dense ranks (games/jump61/ranking.py): tier sizes, round trips, the mirror, bad input."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import boomboard
from boomboard.core.layout import PLY
from boomboard.games.jump61 import ranking
from boomboard.games.jump61.rules import DEGREE, SPOTS

SIZES = (2, 3, 4)


def game_of(size):
    return boomboard.load_game(f"jump61(size={size})")


def spec_of(game):
    return np.array(game.solver_dense_spec(), dtype=np.int64)


def kernels(game):
    return game.kernels


def brute_force_tier_sizes(game):
    """Every board of every square state (white with 1 spot, red or blue with 1..d),
    counted by its tier id, found without the ranking's recurrence."""
    size = game.size
    degrees = game.params_array[DEGREE:DEGREE + size * size]
    total = left = right = np.zeros(1, dtype=np.int8)
    for q, d in enumerate(degrees):
        excess = np.array([0] + list(range(d)) * 2, dtype=np.int8)  # white, then red and blue with 1..d spots
        column = q % size
        total = np.add.outer(total, excess).ravel()
        left = np.add.outer(left, excess if column < size // 2 else 0 * excess).ravel()
        right = np.add.outer(right, excess if column >= size - size // 2 else 0 * excess).ravel()
    side = int(spec_of(game)[ranking.D_SIDE])
    tier = (total.astype(np.int32) * side + left) * side + right
    return np.bincount(tier, minlength=side * side * (int(total.max()) + 1)).tolist()


@pytest.mark.parametrize("size", (2, 3))
def test_tier_sizes_equal_a_brute_force_count(size):
    game = game_of(size)
    spec = spec_of(game)
    counts = brute_force_tier_sizes(game)
    k = kernels(game)
    assert k.dense_tier_count(spec) == len(counts)
    assert [k.dense_tier_size(spec, t) for t in range(len(counts) + 1)] == counts + [0]
    assert k.dense_level_count(spec) == sum(int(d) - 1 for d in game.params_array[DEGREE:DEGREE + size * size]) + 1


def every_rank_round_trips(game, tier, ranks):
    spec, k = spec_of(game), kernels(game)
    s = game.initial_array().copy()
    seen = set()
    level = k.dense_tier_level(spec, tier)
    for r in ranks:
        ongoing = k.dense_unrank(spec, tier, r, game.params_array, s)
        cells = game.size ** 2
        assert ongoing == (max(s[4], s[5]) < cells)  # the colour counts: one colour everywhere is finished
        assert s[SPOTS:SPOTS + cells].sum() - cells == level
        assert s[0] == level % 2  # the player to move: Red on the even levels
        assert k.dense_locate(spec, s, game.params_array) == (tier, r)
        seen.add(s.tobytes())
    assert len(seen) == len(ranks)  # no two ranks give one board


@pytest.mark.parametrize("size", (2, 3))
def test_every_rank_of_the_small_tiers_round_trips(size):
    game = game_of(size)
    spec, k = spec_of(game), kernels(game)
    for tier in range(k.dense_tier_count(spec)):
        count = k.dense_tier_size(spec, tier)
        if count <= 3000:
            every_rank_round_trips(game, tier, range(count))
        else:  # a big tier of 3x3: its ends and a stride through it
            every_rank_round_trips(game, tier, list(range(300)) + list(range(count - 300, count))
                                   + list(range(300, count - 300, count // 300)))


def play(game, picks):
    """The last position before the game ends, of the game the actions ``picks``
    choose (by index into the legal list)."""
    state = game.new_initial_state()
    for pick in picks:
        legal = state.legal_actions()
        after = state.child(legal[pick % len(legal)])
        if after.is_terminal():
            break
        state = after
    return state


@settings(deadline=None, max_examples=60)
@given(st.sampled_from(SIZES), st.lists(st.integers(0, 10**6), max_size=60))
def test_reachable_positions_round_trip_and_mirror(size, picks):
    game = game_of(size)
    spec, k = spec_of(game), kernels(game)
    state = play(game, picks)
    s = state.array
    tier, r = k.dense_locate(spec, s, game.params_array)
    assert k.dense_tier_level(spec, tier) == s[PLY]  # each move adds one spot
    assert 0 <= r < k.dense_tier_size(spec, tier)
    back = game.initial_array().copy()
    assert k.dense_unrank(spec, tier, r, game.params_array, back)
    expected = s.copy()
    expected[PLY] = 0
    assert np.array_equal(back, expected)
    # the mirror image: same player, its tier is the mirror tier, and it plays the mirrored moves
    image = s.copy()
    k.dense_mirror(spec, image, game.params_array)
    assert k.dense_locate(spec, image, game.params_array)[0] == k.dense_mirror_tier(spec, tier)
    assert k.dense_mirror_tier(spec, k.dense_mirror_tier(spec, tier)) == tier
    flip = [q - q % size + size - 1 - q % size for q in range(size * size)]
    assert sorted(flip[a] for a in state.legal_actions()) == game.state_from_array(image).legal_actions()
    again = image.copy()
    k.dense_mirror(spec, again, game.params_array)
    assert np.array_equal(again, s)


def test_a_board_no_tier_holds_is_not_located():
    game = game_of(3)
    spec, k = spec_of(game), kernels(game)
    s = game.initial_array().copy()
    s[SPOTS] = 3  # a corner holds at most 2
    s[SPOTS + 9] = 1
    assert k.dense_locate(spec, s, game.params_array) == (-1, -1)
    s = game.initial_array().copy()
    s[SPOTS + 4] = 2  # white, with a spot more than it started with
    assert k.dense_locate(spec, s, game.params_array) == (-1, -1)


def test_a_rank_past_its_tier_is_refused():
    game = game_of(2)
    spec, k = spec_of(game), kernels(game)
    s = game.initial_array().copy()
    for tier, r in ((0, k.dense_tier_size(spec, 0)), (1, -1), (k.dense_tier_count(spec), 0)):
        with pytest.raises(ValueError, match="no such rank"):
            k.dense_unrank(spec, tier, r, game.params_array, s)


def test_boards_too_big_for_64_bit_ranks_are_not_dense():
    assert game_of(4).solver_dense_spec() is not None
    assert game_of(5).solver_dense_spec() is None
