"""Self-play and evaluation games, stepped by the batched environment.

:func:`self_play` plays a batch of games of the net against itself, each
move chosen by the search, in a :class:`~boomboard.vector.VectorEnv` (so
the games follow every rule, repetitions included), and returns the
training samples: each position's observation, the search's improved
policy and its value target: the game's result for the player who was to
move there, or a mix of it and the search's value of the position.
:func:`play_baseline` plays the bare net against a built-in agent and
counts the results, for the Elo estimate shown while training.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.extras import require_extra

try:
    import jax
except ImportError:
    require_extra("learn", __name__)
    raise

from ..agents import make_agent
from ..vector import VectorEnv
from .search import Search


@dataclass
class Samples:
    observations: np.ndarray  # float32 (n, planes, height, width)
    policies: np.ndarray      # float32 (n, actions): the search's improved policy
    results: np.ndarray       # float32 (n,): the value target for the player to move (see self_play)

    def __len__(self) -> int:
        return len(self.results)

    @classmethod
    def empty(cls, shape: tuple[int, ...], actions: int) -> Samples:
        return cls(np.zeros((0, *shape), np.float32), np.zeros((0, actions), np.float32), np.zeros(0, np.float32))

    def concatenate(self, other: Samples, keep: int) -> Samples:
        """These samples then ``other``'s, the newest ``keep`` of them."""
        return Samples(*(np.concatenate([mine, theirs])[-keep:] for mine, theirs in
                         ((self.observations, other.observations), (self.policies, other.policies),
                          (self.results, other.results))))


def self_play(search: Search, params, envs: int, key, seed: int,
              random_plies: int = 0, value_mix: float = 0.0) -> tuple[Samples, int, int]:
    """Play until each of ``envs`` games has ended once; keep every game that
    ended by then (an environment that finishes early starts another).
    Returns the samples, the games finished and the moves played.

    With ``random_plies``, each game opens with between 0 and that many
    uniformly random moves, which are not learned from: the net then also
    sees positions its own play would avoid, as weaker opponents reach them.

    A position's value target is the game's result (+1 won, -1 lost, 0
    tied, for the player to move there) times ``1 - value_mix``, plus the
    search's value of the position times ``value_mix``. The result alone
    is the truth of one game between two equal sides: a mistake the other
    side did not punish still ends in a tie, and teaches a tie. The
    search's value has looked a few moves past it. Averaging the two is a
    known variant (Prasad's "Lessons from AlphaZero" for Connect Four, 2018;
    Willemsen, Baier and Kaisers compare such targets, 2021).
    """
    env = VectorEnv(search.game, envs, seed=seed)
    obs, _ = env.reset()
    rng = np.random.default_rng(seed)
    opening = rng.integers(0, random_plies + 1, size=envs)
    ply = np.zeros(envs, np.int64)
    pending: list[list[tuple[np.ndarray, np.ndarray, int, float]]] = [[] for _ in range(envs)]
    kept_obs, kept_policy, kept_result = [], [], []
    finished = np.zeros(envs, bool)
    games = moves = 0
    while not finished.all():
        key, step_key = jax.random.split(key)
        mask = env.action_mask()
        movers = env.current_player
        actions, weights, values = search.run(params, step_key, np.array(env.states), obs, mask)
        actions, weights, values = np.array(actions), np.asarray(weights), np.asarray(values)
        randomly = ply < opening
        if randomly.any():
            actions[randomly] = env.sample_actions()[randomly]
        for i in np.flatnonzero(~randomly):
            pending[i].append((obs[i], weights[i], movers[i], values[i]))
        obs, rewards, terminated, _, info = env.step(actions)
        moves += envs
        ply += 1
        for i in np.flatnonzero(terminated):
            ply[i] = 0
            opening[i] = rng.integers(0, random_plies + 1)
            for position, policy, mover, value in pending[i]:
                result = rewards[i] if mover == info["mover"][i] else -rewards[i]
                kept_obs.append(position)
                kept_policy.append(policy)
                kept_result.append((1 - value_mix) * result + value_mix * value)
            pending[i] = []
            finished[i] = True
            games += 1
    samples = Samples(np.array(kept_obs, np.float32), np.array(kept_policy, np.float32),
                      np.array(kept_result, np.float32))
    return samples, games, moves


def self_play_batches(search: Search, params, envs: int, key, seed: int, workers: int = 1, pool=None,
                      random_plies: int = 0, value_mix: float = 0.0) -> tuple[Samples, int, int]:
    """``workers`` batches of :func:`self_play` of ``envs`` games each, played
    at once by the threads of ``pool`` (a :class:`~concurrent.futures.ThreadPoolExecutor`;
    threads suffice, since the search is one compiled JAX call that leaves
    Python's lock while it runs). Batch ``w`` is seeded by ``key`` and
    ``seed`` and its number (the first by them alone), and the batches are
    joined in that order, so the samples do not depend on which ends first."""
    def batch(worker: int) -> tuple[Samples, int, int]:
        return self_play(search, params, envs, jax.random.fold_in(key, worker) if worker else key,
                         seed=seed + (worker << 40), random_plies=random_plies,  # << 40: apart from other seeds
                         value_mix=value_mix)

    if workers == 1:
        return batch(0)
    played = list(pool.map(batch, range(workers)))
    samples = played[0][0]
    for more, _, _ in played[1:]:
        samples = samples.concatenate(more, len(samples) + len(more))
    return samples, sum(games for _, games, _ in played), sum(moves for _, _, moves in played)


def play_baseline(search: Search, params, baseline: str, games: int, seed: int) -> tuple[int, int, int]:
    """``games`` games of the bare net (its top legal move) against ``baseline``
    (an agent spec), colours alternating, each game opened by two random
    moves so that the games differ. Returns the net's wins, ties and losses."""
    env = VectorEnv(search.game, games, seed=seed)
    obs, _ = env.reset()
    learner_side = np.arange(games) % 2
    opponents = [make_agent(baseline, seed=seed + i) for i in range(games)]
    for i, agent in enumerate(opponents):
        agent.new_game(search.game, 1 - learner_side[i])
    result = np.full(games, np.nan)
    ply = 0
    while np.isnan(result).any():
        if ply < 2:
            actions = env.sample_actions()
        else:
            logits, _ = search.evaluate(params, obs, env.action_mask())
            actions = np.array(np.argmax(logits, axis=1), np.int32)
            movers = env.current_player
            for i in np.flatnonzero((movers != learner_side) & np.isnan(result)):
                actions[i] = opponents[i].choose_action(env.state(i))
        obs, rewards, terminated, _, info = env.step(actions)
        ply += 1
        for i in np.flatnonzero(terminated & np.isnan(result)):
            result[i] = rewards[i] if info["mover"][i] == learner_side[i] else -rewards[i]
    return int((result > 0).sum()), int((result == 0).sum()), int((result < 0).sum())
