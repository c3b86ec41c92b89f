"""``--backend ray``: games as Ray tasks, on a running Ray cluster or a local one.

Each game is one task that runs the same referee (two agent processes on
the Ray node) and returns the whole game; the arena's process records it
when it comes back, so a game is stored once it is finished rather than
action by action. boomboard must be installed on every node
(``pip install boomboard[ray]``). Ray is an optional extra: without it,
``--backend ray`` says how to install it.
"""

from __future__ import annotations

import threading
from dataclasses import asdict

from ..core.ray_support import start_ray
from .referee import GameResult, Limits, play_game


def _play_remotely(game: str, specs: list[str], limits: dict, seed: int) -> dict:
    return asdict(play_game(game, specs, Limits(**limits), seed))


class RayRunner:
    """Submits games to Ray: ``address`` is a cluster's (``ray://host:10001``
    or ``auto``); without one, a local Ray instance is started."""

    def __init__(self, address: str | None = None, num_cpus: int | None = None):
        ray = self.ray = start_ray(address, num_cpus)
        self.task = ray.remote(num_cpus=1, max_retries=0)(_play_remotely)

    def play(self, game: str, specs: list[str], limits: Limits, seed: int,
             stop: threading.Event) -> GameResult | None:
        """The finished game, or ``None`` if ``stop`` was set first (the task is cancelled)."""
        ref = self.task.remote(game, specs, limits.to_dict(), seed)
        while True:
            ready, _ = self.ray.wait([ref], timeout=0.2)
            if ready:
                return GameResult(**self.ray.get(ref))
            if stop.is_set():
                self.ray.cancel(ref, force=True)
                return None
