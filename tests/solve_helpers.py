"""A solve's steps as a test sees them: each progress record a solve saves
in its work folder (``VARIANT.work/progress.json``), which is all that a
solve stopped by Ctrl-C or a kill resumes from. A test stops a solve right
after one of them (a ``KeyboardInterrupt`` raised there, as Ctrl-C then
would raise it), and watches which steps the resumed solve saves."""

from __future__ import annotations

from pathlib import Path

from boomboard.solver.dense import driver as dense_driver
from boomboard.solver.format import work_files
from boomboard.solver.hashed import driver as hashed_driver
from boomboard.solver.hashed import tiers

SAVING_MODULES = (hashed_driver, tiers, dense_driver)  # each writes its progress with write_json_atomic


def step_of(record: dict) -> tuple[str, int] | None:
    """The step a progress record says is saved: ``("level", L)``, the
    positions of level L found (in memory); ``("durable", L)``, every
    layer's children up to layer L on disk, and ``("enumerated", 0)``, the
    layers indexed (layer by layer); ``("solved layer", L)``, the layers
    from L on scored (layer by layer); ``("dense level", L)``, the dense
    levels from L on scored. ``None``: a dense solve's first record, nothing done yet."""
    if "expanded" in record:
        return "level", record["expanded"] - 1
    if "next" in record:
        return ("dense level", record["next"] + 1) if any(record["values"]) else None
    if record.get("solved_from") is not None:
        return "solved layer", record["solved_from"]
    if record.get("indexed"):
        return "enumerated", 0
    return "durable", record["durable"]


def watch_steps(monkeypatch, on_step) -> None:
    """Call ``on_step((phase, index))`` right after each progress record a
    solve saves from now on; it may raise (``KeyboardInterrupt``: Ctrl-C
    there). A later call replaces the watcher."""

    def write(path: Path, record: dict) -> None:
        work_files.write_json_atomic(path, record)
        step = step_of(record) if Path(path).name == "progress.json" else None
        if step is not None:
            on_step(step)

    for module in SAVING_MODULES:
        monkeypatch.setattr(module, "write_json_atomic", write)


def stop_after(monkeypatch, when) -> None:
    """Stop the next solve, as Ctrl-C would, right after it saves the step
    ``when`` (a step, or a test of one: the first that passes)."""

    def stop(saved):
        if saved == when or (callable(when) and when(saved)):
            raise KeyboardInterrupt

    watch_steps(monkeypatch, stop)


def stop_before_scoring(monkeypatch) -> None:
    """Stop the next in-memory solve, as Ctrl-C would, once every level is
    found and saved, before it scores them (once: a later solve scores)."""
    scoring = hashed_driver._Solver.retrograde

    def stop_once(solver, *args):
        monkeypatch.setattr(hashed_driver._Solver, "retrograde", scoring)
        raise KeyboardInterrupt

    monkeypatch.setattr(hashed_driver._Solver, "retrograde", stop_once)


def steps_saved(monkeypatch) -> list[tuple[str, int]]:
    """The steps solves save from now on, in order (the list fills as they run)."""
    saved = []
    watch_steps(monkeypatch, saved.append)
    return saved
