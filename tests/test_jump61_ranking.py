"""Jump61's dense ranks (games/jump61/ranking.py): tier sizes, round trips, the mirror, bad input."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import boomboard
from boomboard import solver
from boomboard.core.layout import PLY
from boomboard.games.jump61 import ranking
from boomboard.games.jump61.rules import DEGREE, SPOTS
from boomboard.solver.layers import unhashed
from no_jit import run_json_script

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


def is_position(game, s):
    """Not one colour everywhere, and no coloured square with one spot (it has
    jumped, colouring its neighbours) beside a white square."""
    size = game.size
    cells = size * size
    spots, colours = s[SPOTS:SPOTS + cells], s[SPOTS + cells:SPOTS + 2 * cells]
    if len(set(colours.tolist())) == 1 and colours[0] != 0:
        return False
    for q in range(cells):
        row, col = divmod(q, size)
        around = [(row + dr) * size + col + dc for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                  if 0 <= row + dr < size and 0 <= col + dc < size]
        if spots[q] == 1 and colours[q] != 0 and any(colours[o] == 0 for o in around):
            return False
    return True


def every_rank_round_trips(game, tier, ranks):
    spec, k = spec_of(game), kernels(game)
    s = game.initial_array().copy()
    seen = set()
    level = k.dense_tier_level(spec, tier)
    cells = game.size ** 2
    for r in ranks:
        ongoing = k.dense_unrank(spec, tier, r, game.params_array, s)
        assert ongoing == is_position(game, s)
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


@settings(deadline=None, max_examples=40)
@given(st.sampled_from(SIZES), st.integers(0, 10**9), st.integers(0, 2**62))
def test_moves_from_a_position_lead_to_positions(size, tier_pick, rank_pick):
    """What no game reaches, no move reaches: the solver never reads a record of no position."""
    game = game_of(size)
    spec, k, params = spec_of(game), kernels(game), game.params_array
    tiers = [t for t in range(k.dense_tier_count(spec)) if k.dense_tier_size(spec, t) > 0]
    tier = tiers[tier_pick % len(tiers)]
    s = game.initial_array().copy()
    if not k.dense_unrank(spec, tier, rank_pick % k.dense_tier_size(spec, tier), params, s):
        return
    state = game.state_from_array(s)
    for action in state.legal_actions():
        child = state.child(action)
        if child.is_terminal():
            continue
        after = child.array.copy()
        where = k.dense_locate(spec, after, params)
        assert k.dense_tier_level(spec, where[0]) == k.dense_tier_level(spec, tier) + 1
        assert k.dense_unrank(spec, where[0], where[1], params, s)


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


def dense_records_of_hashed_positions(hashed, dense):
    """The dense table's record of each of the hashed table's positions, in its order."""
    game, passes, layout = hashed.game, dense.layout.passes, dense.layout
    levels = {}
    found = np.empty(len(hashed), dtype=np.int64)
    s = game.initial_array().copy()
    for i, key in enumerate(np.asarray(hashed.keys)):
        game.kernels.decode(hashed.spec, unhashed(key), game.params_array, s)
        level, index = passes.lookup(layout.dspec, game.params_array, s, dense.symmetric, layout.levels,
                                     layout.start)
        if level not in levels:
            levels[level] = dense.level(int(level)).read_all()
        found[i] = levels[level][index]
    return found


@pytest.mark.parametrize("size, symmetry", [(2, False), (2, True), (3, True)])
def test_the_dense_tables_agree_with_the_hashed_solver_position_by_position(tmp_path, size, symmetry):
    game = game_of(size)
    hashed = solver.solve(game, db=tmp_path / "hashed", progress=False, settings=solver.SolveSettings(method="memory"))
    dense = solver.solve(game, db=tmp_path / "dense", progress=False,
                         settings=solver.SolveSettings(method="dense", symmetry=symmetry))
    assert dense.meta["kind"] == "dense" and "kind" not in hashed.meta
    assert np.array_equal(dense_records_of_hashed_positions(hashed, dense), np.asarray(hashed.entries))
    assert dense.meta["start"] == hashed.meta["start"]
    # the dense tables number every board: the reachable positions are a small part of them
    assert dense.meta["positions"] > len(hashed)


def test_auto_keeps_jump61_on_the_hashed_solver(tmp_path):
    table = solver.solve(game_of(2), db=tmp_path, progress=False)
    assert table.meta.get("kind") != "dense" and len(table) == 39


NO_JIT_SCRIPT = """
import json
import numpy as np
import boomboard
game = boomboard.load_game("jump61(size=3)")
k, params = game.kernels, game.params_array
spec = np.array(game.solver_dense_spec(), dtype=np.int64)
s = game.initial_array().copy()
out = []
for tier in range(0, k.dense_tier_count(spec), 7):
    count = k.dense_tier_size(spec, tier)
    for r in range(0, count, max(1, count // 5)):
        ongoing = bool(k.dense_unrank(spec, tier, r, params, s))
        k.dense_mirror(spec, s, params)
        out.append([tier, r, ongoing, s.tolist(), [int(x) for x in k.dense_locate(spec, s, params)]])
print(json.dumps(out))
"""


def test_the_ranking_kernels_run_as_plain_python_with_the_same_results():
    plain, compiled = run_json_script(NO_JIT_SCRIPT, "1"), run_json_script(NO_JIT_SCRIPT, "0")
    assert plain == compiled and len(plain) > 100
