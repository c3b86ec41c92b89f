"""The seed steers the AI: it chooses at random among root moves scored
near-equal, so different seeds give different games and the same seed (with a
search limited by depth, not by time) replays a game move for move; a forced
result is never traded for a near-equal score. Through the agents, the Jump61
course program, the engine protocol and the Expendibots course Player."""

from __future__ import annotations

import io
import random
import re

import boomboard
from boomboard.agents import make_agent
from boomboard.agents.search_agents import AI_MARGIN
from boomboard.arena.engine_session import EngineSession
from boomboard.games.jump61.course.text_program import AI_SPEC, Jump61Program
from boomboard.search.alphabeta import MATE_BOUND, AlphaBeta


def self_play(game_name: str, spec: str, seed: int, plies: int = 400) -> list[int]:
    game = boomboard.load_game(game_name)
    agents = [make_agent(spec, seed=seed), make_agent(spec, seed=seed + 1)]
    for player, agent in enumerate(agents):
        agent.new_game(game, player)
    state, moves = game.new_initial_state(), []
    while not state.is_terminal() and len(moves) < plies:
        moves.append(agents[state.current_player()].choose_action(state.clone()))
        state.apply_action(moves[-1])
    return moves


def test_the_ai_agents_seed_changes_its_game_and_the_same_seed_replays_it():
    games = {seed: self_play("jump61", "ai:depth=3", seed) for seed in (1, 3, 5)}
    assert self_play("jump61", "ai:depth=3", 1) == games[1]
    assert len({tuple(moves) for moves in games.values()}) == 3
    # a plain alpha-beta agent stays deterministic unless given a margin
    assert self_play("jump61", "alphabeta:depth=3", 1, 12) == self_play("jump61", "alphabeta:depth=3", 3, 12)


def test_with_variety_plies_the_seed_changes_only_the_opening():
    """``variety_plies=N``: moves chosen among near-equal ones before ply N,
    the search's best from there on, whatever the seed."""
    game = boomboard.load_game("jump61")
    games = {seed: self_play("jump61", "ai:depth=3,variety_plies=6", seed, 10) for seed in (1, 3, 5, 7)}
    assert len({tuple(moves[:6]) for moves in games.values()}) > 1
    for moves in games.values():
        state = game.new_initial_state()
        for action in moves[:6]:
            state.apply_action(action)
        for action in moves[6:]:  # what plain alpha-beta plays there, searched alike
            best = make_agent("alphabeta:depth=3", seed=0)
            best.new_game(game, state.current_player())
            assert action == best.choose_action(state.clone())
            state.apply_action(action)

def test_the_ai_chooses_only_between_moves_within_its_margin_and_never_trades_a_forced_result():
    game = boomboard.load_game("jump61(size=4)")
    rng = random.Random(4)
    searcher, checker = AlphaBeta(game, table_bits=16), AlphaBeta(game, table_bits=16)
    seen_forced = seen_choice = 0
    for _ in range(40):
        state = game.new_initial_state()
        for _ in range(rng.randrange(4, 30)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        searcher.clear()
        result = searcher.search(state, depth=3, margin=AI_MARGIN)
        assert result.near_best[0] == result.action
        if result.forced_result is not None:
            seen_forced += 1
            assert result.near_best == [result.action]
            continue
        seen_choice += len(result.near_best) > 1
        for action in result.near_best:  # each a full-depth score within the margin
            child = state.child(action)
            checker.clear()
            score = 0 if child.is_terminal() else -checker.search(child, depth=2).score
            assert result.score - AI_MARGIN <= score <= result.score and abs(score) < MATE_BOUND
        # a huge margin still keeps out moves that lose by force
        searcher.clear()
        wide = searcher.search(state, depth=3, margin=10 * MATE_BOUND)
        for action in wide.near_best:
            child = state.child(action)
            checker.clear()
            assert child.is_terminal() or (checker.search(child, depth=2).forced_result or 0) <= 0
    assert seen_forced and seen_choice


def program_moves(seed: int) -> list[str]:
    out = io.StringIO()
    script = f"size 4\nseed {seed}\nai ai:depth=3\nauto red\n"
    Jump61Program(out, io.StringIO()).run(io.StringIO(script))
    lines = out.getvalue().splitlines()
    assert re.fullmatch(r"\* (Red|Blue) wins\.", lines[-1])
    return lines


def test_the_jump61_programs_seed_changes_the_game_and_the_same_seed_replays_it():
    assert AI_SPEC == "ai:time=1"
    assert Jump61Program(io.StringIO(), io.StringIO()).ai_spec == AI_SPEC
    first = program_moves(1000)
    assert program_moves(1000) == first
    assert program_moves(1002) != first or program_moves(1004) != first


def engine_moves(seed: int) -> list[str]:
    session = EngineSession(seed=seed)
    assert session.agent_spec == "ai"
    for line in ("game jump61(size=4)", "agent ai:depth=3"):
        assert session.handle(line)[0]
    moves = []
    while session.handle("result")[1] == "ongoing":
        ok, move = session.handle("go")
        assert ok
        moves.append(move)
    return moves


def test_the_engines_seed_changes_the_game_and_the_same_seed_replays_it():
    first = engine_moves(7)
    assert engine_moves(7) == first
    assert engine_moves(8) != first or engine_moves(9) != first


def test_the_expendibots_course_player_plays_ai_with_its_seed(monkeypatch):
    from boomboard.games.expendibots.course import player as course_player

    monkeypatch.delenv("BOOMBOARD_AGENT", raising=False)
    monkeypatch.setenv("BOOMBOARD_SEED", "12")
    player = course_player.Player("white")
    assert course_player.DEFAULT_AGENT.startswith("ai:") and player.agent.seed == 12
    assert player.agent.delegate.margin == AI_MARGIN


def course_opening(monkeypatch, seed: int, plies: int = 24) -> list:
    """The first ``plies`` actions of the course Player (``ai`` limited by
    depth, BOOMBOARD_SEED=seed) as white against a fixed, deterministic
    course Player, in the course referee's loop."""
    from boomboard.games.expendibots.course import player as course_player

    class Opponent(course_player.Player):
        agent_spec, seed = "alphabeta:depth=2", None

    monkeypatch.setenv("BOOMBOARD_AGENT", "ai:depth=3")
    monkeypatch.setenv("BOOMBOARD_SEED", str(seed))
    players = {"white": course_player.Player("white"), "black": Opponent("black")}
    state, actions = boomboard.load_game("expendibots").new_initial_state(), []
    while not state.is_terminal() and len(actions) < plies:
        colour = ("white", "black")[state.current_player()]
        action = players[colour].action()
        actions.append(action)
        state.apply_action(state.tuple_to_action(action))
        for player in players.values():
            player.update(colour, action)
    return actions


def test_the_expendibots_course_players_seed_varies_its_openings_and_the_same_seed_replays_them(monkeypatch):
    first = course_opening(monkeypatch, 1)
    assert course_opening(monkeypatch, 1) == first
    assert course_opening(monkeypatch, 2) != first
