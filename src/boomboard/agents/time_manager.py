"""Sharing a whole game's CPU budget between moves, as chess engines do.

:class:`TimeManager` plans each move a *target* (what the move should
take on average) and a *maximum* (the hard deadline of its search):

* **Moves still to play.** A game is expected to last its
  ``typical_plies`` (:attr:`boomboard.core.game.Game.typical_plies`; a
  generic guess for games without one), so at ply ``p`` about
  ``(typical_plies - p) / 2`` of our own moves remain, never fewer than
  ``min_moves_to_go`` (a game past its expected length may go on a while),
  and never more than the game's ``action_limit`` leaves.
* **A reserve.** A part of the budget (``reserve_share`` of it) is kept out
  of the shares, so a long game's endgame is never played blind: once the
  rest is spent, each move still gets a floor (at most ``floor``): an even
  share of what is left over the most moves the action limit allows, or,
  in a game without one, a ``reserve_moves``-th of what is left, which
  thins out geometrically; either way it never runs out.
* **More for critical positions.** The target is a soft limit: a search
  checks it between iterations (:meth:`stop_after_iteration`) and stops
  once past it, unless the last iteration changed the best move or swung
  the score by more than ``swing``; then it may go on to ``extension``
  times the target. The maximum, the hard deadline, is at most
  ``extension`` times the target and a ``max_share`` of what the shares
  hold, so no single move can eat the game's budget. An iteration
  expected to end past ``overrun`` times the target (judged from how the
  iterations so far grew), or past the maximum where the search is
  unstable, is not started, so that a move takes about its target on
  average.

Everything a move costs is charged (:meth:`charge`), the search and the
work around it, and whatever else the referee counts (building the player,
being told of moves), so the plan always follows the real clock.
"""

from __future__ import annotations

from dataclasses import dataclass

# Plies a game of a kind without ``typical_plies`` is assumed to last.
DEFAULT_TYPICAL_PLIES = 60


@dataclass
class MovePlan:
    """One move's time: a soft ``target`` and a hard ``maximum`` (CPU seconds)."""

    target: float
    maximum: float


@dataclass(frozen=True)
class TimePolicy:
    """How a :class:`TimeManager` shares a game's budget (see the module's
    description for each): ``min_moves_to_go``, ``reserve_share``,
    ``reserve_moves``, ``floor`` (CPU seconds), ``extension``, ``max_share``,
    ``swing`` (evaluation units) and ``overrun``."""

    min_moves_to_go: float = 12.0
    reserve_share: float = 0.04
    reserve_moves: float = 30.0
    floor: float = 0.1
    extension: float = 3.0
    max_share: float = 0.2
    swing: int = 50
    overrun: float = 2.0


class TimeManager:
    """A game's CPU budget (``game_time``), a move's cap (``move_time``), or both."""

    def __init__(self, game_time: float | None = None, move_time: float | None = None, *,
                 typical_plies: int = DEFAULT_TYPICAL_PLIES, action_limit: int = 0,
                 policy: TimePolicy = TimePolicy()):
        self.game_time, self.move_time = game_time, move_time
        self.typical_plies, self.action_limit = typical_plies, action_limit
        self.policy = policy
        self.used = 0.0

    @property
    def time_left(self) -> float | None:
        return None if self.game_time is None else self.game_time - self.used

    def charge(self, seconds: float) -> None:
        """Count ``seconds`` of CPU against the game's budget."""
        self.used += max(seconds, 0.0)

    def moves_to_go(self, ply: int) -> float:
        """Our own moves the game is expected still to take from ply ``ply``."""
        own = max(self.policy.min_moves_to_go, (self.typical_plies - ply) / 2)
        if self.action_limit:
            own = min(own, max(1.0, (self.action_limit - ply + 1) / 2))
        return own

    def plan(self, ply: int) -> MovePlan | None:
        """The move at ply ``ply``: its target and maximum, or None for no limit."""
        left = self.time_left
        if left is None:
            if self.move_time is None:
                return None
            return MovePlan(self.move_time, self.move_time)
        left = max(left, 0.0)
        reserve = min(self.game_time * self.policy.reserve_share, left)
        shares = left - reserve  # what the shares hold; the reserve is kept out
        # The floor: with an action limit, an even share of what is left over
        # the most moves the game can still take (so it never runs out);
        # without one, a share that thins out geometrically.
        most = max(1.0, (self.action_limit - ply + 1) / 2) if self.action_limit else self.policy.reserve_moves
        floor = min(self.policy.floor, left / most)
        target = max(shares / self.moves_to_go(ply), floor)
        maximum = max(min(self.policy.extension * target, self.policy.max_share * shares), target)
        if self.move_time is not None:
            target, maximum = min(target, self.move_time), min(maximum, self.move_time)
        return MovePlan(target, maximum)

    def stop_after_iteration(self, plan: MovePlan, elapsed: float, iterations: list[tuple[int, int, float]]) -> bool:
        """Whether a search that has spent ``elapsed`` seconds should stop
        rather than start another iteration; ``iterations`` lists the finished
        ones as (best action, score, seconds it took). Only a game budget is
        managed so: a move's own budget (``move_time`` alone) is searched to
        its end."""
        if self.game_time is None:
            return False
        if len(iterations) >= 2:
            (action, score, took), (last_action, last_score, _) = iterations[-1], iterations[-2]
            unstable = action != last_action or abs(score - last_score) > self.policy.swing
        else:
            took, unstable = iterations[-1][2] if iterations else 0.0, False
        soft = min(plan.target * (self.policy.extension if unstable else 1.0), plan.maximum)
        if elapsed >= soft:
            return True
        # The next iteration takes about as many times longer than the last
        # as the last ones grew (the larger of the last two steps: odd and
        # even depths grow differently). A stable search starts it only if it
        # should end by ``overrun`` times the target (so that on average a
        # move takes about its target), an unstable one if by the maximum.
        steps = [b[2] / a[2] for a, b in list(zip(iterations, iterations[1:]))[-2:] if a[2] > 1e-3]
        growth = min(max(steps, default=4.0), 12.0)
        growth = max(growth, 2.0)
        limit = plan.maximum if unstable else min(self.policy.overrun * plan.target, plan.maximum)
        return elapsed + growth * took > limit
