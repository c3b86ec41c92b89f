"""The optional stacks (``pip install 'boomboard[web]'`` and so on), and the
one error that says which of them to install.

``pip install boomboard`` gives the engine, the agents, the solver, the
arena and the terminal commands. Whatever else needs a large stack of its
own is an extra, named in ``pyproject.toml``; every entry point of one
calls :func:`require_extra` before it uses the stack, so that a user who
asks for a missing part gets one line saying what to install, a
:class:`~boomboard.core.errors.MissingExtraError` (the ``boomboard``
command prints it and exits with 2).

A module that imports the stack at its top guards the import so::

    try:
        import pyspiel
    except ImportError:
        require_extra("openspiel", "boomboard.openspiel")
        raise  # installed but broken: its own error says why

so that an installed package that fails to import still shows its own error.
"""

from __future__ import annotations

import importlib.util

from .errors import MissingExtraError

# Each extra, and the top-level modules whose presence shows it is installed
# (pyproject.toml's [project.optional-dependencies] lists their distributions).
EXTRA_MODULES: dict[str, tuple[str, ...]] = {
    "web": ("fastapi", "uvicorn"),
    "plot": ("matplotlib",),
    "learn": ("jax", "flax", "optax", "mctx"),
    "ray": ("ray",),
    "openspiel": ("pyspiel",),
    "pettingzoo": ("pettingzoo", "gymnasium"),
}


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # an import hook that refuses it; a module without a spec
        return False


def missing_modules(extra: str, modules: tuple[str, ...] | None = None) -> tuple[str, ...]:
    """The modules of ``extra`` (or those of them in ``modules``) that cannot
    be imported here, found without importing them: JAX or Ray take seconds
    to import."""
    wanted = EXTRA_MODULES[extra] if modules is None else modules
    if not set(wanted) <= set(EXTRA_MODULES[extra]):
        raise ValueError(f"{sorted(set(wanted) - set(EXTRA_MODULES[extra]))} are not modules of the {extra} extra")
    return tuple(module for module in wanted if not _installed(module))


def extra_installed(extra: str) -> bool:
    """Whether every module of ``extra`` is installed."""
    return not missing_modules(extra)


def require_extra(extra: str, feature: str, modules: tuple[str, ...] | None = None) -> None:
    """Raise :class:`MissingExtraError` unless ``extra`` is installed (or,
    given ``modules``, the part of it that ``feature`` uses); ``feature`` is
    what the user asked for (``"boomboard serve"``, ``"the learned agent"``),
    the subject of the message."""
    missing = missing_modules(extra, modules)
    if missing:
        # from None: inside a guard's ``except ImportError``, the failed import adds nothing to the message
        raise MissingExtraError(extra, feature, missing) from None
