"""Per-game command-line options: ``--rows 5 --misere --o random``.

Each game declares its own parameters, and its players have their own names
(``--white``, ``--red``, ``--x``), so these options cannot be fixed in the
command's signature; they are read from the extra arguments here.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from ..core.errors import ParameterError
from ..registry import game_class


@dataclass
class GameOptions:
    params: dict[str, str] = field(default_factory=dict)
    sides: dict[int, str] = field(default_factory=dict)


def parse_game_options(game_name: str, args: list[str]) -> GameOptions:
    """Split extra ``--name value`` arguments into game parameters and sides."""
    cls = game_class(game_name)
    bool_params = {p.name for p in cls.parameters if isinstance(p.default, bool)}
    param_names = {p.name for p in cls.parameters}
    players = {name.lower(): index for index, name in enumerate(cls.player_names)}
    expected = [f"--{p.name.replace('_', '-')}" for p in cls.parameters] + [f"--{n}" for n in players]
    options = GameOptions()
    index = 0
    while index < len(args):
        token = args[index]
        if not token.startswith("--") or token == "--":
            raise ParameterError(f"unexpected argument {token!r}; options for {cls.name}: {', '.join(expected)}")
        name, has_value, value = token[2:].partition("=")
        name = name.replace("-", "_").lower()
        negated = name.startswith("no_") and name[3:] in bool_params
        if negated or (name in bool_params and not has_value):
            looks_like_value = index + 1 < len(args) and args[index + 1].lower() in ("true", "false", "0", "1")
            if negated:
                name, value = name[3:], "false"
            elif looks_like_value:
                index += 1
                value = args[index]
            else:
                value = "true"
        elif not has_value:
            if index + 1 >= len(args):
                raise ParameterError(f"option --{name.replace('_', '-')} needs a value")
            index += 1
            value = args[index]
        if name in param_names:
            options.params[name] = value
        elif name in players:
            options.sides[players[name]] = value
        else:
            raise ParameterError(f"unknown option --{name.replace('_', '-')} for {cls.name}; expected: {', '.join(expected)}")
        index += 1
    return options


def usable_cores() -> int:
    """The cores this process may run on (its affinity, where the system tells it)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def oversubscribed_warning(workers: int, what: str) -> str | None:
    """A line for ``--workers`` above the cores there are (they share them: each
    of ``what`` runs slower, a timed one searches less), else ``None``."""
    cores = usable_cores()
    if workers <= cores:
        return None
    return (f"warning: --workers {workers} is more than the {cores} cores this machine gives: {what} share "
            f"them, each slower (a timed move searches less); --workers {cores} runs as many at once")
