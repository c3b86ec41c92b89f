"""The bitboard Kaboom engine (games/kaboom/bitboard.py) against the array
engine (rules.py), the reference: perft counts, and at every ply of random
games of every variant the legal actions, the position after each action and
the result."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import boomboard
from boomboard import ParameterError
from boomboard.core.layout import REASON, STATUS
from boomboard.core.perft import compiled_perft
from boomboard.games.kaboom import KaboomGame, bitboard, rules
from no_jit import run_json_script

CHAIN = "(x 0 0 xoxx o@*o -ooo -xxx)"  # the rulebook's position 14: C2! sets off O's bomb on B2
MUST_PASS = "(o 0 0 xxoo ooxx xxoo oo*x)"  # O can only pass, then X must detonate
BOTH_LINES_NEAR = "(x 0 1 xxo* ooxo --ox ---o)"  # D1! leaves x in row 1 and o in row 2

PERFT_CASES = [  # (game, start or None, depth)
    ("kaboom", None, 5),
    ("kaboom", CHAIN, 4),
    ("kaboom", MUST_PASS, 4),
    ("kaboom(superbomb=true)", CHAIN, 4),
    ("kaboom(misere=true)", BOTH_LINES_NEAR, 4),
    ("kaboom(rows=5,cols=5,bombs=2,connect=3)", None, 4),
    ("kaboom(rows=6,cols=7,bombs=0)", None, 5),
    ("kaboom(rows=6,cols=7,bombs=1)", None, 4),
    ("kaboom(rows=8,cols=7,bombs=3,superbomb=true,misere=true)", None, 3),  # 64 bits, the whole word
    ("kaboom(rows=3,cols=12,bombs=2,connect=5)", None, 3),
]

# Every variant on boards from 4x4 to 7x6 (and the extremes of the word):
# (rows, cols, connect, bombs, misere, superbomb, games)
VARIANTS = [
    (4, 4, 4, 0, False, False, 180),
    (4, 4, 3, 1, True, False, 90),
    (4, 4, 4, 2, False, True, 90),
    (4, 5, 3, 3, True, True, 90),
    (5, 5, 4, 1, False, True, 60),
    (5, 5, 5, 2, True, False, 60),
    (6, 6, 3, 3, False, False, 60),
    (5, 6, 4, 2, True, True, 60),
    (6, 7, 4, 0, False, False, 45),
    (6, 7, 4, 1, False, False, 45),
    (7, 6, 5, 3, False, True, 45),
    (6, 7, 4, 2, True, True, 45),
    (2, 4, 4, 4, False, False, 60),  # full boards: many passes
    (7, 8, 4, 3, True, False, 30),  # 64 bits
    (12, 4, 3, 2, False, True, 30),  # 52 bits in columns of 13
]

HAND_BUILT = [("kaboom", CHAIN), ("kaboom(superbomb=true)", CHAIN), ("kaboom", MUST_PASS), ("kaboom", BOTH_LINES_NEAR),
              ("kaboom(misere=true)", BOTH_LINES_NEAR)]


def game_of(rows, cols, connect, bombs, misere, superbomb):
    return boomboard.load_game("kaboom", rows=rows, cols=cols, connect=connect, bombs=bombs, misere=misere,
                               superbomb=superbomb)


def words_of(state, geo):
    pos = bitboard.new_position()
    bitboard.from_array(state.array, geo, pos)
    return pos


def array_of(pos, geo, like):
    s = np.empty_like(like)
    bitboard.to_array(pos, geo, s)
    return s


def play_both(game, start, rng, where):
    """One random game in both engines from the state ``start``, compared at
    every ply; returns the final array."""
    params, geo = game.params_array, game.bitboard_geometry()
    s = start.array.copy()
    pos = words_of(start, geo)
    out_array = np.empty(game.num_distinct_actions(), np.int32)
    out_bits = np.empty(game.num_distinct_actions(), np.int32)
    moves = []
    while True:
        assert np.array_equal(array_of(pos, geo, s), s), f"{where} after {moves}: positions differ"
        n = rules.legal_actions(s, params, out_array)
        assert list(out_bits[:bitboard.legal_actions(pos, geo, out_bits)]) == list(out_array[:n]), \
            f"{where} after {moves}: legal actions differ"
        if n == 0:
            return s
        action = int(out_array[rng.randrange(n)])
        moves.append(game.action_to_string(None, action))
        rules.apply_action(s, params, action)
        bitboard.apply_action(pos, geo, action)


def ending(s):
    return f"{s[STATUS]}:{s[REASON]}"


@pytest.mark.parametrize("name, position, depth", PERFT_CASES)
def test_perft_counts_equal_the_array_engines(name, position, depth):
    game = boomboard.load_game(name)
    state = game.new_initial_state() if position is None else game.state_from_notation(position)
    pos, geo = words_of(state, game.bitboard_geometry()), game.bitboard_geometry()
    assert [bitboard.perft(pos, geo, d) for d in range(depth + 1)] == \
        [compiled_perft(state, d) for d in range(depth + 1)]


def test_random_games_of_every_variant_agree_at_every_ply():
    rng = random.Random(48)
    endings = {}
    for rows, cols, connect, bombs, misere, superbomb, games in VARIANTS:
        game = game_of(rows, cols, connect, bombs, misere, superbomb)
        for number in range(games):
            final = play_both(game, game.new_initial_state(), rng, f"{game} game {number}")
            endings[ending(final)] = endings.get(ending(final), 0) + 1
    for name, position in HAND_BUILT:
        game = boomboard.load_game(name)
        for number in range(30):
            final = play_both(game, game.state_from_notation(position), rng, f"{name} from {position}, game {number}")
            endings[ending(final)] = endings.get(ending(final), 0) + 1
    connect, both, no_actions = rules.REASON_CONNECT, rules.REASON_BOTH_CONNECT, rules.REASON_NO_ACTIONS
    assert {f"1:{connect}", f"2:{connect}", f"3:{both}", f"3:{no_actions}"} <= set(endings), endings


@st.composite
def fitting_games(draw):
    rows = draw(st.integers(1, 12))
    cols = draw(st.integers(1, min(12, 64 // (rows + 1))))
    return game_of(rows, cols, draw(st.integers(1, min(max(rows, cols), 6))), draw(st.integers(0, min(rows * cols, 4))),
                   draw(st.booleans()), draw(st.booleans()))


@settings(max_examples=100, deadline=None)
@given(fitting_games(), st.integers(0, 2**32))
def test_any_board_that_fits_agrees(game, seed):
    play_both(game, game.new_initial_state(), random.Random(seed), f"{game} seed {seed}")


def test_a_board_past_64_bits_is_refused_in_one_line():
    game = KaboomGame(rows=8, cols=8)  # 9 bits a column, 72 in all
    assert not game.bitboard_fits and KaboomGame(rows=7, cols=8).bitboard_fits
    with pytest.raises(ParameterError, match=r"^a 8x8 Kaboom board does not fit a 64-bit bitboard .*72.*"
                                             r"use the array engine$"):
        game.bitboard_geometry()


NO_JIT_SCRIPT = """
import json, random
import numpy as np
import boomboard
from boomboard.games.kaboom import bitboard
seen = {}
for name in ("kaboom(bombs=3,superbomb=true)", "kaboom(rows=6,cols=7,bombs=2,misere=true,connect=3)"):
    game = boomboard.load_game(name)
    geo, pos = game.bitboard_geometry(), bitboard.new_position()
    out = np.empty(game.num_distinct_actions(), np.int32)
    rng, words = random.Random(7), []
    for _ in range(15):
        bitboard.from_array(game.new_initial_state().array, geo, pos)
        while (n := bitboard.legal_actions(pos, geo, out)) > 0:
            bitboard.apply_action(pos, geo, int(out[rng.randrange(n)]))
            words.append([int(w) for w in pos] + [int(bitboard.position_key(pos, geo))])
    seen[name] = words + [bitboard.perft(pos, geo, 3)]
print(json.dumps(seen))
"""


def test_the_kernels_run_as_plain_python_with_the_same_results():
    plain, compiled = run_json_script(NO_JIT_SCRIPT, "1"), run_json_script(NO_JIT_SCRIPT, "0")
    assert plain == compiled
    assert all(len(words) > 100 for words in plain.values())
