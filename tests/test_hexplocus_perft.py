"""Perft node counts for HExplocus (hexagonal board), each confirmed by the
reference engine in tests/reference/explocus.py; deeper counts are regression
numbers from the compiled engine."""

import pytest

import boomboard
from boomboard.core.perft import compiled_perft, perft
from reference.explocus import hexplocus_reference

START = "...../b2b3b4b4b3b2/......./......../........./......../......./w2w3w4w4w3w2/..... w"
MIDGAME_1 = ".b1.../.b1b1b1.b2/.b1.b1.../.b2.b1.b1../...b3.w1.../...w2..../....w1.w2/w2w1w1w3b5w2/.w1... w"
MIDGAME_2 = ".b3.../.b3b1..b1/w2.w1..../w3......./.....w1w2../.b2....../b2.b1.w1.w1/b1b1b2b1w2w1/w1b2..w1 w"

CASES = [  # (game, position, counts for depth 1, 2, 3, ...); the last is compiled only
    ("hexplocus", START, [68, 4624, 326340, 23015554]),
    ("hexplocus", MIDGAME_1, [75, 7163, 538114, 51063584]),
    ("hexplocus", MIDGAME_2, [71, 6224, 445146, 38948685]),
    ("hexplocus(side=3)", "b2b3b2/..../...../..../w2w3w2 w", [20, 400, 9360, 220772, 5423696, 134791848]),
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
    reference = hexplocus_reference(boomboard.load_game(name)["side"])
    start = reference.from_notation(position)
    depths = 4 if name == "hexplocus(side=3)" else 3
    assert [reference_perft(reference, start, depth) for depth in range(1, depths + 1)] == counts[:depths]


def test_perft_through_the_state_api_agrees():
    state = boomboard.load_game("hexplocus").new_initial_state()
    assert perft(state, 2) == 4624
    assert perft(boomboard.load_game("hexplocus", side=3).new_initial_state(), 3) == 9360
