"""Perft node counts for Jump61, each confirmed by the reference engine in
tests/reference/jump61.py; the deepest counts are regression numbers from the
compiled engine only."""

import pytest

import boomboard
from boomboard.core.perft import compiled_perft, perft, perft_divide
from reference.jump61 import jump61_reference

# After 20 random moves from the start (Red to move).
MIDGAME_1 = """===
    2r 1- 1- 1- 2b 1-
    1- 2b 3r 1- 1- 1-
    1- 1- 2r 2r 1- 2r
    1- 3b 3r 2b 1- 1-
    1- 2b 2r 2b 1- 1-
    1- 2r 1- 2b 2b 2b
==="""

# Four moves before the end of a random game: Blue holds three squares, many
# lines end in a win for Red within the depth counted.
MIDGAME_2 = """===
    2r 1r 3r 3r 2b 1-
    3r 4r 3r 3r 2b 3b
    3r 2r 4r 4r 2r 3r
    3r 3r 2r 3r 3r 3r
    3r 4r 3r 2r 4r 2r
    1r 2r 2r 3r 2r 1r
==="""

CASES = [  # (game, position or None for the start, counts at depth 1, 2, ..., reference depth)
    ("jump61", None, [36, 1260, 44100, 1500380, 51047460], 4),
    ("jump61", MIDGAME_1, [27, 735, 19326, 511655, 13109669], 4),
    ("jump61", MIDGAME_2, [33, 109, 3399, 13302, 299089, 1360432], 5),
    ("jump61(size=3)", None, [9, 72, 576, 4040, 28368, 172912], 6),
    ("jump61(size=4)", None, [16, 240, 3600, 50520, 709160, 9297640], 5),
]


def start(name, position):
    game = boomboard.load_game(name)
    return game.new_initial_state() if position is None else game.state_from_notation(position)


def reference_perft(reference, position, depth):
    if depth == 0:
        return 1
    if reference.result(position) is not None:
        return 0
    moves = reference.legal(position)
    if depth == 1:
        return len(moves)
    return sum(reference_perft(reference, reference.play(position, move), depth - 1) for move in moves)


@pytest.mark.parametrize("name, position, counts, reference_depth", CASES)
def test_compiled_perft(name, position, counts, reference_depth):
    state = start(name, position)
    assert [compiled_perft(state, depth) for depth in range(1, len(counts) + 1)] == counts


@pytest.mark.parametrize("name, position, counts, reference_depth", CASES)
def test_reference_engine_confirms_the_counts(name, position, counts, reference_depth):
    reference = jump61_reference(boomboard.load_game(name)["size"])
    root = reference.initial() if position is None else reference.from_notation(position)
    assert [reference_perft(reference, root, d) for d in range(1, reference_depth + 1)] == counts[:reference_depth]


def test_perft_through_the_state_api_agrees():
    state = boomboard.load_game("jump61").new_initial_state()
    assert perft(state, 3) == 44100  # 36 squares, then 35 for each side: never the other's square
    divide = perft_divide(state, 2)
    assert len(divide) == 36 and set(divide.values()) == {35}
    assert perft(start("jump61", MIDGAME_2), 4) == 13302


def test_perft_stops_counting_at_the_end_of_a_game():
    # 2x2, Red to move with every square full: each of Red's two moves wins
    state = start("jump61(size=2)", "===\n    2r 2b\n    2b 2r\n===")
    assert perft(state, 1) == 2 and perft(state, 2) == 0
    reference = jump61_reference(2)
    assert reference_perft(reference, reference.from_notation(state.to_notation()), 2) == 0
