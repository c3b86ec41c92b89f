"""The strong solver: small tables solved here, checked entry by entry against
their children, against full-depth alpha-beta, and by their position counts."""

from __future__ import annotations


import numpy as np
import pytest

import boomboard
from boomboard import solver
from boomboard.agents import make_agent
from boomboard.solver.hashed import graph
from boomboard.solver.analysis import search_disagreements
from solve_helpers import steps_saved, stop_after, stop_before_scoring

# Reachable non-terminal positions of the small tables: regression figures.
COUNTS = {
    "kaboom(rows=3,cols=3,connect=3)": 26187,
    "kaboom(rows=4,cols=4,bombs=0)": 134289,
    "jump61(size=2)": 39,
    "jump61(size=3)": 288293,
}
POSITION_14 = "(x 0 0 xoxx o@*o -ooo -xxx)"


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    return tmp_path_factory.mktemp("solved")


@pytest.fixture(scope="module")
def kaboom3(db):
    return solver.solve(boomboard.load_game("kaboom(rows=3,cols=3,connect=3)"), db=db, progress=False,
                        settings=solver.SolveSettings(method="memory"))


@pytest.fixture(scope="module")
def endgame3(db):
    return solver.solve(boomboard.load_game("expendibots"), db=db, progress=False, settings=solver.SolveSettings(tokens=3))


@pytest.mark.parametrize("name", sorted(COUNTS))
def test_small_tables_have_their_counts_and_agree_with_their_children(db, name):
    table = solver.solve(boomboard.load_game(name), db=db, progress=False, settings=solver.SolveSettings(method="memory"))
    assert len(table) == COUNTS[name]
    for lo, hi in zip(table.offsets[:-1], table.offsets[1:]):  # each layer's hashed keys sorted, distinct
        layer = np.asarray(table.keys[lo:hi])
        assert np.all(layer[1:] > layer[:-1])
    assert solver.verify(table) is None
    assert sum(table.meta["values"].values()) == len(table)


def test_start_values(db, kaboom3):
    assert kaboom3.meta["start"] == {"value": "win", "remoteness": 15}
    jump = solver.solve(boomboard.load_game("jump61(size=2)"), db=db, progress=False)
    assert jump.lookup(jump.game.new_initial_state()).value == "lose"
    plain = solver.solve(boomboard.load_game("kaboom(rows=4,cols=4,bombs=0)"), db=db, progress=False)
    assert plain.meta["start"]["value"] == "tie"  # 4x4 connect four is a tie


def test_a_corrupted_entry_is_caught_by_the_verifier(db, kaboom3):
    entries = np.array(kaboom3.entries)
    i = int(np.flatnonzero(entries >> graph.VALUE_SHIFT == graph.WIN)[100])
    entries[i] += 1  # a win one move slower than it is
    assert kaboom3.graph.verify_range(kaboom3.spec, kaboom3.game.params_array, kaboom3.game.initial_array().copy(),
                                      kaboom3.game.initial_array().copy(), np.empty(64, np.int32),
                                      np.asarray(kaboom3.keys), entries, kaboom3.offsets, 0, len(entries)) == i


def test_kaboom_table_agrees_with_full_depth_alphabeta(kaboom3):
    assert search_disagreements(kaboom3, 1000, seed=1)[1] == []


def test_jump61_table_agrees_with_full_depth_alphabeta(db):
    table = solver.solve(boomboard.load_game("jump61(size=3)"), db=db, progress=False)
    assert table.meta["start"] == {"value": "lose", "remoteness": 14}  # Red, moving first, loses
    assert search_disagreements(table, 1000, seed=2)[1] == []


def test_expendibots_endgame_wins_and_losses_agree_with_alphabeta(endgame3):
    # Alpha-beta scores a repetition 0 and cannot see a draw or a loopy tie,
    # so forced results compare, within a depth it searches quickly.
    assert search_disagreements(endgame3, 1000, seed=3, values=("win", "lose"), most_remoteness=7)[1] == []


def test_expendibots_two_token_endgames_are_all_ties(db):
    # One token each: a token next to the other booms both (a tie); anywhere
    # else, the side to move steps next to the other, which then booms.
    table = solver.solve(boomboard.load_game("expendibots"), db=db, progress=False, settings=solver.SolveSettings(tokens=2))
    assert len(table) == 2 * 64 * 63  # one token each, anywhere, either side to move
    assert table.meta["values"] == {"win": 0, "lose": 0, "tie": 8064, "draw": 0}
    assert solver.verify(table) is None


def test_expendibots_three_token_endgames(endgame3):
    assert len(endgame3) == 524160
    assert endgame3.meta["values"] == {"win": 257896, "lose": 251840, "tie": 14424, "draw": 0}
    assert solver.verify(endgame3) is None
    game = endgame3.game
    # Two White tokens stacked against one Black token: White moves next to it and wins.
    state = game.state_from_notation('{"white": [[2, 0, 0]], "black": [[1, 7, 7]]}')
    analysis = solver.analyze(state, db=endgame3.folder.parent.parent)
    assert analysis.value == "win" and analysis.moves[0].value == "win"
    assert endgame3.lookup(state.child(analysis.moves[0].action)).value == "lose"


EXPLOCUS_3 = "explocus(size=3,setup=.b1b1/.../w1w1. w)"  # two single stones each on a 3x3 board


def test_loopy_explocus_has_draws_and_agrees_with_its_children_and_alphabeta(db):
    game = boomboard.load_game(EXPLOCUS_3)
    table = solver.solve(game, db=db, progress=False)
    assert "/" not in table.folder.parent.name  # the setup's slashes do not make folders
    assert len(table) == 5208
    assert table.meta["values"] == {"win": 3628, "lose": 1420, "tie": 0, "draw": 160}
    assert table.meta["start"] == {"value": "lose", "remoteness": 12}
    assert solver.verify(table) is None
    assert search_disagreements(table, 1000, seed=4, values=("win", "lose"), most_remoteness=9)[1] == []
    draw = next(table.state_at(i) for i in range(len(table)) if table.entry_at(i).value == "draw")
    analysis = solver.analyze(draw, db=db)
    assert (analysis.value, analysis.remoteness) == ("draw", -1)
    assert analysis.moves[0].value == "draw" and all(m.value in ("draw", "lose") for m in analysis.moves)


def test_position_14_detonation_at_c2_wins_in_one(db):
    game = boomboard.load_game("kaboom")
    state = game.state_from_notation(POSITION_14)
    solver.solve(game, db=db, progress=False, root=state)
    analysis = solver.analyze(state, db=db)
    assert (analysis.value, analysis.remoteness) == ("win", 1)
    best = analysis.moves[0]
    assert (best.notation, best.value, best.remoteness) == ("C2!", "win", 1)
    assert [m.notation for m in analysis.moves] == ["C2!", "A"]


def test_analysis_orders_moves_as_gamesman_does(kaboom3):
    state = kaboom3.game.new_initial_state()
    analysis = solver.analyze(state, db=kaboom3.folder.parent.parent)
    ranks = [solver.analysis.rank_key(m.value, m.remoteness) for m in analysis.moves]
    assert ranks == sorted(ranks)
    assert (analysis.moves[0].value, analysis.moves[0].remoteness) == (analysis.value, analysis.remoteness)
    for move in analysis.moves:
        child = kaboom3.lookup(state.child(move.action))
        assert move.remoteness == child.remoteness + 1


def test_solver_agent_wins_the_won_start_against_anyone(kaboom3):
    db = str(kaboom3.folder.parent.parent)
    game = kaboom3.game
    for seed in range(6):
        players = [make_agent(f"solver:db={db}", seed=seed), make_agent("random", seed=seed)]
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(players[state.current_player()].choose_action(state))
        assert state.returns()[0] == 1.0
        # a perfect game from the start lasts exactly the remoteness
        perfect = [make_agent(f"solver:db={db}", seed=seed + side) for side in (0, 1)]
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(perfect[state.current_player()].choose_action(state))
        assert state.ply() == 15 and state.returns()[0] == 1.0


def test_missing_tables_and_positions_raise_clear_errors(tmp_path, kaboom3):
    game = boomboard.load_game("kaboom(rows=3,cols=3,connect=3,misere=true)")
    assert solver.open_table(game, db=tmp_path) is None
    with pytest.raises(solver.NotSolvedError, match="not solved"):
        solver.analyze(game.new_initial_state(), db=tmp_path)
    with pytest.raises(solver.PositionSpaceTooLarge, match="64-bit"):
        solver.solve(boomboard.load_game("kaboom(rows=6,cols=6)"), db=tmp_path, progress=False)
    with pytest.raises(solver.PositionSpaceTooLarge, match="--tokens"):
        solver.solve(boomboard.load_game("expendibots"), db=tmp_path, progress=False)


@pytest.mark.parametrize("method, stop", [("memory", ("level", 6)), ("memory", "scoring"),
                                          ("tiers", ("durable", 100)), ("tiers", ("enumerated", 0)),
                                          ("tiers", ("solved layer", 100))])
def test_a_killed_solve_resumes_to_the_same_table(tmp_path, monkeypatch, kaboom3, method, stop):
    monkeypatch.setattr(solver.hashed.tiers, "buffer_budget", lambda: 1 << 14)  # children go to disk often
    game = kaboom3.game
    if stop == "scoring":
        stop_before_scoring(monkeypatch)
    elif stop[0] == "durable":  # the first save of every layer's children up to layer 100 or later
        stop_after(monkeypatch, lambda step: step[0] == "durable" and step[1] >= stop[1])
    else:
        stop_after(monkeypatch, stop)
    with pytest.raises(KeyboardInterrupt):
        solver.solve(game, db=tmp_path, progress=False, settings=solver.SolveSettings(method=method))
    assert solver.open_table(game, db=tmp_path) is None  # nothing half-written is taken for a table
    resumed = steps_saved(monkeypatch)
    table = solver.solve(game, db=tmp_path, progress=False, settings=solver.SolveSettings(method=method))
    if stop == ("level", 6):
        assert resumed[0] == ("level", 7)  # it went on from the next level
    if stop == "scoring":
        assert not any(phase == "level" for phase, _ in resumed)  # no level found again
    if stop[0] == "solved layer":
        assert resumed[0] == ("solved layer", 99) and ("enumerated", 0) not in resumed  # nothing done again
    if stop[0] == "durable":  # it went back only to the last layer whose children are saved
        assert all(index >= stop[1] for phase, index in resumed if phase == "durable")
    assert np.array_equal(table.keys, kaboom3.keys)
    assert np.array_equal(table.entries, kaboom3.entries)
    assert not list(tmp_path.rglob("*.work"))


@pytest.mark.parametrize("name", ["kaboom(rows=3,cols=3,connect=3,misere=true,superbomb=true)",
                                  "kaboom(rows=3,cols=3,connect=3,bombs=2)", "jump61(size=3)"])
def test_in_memory_and_layer_by_layer_solves_write_the_same_table(tmp_path, monkeypatch, name):
    monkeypatch.setattr(solver.hashed.tiers, "buffer_budget", lambda: 1 << 16)
    game = boomboard.load_game(name)
    in_memory = solver.solve(game, db=tmp_path / "memory", progress=False, settings=solver.SolveSettings(method="memory"))
    tiered = solver.solve(game, db=tmp_path / "tiers", progress=False, settings=solver.SolveSettings(method="tiers"))
    for field in ("keys", "entries", "offsets"):
        assert np.array_equal(getattr(in_memory, field), getattr(tiered, field))
    assert in_memory.meta["values"] == tiered.meta["values"] and in_memory.meta["start"] == tiered.meta["start"]
    assert solver.verify(tiered) is None


def test_a_game_too_big_for_memory_is_solved_layer_by_layer(tmp_path, monkeypatch, kaboom3):
    monkeypatch.setattr(solver.hashed.driver, "memory_limit_positions", lambda: 5000)
    monkeypatch.setattr(type(kaboom3.game), "solver_dense_spec", lambda game: None)  # auto would solve it densely
    saved = steps_saved(monkeypatch)
    table = solver.solve(kaboom3.game, db=tmp_path, progress=False)
    seen = [phase for phase, _ in saved]
    assert "level" in seen and "solved layer" in seen  # it began in memory, then went layer by layer
    assert np.array_equal(table.entries, kaboom3.entries)
    with pytest.raises(solver.SolveError, match="no layers"):
        solver.solve(boomboard.load_game("expendibots"), db=tmp_path, settings=solver.SolveSettings(tokens=2, method="tiers"))
    with pytest.raises(solver.SolveError, match="more than"):
        solver.solve(boomboard.load_game("jump61(size=3)"), db=tmp_path, progress=False,
                     settings=solver.SolveSettings(method="tiers", max_positions=1000))
