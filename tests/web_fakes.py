"""Stand-ins with the public interfaces of the solver (issue 4) and the arena's
record store (issue 5), so that the web app's use of them is tested before
(and independently of) the real ones."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace

import boomboard


class FakeSolver:
    """The solver's public interface (issue 4), with a table for Jump61 2x2 only."""

    @staticmethod
    def open_table(game, db=None):
        return object() if str(game) == "jump61(size=2)" else None

    @staticmethod
    def analyze(state, db=None):
        moves = [SimpleNamespace(action=a, notation=state.action_to_string(a),
                                 value="win" if a == 0 else "lose", remoteness=3 if a == 0 else 2)
                 for a in state.legal_actions()]
        return SimpleNamespace(value="win", remoteness=3, moves=moves)


@dataclass
class FakeRecord:
    id: int
    game: str
    players: list
    actions: list
    times: list = field(default_factory=list)
    winner: int | None = None
    reason: str = ""
    tournament_id: int | None = 1
    started: float = 0.0


class FakeArena:
    """The arena store's public interface (issue 5)."""

    def __init__(self):
        state = boomboard.load_game("kaboom").new_initial_state()
        for move in ["A", "B", "A", "B", "A", "B", "A"]:
            state.play(move)
        self.records = [FakeRecord(7, "kaboom", ["ai", "random"], state.history(), winner=0, reason="connect")]

    def games(self, limit=50, offset=0, tournament_id=None):
        return [r for r in self.records if tournament_id is None or r.tournament_id == tournament_id][offset:limit]

    def game(self, game_id):
        for record in self.records:
            if record.id == game_id:
                return record
        raise KeyError(game_id)

    def tournaments(self):
        return [SimpleNamespace(id=1, game="kaboom", name="demo")]

    def standings(self, tournament_id):
        return [SimpleNamespace(agent="ai", games=2, wins=2, ties=0, losses=0, score=2.0, elo=120.0, elo_error=80.0),
                SimpleNamespace(agent="random", games=2, wins=0, ties=0, losses=2, score=0.0, elo=-120.0,
                                elo_error=80.0)]
