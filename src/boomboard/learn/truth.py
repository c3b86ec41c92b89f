"""How good a net really is, position by position: agreement with the solver.

On a game the solver has solved, a fixed sample of positions is drawn from
games between a fixed mix of players (``random``, ``greedy`` and
``solver``, every pairing, seeded), every position those games pass through
counted as often as they pass through it: positions that play reaches often
weigh more. For each the solver's table gives

* the **perfect moves**: the moves whose value (win, tie, draw or lose for
  the mover) equals the position's own value, however slow the win;
* the position's **value class**: +1 (win for the player to move), -1
  (loss) or 0 (tie or draw).

:func:`agreement` then scores a net on the sample: the share of positions
where its policy's top legal move is a perfect move, and the share where its
value head's class agrees with the table (above 1/3 reads as a win, below
-1/3 as a loss, in between as a tie or draw).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..agents import make_agent
from ..agents.solver_agent import SolverAgent
from ..core.game import Game
from ..observation import observation_layout
from ..solver.analysis import analyze_with
from ..solver.table import Table

MIX = ("random", "greedy", "solver")
VALUE_CLASS = {"win": 1, "lose": -1, "tie": 0, "draw": 0}
VALUE_THRESHOLD = 1 / 3


@dataclass
class Truth:
    """The sample: one row per position visit."""

    states: np.ndarray        # int32 (n, engine array length)
    observations: np.ndarray  # float32 (n, planes, height, width), seen by the player to move
    legal: np.ndarray         # bool (n, actions)
    perfect: np.ndarray       # bool (n, actions): the perfect moves
    classes: np.ndarray       # int8 (n,): +1, 0 or -1 for the player to move

    def __len__(self) -> int:
        return len(self.classes)

    def save(self, path: Path) -> None:
        temporary = path.with_name(path.name + ".tmp.npz")
        np.savez_compressed(temporary, states=self.states, observations=self.observations, legal=self.legal,
                            perfect=self.perfect, classes=self.classes)
        temporary.replace(path)

    @classmethod
    def load(cls, path: Path) -> Truth:
        with np.load(path) as data:
            return cls(**{name: data[name] for name in ("states", "observations", "legal", "perfect", "classes")})


def sample_positions(game: Game, table: Table, games: int, seed: int) -> Truth:
    """Play ``games`` games between the :data:`MIX` of players (each pairing in
    turn, both colours) and keep every position they reach, with the table's
    verdict on it."""
    layout = observation_layout(game)
    rng = random.Random(seed)
    pairings = [(a, b) for a in MIX for b in MIX]
    rows: dict[str, list] = {"states": [], "observations": [], "legal": [], "perfect": [], "classes": []}
    for number in range(games):
        specs = pairings[number % len(pairings)]
        agents = [_player(spec, rng.randrange(2 ** 31), table) for spec in specs]
        for player, agent in enumerate(agents):
            agent.new_game(game, player)
        state = game.new_initial_state()
        while not state.is_terminal():
            analysis = analyze_with(table, state)
            perfect = np.zeros(game.num_distinct_actions(), bool)
            best = VALUE_CLASS[analysis.moves[0].value]
            for move in analysis.moves:
                perfect[move.action] = VALUE_CLASS[move.value] == best
            rows["states"].append(state.array.copy())
            rows["observations"].append(layout.encode(state, state.current_player()))
            rows["legal"].append(state.legal_actions_mask().astype(bool))
            rows["perfect"].append(perfect)
            rows["classes"].append(VALUE_CLASS[analysis.value])
            action = agents[state.current_player()].choose_action(state.clone())
            state.apply_action(action)
    return Truth(states=np.array(rows["states"], np.int32), observations=np.array(rows["observations"], np.float32),
                 legal=np.array(rows["legal"]), perfect=np.array(rows["perfect"]),
                 classes=np.array(rows["classes"], np.int8))


def _player(spec: str, seed: int, table: Table):
    if spec == "solver":  # plays from the table at hand, wherever its folder is
        agent = SolverAgent(seed=seed)
        agent.table = table
        return agent
    return make_agent(spec, seed=seed)


def agreement(logits: np.ndarray, values: np.ndarray, truth: Truth) -> dict[str, float]:
    """``move``: the share of positions whose top legal move (by ``logits``)
    is perfect; ``value``: the share whose value class (by ``values``)
    matches the table's; ``positions``: how many were scored."""
    logits = np.where(truth.legal, np.asarray(logits, np.float64), -np.inf)
    top = np.argmax(logits, axis=1)
    move = truth.perfect[np.arange(len(truth)), top]
    values = np.asarray(values, np.float64)
    predicted = np.where(values > VALUE_THRESHOLD, 1, np.where(values < -VALUE_THRESHOLD, -1, 0))
    return {"move": float(move.mean()), "value": float((predicted == truth.classes).mean()),
            "positions": len(truth)}
