"""The learner's tree search: mctx's Gumbel MuZero policy over the game's
compiled rules, guided by the policy-value network.

mctx runs the search inside one compiled JAX function. Each simulation
reaches a leaf, plays the action chosen there and asks ``recurrent_fn``
for the child: here that is a :func:`jax.pure_callback` into
:func:`boomboard.learn.kernels.expand_batch`, which plays the move for the
whole batch of searches at once in numba-compiled code, followed by the
network on the children's observations. The game itself never has to be
rewritten in JAX (as Pgx does for its games): every boomboard game, present
and future, gets the search for free, and the price, one trip out of the
compiled search per simulation, is small next to the network's evaluation
on a CPU. Nodes keep their positions as the engine's ``int32`` arrays.

The values are zero-sum and from the player to move: a child's reward is
the result for the player who moved into it and its discount is -1 (the
turn passes), 0 once the game is over.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..core.extras import require_extra

try:
    import jax
    import jax.numpy as jnp
    import mctx
except ImportError:
    require_extra("learn", __name__)
    raise

from ..core.game import Game
from ..observation import observation_layout
from .network import NetConfig, PolicyValueNet


def masked_logits(logits, mask):
    """Illegal actions get the lowest logit (never chosen unless nothing is legal)."""
    logits = logits - jnp.max(logits, axis=-1, keepdims=True)
    return jnp.where(mask, logits, jnp.finfo(logits.dtype).min)


class Search:
    """A compiled search (or a bare network) for one game and one net shape.

    :meth:`run` searches a batch of positions with ``simulations``
    simulations each and returns the chosen actions, the search's
    improved policy (the training target) and its value of each position.
    With ``decisive``, a node whose player to move has a move that wins at
    once is worth a win, not what the net says: the search then sees a
    reply that wins at once even where the net's prior would never let it
    try that reply (Teytaud and Teytaud, "On the huge benefit of decisive
    moves in Monte-Carlo tree search", 2010). With ``mirror``, where the
    game has a mirror image (:attr:`~boomboard.observation.ObservationLayout.mirror`),
    every evaluation is the mean of the net's on the position and on its
    mirror image (its logits read back through the mirror): the two views'
    errors partly cancel, for twice the net's work. ``gumbel_scale=0`` makes the
    choice deterministic (for play); 1 samples it (for self-play).
    """

    def __init__(self, game: Game, config: NetConfig, simulations: int, max_considered: int = 16,
                 decisive: bool = False, mirror: bool = False):
        self.game = game
        self.config = config
        self.simulations = simulations
        self.decisive = decisive
        self._mirror = observation_layout(game).mirror if mirror else None
        self.net = PolicyValueNet(config)
        self._kernels = game.compiled("boomboard.learn.kernels")
        self._params_array = game.params_array
        self._table = observation_layout(game).table
        self._shape = observation_layout(game).shape
        self._considered = min(max_considered, config.actions)
        self.run = jax.jit(self._run, static_argnames=("gumbel_scale",))
        self.run_puct = jax.jit(self._run_puct)
        self.evaluate = jax.jit(self._evaluate)

    def _expand_on_host(self, states, actions):
        states = np.asarray(states)
        n = states.shape[0]
        children = np.empty_like(states)
        rewards = np.zeros(n, np.float32)
        done = np.zeros(n, bool)
        observations = np.empty((n, int(np.prod(self._shape))), np.float32)
        masks = np.zeros((n, self.config.actions), bool)
        wins_now = np.zeros(n, bool)
        self._kernels.expand_batch(states, self._params_array, self._table, np.asarray(actions, np.int32),
                                   children, rewards, done, observations, masks, self.decisive, wins_now,
                                   np.empty(self.config.actions, np.int32))  # per call: self-play runs in threads
        return children, rewards, done, observations.reshape(n, *self._shape), masks, wins_now

    def _recurrent(self, params, rng, action, states):
        n = states.shape[0]
        shapes = (jax.ShapeDtypeStruct(states.shape, jnp.int32), jax.ShapeDtypeStruct((n,), jnp.float32),
                  jax.ShapeDtypeStruct((n,), jnp.bool_), jax.ShapeDtypeStruct((n, *self._shape), jnp.float32),
                  jax.ShapeDtypeStruct((n, self.config.actions), jnp.bool_), jax.ShapeDtypeStruct((n,), jnp.bool_))
        children, reward, done, obs, mask, wins_now = jax.pure_callback(self._expand_on_host, shapes, states, action,
                                                                        vmap_method="sequential")
        logits, value = self._net(params, obs)
        if self.decisive:
            value = jnp.where(wins_now, 1.0, value)
        output = mctx.RecurrentFnOutput(reward=reward, discount=jnp.where(done, 0.0, -1.0),
                                        prior_logits=masked_logits(logits, mask),
                                        value=jnp.where(done, 0.0, value))
        return output, children

    def _net(self, params, obs):
        if self._mirror is None:
            return self.net.apply(params, obs)
        n = obs.shape[0]
        logits, value = self.net.apply(params, jnp.concatenate([obs, obs[..., ::-1]]))
        # action a of a position is action mirror[a] of its mirror image
        return (logits[:n] + logits[n:][:, self._mirror]) / 2, (value[:n] + value[n:]) / 2

    def _evaluate(self, params, obs, mask):
        logits, value = self._net(params, obs)
        return masked_logits(logits, mask), value

    def _run(self, params, rng, states, obs, mask, gumbel_scale=1.0):
        logits, value = self._evaluate(params, obs, mask)
        root = mctx.RootFnOutput(prior_logits=logits, value=value, embedding=states)
        out = mctx.gumbel_muzero_policy(params, rng, root, self._recurrent, num_simulations=self.simulations,
                                        invalid_actions=~mask, max_num_considered_actions=self._considered,
                                        gumbel_scale=gumbel_scale)
        return out.action, out.action_weights, out.search_tree.summary().value

    def _run_puct(self, params, rng, states, obs, mask):
        """AlphaZero's search (mctx's MuZero policy, PUCT at every node, no
        noise) for play: the most visited move. Below the root, Gumbel
        MuZero visits moves as its improved policy asks, so a reply the net
        gives almost no prior is never tried however many simulations run;
        PUCT's exploration term tries it as visits grow."""
        logits, value = self._evaluate(params, obs, mask)
        root = mctx.RootFnOutput(prior_logits=logits, value=value, embedding=states)
        out = mctx.muzero_policy(params, rng, root, self._recurrent, num_simulations=self.simulations,
                                 invalid_actions=~mask, dirichlet_fraction=0.0, temperature=0.0)
        return out.action, out.action_weights, out.search_tree.summary().value



# Compiled searches kept per process (LRU): a request may name any budget
# (learned:sims=N), and each compiled search holds its own program.
SEARCHES_KEPT = 8


@lru_cache(maxsize=SEARCHES_KEPT)
def shared_search(game: Game, config: NetConfig, simulations: int, decisive: bool = False,
                  mirror: bool = False) -> Search:
    """One compiled search per game, net shape, budget and setting, shared by
    every agent and training run of the process: compiling it takes seconds,
    and a process of many agents (a tournament's, a benchmark's) or of
    several runs should pay once. A search keeps no state between calls."""
    return Search(game, config, simulations, decisive=decisive, mirror=mirror)
