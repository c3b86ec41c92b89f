"""Broken agents lose, each with the right reason, and the tournament completes."""

from __future__ import annotations

from pathlib import Path

from boomboard.arena.referee import Limits, play_game
from boomboard.arena.store import open_store
from boomboard.arena.tournament import create_tournament, run_tournament

BROKEN = Path(__file__).parent / "arena_agents" / "broken.py"
# The wall limit decides only Hangs and Sleeps: it is long enough that Spins, at
# a load of 10 on 2 cores (a fifth of a core: 0.55 s of CPU in about 3 s), is
# still stopped by its CPU budget first (issue 15, item 16).
LIMITS = Limits(move_cpu=0.5, move_wall=12.0, memory_mb=64)

# class -> (kind of fault, words the reason must contain)
EXPECTED = {
    "Raises": ("exception", "RuntimeError: this agent always fails"),
    "Hangs": ("timeout", "no action within 12.00 s (wall clock)"),
    "Sleeps": ("timeout", "no action within 12.00 s (wall clock)"),
    "Spins": ("time", "s of CPU for one action; the budget is 0.5 s"),
    "Hoards": ("memory", "allocated past the memory limit (MemoryError"),
    "Illegal": ("illegal", "is not legal here"),
    "Malformed": ("malformed", "the action 'A' is not an integer action id"),
    "Exits": ("crash", "the agent process exited with code 3"),
    "FailsToStart": ("exception", "ValueError: cannot start"),
}


def test_every_broken_agent_loses_with_its_reason_and_the_gauntlet_completes(tmp_path):
    store = open_store(tmp_path / "arena.sqlite3")
    broken = [f"python:{BROKEN}:{name}" for name in EXPECTED]
    tournament_id = create_tournament(store, "kaboom", ["random", *broken], "gauntlet", 2, LIMITS)
    # four games at a time: the four of Hangs and Sleeps wait out their wall limit together, not two by two
    run_tournament(store, tournament_id, workers=4)
    record = store.tournament(tournament_id)
    assert record.played == record.slots == 2 * len(EXPECTED)
    assert record.finished is not None
    games = store.games(limit=100, tournament_id=tournament_id)
    assert len(games) == 2 * len(EXPECTED) and all(g.status == "done" for g in games)
    for game in games:
        loser = 1 - game.winner
        spec = game.players[loser]
        name = spec.rsplit(":", 1)[1]
        kind, words = EXPECTED[name]
        assert game.players[game.winner] == "random"
        assert f"({spec}) forfeits: {kind}: " in game.reason, game.reason
        assert words in game.reason, game.reason
    standings = {s.agent: s for s in store.standings(tournament_id)}
    assert standings["random"].wins == 2 * len(EXPECTED)


def test_a_sound_game_is_recorded_action_by_action(tmp_path):
    store = open_store(tmp_path / "arena.sqlite3")
    tournament_id = create_tournament(store, "kaboom(rows=4,cols=4)", ["random:seed=3", "greedy"], "match", 2,
                                      Limits(move_cpu=2.0))
    run_tournament(store, tournament_id, workers=1)
    import boomboard

    for record in store.games(tournament_id=tournament_id):
        state = boomboard.load_game(record.game).new_initial_state()
        for action in record.actions:
            state.apply_action(action)
        assert state.is_terminal()
        assert record.winner == state.outcome().winner
        assert record.reason == state.outcome().describe(state.game.player_names)
        assert len(record.times) == len(record.actions) and all(t >= 0 for t in record.times)
        assert len(record.cpu) == len(record.actions) and all(c is not None and c >= 0 for c in record.cpu)
    first, second = store.games(tournament_id=tournament_id)[::-1]
    assert first.players == ["random:seed=3", "greedy"] and second.players == ["greedy", "random:seed=3"]


def test_the_game_budget_counts_cpu_over_the_whole_game():
    # The CPU budget decides, however loaded the machine. Spins' first action (1 CPU s) fits in it with room for
    # its process's start (loading the game's compiled kernels: about 0.5 CPU s); its third cannot.
    limits = Limits(game_cpu=2.5, move_wall=120)
    result = play_game("kaboom", [f"python:{BROKEN}:Spins", "random"], limits, seed=1)
    assert result.winner == 1
    assert "s of CPU" in result.reason and "budget" in result.reason and "2.5 s" in result.reason
    assert len(result.actions) >= 2  # it kept to the budget for its first action


def test_the_shown_principal_variation_stops_at_a_repetition_tie():
    # an alpha-beta agent raised GameOverError (and so lost arena games) when its
    # principal variation, read from the table, ran past a 4th repetition
    import boomboard
    from boomboard.agents.search_agents import _line_strings

    state = boomboard.load_game("expendibots").new_initial_state()
    shuffle = ["MOVE 1 from (0, 1) to (0, 2).", "MOVE 1 from (0, 6) to (0, 5).",
               "MOVE 1 from (0, 2) to (0, 1).", "MOVE 1 from (0, 5) to (0, 6)."]
    for text in (shuffle * 3)[:-1]:
        state.play(text)
    last = state.string_to_action(shuffle[-1])
    assert state.child(last).is_terminal()  # the start position's 4th occurrence
    line = [last, state.legal_actions()[0]]  # the table's line goes on past the tie
    assert _line_strings(state, line) == ["1 a6 a7"]  # the last shuffle, in the game's notation
