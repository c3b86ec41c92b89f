"""The web app: play, watch and analyse every game in the browser.

Start it with ``boomboard serve``; build it in code with :func:`create_app`
and its :class:`WebSettings`.

Names are imported on first use, so that a command that needs one of the
web's modules (``boomboard games import`` its record formats) does not load
FastAPI and the whole app."""

from ..core.lazy import lazy_names

_LAZY = {"create_app": ".app", "WebSettings": ".settings"}
__getattr__, __dir__ = lazy_names(__name__, _LAZY)
__all__ = list(_LAZY)
