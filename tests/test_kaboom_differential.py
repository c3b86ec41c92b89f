"""Kaboom against the reference engine, step by step, in random games: legal
moves, positions and results must agree everywhere."""

import pytest

import boomboard
from differential import compare_position, play_random_games
from reference.kaboom import KaboomReference

POSITION_9 = "(o 0 1 xoxx --*o --oo --x-)"
BOTH_LINES_NEAR = "(x 0 1 xxo* ooxo --ox ---o)"  # D1! leaves x in row 1 and o in row 2
MUST_PASS = "(o 0 0 xxoo ooxx xxoo oo*x)"  # O can only pass, then X must detonate


def run(name, games, seed, start=None):
    game = boomboard.load_game(name)
    return play_random_games(game, KaboomReference(**game.get_parameters()), games, seed=seed, start=start)


def merge(*counts):
    total: dict[str, int] = {}
    for seen in counts:
        for key, count in seen.items():
            total[key] = total.get(key, 0) + count
    return total


def test_a_thousand_whole_games_from_the_default_start():
    endings = run("kaboom", 1000, seed=1)
    assert sum(endings.values()) == 1000 and "unfinished" not in endings
    assert {"0:CONNECT", "1:CONNECT", "None:NO_ACTIONS"} <= set(endings), endings


def test_variants_and_loaded_positions_reach_every_kind_of_ending():
    endings = merge(
        run("kaboom(misere=true)", 200, seed=2),
        run("kaboom(superbomb=true,bombs=3)", 200, seed=3),
        run("kaboom(rows=5,cols=5,bombs=3)", 150, seed=4),
        run("kaboom(rows=2,cols=4,bombs=4)", 200, seed=5),  # full boards: many passes
        run("kaboom(rows=3,cols=3,connect=3,bombs=9,superbomb=true,misere=true)", 200, seed=6),
        run("kaboom(rows=6,cols=7,bombs=2)", 60, seed=7),
        run("kaboom(rows=1,cols=3,connect=1,bombs=2)", 50, seed=8),
        run("kaboom", 100, seed=9, start=POSITION_9),
        run("kaboom", 100, seed=10, start=BOTH_LINES_NEAR),
        run("kaboom", 50, seed=11, start=MUST_PASS),
        run("kaboom(superbomb=true)", 50, seed=12, start=MUST_PASS),
    )
    assert "unfinished" not in endings
    assert {"0:CONNECT", "1:CONNECT", "None:NO_ACTIONS", "None:BOTH_CONNECT"} <= set(endings), endings


def test_boards_too_large_for_a_bitboard_agree_too():
    """Boards of more than 64 bits (a spare bit a column) find lines by
    walking runs instead of on bitboards; 8x8 is just past the limit."""
    endings = merge(
        run("kaboom(rows=8,cols=8,bombs=4)", 40, seed=13),
        run("kaboom(rows=7,cols=12,connect=3,bombs=6,superbomb=true)", 40, seed=14),
    )
    assert "unfinished" not in endings
    assert {"0:CONNECT", "1:CONNECT"} <= set(endings), endings


HAND_BUILT = [  # (game, position, moves) from test_kaboom_rules.py
    ("kaboom", "(x 0 0 xoxx o@*o -ooo -xxx)", ["C2!"]),
    ("kaboom(superbomb=true)", "(x 0 0 xoxx o@*o -ooo -xxx)", ["C2!"]),
    ("kaboom(misere=true)", "(x 0 0 xoxx o@*o -ooo -xxx)", ["C2!"]),
    ("kaboom(bombs=2)", "(x 0 1 *@*o xoxo oxo- ----)", ["A1!"]),
    ("kaboom", "(x 0 1 oxo- x*x- xox- o-o-)", ["B2!"]),
    ("kaboom", "(x 0 1 xxo* ooxo --ox ---o)", ["D1!"]),
    ("kaboom", "(x 0 1 ooxo -x*x --x- --o-)", ["C2!"]),
    ("kaboom", "(x 0 0 xxoo ooxx xxoo oo*-)", ["D", "pass", "C4!"]),
    ("kaboom", "(x 1 1 xxoo ooxx xxoo oox-)", ["D"]),
    ("kaboom", "(o 0 1 xoxx --*o --oo --x-)", ["B*", "D", "B", "B", "A", "C2!"]),
]


@pytest.mark.parametrize("name, position, moves", HAND_BUILT)
def test_the_rules_tests_hand_built_positions_agree(name, position, moves):
    game = boomboard.load_game(name)
    reference = KaboomReference(**game.get_parameters())
    state, mirror = game.state_from_notation(position), reference.from_notation(position)
    for move in moves:
        compare_position(state, reference, mirror, f"{position} before {move}")
        state.play(move)
        mirror = reference.play(mirror, move)
    compare_position(state, reference, mirror, f"{position} after {moves}")
