"""Stand-ins with the public interfaces of the solver (issue 4) and the arena's
record store (issue 5), with fixed results, so that the web app's pages can be
tested with figures known in advance."""

from __future__ import annotations

import boomboard
from boomboard.arena.store import GameRecord, Standing, StoreError, TournamentRecord
from boomboard.solver import Analysis, MoveAnalysis


class FakeSolver:
    """The solver's public interface (issue 4) with its result types, and made-up
    values for Jump61 2x2 only (``tests/test_web_integration.py`` runs the web
    app over real solved tables)."""

    @staticmethod
    def open_table(game, db=None, variant=None):
        return object() if str(game) == "jump61(size=2)" else None

    @staticmethod
    def analyze(state, db=None):
        moves = [MoveAnalysis(a, state.action_to_string(a), "win" if a == 0 else "lose", 3 if a == 0 else 2)
                 for a in state.legal_actions()]  # best first, as the solver lists them
        return Analysis("win", 3, moves)


LONG_NAMES = ["alphabeta:depth=5,seed=3", "mcts:simulations=2000,seed=3", "random"]


class FakeArena:
    """The arena store's public interface (issue 5), with the real store's
    record types (``boomboard.arena.store``) and fixed figures: one game, and
    standings whose numbers the tests can name (``tests/test_web_integration.py``
    runs the web app over the real store)."""

    def __init__(self):
        state = boomboard.load_game("kaboom").new_initial_state()
        for move in ["A", "B", "A", "B", "A", "B", "A"]:
            state.play(move)
        actions = state.history()
        self.records = [GameRecord(7, "kaboom", ["ai", "random"], actions, [0.01] * len(actions), 0, "connect", 1,
                                   "1970-01-01T00:00:00+00:00", "done", "1970-01-01T00:00:01+00:00")]

    def games(self, limit=50, offset=0, tournament_id=None):
        chosen = [r for r in self.records if tournament_id is None or r.tournament_id == tournament_id]
        return chosen[offset:offset + limit]

    def game(self, game_id):
        for record in self.records:
            if record.id == game_id:
                return record
        raise StoreError(f"no game {game_id}")

    def tournaments(self):
        return [TournamentRecord(1, "kaboom", ["ai", "random"], "match", {"games": 2}, "1970-01-01T00:00:00+00:00",
                                 None, 2, 2),
                TournamentRecord(2, "kaboom", ["ai", "random"], "match", {"games": 2}, "1970-01-01T00:00:00+00:00",
                                 None, 2, 2),
                TournamentRecord(3, "kaboom", LONG_NAMES, "round-robin", {"games": 4}, "1970-01-01T00:00:00+00:00",
                                 None, 6, 6)]

    def standings(self, tournament_id):
        if tournament_id not in {record.id for record in self.tournaments()}:  # as the real store
            raise StoreError(f"no tournament {tournament_id}")
        if tournament_id == 2:  # one side won every game: the real store's ratings are infinite
            return [Standing("ai", 2, 2, 0, 0, 2.0, float("inf"), float("inf")),
                    Standing("random", 2, 0, 0, 2, 0.0, float("-inf"), float("inf"))]
        if tournament_id == 3:  # agent specs as long as people write them
            return [Standing(LONG_NAMES[0], 4, 3, 0, 1, 3.0, 190.8, 95.3), Standing(LONG_NAMES[1], 4, 2, 0, 2, 2.0, 0.0, 90.0),
                    Standing(LONG_NAMES[2], 4, 1, 0, 3, 1.0, -190.8, 95.3)]
        return [Standing("ai", 2, 2, 0, 0, 2.0, 120.0, 80.0), Standing("random", 2, 0, 0, 2, 0.0, -120.0, 80.0)]
