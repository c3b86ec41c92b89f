"""A deliberately simple reference for the compiled alpha-beta search
(:mod:`boomboard.search.negamax`): recursive negamax with plain alpha-beta
pruning over the Python ``State``, and nothing else (no transposition table,
no move ordering, no null windows, no reductions), scoring positions as the
search documents it:

* a finished game ``WIN - ply`` for a win of the player to move, ``ply - WIN``
  for a loss, 0 for a tie;
* below the root, a tie by history 0: a position that occurred before (the
  game's history included) or one at the game's action limit;
* at the horizon, the game's evaluation for the player to move, with the
  parameters the search evaluates with (naming the root's player, in a game
  whose evaluation asks which player searches).
"""

from __future__ import annotations

from boomboard.search.scores import INFINITY, WIN


class ReferenceNegamax:
    """Exact fixed-depth negamax values of positions of one game."""

    def __init__(self, game):
        self.game = game

    def root_scores(self, state, depth: int) -> dict[int, int]:
        """Every legal move of ``state`` and its exact score, searched ``depth`` plies deep in all."""
        params = self.game.params_array.copy()
        if self.game.params_root_slot is not None:
            params[self.game.params_root_slot] = state.current_player()
        return {action: -self._value(state.child(action), depth - 1, 1, -INFINITY, INFINITY, params)
                for action in state.legal_actions()}

    def _value(self, state, depth: int, ply: int, alpha: int, beta: int, params) -> int:
        """The value of ``state`` for its player to move when it lies in (alpha, beta);
        otherwise a bound on the same side of the window (alpha-beta's guarantee)."""
        if state.is_terminal():
            result = state.returns()[state.player_to_move()]
            return 0 if result == 0 else WIN - ply if result > 0 else ply - WIN
        if state.repetitions() > 1 or (self.game.action_limit > 0 and state.ply() >= self.game.action_limit):
            return 0
        if depth == 0:
            return int(self.game.kernels.evaluate(state.array, params))
        best = -INFINITY
        for action in state.legal_actions():
            score = -self._value(state.child(action), depth - 1, ply + 1, -beta, -alpha, params)
            best = max(best, score)
            alpha = max(alpha, score)
            if alpha >= beta:
                break
        return best
