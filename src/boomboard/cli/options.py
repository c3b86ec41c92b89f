"""Per-game command-line options: ``--rows 5 --misere --o random``.

Each game declares its own parameters, and its players have their own names
(``--white``, ``--red``, ``--x``), so these options cannot be fixed in the
command's signature; they are read from the extra arguments here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.errors import NotationError, ParameterError
from ..registry import game_class

BOOL_WORDS = ("true", "false", "0", "1")  # the values a flag may be given after a space


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
            following = args[index + 1] if index + 1 < len(args) else "--"
            looks_like_value = following.lower() in BOOL_WORDS
            if not negated and not looks_like_value and not following.startswith("--"):
                raise flag_value_error(name, following)
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


def flag_value_error(name: str, value: str) -> ParameterError:
    """The error of an on/off parameter given a value that is neither (``--misere maybe``)."""
    flag = name.replace("_", "-")
    return ParameterError(f"--{flag} is on or off: give --{flag}, --no-{flag} or --{flag} true/false; "
                          f"got {value!r:.60}")


@dataclass
class PositionArgs:
    """A command's extra arguments split into its one position and the game's options."""
    position: str | None
    options: list[str]
    flag_before: str | None = None  # the on/off parameter written just before the position, if any

    def state(self, game):
        """The state of the position (the start if none was given). A plain
        word (no game writes a position so) that is no position, right after
        an on/off parameter, was meant as its value (``--misere maybe``): that
        is the error reported."""
        if self.position is None:
            return game.new_initial_state()
        try:
            return game.state_from_notation(self.position)
        except NotationError:
            if self.flag_before is None or not self.position.isalnum():
                raise
            raise flag_value_error(self.flag_before, self.position) from None


def split_position(game_name: str, args: list[str]) -> PositionArgs:
    """The position among the extra arguments (the one word that is not an
    option or an option's value), and the options. Reading it here, not as
    a typer argument, keeps ``analyze kaboom --rows 3 POSITION`` unambiguous."""
    flags = {p.name for p in game_class(game_name).parameters if isinstance(p.default, bool)}
    split, index = PositionArgs(None, []), 0
    while index < len(args):
        token = args[index]
        if token.startswith("--"):
            split.options.append(token)
            name = token[2:].split("=", 1)[0].replace("-", "_").lower()
            is_flag = name in flags or (name.startswith("no_") and name[3:] in flags)
            takes_value = "=" not in token and (not is_flag or (index + 1 < len(args)
                                                                and args[index + 1].lower() in BOOL_WORDS))
            if takes_value and index + 1 < len(args):
                index += 1
                split.options.append(args[index])
            elif is_flag and "=" not in token and index + 1 < len(args) and not args[index + 1].startswith("--"):
                split.flag_before = name.removeprefix("no_")
        elif split.position is None:
            split.position = token
        else:
            raise ParameterError(f"unexpected argument {token!r}: give one position (quote it if it has spaces)")
        index += 1
    return split
