"""Agents from spec strings such as ``random`` or ``random:seed=7``.

The spec is the agent's kind, then optional ``key=value`` settings after a
colon, separated by commas. ``human`` is understood by the interfaces (the
terminal, the web app), which ask a person instead of an agent.

The kinds of this layer and of those below it (``solver``) are listed here.
A kind defined in a layer above the agents (``learned``, in the learn layer)
registers itself with :func:`register_agent_kind` when its module is
imported; the agents never import it, and the interfaces that take specs
import that layer (docs/reference/agents.md).
"""

from __future__ import annotations

import math
import os
import re
import typing
from collections.abc import Callable

from ..core.errors import ParameterError
from .analysis_agent import AnalysisAgent
from .base import Agent, RandomAgent
from .search_agents import AiAgent, AlphaBetaAgent, AlphaBetaSettings, GreedyAgent, MctsAgent
from .solver_agent import SolverAgent

HUMAN = "human"

_KINDS: dict[str, Callable[..., Agent]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "alphabeta": AlphaBetaAgent.from_spec,
    "mcts": MctsAgent,
    "ai": AiAgent,
    "solver": SolverAgent,
    "analysis": AnalysisAgent,
}



def _field_types(settings_class: type) -> dict[str, type]:
    """A settings dataclass's fields and their types (``int | None`` is ``int``)."""
    hints = typing.get_type_hints(settings_class)
    return {name: next(t for t in typing.get_args(hint) or (hint,) if t is not type(None))
            for name, hint in hints.items()}


# The settings each kind takes (besides seed), with their types.
_BUDGET = {"time": float, "game_time": float}
_ALPHABETA = _field_types(AlphaBetaSettings)
_SETTINGS: dict[str, dict[str, type]] = {
    "random": {},
    "greedy": {},
    "alphabeta": _ALPHABETA,
    "mcts": {"simulations": int, "exploration": float, "playout": int, **_BUDGET},
    # ai plays its game's own search settings: of alpha-beta's, those of the choice and the budget may be given
    "ai": {name: kind for name, kind in _ALPHABETA.items() if name not in ("table_bits", "quiescence", "contempt")},
    "solver": {"db": str},
    "analysis": {"db": str, "depth": int, "nodes": int, "warm": int},
}


_MAY_BE_ZERO = {"quiescence", "contempt", "margin", "endgames", "traps", "solved", "search", "reductions", "book",
                "null_move", "variety_plies", "learned", "proofs", "puct", "decisive", "mirror", "guard", "warm"}  # 0: off
MAX_TABLE_BITS = 34
# An alpha-beta table entry: its key (uint64) and its data (int64).
TABLE_ENTRY_BYTES = 16
# The share of the machine's memory one alpha-beta table may take: the rest
# is left to the process, its other tables and the other programs.
TABLE_MEMORY_SHARE = 0.5
# The most tokens an endgame table holds (boomboard solve --tokens): a larger
# endgames setting would ask for a table no command can build.
MAX_ENDGAME_TOKENS = 6

# Kinds whose first setting may be given without its name: "learned:runs/k4" is "learned:checkpoint=runs/k4".
_POSITIONAL: dict[str, str] = {}
# Checks of a kind's typed settings that need more than their types (a file that must exist).
_CHECKS: dict[str, Callable[[dict], None]] = {}


def register_agent_kind(kind: str, factory: Callable[..., Agent], settings: dict[str, type],
                        positional: str | None = None, check: Callable[[dict], None] | None = None) -> None:
    """Make ``kind`` a spec kind: ``factory(seed=..., **settings)`` builds it;
    ``settings`` maps each setting's name to its type (int, float or str).
    ``positional`` names the setting a spec may give first without its name;
    ``check(settings)`` raises a clear error for settings no agent can be
    built from, before any is (:func:`agent_settings` calls it)."""
    _KINDS[kind] = factory
    _SETTINGS[kind] = dict(settings)
    if positional:
        _POSITIONAL[kind] = positional
    if check:
        _CHECKS[kind] = check


def agent_kinds() -> list[str]:
    """The spec kinds :func:`make_agent` accepts, ``human`` included."""
    return [HUMAN, *_KINDS]


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``'random:seed=7'`` -> ``('random', {'seed': '7'})``."""
    if not isinstance(spec, str):
        raise ParameterError(f"an agent is named by a string such as 'random:seed=7'; got {type(spec).__name__}")
    kind, _, rest = spec.strip().partition(":")
    kind = kind.lower()
    if kind not in agent_kinds():
        raise ParameterError(f"unknown agent {kind!r}; known agents: {', '.join(agent_kinds())} "
                             "(docs/reference/agents.md describes each)")
    settings: dict[str, str] = {}
    for index, item in enumerate(filter(None, (part.strip() for part in rest.split(",")))):
        key, sep, value = item.partition("=")
        if not sep and index == 0 and kind in _POSITIONAL:
            key, sep, value = _POSITIONAL[kind], "=", item
        if not sep:
            raise ParameterError(f"bad agent setting {item!r} in {spec!r}; expected key=value")
        settings[key.strip()] = value.strip()
    return kind, settings


_INTEGER = re.compile(r"[+-]?[0-9]{1,18}")
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def parse_number(text: str, kind: type) -> int | float:
    """An int or a finite float from ASCII text (``int('４')`` and ``float('inf')``
    would accept what the docs do not promise); ValueError otherwise."""
    if kind is int and _INTEGER.fullmatch(text):
        return int(text)
    if kind is float and _DECIMAL.fullmatch(text) and math.isfinite(float(text)):
        return float(text)
    raise ValueError(text)


def make_agent(spec: str, seed: int | None = None) -> Agent:
    """Build the agent a spec string names (not ``human``: interfaces handle that)."""
    kind, seed, values = agent_settings(spec, seed)
    return _KINDS[kind](seed=seed, **values)


def agent_settings(spec: str, seed: int | None = None) -> tuple[str, int | None, dict]:
    """``(kind, seed, settings)`` of an agent spec, each setting checked and
    typed, as :func:`make_agent` builds it (not ``human``)."""
    kind, settings = parse_spec(spec)
    if kind == HUMAN:
        raise ParameterError("'human' is played through an interface, not built as an agent")
    if "seed" in settings:
        try:
            seed = parse_number(settings.pop("seed"), int)
        except ValueError:
            raise ParameterError(f"agent seed must be an integer in {spec!r}") from None
    values = {}
    for key, text in settings.items():
        kind_settings = _SETTINGS[kind]
        if key not in kind_settings:
            known = ", ".join(["seed", *kind_settings])
            raise ParameterError(f"agent {kind!r} has no setting {key!r}; its settings: {known}")
        if kind_settings[key] is str:
            values[key] = text
            continue
        try:
            values[key] = parse_number(text, kind_settings[key])
        except ValueError:
            raise ParameterError(f"agent setting {key}={text!r} in {spec!r}: expected "
                                 f"{'an integer' if kind_settings[key] is int else 'a number'}") from None
        if key == "table_bits" and values[key] > table_bits_limit():
            raise ParameterError(f"agent setting {key}={text!r} in {spec!r} must be at most {table_bits_limit()} "
                                 f"on this machine (a table of 2**bits entries takes {TABLE_ENTRY_BYTES}*2**bits "
                                 f"bytes; at most {TABLE_MEMORY_SHARE:.0%} of its {_memory_bytes() / 2**30:.1f} GiB "
                                 f"of memory, and never past 2**{MAX_TABLE_BITS})")
        if key == "endgames" and values[key] > MAX_ENDGAME_TOKENS:
            raise ParameterError(f"agent setting {key}={text!r} in {spec!r} must be at most {MAX_ENDGAME_TOKENS} "
                                 f"(the largest endgame table boomboard solve --tokens builds)")
        if values[key] < 0 or (values[key] == 0 and key not in _MAY_BE_ZERO):
            least = "0 or more" if key in _MAY_BE_ZERO else "positive"
            raise ParameterError(f"agent setting {key}={text!r} in {spec!r} must be {least}")
    if kind in _CHECKS:
        _CHECKS[kind](values)
    return kind, seed, values


def kind_settings(kind: str) -> dict[str, type]:
    """The settings a spec kind takes (besides ``seed``), with their types."""
    if kind not in _SETTINGS:
        raise ParameterError(f"unknown agent {kind!r}; known agents: {', '.join(_KINDS)}")
    return dict(_SETTINGS[kind])


def _memory_bytes() -> int:
    """The machine's physical memory (a generous guess where it cannot be read)."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return 2**MAX_TABLE_BITS * TABLE_ENTRY_BYTES


def table_bits_limit() -> int:
    """The largest ``table_bits`` this machine can hold: a table of at most
    :data:`TABLE_MEMORY_SHARE` of its memory, and never past :data:`MAX_TABLE_BITS`
    (past it, allocating fails with a MemoryError instead of a clear refusal)."""
    entries = int(_memory_bytes() * TABLE_MEMORY_SHARE) // TABLE_ENTRY_BYTES
    return max(1, min(MAX_TABLE_BITS, entries.bit_length() - 1))
