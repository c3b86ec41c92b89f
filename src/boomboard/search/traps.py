"""Traps: a swindler's tie-break between root moves the search finds equal.

In a position the search cannot win by force (a tied game, say), several
root moves often keep the same score: alpha-beta with a ``margin`` reports
them (:attr:`boomboard.search.alphabeta.SearchResult.near_best`). Against a
perfect opponent they are all alike; against a fallible one they are not.
After one move the opponent may have a single way to hold the game; after
another, every reply may hold it. Strong engines playing a weaker side in a
drawn position prefer the first kind: the move that sets the most traps.

:func:`choose_trap` measures that. For each candidate move it searches the
position after it (the opponent to move) with every reply scored exactly
(a root margin wider than any score), deepening within a CPU-time slice or
to a depth, and counts the replies after which the opponent is lost by
force (a proven loss,
within the search's horizon): a reply scored below ``-MATE_BOUND`` for the
side that plays it. Early in a game such losses lie beyond the scan's
horizon, so it also counts the replies that are plain mistakes: scored
:data:`MISTAKE` (a unit of material) or more below the opponent's best
reply. The candidate with the largest share of losing replies is played,
then of mistakes; equal shares are chosen between at random (from the
caller's random generator), so with no trap anywhere the choice is the
agent's usual random one among the near-best moves.

Why it pays: an opponent that is not perfect errs more often where more of
its moves are wrong. Against OpenSpiel's MCTS in tied Kaboom positions, the
share of replies that lose (by the solved table) predicts its mistakes: it
never lost a tied position where no reply loses, and lost about four in
ten where most replies lose (docs/results/strength.md).

What it never does:

* play a move outside the candidates (the near-best moves the main search
  scored within its margin of the best): the trap count only orders moves
  the search already holds equal;
* give up a forced win: callers scan only when the main search found no
  forced result (a forced win is played fastest, as before);
* keep a candidate the scan refutes: a candidate after which a reply wins
  by force for the opponent is dropped (the scan searched it deeper than the
  main search did), unless every candidate is refuted, when the main search's
  best move is played.

The scan is generic: it reads only scores and legal moves, so any game with
the compiled alpha-beta search can use it; a game turns it on with the
``traps`` setting of its ``ai_settings`` (docs/results/strength.md, "Against
OpenSpiel's MCTS", measures it in Kaboom).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

import numpy as np

from ..core.state import State
from .alphabeta import AlphaBeta, SearchResult
from .scores import MATE_BOUND, WIN

# A reply that loses within this many plies (after it) is no trap: an
# opponent that searches at all sees it. Measured: OpenSpiel's MCTS at 0.1 s
# a move in tied Kaboom positions never played a reply losing within 6
# plies (165 chances in 240 games) and played one in nine of those losing
# later (docs/results/strength.md).
SHALLOW = 6
# How much worse than the opponent's best reply a reply must score to count
# as a mistake (the evaluations count 100 for a unit of material).
MISTAKE = 100
# The share of a move's CPU budget ``ai`` gives the scan (the main search
# gets the rest, and the scan also gets whatever the main search left).
TRAP_SHARE = 0.1


@dataclass
class TrapCount:
    """What the scan found after one candidate move (the opponent to move)."""

    action: int
    replies: int  # the opponent's legal replies (0: the move ends the game)
    losing: int  # replies after which the opponent is lost by force (0 if refuted)
    mistakes: int  # replies scored MISTAKE or more below the best reply, the losing ones among them (0 if refuted)
    refuted: bool  # a reply wins by force for the opponent: the move loses
    depth: int  # the deepest finished iteration of the scan after this move

    @property
    def share(self) -> tuple[float, float]:
        """The fractions of the opponent's replies that lose, then that are mistakes:
        the order of candidates, the larger the better."""
        if not self.replies:
            return 0.0, 0.0
        return self.losing / self.replies, self.mistakes / self.replies


def count_traps(searcher: AlphaBeta, state: State, action: int, seconds: float | None = None,
                depth: int | None = None) -> TrapCount:
    """Search the position after ``action`` (for ``seconds`` CPU seconds or to
    ``depth`` plies) and count the opponent's replies that lose by force.

    Only finished iterations count (an unfinished one has scored some replies
    only): their scores, one per reply, are exact to the iteration's depth,
    and a forced result among them is proven."""
    child = state.clone()
    child.apply_action(action)
    if child.is_terminal():
        return TrapCount(action, 0, 0, 0, False, 0)
    replies = child.legal_actions()
    # Every reply scored exactly (while the best reply is no forced win for
    # the opponent: then the candidate is refuted anyway).
    result, scores = searcher.score_moves(child, replies, depth=depth, seconds=seconds)
    if result is None:  # cannot happen (depth 1 always finishes), but never guess
        return TrapCount(action, len(replies), 0, 0, False, 0)
    refuted = result.score > MATE_BOUND
    # Unscored replies (-infinity) could only stay so below a losing best:
    # they lose too. Scores are for the opponent, who plays the reply.
    if refuted:  # the move loses; past the winning reply the others were not scored exactly
        return TrapCount(action, len(replies), 0, 0, True, int(result.depth))
    # A loss in n plies from here scores n - WIN; a reply that loses within
    # SHALLOW plies of itself is seen through and not counted.
    deep = scores < -MATE_BOUND
    deep &= scores > SHALLOW + 1 - WIN
    losing = int(np.count_nonzero(deep))
    shallow = (scores < -MATE_BOUND) & ~deep
    mistakes = int(np.count_nonzero((scores <= result.score - MISTAKE) & ~shallow))
    return TrapCount(action, len(replies), losing, mistakes, bool(refuted), int(result.depth))


def choose_trap(searcher: AlphaBeta, state: State, candidates: list[int], rng: random.Random,
                seconds: float | None = None, depth: int | None = None) -> tuple[int, list[TrapCount]]:
    """Of ``candidates`` (the main search's near-best moves, its best first),
    the move that leaves the opponent the largest share of losing replies
    (then of mistakes), and the counts. ``seconds`` (CPU time) is shared out between the
    candidates as the scan goes, each getting an equal part of what is left;
    ``depth`` caps each candidate's scan (with neither, depth 4)."""
    if depth is None and seconds is None:
        depth = 4
    counts = []
    began = time.process_time()
    for i, action in enumerate(candidates):
        slice_ = None
        if seconds is not None:
            slice_ = max((seconds - (time.process_time() - began)) / (len(candidates) - i), 1e-4)
        counts.append(count_traps(searcher, state, action, slice_, depth))
    sound = [c for c in counts if not c.refuted]
    if not sound:
        return candidates[0], counts
    most = max(c.share for c in sound)
    return rng.choice([c.action for c in sound if c.share == most]), counts


def trap_search(searcher: AlphaBeta, state: State, rng: random.Random, seconds: float | None = None,
                depth: int | None = None, margin: int = 10,
                share: float = TRAP_SHARE) -> tuple[int, float, str, SearchResult]:
    """The alpha-beta agent's move with the trap tie-break: ``(action, CPU
    seconds, a line on the thinking, the main search's result)``.

    The main search gets ``1 - share`` of ``seconds`` (or searches to
    ``depth``); when it finds no forced result and more than one move within
    ``margin`` of the best, :func:`choose_trap` orders those with the rest of
    the time (at least ``share`` of it; to ``depth - 1`` plies after each
    candidate when searching to a depth). Otherwise the move is the main
    search's: a forced win its fastest, a single near-best move itself."""
    began = time.process_time()
    main_seconds = None if seconds is None else seconds * (1.0 - share)
    result = searcher.search(state, depth=depth, seconds=main_seconds, margin=margin)
    thinking = (f"depth {result.depth}, score {result.describe_score()}, nodes {result.nodes:,}, "
                f"{result.seconds:.2f} s")
    if result.forced_result is not None or len(result.near_best) < 2:
        return result.action, result.seconds, thinking, result
    scan_seconds = None if seconds is None else max(seconds - (time.process_time() - began), 1e-4)
    scan_depth = None if depth is None else max(1, depth - 1)
    action, counts = choose_trap(searcher, state, result.near_best, rng, scan_seconds, scan_depth)
    spent = time.process_time() - began
    traps = ", ".join(f"{state.action_to_string(c.action)} {c.losing}+{c.mistakes - c.losing}/{c.replies}"
                      f"{' refuted' if c.refuted else ''}"
                      for c in counts)
    thinking += (f"; traps (losing+mistaken replies) {traps}: chose {state.action_to_string(action)} "
                 f"of {len(counts)} within {margin}")
    return action, spent, thinking, result
