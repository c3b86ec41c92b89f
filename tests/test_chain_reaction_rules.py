"""Every rule of Chain Reaction (docs/games/chain_reaction.md), each in a position where it matters."""

import random

import numpy as np
import pytest

import boomboard
from boomboard import IllegalActionError, Outcome
from boomboard.games.chain_reaction import ChainReactionGame, evaluation, rules
from no_jit import run_json_script

REASONS = ChainReactionGame.end_reasons

GAME = boomboard.load_game("chain_reaction")


def grid(rows: int, cols: int, cells: dict[str, str], side: str) -> str:
    """A position text from the occupied cells by name, e.g. {"a1": "2r"}."""
    lines = [" ".join(cells.get(f"{'abcdefghijkl'[c]}{r + 1}", ".") for c in range(cols))
             for r in reversed(range(rows))]
    return "\n".join(lines + [side])


def load(rows: int, cols: int, cells: dict[str, str], side: str):
    return boomboard.load_game("chain_reaction", rows=rows, cols=cols).state_from_notation(grid(rows, cols, cells, side))


def names(state) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


# -- grid and start ---------------------------------------------------------------------
@pytest.mark.parametrize("rows, cols", [(2, 2), (3, 5), (9, 6), (12, 12), (2, 12)])
def test_start_is_an_empty_grid_and_red_moves_first_anywhere(rows, cols):
    state = boomboard.load_game("chain_reaction", rows=rows, cols=cols).new_initial_state()
    assert state.total_orbs() == 0 and state.orbs_of(0) == state.orbs_of(1) == 0
    assert state.current_player() == 0 and state.game.player_names == ("red", "green")
    assert state.legal_actions() == list(range(rows * cols)) and not state.is_terminal()


def test_default_grid_is_9_rows_by_6_columns_and_each_side_runs_2_to_12():
    assert (GAME.rows, GAME.cols) == (9, 6) and GAME.num_distinct_actions() == 54
    for bad in ({"rows": 1}, {"cols": 1}, {"rows": 13}, {"cols": 13}):
        with pytest.raises(boomboard.ParameterError):
            boomboard.load_game("chain_reaction", **bad)
    assert str(boomboard.load_game("chain_reaction(rows=3,cols=3)")) == "chain_reaction(rows=3,cols=3)"


def test_cells_are_column_letter_and_row_from_the_bottom_and_ids_run_row_by_row():
    state = GAME.new_initial_state()
    assert [state.action_to_string(a) for a in (0, 1, 5, 6, 53)] == ["a1", "b1", "f1", "a2", "f9"]
    assert state.play("c4") == 3 * 6 + 2  # row 4 (index 3) times 6 columns, plus column c (2)
    assert state.cell("c4") == ("red", 1)
    assert state.to_notation().splitlines()[5] == ". . 1r . . ."  # the 6th line from the top is row 4


def test_critical_mass_is_the_number_of_orthogonal_neighbours():
    state = GAME.new_initial_state()
    assert [state.critical_mass(c) for c in ("a1", "f1", "a9", "f9")] == [2, 2, 2, 2]
    assert [state.critical_mass(c) for c in ("c1", "a5", "f4", "d9")] == [3, 3, 3, 3]
    assert [state.critical_mass(c) for c in ("b2", "c5", "e8")] == [4, 4, 4]
    assert list(GAME.params_array[rules.CRITICAL:rules.CRITICAL + 6]) == [2, 3, 3, 3, 3, 2]


# -- the move ------------------------------------------------------------------------------
def test_a_move_places_one_orb_on_an_empty_or_own_cell():
    state = GAME.new_initial_state()
    state.play("c3")
    state.play("d4")  # Green on an empty cell
    assert state.cell("d4") == ("green", 1)
    state.play("c3")  # Red on its own cell
    assert state.cell("c3") == ("red", 2) and state.total_orbs() == 3


def test_a_player_may_not_place_on_the_opponents_cell():
    state = GAME.new_initial_state()
    state.play("a1")
    assert "a1" not in names(state) and len(names(state)) == 53
    with pytest.raises(IllegalActionError, match="cell a1 is red; Green may put an orb only into an empty or green"):
        state.play("a1")
    with pytest.raises(IllegalActionError, match="legal actions"):
        state.apply_action(0)
    state.play("b1")
    assert "b1" not in names(state) and "a1" in names(state)


GREENS_FAR = {"a1": ("d4", "c4"), "d4": ("a1", "b1"), "b1": ("d4", "c4"), "a3": ("d1", "d2"),
              "b2": ("d4", "a4"), "c3": ("a1", "b1")}


@pytest.mark.parametrize("cell, mass", [("a1", 2), ("d4", 2), ("b1", 3), ("a3", 3), ("b2", 4), ("c3", 4)])
def test_a_cell_explodes_when_it_reaches_its_critical_mass(cell, mass):
    for before in range(1, mass):
        cells = {cell: f"{before}r"}
        far = GREENS_FAR[cell]
        for green in far[:1 + (before + 1) % 2]:  # one or two green orbs far away keep Red to move
            cells[green] = "1g"
        state = load(4, 4, cells, "r")
        assert state.critical_mass(cell) == mass
        state.play(cell)
        if before + 1 < mass:  # below its critical mass: it stays
            assert state.cell(cell) == ("red", before + 1)
        else:  # at its critical mass: it loses them all, one to each neighbour
            assert state.cell(cell) == ("empty", 0)
            around = [n for n in ("a1", "b1", "c1", "d1", "a2", "b2", "c2", "d2", "a3", "b3", "c3", "d3",
                                  "a4", "b4", "c4", "d4") if abs(ord(n[0]) - ord(cell[0])) + abs(int(n[1]) - int(cell[1])) == 1]
            assert len(around) == mass and all(state.cell(n) == ("red", 1) for n in around)
            assert state.total_orbs() == sum(int(v[:-1]) for v in cells.values()) + 1


def test_an_explosion_captures_the_neighbours_with_all_their_orbs():
    state = load(3, 3, {"a1": "1r", "b1": "2g", "a2": "1g", "c2": "1r", "c3": "1g"}, "r")
    state.play("a1")
    # wave 1: a1 (2 = its mass) explodes: a2 becomes 2r, b1 3r, both captured with their orbs.
    # wave 2: b1 (3 = its mass) explodes onto a1, c1 and b2. Nothing else is unstable.
    assert state.to_notation() == ". . 1g\n2r 1r 1r\n1r . 1r\ng"
    assert (state.orbs_of(0), state.orbs_of(1)) == (6, 1) and not state.is_terminal()


def test_explosions_go_in_waves_and_a_cell_may_gain_from_two_at_once():
    state = load(3, 4, {"b2": "3r", "b1": "2r", "b3": "2r", "a2": "1g", "d2": "1g", "d3": "1g"}, "r")
    state.play("b2")
    # wave 1: b2 explodes: b1 and b3 reach 3 (their mass), a2 is taken (2r), c2 gets 1r.
    # wave 2: b1 and b3 explode together; b2, emptied in wave 1, gains one from each.
    assert state.to_notation() == "1r . 1r 1g\n2r 2r 1r 1g\n1r . 1r .\ng"


def test_an_exploding_cell_left_without_orbs_is_empty():
    state = load(2, 3, {"a1": "1r", "c2": "1g"}, "r")
    state.play("a1")
    assert state.cell("a1") == ("empty", 0) and state.owner("b1") == "red"
    assert "a1" in names(state)  # Green may now play there


# -- the end --------------------------------------------------------------------------------------
def test_a_player_without_orbs_loses_only_once_both_have_moved():
    state = boomboard.load_game("chain_reaction", rows=2, cols=2).new_initial_state()
    state.play("a1")
    assert state.orbs_of(1) == 0 and not state.is_terminal()  # Green has not moved yet
    assert not load(2, 2, {"a1": "1r"}, "g").is_terminal()


def test_the_cascade_stops_after_the_wave_that_takes_the_opponents_last_orb():
    state = load(3, 3, {"a1": "1r", "b1": "2g", "a2": "1g"}, "r")
    state.play("a1")
    # wave 1 takes both green cells: the cascade stops, b1 left unstable with 3 orbs
    assert state.to_notation() == ". . .\n2r . .\n. 3r .\ng"
    assert state.orbs("b1") >= state.critical_mass("b1")
    assert state.outcome() == Outcome(winner=0, reason=REASONS.NO_TOKENS, detail="Green has no orbs left")
    assert state.legal_actions() == [] and state.returns() == [1.0, -1.0]


def test_the_whole_last_wave_explodes_before_the_stop():
    state = load(3, 4, {"b2": "3r", "b1": "2r", "b3": "2r", "a2": "1g", "a3": "1g", "a1": "1r"}, "r")
    state.play("b2")
    # wave 1 takes a2; wave 2: b1 and b3 explode together, b3 takes a3, Green's last orb.
    # b1's explosion in the same wave still happens; a1 and a3, unstable, do not explode.
    assert state.to_notation() == "2r . 1r .\n2r 2r 1r .\n2r . 1r .\ng"
    assert state.outcome().winner == 0


def test_green_wins_by_wiping_out_red():
    state = load(2, 2, {"a2": "1r", "b2": "1g", "b1": "1g"}, "g")
    state.play("b2")
    assert state.to_notation() == "2g .\n. 2g\nr"
    assert state.outcome() == Outcome(winner=1, reason=REASONS.NO_TOKENS, detail="Red has no orbs left")
    assert state.returns() == [-1.0, 1.0]
    assert str(state).splitlines()[-1] == "Green wins: Red has no orbs left"


def test_a_grid_that_cannot_settle_stops_at_the_wipe_out():
    # 2x2 holds at most 4 orbs stably: the 5th can only end the game.
    state = load(2, 2, {"a1": "1r", "b1": "1r", "a2": "1g", "b2": "1g"}, "r")
    state.play("a1")
    assert state.to_notation() == ". 3r\n2r .\ng" and state.outcome().winner == 0


def test_a_loaded_one_coloured_grid_is_already_won_even_with_unstable_cells():
    state = load(3, 3, {"a1": "2r", "b1": "1r"}, "g")
    assert state.is_terminal() and state.outcome().winner == 0 and state.legal_actions() == []
    with pytest.raises(IllegalActionError, match="game is over"):
        state.string_to_action("c3")


def test_the_side_to_move_is_the_parity_of_the_orbs():
    state = GAME.new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal():
        assert state.current_player() == state.total_orbs() % 2 and state.total_orbs() == state.ply()
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.total_orbs() == state.ply()


def test_no_ties_and_every_random_game_ends_within_the_proven_length():
    for rows, cols in ((2, 2), (2, 3), (3, 3), (4, 5), (9, 6)):
        game = boomboard.load_game("chain_reaction", rows=rows, cols=cols)
        assert game.max_game_length() == 3 * rows * cols - 2 * rows - 2 * cols + 1
        rng = random.Random(rows * cols)
        for _ in range(60):
            state = game.new_initial_state()
            while not state.is_terminal():
                assert state.legal_actions()  # the player to move always has a move
                state.apply_action(rng.choice(state.legal_actions()))
            assert state.outcome().winner in (0, 1) and state.outcome().reason == REASONS.NO_TOKENS
            assert state.ply() <= game.max_game_length()
    assert GAME.max_game_length() == 133


def test_the_length_bound_is_reached_on_2x2():
    state = boomboard.load_game("chain_reaction", rows=2, cols=2).new_initial_state()
    for move in ("a1", "b2", "b1", "a2"):
        state.play(move)
    assert state.total_orbs() == 4 and not state.is_terminal()  # every cell at mass - 1
    for action in state.legal_actions():  # Red's 5th move always wins
        assert state.child(action).outcome().winner == 0
    assert state.ply() + 1 == state.game.max_game_length() == 5


def test_the_cascade_guard_raises_past_its_bound_instead_of_looping():
    assert rules.wave_limit(2, 2) == 3 * 2 * 5 + 1
    state = load(3, 3, {"a1": "1r", "b1": "2g", "a2": "1g", "c2": "1r", "c3": "1g"}, "r")  # two waves
    for limit, raises in ((0, True), (1, True), (2, False)):
        array = np.array(state.array)
        params = state.game.params_array.copy()
        params[rules.P_WAVE_LIMIT] = limit
        if raises:
            with pytest.raises(RuntimeError, match="bound"):
                rules.apply_action(array, params, 0)
        else:
            rules.apply_action(array, params, 0)


# -- the rest of the engine ---------------------------------------------------------------------------
def test_position_keys_tell_positions_apart_and_the_side_to_move():
    game = boomboard.load_game("chain_reaction", rows=3, cols=3)
    keys = set()
    for text in (grid(3, 3, {}, "r"), grid(3, 3, {"a1": "1r"}, "g"), grid(3, 3, {"b1": "1r"}, "g"),
                 grid(3, 3, {"a1": "1r", "b1": "1g"}, "r"), grid(3, 3, {"a1": "1g", "b1": "1r"}, "r")):
        state = game.state_from_notation(text)
        keys.add(int(rules.position_key(state.array, game.params_array)))
    assert len(keys) == 5
    array = game.new_initial_state().array.copy()
    array[0] = 1
    assert rules.position_key(array, game.params_array) != rules.position_key(game.initial_array(), game.params_array)


def test_the_board_picture():
    state = load(3, 3, {"a1": "1r", "b2": "3g", "c3": "1r"}, "g")
    assert str(state) == "3  .  . 1r\n2  . 3g  .\n1 1r  .  .\n   a  b  c\nGreen to move"
    cells = state.board_view().rows
    assert cells[0][2].owner == 0 and cells[1][1].owner == 1 and cells[0][0].owner is None


def test_evaluation_is_from_the_side_of_the_player_to_move():
    game = boomboard.load_game("chain_reaction", rows=3, cols=3)
    start = game.new_initial_state()
    assert evaluation.evaluate(start.array, game.params_array) == 0
    assert evaluation.evaluate(start.child(0).array, game.params_array) < 0  # Green, to move, is an orb behind
    one = load(3, 3, {"a1": "1r", "b2": "2r", "c2": "2g"}, "g").array
    other = one.copy()  # the colours swapped and the other player to move (not a position parity allows)
    other[0] = 1 - one[0]
    other[rules.ORBS:rules.ORBS + 2] = one[rules.ORBS + 1], one[rules.ORBS]
    owners = other[rules.COUNT + 9:]
    owners[owners > 0] = 3 - owners[owners > 0]
    assert evaluation.evaluate(one, game.params_array) == evaluation.evaluate(other, game.params_array) == 20
    state = load(3, 3, {"a1": "1r", "b2": "3g"}, "r")
    assert evaluation.is_explosive(state.array, game.params_array, 0)  # a1: 1 orb, mass 2
    assert not evaluation.is_explosive(state.array, game.params_array, 1)  # b1: empty, mass 3


def test_load_game_strings_serialization_and_state_from_position():
    game = boomboard.load_game("chain_reaction(rows=3,cols=3)")
    assert game == boomboard.load_game("chain_reaction", rows=3, cols=3)
    state = game.new_initial_state()
    for move in ("a1", "c3", "a1"):
        state.play(move)
    again = game.deserialize_state(state.serialize())
    assert again == state and again.history() == [0, 8, 0]
    loaded = ChainReactionGame.state_from_position(state.to_notation())
    assert loaded.game == game and loaded == state


NO_JIT_SCRIPT = """
import json, random, boomboard
out = {}
for name in ("chain_reaction", "chain_reaction(rows=3,cols=3)", "chain_reaction(rows=2,cols=5)"):
    rng = random.Random(11)
    games = []
    for _ in range(3):
        state = boomboard.load_game(name).new_initial_state()
        seen = []
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            seen.append(state.to_notation())
        games.append([seen, str(state.outcome())])
    out[name] = games
print(json.dumps(out))
"""


def test_kernels_run_as_plain_python_with_the_same_results():
    plain, compiled = run_json_script(NO_JIT_SCRIPT, "1"), run_json_script(NO_JIT_SCRIPT, "0")
    assert plain == compiled
    assert all(len(seen) > 5 for games in plain.values() for seen, _ in games)


def test_the_docs_page_example_prints_what_the_page_says_and_the_doctests_hold():
    import contextlib
    import doctest
    import io
    from pathlib import Path

    from boomboard.games.chain_reaction import game as game_module

    page = (Path(__file__).parent.parent / "docs" / "games" / "chain_reaction.md").read_text()
    example = page.split("## Python example")[1]
    code = example.split("```python\n")[1].split("```")[0]
    printed = example.split("prints\n\n```\n")[1].split("```")[0]
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        exec(compile(code, "chain_reaction.md", "exec"), {})
    assert output.getvalue() == printed
    failures, tried = doctest.testmod(game_module)
    assert tried > 0 and failures == 0


def test_the_terminal_plays_chain_reaction_between_two_random_players():
    import os
    import subprocess
    import sys

    env = {**os.environ, "COLUMNS": "120", "TERM": "dumb"}
    done = subprocess.run([sys.executable, "-m", "boomboard", "play", "chain_reaction", "--red", "random",
                           "--green", "random", "--seed", "5", "--rows", "4", "--cols", "5"],
                          capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr
    assert "wins: Red has no orbs left" in done.stdout or "wins: Green has no orbs left" in done.stdout
    assert "   a  b  c  d  e" in done.stdout  # the grid drawn from the board view, columns lettered
