"""``--backend ray``: the same games as Ray tasks, on a local Ray instance."""

from __future__ import annotations

import pytest

from boomboard.arena.referee import Limits
from boomboard.arena.store import open_store
from boomboard.arena.tournament import create_tournament, run_tournament

ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'boomboard[ray]')")


def test_a_match_runs_as_ray_tasks_and_every_game_is_recorded(tmp_path, local_ray):
    store = open_store(tmp_path / "arena.sqlite3")
    tournament_id = create_tournament(store, "kaboom", ["greedy", "random:seed=4"], "match", 2, Limits(move_wall=30))
    run_tournament(store, tournament_id, workers=1, backend="ray")
    record = store.tournament(tournament_id)
    assert (record.slots, record.played) == (2, 2)
    import boomboard

    for game in store.games(tournament_id=tournament_id):
        assert game.status == "done" and game.settings["backend"] == "ray"
        state = boomboard.load_game("kaboom").new_initial_state()
        for action in game.actions:
            state.apply_action(action)
        assert state.is_terminal() and game.winner == state.outcome().winner
