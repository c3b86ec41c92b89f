"""Perft node counts for Explocus (square board), each confirmed by the
reference engine in tests/reference/explocus.py; deeper counts are regression
numbers from the compiled engine."""

import pytest

import boomboard
from boomboard.core.perft import compiled_perft, perft, perft_divide
from reference.explocus import explocus_reference

START = "......../.b2b2b3b3b2b2./......../......../......../......../.w2w2w3w3w2w2./........ w"
MIDGAME_1 = "...b1..b1./.b1b3b1.b1b2./....b1b1../.b2....../.....w3../......../w1w2w1.w1.w2./..w1w1.w1w1. w"
MIDGAME_2 = ".b1..b1w1w1w1/.b2b1...w1w1/b1.b1...b1b2/.....b1b2w1/b1w1w1...../.w1.w1..../.w1....../.w1.w1..w1. w"

CASES = [  # (game, position, counts for depth 1, 2, 3, ...); the last is compiled only
    ("explocus", START, [46, 2116, 97572, 4496356]),
    ("explocus", MIDGAME_1, [46, 2190, 101529, 4829194]),
    ("explocus", MIDGAME_2, [47, 2172, 100815, 4650452]),
    ("explocus(size=4)", ".b2b2./..../..../.w2w2. w", [10, 100, 1060, 11472, 123784, 1354580, 14648274]),
]


def reference_perft(reference, position, depth):
    if depth == 0:
        return 1
    if reference.result(position) is not None:
        return 0
    moves = reference.legal(position)
    if depth == 1:
        return len(moves)
    return sum(reference_perft(reference, reference.play(position, move), depth - 1) for move in moves)


@pytest.mark.parametrize("name, position, counts", CASES)
def test_compiled_perft(name, position, counts):
    state = boomboard.load_game(name).state_from_notation(position)
    assert [compiled_perft(state, depth) for depth in range(1, len(counts) + 1)] == counts


@pytest.mark.parametrize("name, position, counts", CASES)
def test_reference_engine_confirms_the_counts(name, position, counts):
    reference = explocus_reference(boomboard.load_game(name)["size"])
    depths = 5 if name == "explocus(size=4)" else 3
    assert [reference_perft(reference, reference.from_notation(position), d) for d in range(1, depths + 1)] \
        == counts[:depths]


def test_perft_through_the_state_api_agrees():
    state = boomboard.load_game("explocus").new_initial_state()
    assert perft(state, 3) == 97572
    divide = perft_divide(state, 2)
    assert len(divide) == 46 and sum(divide.values()) == 2116
    assert divide["d2-d5"] == 46


def test_perft_stops_counting_at_the_end_of_a_game():
    # White takes Black's only stone with d4-d5: that line has no continuation
    state = boomboard.load_game("explocus").state_from_notation(
        "......../......../......../...b1..../...w1..../......../......../........ w")
    assert perft(state, 1) == 4 and perft(state, 2) == 3 * 4
    reference = explocus_reference(8)
    assert reference_perft(reference, reference.from_notation(state.to_notation()), 2) == 12
