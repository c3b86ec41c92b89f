"""Ray, the optional extra that spreads work over a cluster (``boomboard[ray]``).

The arena plays games as Ray tasks and the dense solver scores a level's
tiers as Ray tasks; both start Ray the same way: on the cluster at
``address`` (``ray://host:10001`` or ``auto``), or, without one, on a local
instance of this machine.
"""

from __future__ import annotations

from .extras import require_extra


def start_ray(address: str | None = None, num_cpus: int | None = None):
    """Ray, connected to the cluster at ``address`` or to a local instance
    (started with ``num_cpus``, default all cores) unless one is running;
    a :class:`~boomboard.core.extras.MissingExtraError` without Ray."""
    require_extra("ray", "--backend ray")
    import ray

    if not ray.is_initialized():
        if address:
            ray.init(address=address, ignore_reinit_error=True, log_to_driver=False)
        else:
            ray.init(num_cpus=num_cpus, ignore_reinit_error=True, log_to_driver=False, include_dashboard=False)
    return ray
