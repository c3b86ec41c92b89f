"""numba's private and deprecated parts: used in one module only, each use
working on the numba installed, and numba pinned to the versions CI tested."""

from __future__ import annotations

import re
import sys
import tomllib
from importlib.metadata import version
from pathlib import Path

import numba
import numpy as np
import pytest
from packaging.specifiers import SpecifierSet

import boomboard
from boomboard import numba_internals
from boomboard.ahead import AheadUnavailable
from boomboard.jit import is_cached, njit

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = Path(boomboard.__file__).resolve().parent
# What reaches below numba's public names: its private options and attributes,
# the modules it keeps internal (numba.core, numba.np) and the deprecated pycc.
PRIVATE = re.compile(r"_nrt\b|_cache_file|_index_path|config\.CACHE_DIR|numba\.pycc|numba\.core|numba\.np\b"
                     r"|from numba import [^\n]*\bpycc\b")


def test_numba_is_pinned_to_the_versions_ci_tested_and_the_installed_one_is_among_them():
    requirements = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    pins = [r.removeprefix("numba") for r in requirements if re.match(r"numba\b", r)]
    assert pins == [numba_internals.TESTED]
    specifiers = SpecifierSet(numba_internals.TESTED)
    assert specifiers.contains(version("numba")), f"numba {version('numba')} is outside {specifiers}"
    assert any(s.operator == "<" for s in specifiers), "an upper bound: a numba nobody tested is not installed"


def test_no_module_but_numba_internals_reaches_below_numbas_public_names():
    offenders = [f"{path.relative_to(PACKAGE)}:{number}: {line.strip()}"
                 for path in sorted(PACKAGE.rglob("*.py")) if "__kernels__" not in path.parts
                 and path.name != "numba_internals.py"
                 for number, line in enumerate(path.read_text().splitlines(), 1)
                 if PRIVATE.search(line.split("#")[0])]
    assert offenders == []


@njit(cache=True)
def _double(x):
    return 2 * x


def test_the_cache_check_sees_a_kernel_compiled_into_its_folder():
    assert _double(21) == 42
    assert numba_internals.in_cache(_double.dispatcher) is True
    assert is_cached([_double])


def test_the_cache_folder_is_set_for_the_block_and_restored():
    before = numba.config.CACHE_DIR
    with numba_internals.cache_folder(numba, Path("/nonexistent/boomboard-test")):
        assert numba.config.CACHE_DIR == "/nonexistent/boomboard-test"
    assert numba.config.CACHE_DIR == before


def test_signatures_and_dtypes_are_read_as_the_ahead_compiler_needs():
    arguments, returns = numba_internals.signature_types("int64(uint8[::1], boolean)")
    assert returns == numba.types.int64
    assert arguments[0] == numba.types.Array(numba.types.uint8, 1, "C")
    assert numba_internals.numpy_dtype(numba.types.uint8) == np.dtype(np.uint8)
    assert numba_internals.ahead_compiler() is not None  # numba 0.68 still has pycc


def test_without_pycc_the_ahead_build_says_so_in_its_own_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "numba.pycc", None)  # a numba that has dropped it: importing fails
    assert numba_internals.ahead_compiler() is None
    game = boomboard.load_game("kaboom(rows=3,cols=4,connect=3)")
    with pytest.raises(AheadUnavailable, match="no ahead-of-time compiler"):
        game.build_ahead("boomboard.solver.dense.kernels")
