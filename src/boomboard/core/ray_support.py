"""Ray, the optional extra that spreads work over a cluster (``boomboard[ray]``).

The arena plays games as Ray tasks and the dense solver scores a level's
tiers as Ray tasks; both start Ray the same way: on the cluster at
``address`` (``ray://host:10001`` or ``auto``), or, without one, on a local
instance of this machine.
"""

from __future__ import annotations

from .errors import ParameterError


def import_ray():
    """The ``ray`` module, or a :class:`ParameterError` saying how to install it."""
    try:
        import ray
    except ImportError:
        raise ParameterError("--backend ray needs Ray: pip install 'boomboard[ray]' "
                             "(from a clone of the repository: scripts/setup ray)") from None
    return ray


def start_ray(address: str | None = None, num_cpus: int | None = None):
    """Ray, connected to the cluster at ``address`` or to a local instance
    (started with ``num_cpus``, default all cores) unless one is running."""
    ray = import_ray()
    if not ray.is_initialized():
        if address:
            ray.init(address=address, ignore_reinit_error=True, log_to_driver=False)
        else:
            ray.init(num_cpus=num_cpus, ignore_reinit_error=True, log_to_driver=False, include_dashboard=False)
    return ray
