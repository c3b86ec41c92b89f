"""The policy-value network: a small residual convolutional net (flax).

It reads the observation planes of :mod:`boomboard.observation` (seen by
the player to move) and gives a logit for every action id of the game and a
value in [-1, 1]: the expected result for the player to move. Its size is
two numbers, ``channels`` and ``blocks``; the defaults keep a Kaboom 4x4
net under 100,000 parameters, small enough to ship inside the package.
"""

from __future__ import annotations

import numpy as np

from ..core.extras import require_extra

try:
    import flax.linen as nn
    import jax
    import jax.numpy as jnp
except ImportError:
    require_extra("learn", __name__)
    raise

from ..jit import cache_root
from .checkpoint import NetConfig

# JAX compiles a net's and a search's functions again in every process: 18.6 CPU s of a small training run's first
# two iterations. Kept on disk beside the compiled kernels, a later process loads them (the same run: 6.5 CPU s).
# Every function is kept, not only those over JAX's default second of compiling (most of a run's take less), in at
# most JAX_CACHE_BYTES, the least recently used dropped first. A folder the user chose for JAX is left as it is.
JAX_CACHE_BYTES = 256 << 20
if not jax.config.jax_compilation_cache_dir:
    jax.config.update("jax_compilation_cache_dir", str(cache_root() / "jax"))
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)
    jax.config.update("jax_compilation_cache_max_size", JAX_CACHE_BYTES)

__all__ = ["NetConfig", "PolicyValueNet", "count_parameters", "init_params"]


class _Block(nn.Module):
    channels: int

    @nn.compact
    def __call__(self, x):
        y = nn.relu(nn.LayerNorm()(nn.Conv(self.channels, (3, 3))(x)))
        y = nn.LayerNorm()(nn.Conv(self.channels, (3, 3))(y))
        return nn.relu(x + y)


class PolicyValueNet(nn.Module):
    """``apply(params, obs)`` with ``obs`` of shape ``(batch, planes, height,
    width)`` -> ``(logits (batch, actions), value (batch,))``."""

    config: NetConfig

    @nn.compact
    def __call__(self, obs):
        c = self.config
        x = jnp.transpose(obs, (0, 2, 3, 1))  # flax convolves channels-last
        x = nn.relu(nn.LayerNorm()(nn.Conv(c.channels, (3, 3))(x)))
        for _ in range(c.blocks):
            x = _Block(c.channels)(x)
        policy = nn.relu(nn.Conv(4, (1, 1))(x)).reshape(x.shape[0], -1)
        logits = nn.Dense(c.actions)(policy)
        value = nn.relu(nn.Conv(2, (1, 1))(x)).reshape(x.shape[0], -1)
        value = nn.relu(nn.Dense(64)(value))
        value = jnp.tanh(nn.Dense(1)(value))[:, 0]
        return logits, value


def init_params(config: NetConfig, seed: int):
    """Fresh parameters for ``config``."""
    dummy = np.zeros((1, config.planes, config.height, config.width), np.float32)
    return PolicyValueNet(config).init(jax.random.PRNGKey(seed), dummy)


def count_parameters(params) -> int:
    return int(sum(np.size(leaf) for leaf in jax.tree_util.tree_leaves(params)))
