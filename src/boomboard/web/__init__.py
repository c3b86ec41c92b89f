"""The web app: play, watch and analyse every game in the browser.

Start it with ``boomboard serve``; build it in code with :func:`create_app`
and its :class:`WebSettings`.
"""

from .app import create_app
from .settings import WebSettings

__all__ = ["WebSettings", "create_app"]
