"""Learned players: policy-value nets trained by self-play with tree search.

``boomboard train GAME`` (:class:`boomboard.learn.train.Trainer`) trains a
net AlphaZero-style: the net guides mctx's Gumbel MuZero search
(:mod:`boomboard.learn.search`), the search plays games against itself in
the batched environment (:mod:`boomboard.learn.selfplay`), and the net
learns the search's choices and the games' results. Where the solver has
solved the game, each checkpoint is scored against perfect play
(:mod:`boomboard.learn.truth`). The ``learned`` agent
(:mod:`boomboard.learn.agent`) plays the result anywhere an agent plays.

Everything here but the agent's registration needs the ``boomboard[learn]``
extra (JAX, flax, optax and mctx); ``docs/how-to/learning.md`` is the manual.
"""

from . import agent  # noqa: F401  (registers the ``learned`` agent kind: see boomboard.learn.agent)
