"""Perft node counts for Chain Reaction, each confirmed by the reference engine
in tests/reference/chain_reaction.py; the deepest counts are regression
numbers from the compiled engine only."""

import pytest

import boomboard
from boomboard.core.perft import compiled_perft, perft, perft_divide
from reference.chain_reaction import chain_reaction_reference

# After 40 random moves from the start (Red to move).
MIDGAME_1 = """\
. . 1r 1r 1g .
2r . 2g 2g . .
1g . 1g 1r 1r 2g
. 2r . 1r 2r 1r
1r . 1r . 1g 1r
. . 1r . . .
. 1r 1g 1r 1r 1g
1g 1r 1g 1g . 1g
. 2g 1g . 1g .
r"""

# Six moves before the end of a random game of 100 moves: a crowded grid whose
# explosions run long and often wipe a player out within the depth counted.
LATE_1 = """\
1r 1r 1g 2r 2r 1g
1r 1r 3r 1r 2r 1r
2r 3r . 1r 3g 2g
2g . 2r 3g 3g 1g
1g 2g 3g 2g 2g 1g
. 3g 3g 1g 2g 2g
1g 2g 2g 3g 3g 2g
2g 3g 3g 1g 3g 2g
1g 1g 1g 1g 1g 1g
r"""

# After 10 random moves on 3x3: most lines end within six moves.
SMALL_3x3 = ". 1r 1g\n1g 2g 2r\n1r 1r 1g\nr"

# After 20 random moves on 4x4.
SMALL_4x4 = "1g 1g . .\n1r 2g 1r 2r\n2g 2g 2g 2r\n1g 1g 1g 1g\nr"

CASES = [  # (game, position or None for the start, counts at depth 1, 2, ..., reference depth)
    ("chain_reaction", None, [54, 2862, 151686, 7889906], 3),
    ("chain_reaction", MIDGAME_1, [38, 1383, 51697, 1855225], 3),
    ("chain_reaction", LATE_1, [17, 671, 10878, 421235, 5912084], 3),
    ("chain_reaction(rows=2,cols=2)", None, [4, 12, 36, 56, 56, 0], 6),
    ("chain_reaction(rows=2,cols=3)", None, [6, 30, 150, 578, 2262, 6860, 19944, 33316], 7),
    ("chain_reaction(rows=3,cols=3)", None, [9, 72, 576, 4016, 28312, 175900, 1097772], 5),
    ("chain_reaction(rows=3,cols=4)", None, [12, 132, 1452, 14528, 146080, 1341690], 4),
    ("chain_reaction(rows=3,cols=3)", SMALL_3x3, [5, 23, 89, 165, 339, 137], 5),
    ("chain_reaction(rows=4,cols=4)", SMALL_4x4, [6, 65, 424, 4052, 26816], 4),
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
    game = boomboard.load_game(name)
    reference = chain_reaction_reference(game.rows, game.cols)
    root = reference.initial() if position is None else reference.from_notation(position)
    assert [reference_perft(reference, root, d) for d in range(1, reference_depth + 1)] == counts[:reference_depth]


def test_perft_through_the_state_api_agrees():
    state = boomboard.load_game("chain_reaction").new_initial_state()
    # 54 cells; Green may not take Red's; then Red has its own cell and the 52 empty ones
    assert perft(state, 3) == 151686 == 54 * 53 * 53
    divide = perft_divide(state, 2)
    assert len(divide) == 54 and set(divide.values()) == {53}
    assert perft(start("chain_reaction", LATE_1), 3) == 10878


def test_perft_stops_counting_at_the_end_of_a_game():
    # 2x2: every game is over after five moves (the game's length bound, 5)
    state = start("chain_reaction(rows=2,cols=2)", None)
    assert compiled_perft(state, 5) == 56 and compiled_perft(state, 6) == 0
    assert state.game.max_game_length() == 5
    reference = chain_reaction_reference(2, 2)
    assert reference_perft(reference, reference.initial(), 6) == 0
