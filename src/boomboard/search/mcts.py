"""Monte Carlo tree search (UCT), compiled, for every game.

Each simulation walks down the tree choosing the child with the best UCB1
bound, expands a leaf that has been visited before (all its children, in a
random order), plays at most ``playout_plies`` random actions from it and
scores where it stopped: a finished game by its result, an unfinished one by
the game's evaluation squashed into (-1, 1). Cutting the playouts short with
the evaluation is what makes MCTS useful in games whose random games last
hundreds of actions (Explocus) and sharpens it everywhere else.

The tree lives in flat arrays that persist between calls, so the driver runs
simulations in small batches and checks the clock between them: a search
ends within a batch of its budget.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..core.state import State
from ..core.threads import one_thread_at_a_time
from .interruptible import searches_stopped
from .tree import UctSettings, UctTree
from .uct import N_NODES, SIMULATIONS


@dataclass
class MctsResult:
    action: int
    value: float  # the chosen move's mean result for the player to move, in [-1, 1]
    simulations: int
    nodes: int
    seconds: float  # CPU seconds

    def describe_score(self) -> str:
        return f"{self.value:+.3f}"


class Mcts:
    """A UCT searcher for one game, for one thread at a time: every search
    builds its tree in the same arrays (:meth:`search` from a second thread meanwhile
    raises :class:`~boomboard.core.threads.ConcurrentUseError`).

    ``exploration`` is UCB1's constant; ``playout_plies`` bounds each random
    playout before the evaluation scores it; ``evaluation_scale`` is the
    evaluation that counts as a clear advantage (tanh(1) = 0.76).
    """

    def __init__(self, game, capacity: int = 1 << 20, exploration: float = 1.0, playout_plies: int = 8,
                 evaluation_scale: float = 300.0, batch: int = 64):
        self.game = game
        self.kernels = game.compiled("boomboard.search.uct")
        self.params = game.params_array
        self.exploration, self.playout_plies, self.evaluation_scale = exploration, playout_plies, evaluation_scale
        # The kernels take the records as plain tuples: numba reads a namedtuple
        # argument about 2 microseconds slower a call, a tenth of a batch's time
        # near the end of a game.
        self.settings = tuple(UctSettings(float(exploration), int(playout_plies), float(evaluation_scale),
                                          int(game.action_limit)))
        self.batch = batch
        self.tree = UctTree(first_child=np.full(capacity, -1, np.int32), n_children=np.zeros(capacity, np.int32),
                            action=np.zeros(capacity, np.int32), parent=np.zeros(capacity, np.int32),
                            visits=np.zeros(capacity, np.float64), values=np.zeros(capacity, np.float64))
        self.stats = np.zeros(2, np.int64)
        size = game.new_initial_state().array.size
        self.scratch = np.zeros(size, np.int32)
        self.buffer = np.zeros(game.num_distinct_actions(), np.int32)
        self.path = np.zeros(game.max_game_length() + 2, np.int32)

    @one_thread_at_a_time
    def search(self, state: State, simulations: int | None = None, seconds: float | None = None,
               seed: int = 0) -> MctsResult:
        """Run ``simulations`` simulations or for ``seconds`` CPU seconds from ``state``."""
        if state.is_terminal():
            raise ValueError("the game is over; there is nothing to search")
        if simulations is None and seconds is None:
            simulations = 1000
        if seconds is not None and not seconds < 3.0e9:
            seconds = 3.0e9  # inf, 1e308 or NaN: as good as a century (and no overflow)
        tree = self.tree
        self.stats[:] = 0
        self.stats[N_NODES] = 1
        tree.first_child[0], tree.n_children[0], tree.visits[0], tree.values[0] = -1, 0, 0, 0.0
        root = state.array.copy()
        started = time.process_time()
        deadline = None if seconds is None else started + seconds
        batch = self.batch
        round_ = 0
        while True:
            done = int(self.stats[SIMULATIONS])
            count = batch if simulations is None else min(batch, simulations - done)
            if count <= 0 or searches_stopped():  # stop_searches(): cut short, as at the budget
                break
            if deadline is not None:
                now = time.process_time()
                if now >= deadline:
                    break
                if done and now > started:  # never overrun: size the batch to the time left
                    rate = done / (now - started)
                    count = max(1, min(count, int((deadline - now) * rate)))
            self.kernels.simulate(self.params, root, tuple(tree), self.settings, self.stats, self.scratch, self.buffer,
                                  self.path, count, seed * 1_000_003 + round_)
            round_ += 1
        first, n = int(tree.first_child[0]), int(tree.n_children[0])
        if first < 0:  # not even one simulation: the first legal action
            return MctsResult(state.legal_actions()[0], 0.0, 0, 1, time.process_time() - started)
        children = range(first, first + n)
        best = max(children, key=lambda child: (tree.visits[child], tree.values[child]))
        value = tree.values[best] / tree.visits[best] if tree.visits[best] else 0.0
        return MctsResult(int(tree.action[best]), float(value), int(self.stats[SIMULATIONS]),
                          int(self.stats[N_NODES]), time.process_time() - started)
