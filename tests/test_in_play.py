"""A whole game's solved table in play: ``ai`` plays a solved board from its
table, perfectly, and among the moves that keep a tie it picks the one
with the best chance that the opponent goes wrong (the model of
:mod:`boomboard.solver.in_play`, checked here against a plain recursive
reimplementation of it)."""

from __future__ import annotations

import random

import pytest

import boomboard
from boomboard import solver
from boomboard.agents import make_agent
from boomboard.solver import in_play
from boomboard.solver.analysis import analyze_with
from boomboard.warmup import warm_up

SMALL = "kaboom(rows=3,cols=4,connect=4)"  # a tie: ties to keep, and losses


@pytest.fixture(scope="module")
def game():
    return boomboard.load_game(SMALL)


@pytest.fixture(scope="module")
def db(tmp_path_factory, game):
    where = tmp_path_factory.mktemp("solved")
    solver.solve(game, where, progress=False)
    return where


@pytest.fixture(scope="module")
def table(game, db):
    return solver.open_table(game, db, "start")


@pytest.fixture
def in_db(db, monkeypatch):
    monkeypatch.setenv("BOOMBOARD_DB", str(db))
    return db


def _positions(game, count, seed=0):
    """Ongoing positions of ``game`` from random games."""
    rng, found = random.Random(seed), []
    while len(found) < count:
        state = game.new_initial_state()
        for _ in range(rng.randrange(10)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            found.append(state)
    return found


def _model_swindle(table, child, moves):
    """The swindle chance of the module's model, written plainly from its docstring."""
    if child.is_terminal() or moves <= 0:
        return 0.0
    value = table.lookup(child).value
    losing, keeping = 0.0, []
    for action in child.legal_actions():
        after = child.child(action)
        entry = table.lookup(after)
        if entry.value == "win":
            losing += next(w for most, w in in_play.LOSING_REPLY_WEIGHTS if entry.remoteness <= most)
        elif entry.value == value and not after.is_terminal():
            keeping.append(after)
    if not losing + len(keeping):
        return 0.0
    error = losing / (losing + len(keeping))
    later = 0.0
    if moves > 1 and keeping:
        best = []
        for after in keeping:
            ours = [_model_swindle(table, after.child(a), moves - 1) for a in after.legal_actions()
                    if not after.child(a).is_terminal() and table.lookup(after.child(a)).value == value]
            best.append(max(ours, default=0.0))
        later = sum(best) / len(best)
    return error + (1 - error) * later


def test_ai_plays_a_solved_board_from_its_table(game, in_db, table):
    agent = make_agent("ai:time=0.05", seed=3)
    agent.new_game(game, 0)
    for state in _positions(game, 40):
        action = agent.choose_action(state.clone())
        assert agent.last_thinking.startswith("solved: ")
        analysis = analyze_with(table, state)
        chosen = next(move for move in analysis.moves if move.action == action)
        best = analysis.moves[0]
        if analysis.value == "win":  # the fastest win
            assert (chosen.value, chosen.remoteness) == (best.value, best.remoteness)
        else:  # the value is kept: never a tie given away
            assert chosen.value == analysis.value


def test_a_kept_tie_is_the_one_likeliest_to_be_lost_by_the_opponent(game, table):
    chooser = in_play.TableChooser(table, "solved")
    checked = 0
    for state in _positions(game, 60, seed=1):
        analysis = analyze_with(table, state)
        keeping = [move for move in analysis.moves if move.value == "tie"]
        if analysis.value != "tie" or len(keeping) < 2:
            continue
        ahead = in_play.LOOKAHEAD if len(keeping) * len(analysis.moves) ** 3 <= in_play.LOOKUP_BUDGET else 1
        chances = {m.action: _model_swindle(table, state.child(m.action), ahead) for m in keeping}
        action, why = chooser.choose(state, random.Random(0))
        assert chances[action] == pytest.approx(max(chances.values()))
        assert f"{max(chances.values()):.0%} chance" in why
        checked += 1
    assert checked >= 5


def test_a_lost_position_gives_the_opponent_its_best_chance_to_let_the_win_go(game, table):
    chooser = in_play.TableChooser(table, "solved")
    checked = 0
    rng, lost = random.Random(2), []
    while len(lost) < 30:  # positions drawn from the whole table: random play seldom reaches a loss
        i = rng.randrange(len(table))
        try:
            entry = table.entry_at(i)
        except solver.NotSolvedError:  # a rank that is no position
            continue
        if entry.value == "lose" and entry.remoteness > 2:
            lost.append(table.state_at(i))
    for state in lost:
        analysis = analyze_with(table, state)
        action, _ = chooser.choose(state, random.Random(0))
        chosen = next(move for move in analysis.moves if move.action == action)
        escape = chooser._escape_after(state.child(action))
        for move in analysis.moves:
            other = chooser._escape_after(state.child(move.action))
            assert (other, move.remoteness) <= (escape, chosen.remoteness)
        checked += 1
    assert checked >= 10


def test_without_a_table_ai_searches(game, tmp_path, monkeypatch):
    monkeypatch.setenv("BOOMBOARD_DB", str(tmp_path))
    agent = make_agent("ai:time=0.05", seed=1)
    agent.new_game(game, 0)
    agent.choose_action(game.new_initial_state())
    assert agent.last_thinking.startswith("depth ")


def test_solved_zero_turns_the_table_off(game, in_db):
    agent = make_agent("ai:time=0.05,solved=0", seed=1)
    agent.new_game(game, 0)
    agent.choose_action(game.new_initial_state())
    assert agent.last_thinking.startswith("depth ")


def test_compile_solves_a_board_that_takes_seconds(tmp_path, monkeypatch):
    monkeypatch.setenv("BOOMBOARD_DB", str(tmp_path))
    warm_up("kaboom(rows=3,cols=3,connect=3)")
    small = boomboard.load_game("kaboom(rows=3,cols=3,connect=3)")
    assert solver.open_table(small, tmp_path, "start").lookup(small.new_initial_state()).value in ("win", "tie", "lose")
