"""Perft node counts for Expendibots, each confirmed by the reference engine in
tests/reference/expendibots.py to depth 3 (5 for the small ending); the
deepest count of each is a regression number from the compiled engine."""

import pytest

import boomboard
from boomboard.core.perft import compiled_perft, perft, perft_divide
from boomboard.games.expendibots.notation import START_POSITION
from reference.expendibots import expendibots_reference

GAME = boomboard.load_game("expendibots")
# contact in the centre: booms chain through both colours
MIDGAME_1 = ('{"white": [[1, 0, 0], [2, 6, 0], [3, 2, 2], [2, 5, 2], [1, 3, 3], [1, 4, 5]], '
             '"black": [[1, 4, 4], [2, 2, 5], [1, 5, 5], [3, 5, 6], [1, 1, 7], [2, 7, 7]]}')
# Black to move, stacks of 2 and 3 on both sides
MIDGAME_2 = ('{"white": [[1, 0, 0], [3, 3, 1], [2, 6, 1], [1, 2, 3], [2, 4, 4]], '
             '"black": [[1, 5, 3], [2, 3, 5], [1, 4, 5], [1, 1, 6], [3, 6, 6], [2, 0, 7]], "turn": "black"}')
# four tall stacks: long moves, many counts
TALL = '{"white": [[6, 1, 1], [3, 4, 3]], "black": [[4, 2, 5], [5, 6, 6]]}'
# games end within a few actions, so lines stop early
ENDING = '{"white": [[1, 0, 0], [1, 3, 0]], "black": [[1, 1, 1], [2, 4, 2]]}'

CASES = [  # (position, counts for depth 1, 2, 3, ...; the reference checks the first `checked`)
    (START_POSITION, [50, 2500, 119400, 5702544], 3),
    (MIDGAME_1, [67, 4157, 255081, 14601321], 3),
    (MIDGAME_2, [65, 4272, 256854, 15313115], 3),
    (TALL, [122, 13258, 1333602, 125513759], 3),
    (ENDING, [7, 145, 850, 12316, 71485, 930687], 5),
]
NAMES = ["start", "midgame-1", "midgame-2", "tall", "ending"]


def reference_perft(reference, position, depth):
    if depth == 0:
        return 1
    if reference.result(position) is not None:
        return 0
    moves = reference.legal(position)
    if depth == 1:
        return len(moves)
    return sum(reference_perft(reference, reference.play(position, move), depth - 1) for move in moves)


@pytest.mark.parametrize("position, counts, checked", CASES, ids=NAMES)
def test_compiled_perft(position, counts, checked):
    state = GAME.state_from_notation(position)
    assert [compiled_perft(state, depth) for depth in range(1, len(counts) + 1)] == counts


@pytest.mark.parametrize("position, counts, checked", CASES, ids=NAMES)
def test_reference_engine_confirms_the_counts(position, counts, checked):
    reference = expendibots_reference()
    start = reference.from_notation(position)
    assert [reference_perft(reference, start, depth) for depth in range(1, checked + 1)] == counts[:checked]


def test_perft_through_the_state_api_agrees():
    state = GAME.new_initial_state()
    assert perft(state, 3) == 119400
    divide = perft_divide(state, 2)
    assert len(divide) == 50 and sum(divide.values()) == 2500
    assert set(divide.values()) == {50}  # no first action changes Black's options
    assert perft(GAME.state_from_notation(MIDGAME_2), 3) == 256854


def test_perft_stops_counting_at_the_end_of_a_game():
    # White's boom at (0, 0) takes both tokens: a tie, so that line has no continuation
    state = GAME.state_from_notation('{"white": [[1, 0, 0]], "black": [[1, 1, 1]]}')
    divide = perft_divide(state, 2)
    assert divide == {"boom a1": 0, "1 a1 a2": 4, "1 a1 b1": 4}
