"""The exceptions boomboard raises for bad input.

Every one derives from :class:`BoomboardError`, so a caller (the CLI, the
arena, a web handler) can catch them all and show the message, which always
says what was expected.
"""


class BoomboardError(Exception):
    """Base class of every error boomboard raises on purpose."""


class NotationError(BoomboardError, ValueError):
    """Text that does not follow a game's notation (an action or a position)."""


class IllegalActionError(BoomboardError, ValueError):
    """A well-formed action that is not legal in the current position."""


class InvalidPositionError(BoomboardError, ValueError):
    """A position that cannot occur in the game (floating pieces, mixed stacks...)."""


class GameOverError(BoomboardError):
    """An action was applied to a finished game."""


class UnknownGameError(BoomboardError, KeyError):
    """No game of that name is registered."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class ParameterError(BoomboardError, ValueError):
    """A game parameter that does not exist or has a bad value."""


class MissingExtraError(BoomboardError, ImportError):
    """A feature of an optional stack (``boomboard[web]``, ``[plot]``...) whose
    packages are not installed; :func:`boomboard.core.extras.require_extra`
    raises it. ``extra`` names the extra to install, ``missing`` the modules
    not found. It is an :class:`ImportError` too, so that code written for a
    plain missing import still catches it.
    """

    def __init__(self, extra: str, feature: str, missing: tuple[str, ...] = ()):
        super().__init__(f"{feature} needs the {extra} extra: pip install 'boomboard[{extra}]' "
                         f"(from a clone: scripts/setup {extra})")
        self.extra = extra
        self.missing = missing


class GameContractError(BoomboardError, TypeError):
    """A game registered without something the game contract
    (:mod:`boomboard.core.contract`) requires, or with a wrong signature."""


class MissingCapabilityError(BoomboardError, TypeError):
    """A feature asked of a game that does not provide the capability it
    needs (:data:`boomboard.core.contract.CAPABILITIES`): an engine-only game
    in the web app, say, or an alpha-beta search of a game without an evaluation."""
