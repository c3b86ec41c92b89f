"""Perft node counts for Kaboom, each confirmed by the reference engine in
tests/reference/kaboom.py to the depth given; deeper counts are regression
numbers from the compiled engine."""

import pytest

import boomboard
from boomboard.core.perft import compiled_perft, perft, perft_divide
from reference.kaboom import KaboomReference, reference_perft

POSITION_9 = "(o 0 1 xoxx --*o --oo --x-)"  # the seed's, X's bomb on the board
BOMBS_IN_HAND = "(x 1 1 xoo- ox-- x--- ----)"
TWO_BOMBS_EACH = "(x 1 1 xoxx o@*o -o-- ----)"  # both players' bombs next to each other

CASES = [  # (game, start or None, counts for depth 1, 2, ..., depths the reference confirms)
    ("kaboom", None, [8, 64, 416, 2694, 15652, 90114, 479918, 2483780], 7),
    ("kaboom", POSITION_9, [6, 22, 106, 380, 1716, 5696, 24514, 77224], 8),
    ("kaboom", BOMBS_IN_HAND, [8, 60, 348, 1920, 9043, 40609, 159408], 7),
    ("kaboom(rows=5,cols=5,bombs=2)", None, [10, 100, 1050, 11012, 107239, 1040219], 5),
    ("kaboom(bombs=2,superbomb=true)", TWO_BOMBS_EACH, [9, 76, 438, 2714, 13972, 73084, 367094], 7),
    ("kaboom(connect=3,misere=true)", BOMBS_IN_HAND, [8, 60, 276, 1278, 4897, 14294], 6),
]


def start(game, position):
    return game.new_initial_state() if position is None else game.state_from_notation(position)


@pytest.mark.parametrize("name, position, counts, confirmed", CASES)
def test_compiled_perft(name, position, counts, confirmed):
    state = start(boomboard.load_game(name), position)
    assert [compiled_perft(state, depth) for depth in range(1, len(counts) + 1)] == counts


@pytest.mark.parametrize("name, position, counts, confirmed", CASES)
def test_reference_engine_confirms_the_counts(name, position, counts, confirmed):
    reference = KaboomReference(**boomboard.load_game(name).get_parameters())
    first = reference.initial() if position is None else reference.from_notation(position)
    assert reference_perft(reference, first, confirmed) == counts[confirmed - 1]
    assert [reference_perft(reference, first, d) for d in range(1, 4)] == counts[:3]


def test_perft_through_the_state_api_agrees():
    state = boomboard.load_game("kaboom").new_initial_state()
    assert perft(state, 4) == 2694
    divide = perft_divide(state, 3)
    assert len(divide) == 8 and sum(divide.values()) == 416
    assert divide["A"] == divide["D"] and divide["B*"] == divide["C*"]  # the board's mirror symmetry


def test_perft_stops_counting_at_the_end_of_a_game():
    # X's D and D* (a bomb counts as X's piece) win at once: no replies there
    state = boomboard.load_game("kaboom").state_from_notation("(x 1 1 xxx- ooo- ---- ----)")
    assert perft(state, 1) == 8
    assert perft_divide(state, 2) == {"A": 8, "B": 8, "C": 8, "D": 0, "A*": 8, "B*": 8, "C*": 8, "D*": 0}
    reference = KaboomReference()
    assert reference_perft(reference, reference.from_notation(state.to_notation()), 2) == 48
