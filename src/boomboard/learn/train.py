"""Training a policy-value net by self-play: the loop behind ``boomboard train``.

Each **iteration** plays ``workers`` batches of self-play games at once, one
per thread (:func:`~boomboard.learn.selfplay.self_play`, ``envs`` games
each, every move chosen by a Gumbel MuZero search of ``simulations``
simulations guided by the current net), adds their positions to a replay
buffer of the newest ``buffer`` positions, and takes Adam steps on
minibatches drawn from it: cross-entropy to the search's improved policy
plus the squared error of the value to its target (the game's result, mixed
with the search's value by ``value_mix``). An iteration
depends only on the run's ``seed``, its number and the state before it,
so a run resumed from a checkpoint goes on exactly as it would have.

With ``mirror``, where the game has a mirror image
(:attr:`~boomboard.observation.ObservationLayout.mirror`), each position of
a minibatch is learned as itself or as its mirror image (tensor columns
reversed, policy target read through the mirror), at random: the net sees
twice the positions for the same games, as AlphaGo Zero trained on its
board's symmetries, and learns that both views are worth the same.

With ``decisive``, self-play's search values a node whose player to move
can win at once as a win (as the ``learned`` agent's search does in play):
a win the net has not learnt to see is still played, so the game's result,
the value target, says who really won.

With ``anneal`` minutes, Adam's step size falls along a cosine from
``learning_rate`` to :data:`ANNEAL_FLOOR` of it over that much training
time, then stays there (:func:`step_size_scale`), as AlphaZero's step
schedule and most supervised training do: a constant step keeps the net
moving around a good point, a falling one settles it there. Set it to the
run's ``--minutes``. The schedule follows the measured training time, so an
annealed run is reproducible only up to its timing.

A **run folder** holds everything:

* ``run.json``: the game and the settings (a resumed run keeps them);
* ``state.msgpack`` and ``replay-NNNNNN.npz``: the last checkpoint (net,
  optimiser, counters, replay buffer), which a resumed run starts from;
* ``model.msgpack`` (the latest net) and ``model-NNNNNN.msgpack`` (the net
  at each checkpoint): model files the ``learned:`` agent plays;
* ``metrics.jsonl``: one line per iteration (games, moves, losses, time);
* ``checkpoints.jsonl``: one line per checkpoint (iteration 0 too): the
  Elo estimate against a baseline agent and, where the solver has solved
  the game, the agreement with perfect play (:mod:`boomboard.learn.truth`),
  drawn against training time in ``agreement.png``.

A checkpoint is taken every ``checkpoint_seconds`` of training, at the end,
and when the run is interrupted (Ctrl-C); a killed run loses at most the
iterations since the last one.
"""

from __future__ import annotations

import json
import math
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, fields
from functools import lru_cache
from pathlib import Path

import numpy as np

from ..core.extras import require_extra

try:
    import jax
    import optax
    from flax import serialization
except ImportError:
    require_extra("learn", __name__)
    raise

from ..core.errors import ParameterError
from ..observation import observation_layout
from ..ratings import elo_estimate
from ..registry import load_game
from .checkpoint import MODEL, CheckpointError, save_model, write_atomically
from .network import NetConfig, PolicyValueNet, count_parameters, init_params
from .search import shared_search
from .selfplay import Samples, play_baseline, self_play_batches
from .truth import Truth, agreement, sample_positions

RUN = "run.json"
STATE = "state.msgpack"
ANNEAL_FLOOR = 0.05


@dataclass(frozen=True)
class TrainConfig:
    """A run's settings (``boomboard train --help`` describes each)."""

    game: str
    seed: int = 0
    channels: int = 32
    blocks: int = 3
    envs: int = 64
    simulations: int = 32
    batch: int = 256
    reuse: float = 4.0
    learning_rate: float = 1e-3
    weight_decay: float = 1e-4
    buffer: int = 50_000
    checkpoint_seconds: float = 120.0
    baseline: str = "greedy"
    eval_games: int = 64
    truth_games: int = 180
    random_plies: int = 0
    value_mix: float = 0.0
    workers: int = 1
    anneal: float = 0.0
    mirror: bool = False
    decisive: bool = False

    def check(self) -> None:
        for field in fields(self):
            value = getattr(self, field.name)
            if (isinstance(value, (int, float)) and not isinstance(value, bool)
                    and field.name not in ("seed", "random_plies", "value_mix", "anneal")):
                if not (value > 0 and math.isfinite(value)):
                    raise ParameterError(f"training setting {field.name} must be positive, got {value!r}")
        if not 0 <= self.value_mix <= 1:
            raise ParameterError(f"training setting value_mix must be between 0 and 1, got {self.value_mix!r}")
        if not (self.anneal >= 0 and math.isfinite(self.anneal)):
            raise ParameterError(f"training setting anneal must be 0 or more minutes, got {self.anneal!r}")


def step_size_scale(seconds: float, anneal_seconds: float) -> float:
    """The share of the learning rate used after ``seconds`` of training:
    1 without annealing (``anneal_seconds`` 0), else a cosine from 1 down to
    :data:`ANNEAL_FLOOR` over ``anneal_seconds``, and the floor after."""
    if anneal_seconds <= 0:
        return 1.0
    done = min(seconds / anneal_seconds, 1.0)
    return ANNEAL_FLOOR + (1 - ANNEAL_FLOOR) * (1 + math.cos(math.pi * done)) / 2


# Compiled training steps kept per process (LRU), as the searches are.
STEPS_KEPT = 8


class _Learner:
    """A net shape's loss and its optimiser's compiled training step."""

    def __init__(self, net_config: NetConfig, learning_rate: float, weight_decay: float):
        self.net = PolicyValueNet(net_config)
        self.optimizer = optax.adamw(learning_rate, weight_decay=weight_decay)
        self.step = jax.jit(self._step)

    def loss(self, params, obs, policies, results):
        logits, values = self.net.apply(params, obs)
        policy_loss = optax.softmax_cross_entropy(logits, policies).mean()
        value_loss = ((values - results) ** 2).mean()
        return policy_loss + value_loss, (policy_loss, value_loss)

    def _step(self, params, opt_state, obs, policies, results, scale):
        (loss, parts), grads = jax.value_and_grad(self.loss, has_aux=True)(params, obs, policies, results)
        updates, opt_state = self.optimizer.update(grads, opt_state, params)
        # Adam's update (its weight decay included) is proportional to its step size, so scaling
        # the update scales the step size and keeps the optimiser's state as it is without annealing.
        updates = jax.tree_util.tree_map(lambda update: update * scale, updates)
        return optax.apply_updates(params, updates), opt_state, loss, parts


@lru_cache(maxsize=STEPS_KEPT)
def _shared_learner(net_config: NetConfig, learning_rate: float, weight_decay: float) -> _Learner:
    """One compiled training step per net shape and optimiser, shared by the
    process's runs (a resumed run, a run beside another): compiling it takes
    seconds. The step keeps no state: the parameters and the optimiser's
    state are its arguments."""
    return _Learner(net_config, learning_rate, weight_decay)


class Trainer:
    """A run folder's training: :meth:`open` starts or resumes it, :meth:`run` trains."""

    def __init__(self, folder: Path, config: TrainConfig, db=None):
        self.folder = folder
        self.config = config
        self.game = load_game(config.game)
        layout = observation_layout(self.game)
        self.net_config = NetConfig(*layout.shape, self.game.num_distinct_actions(), config.channels, config.blocks)
        learner = _shared_learner(self.net_config, config.learning_rate, config.weight_decay)
        self.net, self.optimizer, self._loss, self._train_step = learner.net, learner.optimizer, learner.loss, learner.step
        self.search = shared_search(self.game, self.net_config, config.simulations, config.decisive)
        self.params = init_params(self.net_config, config.seed)
        self.opt_state = self.optimizer.init(self.params)
        self.iteration = self.games = self.moves = 0
        self.seconds = self.cpu_seconds = 0.0
        self.replay = Samples.empty(layout.shape, self.net_config.actions)
        self.truth = self._truth(db)
        self._workers = ThreadPoolExecutor(config.workers) if config.workers > 1 else None
        self._mirror = layout.mirror if config.mirror else None

    # -- opening a run folder ------------------------------------------------------------
    @classmethod
    def open(cls, folder: str | Path, config: TrainConfig | None = None, db=None) -> Trainer:
        """The run in ``folder``: resumed from its last checkpoint if it has
        one (``config``, if given, must name the same game), else started
        with ``config``."""
        folder = Path(folder)
        saved = folder / RUN
        if saved.is_file():
            try:
                stored = TrainConfig(**json.loads(saved.read_text()))
            except (ValueError, TypeError) as problem:
                raise CheckpointError(f"{saved} is not a training run's settings: {problem}") from None
            if config is not None and load_game(config.game) != load_game(stored.game):
                raise CheckpointError(f"{folder} is a run of {stored.game}, not {config.game}; "
                                      f"choose another --out folder")
            trainer = cls(folder, stored, db)
            trainer._restore()
            return trainer
        if config is None:
            raise CheckpointError(f"{folder} holds no training run")
        config = TrainConfig(**{**asdict(config), "game": str(load_game(config.game))})
        config.check()
        folder.mkdir(parents=True, exist_ok=True)
        trainer = cls(folder, config, db)
        write_atomically(saved, json.dumps(asdict(config), indent=1).encode())
        return trainer

    def _truth(self, db) -> Truth | None:
        from ..solver.table import open_table

        table = open_table(self.game, db)
        if table is None:
            return None
        # each checkpoint's agreement with the table is drawn (agreement.png): refused now, not at the first one
        require_extra("plot", "training a game with a solved table")
        path = self.folder / "truth.npz"
        if path.is_file():
            return Truth.load(path)
        truth = sample_positions(self.game, table, self.config.truth_games, self.config.seed)
        self.folder.mkdir(parents=True, exist_ok=True)
        truth.save(path)
        return truth

    def _restore(self) -> None:
        path = self.folder / STATE
        if not path.is_file():
            return
        try:
            record = serialization.msgpack_restore(path.read_bytes())
            self.params = serialization.from_state_dict(self.params, record["params"])
            self.opt_state = serialization.from_state_dict(self.opt_state, record["opt_state"])
            with np.load(self.folder / record["replay"]) as data:
                self.replay = Samples(data["observations"], data["policies"], data["results"])
        except (OSError, KeyError, ValueError) as problem:
            raise CheckpointError(f"cannot resume from {path}: {problem}") from None
        self.iteration, self.games, self.moves = record["iteration"], record["games"], record["moves"]
        self.seconds, self.cpu_seconds = record["seconds"], record["cpu_seconds"]
        for name in ("metrics.jsonl", "checkpoints.jsonl"):  # lines past the checkpoint are played again
            self._keep_lines(name, lambda line: line["iteration"] <= self.iteration)

    # -- one iteration ------------------------------------------------------------------
    def iterate(self) -> dict:
        """Play one batch of self-play games and learn from the buffer; returns the iteration's metrics line."""
        config = self.config
        began, cpu_began = time.perf_counter(), time.process_time()
        samples, games, moves = self_play_batches(
            self.search, self.params, config.envs, jax.random.fold_in(jax.random.PRNGKey(config.seed), self.iteration),
            seed=config.seed * 1_000_003 + self.iteration, workers=config.workers, pool=self._workers,
            random_plies=config.random_plies, value_mix=config.value_mix)
        self.replay = self.replay.concatenate(samples, config.buffer)
        rng = np.random.default_rng([config.seed, self.iteration])
        steps = max(1, math.ceil(config.reuse * len(samples) / config.batch))
        scale = np.float32(step_size_scale(self.seconds + time.perf_counter() - began, config.anneal * 60))
        totals = np.zeros(3)
        for _ in range(steps):
            pick = rng.integers(0, len(self.replay), size=min(config.batch, len(self.replay)))
            observations, policies = self._mirrored(rng, self.replay.observations[pick], self.replay.policies[pick])
            self.params, self.opt_state, loss, (policy_loss, value_loss) = self._train_step(
                self.params, self.opt_state, observations, policies, self.replay.results[pick], scale)
            totals += (float(loss), float(policy_loss), float(value_loss))
        self.iteration += 1
        self.games += games
        self.moves += moves
        self.seconds += time.perf_counter() - began
        self.cpu_seconds += time.process_time() - cpu_began
        line = {"iteration": self.iteration, "games": self.games, "moves": self.moves,
                "seconds": round(self.seconds, 3), "cpu_seconds": round(self.cpu_seconds, 3),
                "loss": totals[0] / steps, "policy_loss": totals[1] / steps, "value_loss": totals[2] / steps,
                "sgd_steps": steps, "samples": len(samples), "step_size": float(config.learning_rate * scale)}
        self._append("metrics.jsonl", line)
        return line

    def _mirrored(self, rng, observations, policies):
        """The minibatch with a random half of it seen in the mirror (``mirror``; else as it is)."""
        if self._mirror is None:
            return observations, policies
        flip = rng.random(len(policies)) < 0.5
        observations[flip] = observations[flip][..., ::-1]
        policies[flip] = policies[flip][:, self._mirror]  # the mirror undoes itself (observation_layout checks)
        return observations, policies

    # -- checkpoints ---------------------------------------------------------------------
    def checkpoint(self) -> dict:
        """Save everything a resumed run needs and the model files, then
        measure the net (Elo, agreement) and log the checkpoint's line."""
        replay_name = f"replay-{self.iteration:06d}.npz"
        temporary = self.folder / f"{replay_name}.tmp.npz"
        np.savez(temporary, observations=self.replay.observations, policies=self.replay.policies,
                 results=self.replay.results)
        temporary.replace(self.folder / replay_name)
        for name in (f"model-{self.iteration:06d}.msgpack", MODEL):
            save_model(self.folder / name, self.config.game, self.net_config, self.params, self.iteration,
                       self.games, self.seconds)
        record = {"iteration": self.iteration, "games": self.games, "moves": self.moves, "seconds": self.seconds,
                  "cpu_seconds": self.cpu_seconds, "replay": replay_name,
                  "params": serialization.to_state_dict(self.params),
                  "opt_state": serialization.to_state_dict(self.opt_state)}
        write_atomically(self.folder / STATE, serialization.msgpack_serialize(jax.device_get(record)))
        for old in self.folder.glob("replay-*.npz"):
            if old.name != replay_name:
                old.unlink()
        return self.measure()

    def measure(self) -> dict:
        """The checkpoint's line: Elo against the baseline, agreement with the solver."""
        config = self.config
        wins, ties, losses = play_baseline(self.search, self.params, config.baseline, config.eval_games,
                                           seed=config.seed * 7919 + self.iteration)
        elo = elo_estimate(wins, ties, losses)
        line = {"iteration": self.iteration, "games": self.games, "seconds": round(self.seconds, 3),
                "cpu_seconds": round(self.cpu_seconds, 3), "baseline": config.baseline,
                "wins": wins, "ties": ties, "losses": losses, "elo": _finite(elo.elo), "score": elo.score}
        if self.truth is not None:
            logits, values = self.search.evaluate(self.params, self.truth.observations, self.truth.legal)
            found = agreement(np.asarray(logits), np.asarray(values), self.truth)
            line.update(move_agreement=found["move"], value_agreement=found["value"], positions=found["positions"])
        self._append("checkpoints.jsonl", line)
        if self.truth is not None:
            from .plot import plot_agreement

            plot_agreement(self.folder / "checkpoints.jsonl", self.folder / "agreement.png", self.config.game)
        return line

    @property
    def parameters(self) -> int:
        return count_parameters(self.params)

    # -- the loop ------------------------------------------------------------------------
    def run(self, minutes: float | None = None, iterations: int | None = None, report=None) -> None:
        """Train until the run's total training time reaches ``minutes`` or its
        iteration count reaches ``iterations`` (whichever comes first; one of
        them is needed), checkpointing as the module docstring says.
        ``report(kind, line)`` hears of every ``"iteration"`` and ``"checkpoint"``.
        A Ctrl-C checkpoints the iterations done and re-raises."""
        if minutes is None and iterations is None:
            raise ParameterError("say how long to train: --minutes or --iterations")
        report = report or (lambda kind, line: None)
        if not any(line["iteration"] == self.iteration for line in self.lines("checkpoints.jsonl")):
            report("checkpoint", self.measure())
        since = self.seconds

        def done() -> bool:
            return ((minutes is not None and self.seconds >= minutes * 60)
                    or (iterations is not None and self.iteration >= iterations))

        saved = self.iteration
        try:
            while not done():
                report("iteration", self.iterate())
                if self.seconds - since >= self.config.checkpoint_seconds and not done():
                    report("checkpoint", self.checkpoint())
                    since, saved = self.seconds, self.iteration
        except KeyboardInterrupt:
            if self.iteration > saved:
                self.checkpoint()
            raise
        if self.iteration > saved or not (self.folder / STATE).is_file():
            report("checkpoint", self.checkpoint())

    # -- the run folder's logs ------------------------------------------------------------
    def _append(self, name: str, line: dict) -> None:
        with open(self.folder / name, "a") as handle:
            handle.write(json.dumps(line) + "\n")

    def lines(self, name: str) -> list[dict]:
        path = self.folder / name
        if not path.is_file():
            return []
        return [json.loads(text) for text in path.read_text().splitlines() if text.strip()]

    def _keep_lines(self, name: str, keep) -> None:
        path = self.folder / name
        if path.is_file():
            kept = [line for line in self.lines(name) if keep(line)]
            write_atomically(path, "".join(json.dumps(line) + "\n" for line in kept).encode())


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None
