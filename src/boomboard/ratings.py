"""Elo from a win/tie/loss count, and the sequential probability ratio test.

The formulas are cutechess's and fastchess's, so figures agree with theirs:

* the Elo difference of a score ``p`` (wins plus half the ties, per game) is
  ``-400 * log10(1/p - 1)``; its 95% interval maps ``p +- 1.96 * se`` through
  the same curve, ``se`` being the standard error of the mean game score;
* the SPRT uses the generalized SPRT's log-likelihood ratio (Michel Van den
  Bergh's approximation, as fastchess computes it for the logistic Elo model)
  from the trinomial win/tie/loss frequencies:
  ``LLR = N * (s1 - s0) * (2*mean - s0 - s1) / (2 * variance)``, where ``s0``
  and ``s1`` are the expected scores at ``elo0`` and ``elo1``; the test
  accepts H1 ("A is at least ``elo1`` stronger") above ``log((1-beta)/alpha)``
  and H0 below ``log(beta/(1-alpha))``; matches use the pentanomial form
  (the same formula over pairs of games with colours reversed, scored 0 to 1
  in quarters), as fastchess does by default.

The arena rates its matches with it and training rates its checkpoints
against a baseline (:mod:`boomboard.learn.train`): it stands below both.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .core.errors import ParameterError

Z_95 = 1.959963984540054


def score_to_elo(score: float) -> float:
    """Elo difference for an expected score in (0, 1); +-inf at the ends."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def elo_to_score(elo: float) -> float:
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


@dataclass(frozen=True)
class EloEstimate:
    """An Elo difference with its 95% interval (``error`` is half its width)."""

    elo: float
    error: float
    score: float
    games: int

    def describe(self) -> str:
        if self.games == 0:
            return "no games"
        if math.isinf(self.elo):
            return f"{'+' if self.elo > 0 else '-'}inf (score {self.score:.1%} of {self.games})"
        error = "inf" if math.isinf(self.error) else f"{self.error:.1f}"
        elo = "0.0" if round(self.elo, 1) == 0 else f"{self.elo:+.1f}"  # never "-0.0"
        return f"{elo} +/- {error} (score {self.score:.1%} of {self.games})"


def elo_estimate(wins: int, ties: int, losses: int) -> EloEstimate:
    """Elo of the side with these wins, ties and losses, as cutechess reports it."""
    games = wins + ties + losses
    if games == 0:
        return EloEstimate(0.0, math.inf, 0.5, 0)
    score = (wins + 0.5 * ties) / games
    variance = (wins * (1 - score) ** 2 + ties * (0.5 - score) ** 2 + losses * score ** 2) / games
    margin = Z_95 * math.sqrt(variance / games)
    low, high = score_to_elo(score - margin), score_to_elo(score + margin)
    error = (high - low) / 2 if not (math.isinf(low) or math.isinf(high)) else math.inf
    return EloEstimate(score_to_elo(score), error, score, games)


@dataclass(frozen=True)
class Sprt:
    """A sequential probability ratio test of H0: elo <= elo0 against H1: elo >= elo1."""

    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self):
        if not self.elo1 > self.elo0:
            raise ParameterError(f"SPRT needs elo0 < elo1; got elo0={self.elo0}, elo1={self.elo1}")
        if not (0 < self.alpha < 0.5 and 0 < self.beta < 0.5):
            raise ParameterError("SPRT alpha and beta must lie between 0 and 0.5")

    @property
    def lower_bound(self) -> float:
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper_bound(self) -> float:
        return math.log((1 - self.beta) / self.alpha)

    def llr(self, wins: int, ties: int, losses: int) -> float:
        """The log-likelihood ratio of H1 against H0 after these results."""
        games = wins + ties + losses
        if games == 0:
            return 0.0
        mean = (wins + 0.5 * ties) / games
        variance = (wins * (1 - mean) ** 2 + ties * (0.5 - mean) ** 2 + losses * mean ** 2) / games
        if variance <= 0.0:
            return 0.0  # all results alike so far: no evidence of the spread yet (as fastchess)
        s0, s1 = elo_to_score(self.elo0), elo_to_score(self.elo1)
        return games * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)

    def llr_pentanomial(self, pairs: list[int]) -> float:
        """The log-likelihood ratio from game pairs (the same start, colours
        reversed), fastchess's default: ``pairs[k]`` counts the pairs in which
        A scored ``k/2`` points (0, 1/2, 1, 3/2 or 2 of 2)."""
        count = sum(pairs)
        if count == 0:
            return 0.0
        scores = [k / 4 for k in range(5)]
        mean = sum(n * x for n, x in zip(pairs, scores)) / count
        variance = sum(n * (x - mean) ** 2 for n, x in zip(pairs, scores)) / count
        if variance <= 0.0:
            return 0.0
        s0, s1 = elo_to_score(self.elo0), elo_to_score(self.elo1)
        return count * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)

    def decide(self, value: float) -> str | None:
        """The test's verdict for a log-likelihood ratio (see :meth:`decision`)."""
        if value >= self.upper_bound:
            return "H1"
        if value <= self.lower_bound:
            return "H0"
        return None

    def decision(self, wins: int, ties: int, losses: int) -> str | None:
        """``'H1'`` (A is stronger by at least elo1), ``'H0'`` (not by more than
        elo0), or ``None`` while the test goes on."""
        value = self.llr(wins, ties, losses)
        if value >= self.upper_bound:
            return "H1"
        if value <= self.lower_bound:
            return "H0"
        return None


def parse_sprt(text: str) -> Sprt:
    """``'elo0,elo1[,alpha,beta]'`` as the command line gives it."""
    try:
        numbers = [float(part) for part in text.split(",")]
    except ValueError:
        numbers = []
    if len(numbers) not in (2, 4):
        raise ParameterError(f"expected --sprt elo0,elo1 or elo0,elo1,alpha,beta; got {text!r}")
    return Sprt(*numbers)
