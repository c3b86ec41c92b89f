"""The agent specs the arena accepts: every :func:`make_agent` spec, plus

* ``engine:COMMAND``: an external program speaking the text engine protocol
  (:mod:`boomboard.arena.engine_protocol`), started with ``COMMAND``;
* ``course:PATH[:Class]``: an Expendibots course ``Player`` (a package, a
  module name or a ``.py`` file; class ``Player`` unless named);
* ``python:PATH[:Class]``: a boomboard :class:`~boomboard.agents.Agent`
  subclass from a module name or a ``.py`` file (class ``Agent`` unless named).

Specs are checked in the arena's process (:func:`check_spec`, a clear error
before any game starts) and built in the agent's own process (:func:`build_agent`).
"""

from __future__ import annotations

import importlib
import importlib.util
import shlex
import sys
from pathlib import Path
from typing import Any

from .. import learn  # noqa: F401  (registers the "learned" agent kind: every make_agent spec is one here)
from ..agents import HUMAN, Agent, agent_settings, make_agent, parse_spec
from ..core.errors import ParameterError
from .engine_protocol import EngineAgent

EXTRA_KINDS = ("engine", "course", "python")


def split_kind(spec: str) -> tuple[str, str]:
    kind, _, rest = spec.strip().partition(":")
    return kind.lower(), rest


def split_path_class(target: str, default_class: str) -> tuple[str, str]:
    """``'dir/player.py:Bot'`` -> ``('dir/player.py', 'Bot')``; no class: the default."""
    head, sep, tail = target.rpartition(":")
    if sep and tail.isidentifier() and head:
        return head, tail
    return target, default_class


def check_spec(spec: str) -> None:
    """Raise :class:`ParameterError` for a spec no agent can be built from."""
    kind, rest = split_kind(spec)
    if kind == "engine":
        if not rest.strip():
            raise ParameterError("engine: needs a command, e.g. 'engine:python3 my_engine.py'")
        try:
            shlex.split(rest)
        except ValueError as problem:
            raise ParameterError(f"cannot read the engine command {rest!r}: {problem}") from None
    elif kind in ("course", "python"):
        path, class_name = split_path_class(rest, "Player" if kind == "course" else "Agent")
        if not path:
            raise ParameterError(f"{kind}: needs a module, package or .py file, e.g. '{kind}:my_player.py'")
        if path.endswith(".py") and not Path(path).is_file():
            raise ParameterError(f"no file {path!r} for the agent {spec!r}")
    else:
        kind, _ = parse_spec(spec)
        if kind == HUMAN:
            raise ParameterError("'human' cannot play in the arena; give agent specs such as random or ai:time=0.1")
        agent_settings(spec)


def load_class(path: str, class_name: str) -> type:
    """A class from a ``.py`` file, a package directory or an importable module name."""
    file = Path(path)
    try:
        if path.endswith(".py"):
            name = f"boomboard_external_{abs(hash(str(file.resolve())))}"
            spec = importlib.util.spec_from_file_location(name, file)
            if spec is None or spec.loader is None:
                raise ParameterError(f"cannot load {path!r} as a Python file")
            module = importlib.util.module_from_spec(spec)
            sys.modules[name] = module
            sys.path.insert(0, str(file.resolve().parent))
            spec.loader.exec_module(module)
        elif file.is_dir():
            sys.path.insert(0, str(file.resolve().parent))
            module = importlib.import_module(file.resolve().name)
        else:
            sys.path.insert(0, str(Path.cwd()))
            module = importlib.import_module(path)
    except ImportError as problem:
        raise ParameterError(f"cannot import {path!r}: {problem}") from None
    found = getattr(module, class_name, None)
    if not isinstance(found, type):
        raise ParameterError(f"{path!r} has no class {class_name!r}")
    return found


def build_agent(spec: str, seed: int | None = None) -> Agent:
    """The agent a spec names (in the process that will run it)."""
    kind, rest = split_kind(spec)
    if kind == "engine":
        return EngineAgent(rest, seed=seed)
    if kind == "course":
        from .course import CourseAgent

        path, class_name = split_path_class(rest, "Player")
        return CourseAgent(load_class(path, class_name), seed=seed)
    if kind == "python":
        path, class_name = split_path_class(rest, "Agent")
        cls: Any = load_class(path, class_name)
        agent = cls(seed=seed) if _takes_seed(cls) else cls()
        if not isinstance(agent, Agent):
            raise ParameterError(f"{class_name} from {path!r} is not a boomboard Agent subclass")
        return agent
    return make_agent(spec, seed=seed)


def _takes_seed(cls: type) -> bool:
    import inspect

    try:
        return "seed" in inspect.signature(cls).parameters
    except (TypeError, ValueError):
        return False
