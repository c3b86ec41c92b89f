"""The web app: play, watch and analyse every game in the browser.

Start it with ``boomboard serve``; build it in code with :func:`create_app`.
"""

from .app import create_app

__all__ = ["create_app"]
