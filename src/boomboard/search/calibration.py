"""What an analysis's search score means: the first player's expected score.

A search scores a position in hundredths of its game's evaluation, for the
player to move; a person reads a chance. A game's *analysis model* (a JSON
file in its folder, named by the game's ``analysis_model``) says how deep
the analysis searches and turns a score into the first player's expected
score with a logistic curve fitted to the outcomes of self-play games
(``benchmarks/analysis_quality.py`` fits it)::

    {"depth": 4, "nodes": 600000, "intercept": 0.16, "slope": 0.0071, "positions": 900, "games": 60}

``depth`` is the depth at which every move is scored, ``nodes`` the budget
of the deeper search that chooses the best move and scores the position
(:func:`boomboard.analysis.analyse`). The curve is read from the first player's side: a score ``s`` for the
player to move is ``x = s`` when the first player moves, ``-s`` otherwise,
and the first player's expected score is ``1 / (1 + exp(-(intercept + slope * x)))``
(``intercept``: what moving first is worth; ``positions`` and ``games``: what
it was fitted on). With ``"saturation": k`` (hundredths), the score enters
the curve as ``k * tanh(x / k)``: the same near a level score, bounded far
from it, where a search's large scores (a cascade that looks decisive) are
no surer than moderate ones (Kaboom: the fit chooses it, see
``benchmarks/analysis_quality.py``). With ``"decided": [a, b]``, a game
that ends in a tie at its ``action_limit`` reads a score as
three outcomes: the chance that the game ends with a winner, ``d = 1 / (1 +
exp(-(a + b * left)))`` where ``left`` is the actions left before the
limit, and, if it does, the first player's chance to win, the curve above;
the expected score is ``d * win + (1 - d) / 2``. A position far from the
limit and clearly ahead then reads near a win, and the same score near the
limit near a half, which one curve of the score cannot say. A model with
``decided`` is read at a position (:meth:`AnalysisModel.at`). A game without a model gets
:data:`UNFITTED`: the old scale, ``tanh(s / 300)`` on [-1, 1], which is this
curve with slope 2/300.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources

import numpy as np


@dataclass(frozen=True)
class AnalysisModel:
    """How deep a game's analysis searches, and what its scores mean."""

    depth: int  # the deepest of the two iterations whose root scores it averages
    nodes: int  # the budget of its deeper search for the best move (deterministic: never a clock)
    intercept: float  # the first player's log-odds at a level score
    slope: float  # log-odds per hundredth of the evaluation, from the first player's side
    saturation: float | None = None  # hundredths: the score enters as saturation * tanh(score / saturation)
    # the log-odds that the game ends with a winner: intercept, and slope per action left before the limit
    decided: tuple[float, float] | None = None
    actions_left: int | None = None  # before the game's action limit, at the position read (see at())

    def at(self, state) -> AnalysisModel:
        """This model as it reads ``state``'s scores: with the actions left
        before its game's limit where the model's ``decided`` asks for them."""
        if self.decided is None:
            return self
        return replace(self, actions_left=max(0, state.game.action_limit - state.ply()))

    def first_player_score(self, score: float, mover: int) -> float:
        """The first player's expected score in [0, 1] at a search ``score``
        (hundredths, for the player to move, who is ``mover``)."""
        x = saturated(score if mover == 0 else -score, self.saturation)
        win = _logistic(self.intercept + self.slope * x)
        if self.decided is None:
            return win
        if self.actions_left is None:
            raise ValueError("this model reads a score at a position: use model.at(state)")
        decided = _logistic(self.decided[0] + self.decided[1] * self.actions_left)
        return decided * win + (1.0 - decided) / 2


def _logistic(z: float) -> float:
    """1 / (1 + exp(-z)), without overflow for a large negative ``z``."""
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    return math.exp(z) / (1.0 + math.exp(z))


def saturated(x, saturation: float | None):
    """A score (or an array of them) as the curve reads it: ``saturation *
    tanh(x / saturation)``, or ``x`` itself without a saturation."""
    return x if saturation is None else saturation * np.tanh(np.asarray(x, float) / saturation)


UNFITTED = AnalysisModel(depth=4, nodes=200_000, intercept=0.0, slope=2 / 300)


def analysis_model(game) -> AnalysisModel:
    """The analysis model that ships with ``game`` (its ``analysis_model``
    file in its folder), or :data:`UNFITTED` where it has none."""
    name = getattr(game, "analysis_model", None)
    if not name:
        return UNFITTED
    return _read(type(game).__module__.rpartition(".")[0], name)


@cache
def _read(package: str, name: str) -> AnalysisModel:
    data = json.loads((resources.files(package) / name).read_text())
    saturation, decided = data.get("saturation"), data.get("decided")
    return AnalysisModel(int(data["depth"]), int(data["nodes"]), float(data["intercept"]), float(data["slope"]),
                         None if saturation is None else float(saturation),
                         None if decided is None else (float(decided[0]), float(decided[1])))


def fit_logistic(x: np.ndarray, outcome: np.ndarray, through: tuple[float, float] | None = None,
                 iterations: int = 50) -> tuple[float, float]:
    """``(intercept, slope)`` of the logistic curve that best predicts
    ``outcome`` (the first player's score: 1, 0.5 for a tie, 0) from ``x``
    (log loss, Newton's method, a tiny ridge on the slope so that a sample
    the curve separates perfectly still has a finite answer). ``through``,
    ``(x0, p0)``: a point the curve must pass through (the start position's
    score and the first player's score measured there over many games), so
    that only the slope is fitted."""
    x = np.asarray(x, float)
    y = np.asarray(outcome, float)
    level = 0.0
    if through is None:
        design, offset = np.column_stack([np.ones_like(x), x]), np.zeros_like(x)
        ridge = np.diag([0.0, 1e-6 * max(1.0, float(np.sum(x * x)))])
    else:
        x0, p0 = through
        level = math.log(p0 / (1 - p0))
        design, offset = (x - x0)[:, None], np.full_like(x, level)
        ridge = np.diag([1e-6 * max(1.0, float(np.sum((x - x0) ** 2)))])
    weights = np.zeros(design.shape[1])
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-(offset + design @ weights)))
        gradient = design.T @ (p - y) + ridge @ weights
        hessian = design.T @ (design * (p * (1 - p))[:, None]) + ridge + 1e-9 * np.eye(len(weights))
        step = np.linalg.solve(hessian, gradient)
        weights -= step
        if np.max(np.abs(step)) < 1e-10:
            break
    if through is None:
        return float(weights[0]), float(weights[1])
    return float(level - weights[0] * x0), float(weights[0])
