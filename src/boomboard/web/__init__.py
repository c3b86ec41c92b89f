"""The web app: play, watch and analyse every game in the browser.

Start it with ``boomboard serve``; build it in code with :func:`create_app`
and its :class:`WebSettings`.

The app (FastAPI and every page's route) is imported on first use of these
two names, not with the package: the commands that use one of its parts
(``boomboard play`` its cascade steps, ``games export`` its records) do not
pay for the whole app.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .app import create_app
    from .settings import WebSettings

__all__ = ["WebSettings", "create_app"]


def __getattr__(name: str):
    if name == "create_app":
        from .app import create_app

        return create_app
    if name == "WebSettings":
        from .settings import WebSettings

        return WebSettings
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
