"""Declared game parameters, and the ``name(key=value,...)`` game strings.

Each game declares its parameters once, as OpenSpiel does in its game type;
the registry, the CLI flags and the adapters are all built from that list.
"""

from __future__ import annotations

import numbers
import re
from dataclasses import dataclass
from typing import Any
from collections.abc import Callable

from .errors import ParameterError


@dataclass(frozen=True)
class Parameter:
    """One parameter of a game: its name, type, default and allowed range."""

    name: str
    default: Any
    help: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] | None = None
    validate: Callable[[Any], str | None] | None = None  # returns an error message

    @property
    def kind(self) -> type:
        return type(self.default)

    def coerce(self, value: Any) -> Any:
        """Convert ``value`` (possibly a string from a command line) and check it."""
        kind = self.kind
        try:
            if kind is bool:
                value = _parse_bool(value)
            elif kind is int:
                value = _parse_int(value)
            elif not isinstance(value, str) or not value.isascii():
                raise TypeError
            else:
                value = str(value)
        except (TypeError, ValueError):
            raise ParameterError(
                f"parameter {self.name!r} expects {kind.__name__}, got {value!r:.60}"
            ) from None
        if self.minimum is not None and value < self.minimum:
            raise ParameterError(f"parameter {self.name!r} must be >= {self.minimum}, got {value}")
        if self.maximum is not None and value > self.maximum:
            raise ParameterError(f"parameter {self.name!r} must be <= {self.maximum}, got {value}")
        if self.choices is not None and value not in self.choices:
            raise ParameterError(
                f"parameter {self.name!r} must be one of {', '.join(self.choices)}; got {value!r}"
            )
        if self.validate is not None:
            problem = self.validate(value)
            if problem:
                raise ParameterError(f"parameter {self.name!r}: {problem}")
        return value

    def describe(self) -> str:
        bounds = ""
        if self.choices:
            bounds = f" ({'|'.join(self.choices)})"
        elif self.minimum is not None or self.maximum is not None:
            low = "" if self.minimum is None else self.minimum
            high = "" if self.maximum is None else self.maximum
            bounds = f" ({low}..{high})"
        return f"{self.name}={format_value(self.default)}{bounds}: {self.help}"


_INTEGER = re.compile(r"[+-]?[0-9]{1,18}")


def _parse_int(value: Any) -> int:
    # an int (NumPy's too), or its ASCII digits from a game string or a command
    # line; never a bool, a float or other scripts' digits such as '４'
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return int(value)
    if isinstance(value, str) and _INTEGER.fullmatch(value.strip()):
        return int(value.strip())
    raise ValueError(value)


def _parse_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if not isinstance(value, str):
        raise ValueError(value)
    text = value.strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    raise ValueError(value)


def format_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def resolve(parameters: tuple[Parameter, ...], given: dict[str, Any]) -> dict[str, Any]:
    """Defaults overridden by ``given``; unknown names and bad values raise."""
    known = {p.name: p for p in parameters}
    unknown = sorted(set(given) - set(known))
    if unknown:
        expected = ", ".join(known) or "none"
        raise ParameterError(f"unknown parameter(s) {', '.join(unknown)}; expected: {expected}")
    return {p.name: p.coerce(given[p.name]) if p.name in given else p.default for p in parameters}


_GAME_STRING = re.compile(r"^\s*([A-Za-z_][\w-]*)\s*(?:\((.*)\))?\s*$", re.S)


def parse_game_string(text: str) -> tuple[str, dict[str, str]]:
    """Split ``'kaboom(rows=5,misere=true)'`` into ``('kaboom', {...})``."""
    if not isinstance(text, str):
        raise ParameterError(f"a game is named by a string such as 'kaboom' or 'kaboom(rows=5)'; "
                             f"got {type(text).__name__}")
    match = _GAME_STRING.match(text) if text.isascii() else None
    if not match:
        raise ParameterError(f"bad game string {text!r}; expected name or name(key=value,...)")
    name, inside = match.group(1), match.group(2)
    values: dict[str, str] = {}
    if inside and inside.strip():
        for item in inside.split(","):
            key, sep, value = item.partition("=")
            if not sep or not key.strip():
                raise ParameterError(f"bad parameter {item.strip()!r} in {text!r}; expected key=value")
            if key.strip() in values:
                raise ParameterError(f"parameter {key.strip()!r} is given twice in {text!r}")
            values[key.strip()] = value.strip()
    return name.lower(), values


def game_string(name: str, parameters: tuple[Parameter, ...], values: dict[str, Any]) -> str:
    """The canonical string of a game: only parameters that differ from defaults."""
    changed = [f"{p.name}={format_value(values[p.name])}" for p in parameters if values[p.name] != p.default]
    return f"{name}({','.join(changed)})" if changed else name


def command_options(parameters: tuple[Parameter, ...], values: dict[str, Any]) -> str:
    """The command-line options of the parameters that differ from their
    defaults, as ``boomboard`` commands take them: ``--rows 3 --misere``."""
    options = []
    for p in parameters:
        if values[p.name] == p.default:
            continue
        flag = "--" + p.name.replace("_", "-")
        if isinstance(p.default, bool):
            options.append(flag if values[p.name] else "--no-" + flag[2:])
        else:
            options.append(f"{flag} {format_value(values[p.name])}")
    return " ".join(options)
