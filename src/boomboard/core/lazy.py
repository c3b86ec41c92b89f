"""Names a package imports on first use (PEP 562), so that importing it stays cheap."""

from __future__ import annotations

import importlib
import sys


def lazy_names(package: str, where: dict[str, str]):
    """``__getattr__`` and ``__dir__`` for ``package``: each name of ``where``
    is imported from its module (relative to ``package``) when first used."""
    namespace = vars(sys.modules[package])

    def __getattr__(name: str):
        if name in where:
            value = getattr(importlib.import_module(where[name], package), name)
            namespace[name] = value
            return value
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__() -> list[str]:
        return sorted({*namespace, *where})

    return __getattr__, __dir__
