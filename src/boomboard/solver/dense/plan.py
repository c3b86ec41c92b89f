"""What a dense solve needs, before it starts: records, memory, disk, time.

``boomboard solve GAME --plan`` prints it; the numbers come from the game's
dense layout (:class:`boomboard.solver.dense.layout.DenseLayout`), which is
counted without solving anything. A level is scored while the levels its
moves reach are held in memory, so the largest *working set* (a level and
its children) is what one machine, or each Ray worker, must hold. Time and
disk are the records times a rate and a compressed size per record measured
on solved boards (``docs/explanation/solver.md`` gives the figures and where they come
from).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...core.game import Game
from .layout import DenseLayout

RECORD_BYTES = 2


@dataclass(frozen=True)
class DensePlan:
    game: str
    symmetric: bool
    levels: int
    tiers: int  # stored tiers
    records: int  # ranks stored, positions or not
    largest_level: int  # records
    working_set: int  # records held while the hungriest level is scored: it and its children

    def hours(self, records_per_cpu_second: float, cores: int) -> float:
        """Wall hours on ``cores`` cores at a measured rate per core."""
        return self.records / records_per_cpu_second / cores / 3600

    def memory_bytes(self) -> int:
        return self.working_set * RECORD_BYTES

    def needs_window(self, memory: int) -> bool:
        """Whether the levels read do not fit in ``memory`` bytes, so go
        through a mapped window file (:mod:`boomboard.solver.dense.window`)."""
        return self.memory_bytes() > memory * MEMORY_SHARE


MEMORY_SHARE = 0.8  # of the machine's memory a solve may fill with the levels it reads


def fit(counted: DensePlan, memory: int, free_disk: int, can_map: bool = True) -> tuple[bool, str | None]:
    """How a solve of ``counted`` runs on a machine with ``memory`` bytes
    and ``free_disk`` bytes free: whether the levels it reads go through a
    memory-mapped window file (:mod:`boomboard.solver.dense.window`) because
    they do not fit in memory, and why it cannot run at all (``None`` if it
    can). ``can_map``: whether this system can free a window's disk space."""
    gib = 1 << 30
    mapped = counted.needs_window(memory)
    if mapped and not can_map:
        return mapped, (f"its largest level and the levels it reads need {counted.memory_bytes() / gib:,.1f} GiB "
                        f"of memory, this machine has {memory / gib:,.1f} GiB, and reading them through a "
                        "mapped file needs Linux")
    table = counted.records * MEASURED_BYTES_PER_RECORD
    window = counted.memory_bytes() if mapped else 0
    if table + window > free_disk:
        more = (f", and {window / gib:,.1f} GiB more for the levels it reads, uncompressed, since they do not fit "
                f"in the {memory / gib:,.1f} GiB of memory") if mapped else ""
        return mapped, (f"its table needs about {table / gib:,.1f} GiB of disk{more}; "
                        f"{free_disk / gib:,.1f} GiB are free")
    return mapped, None


def plan(game: Game, symmetric: bool = True) -> DensePlan:
    """Count ``game``'s dense layout (tiers, levels, records) without solving it."""
    return plan_of(DenseLayout(game, symmetric))


def plan_of(layout: DenseLayout) -> DensePlan:
    """The plan of a :class:`~boomboard.solver.dense.layout.DenseLayout`."""
    working = 0
    for level in range(layout.level_count):
        if layout.totals[level]:
            need = int(layout.totals[level]) + sum(int(layout.totals[c]) for c in layout.child_levels(level))
            working = max(working, need)
    return DensePlan(str(layout.game), layout.symmetric, layout.level_count, len(layout.ids), int(layout.totals.sum()),
                     int(layout.totals.max()), working)

# Measured on Kaboom 4x4 (1 bomb, symmetry on) on a 2-core AMD EPYC, one thread: see docs/explanation/solver.md.
MEASURED_RECORDS_PER_CPU_SECOND = 2.3e6
MEASURED_BYTES_PER_RECORD = 0.35
