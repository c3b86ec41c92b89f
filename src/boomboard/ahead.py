"""Kernels built ahead of time: a template's passes as a plain extension module.

numba's runtime (LLVM) costs a process about 130 MB before it runs any code,
whether it compiles or loads from the cache (docs/results/benchmarks.md). A job
that needs only a few compiled passes called from Python, such as a
one-thread dense solve, can run them from an extension module compiled
ahead of time instead (numba's ``pycc``), in a process that never loads
numba: Connect-4 on 5x5 solves in about 80 MB.

A template opts in with ``AHEAD``: the names of the functions a caller
calls from Python, each with its signature, in which ``{params}`` and
``{state}`` stand for the game's parameter and state arrays.
:func:`build_ahead` compiles them for one game into the cache folder of the
template's copy for that game (:func:`boomboard.jit.specialized_folder`,
named after a fingerprint of the template, the game's kernels and what they
import: so an edited source is never served stale; ``boomboard compile``
builds them, where a C compiler is found) and :func:`load_ahead` returns
them, wrapped in :class:`AheadModule`, which checks every call's argument
types (a module built ahead of time takes exactly its signature's types,
and reads anything else as if it were them) and hands calls of other types
to numba's version of the template. ``BOOMBOARD_AHEAD=0`` turns the built
modules off, as does ``NUMBA_DISABLE_JIT=1`` (everything runs as Python).
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import json
import os
import tempfile
import warnings
from pathlib import Path
from types import ModuleType
from collections.abc import Callable

import numpy as np

from .jit import _numba, specialize, specialized_folder
from .numba_internals import ahead_compiler, numpy_dtype, signature_types

_loaded: dict[tuple[str, str], AheadModule | None] = {}


class AheadUnavailable(RuntimeError):
    """A template's kernels could not be built ahead of time here (no C compiler, most often)."""


def _name(template: str, kernels: str) -> str:
    return f"boomboard_ahead_{kernels.replace('.', '_')}_{template.replace('.', '_')}"


def _path(template: str, kernels: str) -> Path:
    built = _name(template, kernels) + importlib.machinery.EXTENSION_SUFFIXES[0]
    return specialized_folder(template, kernels) / "ahead" / built


def _argument(numba_type) -> list:
    """How a call's argument is checked: ``["array", dtype, ndim]``, ``["bool"]`` or ``["int"]``."""
    from numba import types

    if isinstance(numba_type, types.Array):
        if numba_type.layout != "C":
            raise ValueError(f"{numba_type}: only C-contiguous arrays are built ahead")
        return ["array", str(numpy_dtype(numba_type.dtype)), numba_type.ndim]
    if isinstance(numba_type, types.Boolean):
        return ["bool"]
    if isinstance(numba_type, types.Integer):
        return ["int"]
    raise ValueError(f"{numba_type}: only arrays, booleans and integers are built ahead")


def build_ahead(template: str, kernels: str, arrays: dict[str, np.ndarray]) -> Path:
    """Compile ``template``'s ``AHEAD`` functions, bound to the game kernels
    ``kernels`` (as :func:`boomboard.jit.specialize` binds them), into an
    extension module in the cache folder of that copy's version; ``arrays`` gives the
    arrays whose types fill the signatures' fields (``{"params": ...,
    "state": ...}``). Returns its path; :class:`AheadUnavailable` if it
    cannot be built here."""
    module = specialize(template, kernels)
    numba = _numba()
    CC = ahead_compiler()
    if CC is None:
        raise AheadUnavailable(f"{template} for {kernels} could not be built ahead of time: numba "
                               f"{numba.__version__} has no ahead-of-time compiler (pycc); "
                               "numba's compiled passes run instead")
    fields = {key: f"{numba.from_dtype(array.dtype)}[{', '.join([':'] * (array.ndim - 1) + ['::1'])}]"
              for key, array in arrays.items()}
    target = _path(template, kernels)
    target.parent.mkdir(parents=True, exist_ok=True)
    checks = {}
    with tempfile.TemporaryDirectory(dir=target.parent) as building:
        cc = CC(_name(template, kernels))
        cc.output_dir, cc.output_file, cc.target_cpu = building, target.name, "host"
        for function, signature in module.AHEAD.items():
            arguments, returns = signature_types(signature.format(**fields))
            checks[function] = [_argument(argument) for argument in arguments]
            cc.export(function, returns(*arguments))(getattr(module, function).py_func)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                cc.compile()
        except Exception as error:  # a missing compiler shows up as any of distutils' errors
            raise AheadUnavailable(f"{template} for {kernels} could not be built ahead of time: "
                                   f"{type(error).__name__}: {error}") from None
        Path(building, "checks.json").write_text(json.dumps(checks))
        # the checks first: a module found without its checks is not loaded
        os.replace(Path(building, "checks.json"), target.with_suffix(".json"))
        os.replace(Path(building, target.name), target)
    _loaded.pop((template, kernels), None)
    return target


def load_ahead(template: str, kernels: str) -> AheadModule | None:
    """``template``'s functions built ahead of time for ``kernels``, or None
    if they are not built for this version of the template and the game's kernels."""
    key = (template, kernels)
    if key not in _loaded:
        _loaded[key] = None
        target = _path(template, kernels)
        wanted = os.environ.get("BOOMBOARD_AHEAD") != "0" and os.environ.get("NUMBA_DISABLE_JIT") != "1"
        if wanted and target.is_file() and target.with_suffix(".json").is_file():
            try:
                spec = importlib.util.spec_from_file_location(_name(template, kernels), target)
                built = importlib.util.module_from_spec(spec)
                spec.loader.exec_module(built)
                checks = json.loads(target.with_suffix(".json").read_text())
            except (ImportError, OSError, ValueError):  # a damaged build: numba's passes will do
                return None
            _loaded[key] = AheadModule(built, checks, lambda: specialize(template, kernels))
    return _loaded[key]


def _matches(value, check: list) -> bool:
    if check[0] == "array":
        return (isinstance(value, np.ndarray) and value.dtype == check[1] and value.ndim == check[2]
                and value.flags.c_contiguous)
    if check[0] == "bool":
        return isinstance(value, (bool, np.bool_))
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


class AheadModule:
    """A template's functions built ahead of time, called like the
    template's own. A call whose arguments are not of the types built goes
    to ``fallback()`` (numba's version), as does any name not built."""

    ahead = True

    def __init__(self, built: ModuleType, checks: dict[str, list], fallback: Callable[[], ModuleType]):
        self._built, self._checks, self._fallback = built, checks, fallback

    def __getattr__(self, name: str):
        if name not in self._checks:
            return getattr(self._fallback(), name)
        compiled, checks = getattr(self._built, name), self._checks[name]

        def call(*args):
            if len(args) == len(checks) and all(map(_matches, args, checks)):
                return compiled(*args)
            return getattr(self._fallback(), name)(*args)

        call.__name__ = name
        setattr(self, name, call)  # found here from now on, without __getattr__
        return call
