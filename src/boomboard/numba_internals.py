"""Every use of a private or deprecated part of numba, in one module.

numba's public API has no way to choose a kernel's cache folder, to ask
whether a kernel is in the cache without compiling it, to switch off
reference counting for one function, or to build an extension module ahead
of time without its ``pycc`` (pending deprecation since numba 0.57). boomboard
needs each of these, so each lives here, with why and what would replace it.
Nothing else in the package touches numba below its public names
(``tests/test_numba_internals.py`` checks that, and that each use still
works on the numba installed).

numba is pinned in ``pyproject.toml`` to the minor versions CI has tested
(:data:`TESTED`); ``scripts/check-newest-numba`` installs the newest numba
in a scratch environment and runs the kernel tests against it, which is
how a new version is admitted: run it, then widen the pin.
"""

from __future__ import annotations

import warnings
from contextlib import contextmanager
from pathlib import Path

# The numba versions CI has run the whole suite with: pyproject.toml's pin says the same.
TESTED = ">=0.68,<0.69"

# Reference counting off (numba's ``_nrt`` option, private): numba otherwise
# counts two atomic references for each array a call passes, which at every
# node halved the alpha-beta search's speed. The public replacement would be
# none: without it, drop the option and accept the slower search.
NO_REFERENCE_COUNTING = {"_nrt": False}


@contextmanager
def cache_folder(numba, folder: Path):
    """Make numba cache the functions decorated inside this block in
    ``folder``. numba reads its cache folder (``numba.config.CACHE_DIR``, set
    by ``NUMBA_CACHE_DIR``) when a function is decorated, once for the whole
    process; boomboard keeps each module's kernels in a folder named after
    the version of their sources (:mod:`boomboard.jit`), so it sets the
    setting around each decoration. The caller holds :data:`boomboard.jit`'s
    lock, so no other thread decorates meanwhile. Replacement: a public
    per-function cache locator, which numba does not have (its
    ``_CacheLocator`` classes are private too)."""
    saved = numba.config.CACHE_DIR
    numba.config.CACHE_DIR = str(folder)
    try:
        yield
    finally:
        numba.config.CACHE_DIR = saved


def in_cache(dispatcher) -> bool | None:
    """Whether numba's cache holds ``dispatcher``'s function compiled for
    some signature, without compiling or loading it (the index file numba
    would read); None where this numba keeps its cache elsewhere, or caches
    nothing. Used only to say "compiling ..." before a long compile;
    without it, boomboard says nothing."""
    try:
        return Path(dispatcher._cache._cache_file._index_path).exists()
    except AttributeError:
        return None


def ahead_compiler():
    """numba's ``pycc.CC`` (the ahead-of-time compiler, pending deprecation
    since numba 0.57), or None where this numba no longer has it. Without
    it, a one-thread dense solve runs numba's compiled passes instead: as
    fast, in about 141 MB more memory (docs/results/benchmarks.md, "Built
    ahead of time")."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # pycc's own pending-deprecation warning
            from numba.pycc import CC
    except ImportError:
        return None
    return CC


def signature_types(signature: str) -> tuple[tuple, object]:
    """The argument types and the return type of a signature written as
    numba writes one (``"int64(uint8[::1], boolean)"``), for the
    ahead-of-time compiler, which takes types rather than text. numba's own
    parser (``numba.core.sigutils``) is not public; the replacement would be
    to write the ahead-of-time signatures as ``numba.types`` objects."""
    from numba.core import sigutils

    return sigutils.normalize_signature(signature)


def numpy_dtype(numba_type):
    """The NumPy dtype of a numba scalar type (``numba.np.numpy_support``,
    not public), to check the arrays a call built ahead of time is given."""
    from numba.np.numpy_support import as_dtype

    return as_dtype(numba_type)
