"""Loading a script of ``benchmarks/`` as a module, for the tests of its parts."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def load_benchmark(script: str, name: str | None = None) -> ModuleType:
    """``benchmarks/SCRIPT.py`` imported as the module ``name`` (the script's
    name by default), registered in ``sys.modules`` first, where its
    dataclasses look their module up."""
    spec = importlib.util.spec_from_file_location(name or script, BENCHMARKS / f"{script}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
