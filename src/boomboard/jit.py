"""Compiled kernels: numba, loaded on first use, cached per version of the source.

Every compiled function of boomboard is declared with :func:`njit` from this
module instead of numba's own. Three things follow from that:

* **numba is imported on first call, not at import.** ``import boomboard``,
  ``boomboard --help`` and loading a game cost no compiler; the first call of
  a kernel from Python imports numba and compiles the kernel (or loads it from
  the cache). Until then, and for good under :func:`interpreted`, a kernel can
  also run as the plain Python it is written in: small jobs (a one-move
  puzzle) finish before numba would have loaded.
* **The cache is keyed by the source.** numba checks only a function's own
  file; a kernel that calls another module's kernel kept its stale compiled
  copy after that module changed. Here every kernel's cache lives in a folder
  named after a fingerprint of the whole package's source, so any change to
  any source gives a fresh folder, and nothing stale is ever loaded.
* **Kernels can be specialized per game.** :func:`specialize` turns a kernel
  template (a search, a solver pass, a batched step) into that game's own
  module, bound to the game's rules at compile time: no switch over games,
  and one game compiles alone (see ``docs/engine.md``).

The cache folder is ``__kernels__`` in the package folder when that is
writable, else the user's cache folder; ``NUMBA_CACHE_DIR`` (numba's own
setting) overrides both.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

PACKAGE_DIR = Path(__file__).resolve().parent
_INTERFACE = "boomboard.kernel_interface"
_lock = threading.RLock()
_state = {"interpreted": 0, "numba": None, "fingerprint": None, "cache_dir": None}


# -- the cache folder ----------------------------------------------------------------
def files_fingerprint(package: Path, suffixes: tuple[str, ...] = (".py",)) -> str:
    """16 hex digits that change whenever a file of ``package`` with one of
    ``suffixes`` does (its name or its bytes); the compile cache is left out."""
    digest = hashlib.blake2b(digest_size=8)
    for path in sorted(p for p in package.rglob("*") if p.suffix in suffixes):
        relative = path.relative_to(package).as_posix()
        if not relative.startswith("__kernels__/"):
            digest.update(relative.encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def source_fingerprint() -> str:
    """16 hex digits that change whenever any Python source of the package does."""
    if _state["fingerprint"] is None:
        _state["fingerprint"] = files_fingerprint(PACKAGE_DIR)
    return _state["fingerprint"]


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / f".probe-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
        return True
    except OSError:
        return False


def cache_dir() -> Path:
    """Where this version's compiled kernels and specialized modules live."""
    if _state["cache_dir"] is None:
        name = f"boomboard-{source_fingerprint()}"
        if os.environ.get("NUMBA_CACHE_DIR"):
            folder = Path(os.environ["NUMBA_CACHE_DIR"]) / name
        elif _writable(PACKAGE_DIR / "__kernels__"):
            folder = PACKAGE_DIR / "__kernels__" / name
        else:
            from platformdirs import user_cache_dir

            folder = Path(user_cache_dir("boomboard")) / "kernels" / name
        if not folder.exists():
            folder.mkdir(parents=True, exist_ok=True)
            _prune_old_versions(folder)
        _state["cache_dir"] = folder
    return _state["cache_dir"]


def _prune_old_versions(current: Path, keep: int = 3, idle_days: float = 1.0) -> None:
    """Remove the caches of older sources: all but the ``keep`` newest, among
    those unused for ``idle_days`` (a process of another version may still
    be running on a recent one)."""
    import shutil

    others = sorted((path for path in current.parent.glob("boomboard-*") if path != current),
                    key=lambda path: path.stat().st_mtime, reverse=True)
    for path in others[keep:]:
        if time.time() - path.stat().st_mtime > idle_days * 86400:
            shutil.rmtree(path, ignore_errors=True)


# -- lazily compiled kernels ---------------------------------------------------------
def _numba():
    """numba, imported once and taught what a :class:`Kernel` is."""
    if _state["numba"] is None:
        with _lock:
            if _state["numba"] is None:
                import numba
                from numba.extending import typeof_impl

                @typeof_impl.register(Kernel)
                def _typeof_kernel(kernel, context):  # a kernel called from compiled code
                    return typeof_impl(kernel.dispatcher, context)

                _state["numba"] = numba
                pending, _pending[:] = list(_pending), []
                for kernels, title in pending:
                    _announce_if_cold_now(kernels, title)
    return _state["numba"]


class Kernel:
    """A function compiled by numba on its first call from Python (or when a
    compiled caller needs it), from and into this version's cache."""

    def __init__(self, py_func, options):
        self.py_func = self.__wrapped__ = py_func
        self._options = options
        self._dispatcher = None
        self._call = self._first_call
        self.interpretable = True  # False for heavy kernels (searches), never worth interpreting
        self.__name__, self.__qualname__ = py_func.__name__, py_func.__qualname__
        self.__doc__, self.__module__ = py_func.__doc__, py_func.__module__

    @property
    def dispatcher(self):
        """numba's dispatcher for this function (numba is imported if need be)."""
        if self._dispatcher is None:
            with _lock:
                if self._dispatcher is None:
                    numba = _numba()
                    if self._options.get("cache"):
                        # numba reads its cache folder when a function is decorated.
                        saved = numba.config.CACHE_DIR
                        numba.config.CACHE_DIR = str(cache_dir())
                        try:
                            self._dispatcher = numba.njit(**self._options)(self.py_func)
                        finally:
                            numba.config.CACHE_DIR = saved
                    else:
                        self._dispatcher = numba.njit(**self._options)(self.py_func)
        return self._dispatcher

    def __call__(self, *args):
        return self._call(*args)

    def _first_call(self, *args):
        if self._dispatcher is None and _state["interpreted"] and self.interpretable:
            return self.py_func(*args)
        self._call = self.dispatcher  # from now on, straight to numba's dispatcher
        return self._call(*args)

    def __repr__(self) -> str:
        return f"<boomboard kernel {self.__module__}.{self.__qualname__}>"


def njit(function=None, **options):
    """numba's ``njit`` (``@njit``, ``@njit(cache=True)``, ...), compiled lazily."""
    if function is None:
        return lambda f: Kernel(f, options)
    return Kernel(function, options)


@contextmanager
def interpreted():
    """Run the game kernels that have not been compiled yet as plain Python
    inside this block, for jobs too small to be worth loading the compiler for
    (a human's moves, a one-move puzzle). Specialized templates (searches,
    solver passes) compile all the same."""
    with _lock:
        _state["interpreted"] += 1
    try:
        yield
    finally:
        with _lock:
            _state["interpreted"] -= 1


# -- per-game specialization ---------------------------------------------------------
_specialized: dict[tuple[str, str], ModuleType] = {}


def specialize(template: str, kernels: str) -> ModuleType:
    """The module ``template`` with its game kernels taken from ``kernels``.

    A template is an ordinary module of compiled functions that imports the
    game kernels it calls from :mod:`boomboard.kernel_interface`, in one
    ``from boomboard.kernel_interface import ...`` statement. Its specialized
    copy imports the same names from the module ``kernels`` (a game's
    ``kernels.py``) instead; it is written once into this version's cache
    folder, and numba caches its functions like any others.
    """
    key = (template, kernels)
    module = _specialized.get(key)
    if module is not None:
        return module
    with _lock:
        module = _specialized.get(key)
        if module is not None:
            return module
        spec = importlib.util.find_spec(template)
        source = Path(spec.origin).read_text()
        statement = f"from {_INTERFACE} import"
        if source.count(statement) != 1:
            raise RuntimeError(f"{template} must import its game kernels in one '{statement} ...' statement")
        source = source.replace(statement, f"from {kernels} import", 1)
        name = f"boomboard_specialized.{kernels.replace('.', '_')}.{template.replace('.', '_')}"
        path = cache_dir() / "specialized" / f"{name}.py"
        if not path.exists() or path.read_text() != source:
            path.parent.mkdir(parents=True, exist_ok=True)
            partial = path.with_suffix(f".{os.getpid()}.tmp")
            partial.write_text(source)
            os.replace(partial, path)  # atomic: processes racing here write the same text
        module_spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(module_spec)
        sys.modules[name] = module
        module_spec.loader.exec_module(module)
        for value in vars(module).values():
            if isinstance(value, Kernel):
                value.interpretable = False
        _specialized[key] = module
        return module


# -- saying so when a game compiles -------------------------------------------------
_announced: set[str] = set()
_pending: list[tuple[object, str]] = []  # (kernels, title) to check once numba is loaded
COMPILE_SECONDS = 15  # about what compiling one game's search takes on one core (docs/benchmarks.md)


def _is_cached(kernel: Kernel) -> bool:
    """Whether numba's cache already holds ``kernel`` compiled for some signature."""
    try:
        return Path(kernel.dispatcher._cache._cache_file._index_path).exists()
    except AttributeError:  # another numba's internals, or numba's compiler switched off
        return True


def _kernels_of(module: ModuleType) -> list[Kernel]:
    return [value for value in vars(module).values() if isinstance(value, Kernel) and value.__module__ == module.__name__]


def is_cached(kernels) -> bool:
    """Whether any of ``kernels`` (a list of :class:`Kernel`, or a module of
    them) is already compiled in this version's cache."""
    if isinstance(kernels, ModuleType):
        kernels = _kernels_of(kernels)
    return any(_is_cached(kernel) for kernel in kernels)


def announce_if_cold(kernels, title: str) -> None:
    """Say once per game and process, in one line on standard error, that
    ``title``'s kernels are about to be compiled, if none of ``kernels`` (a
    list of :class:`Kernel`, or a module of them) is in the cache yet.
    Before numba is loaded the check waits for it (asking numba's cache
    would load numba): a process that never compiles, such as a solve from
    kernels built ahead of time (:func:`build_ahead`), never loads it."""
    if (title in _announced or _state["interpreted"] or os.environ.get("NUMBA_DISABLE_JIT") == "1"
            or os.environ.get("BOOMBOARD_QUIET_COMPILE")):
        return
    with _lock:
        if _state["numba"] is None:
            _pending.append((kernels, title))
            return
    _announce_if_cold_now(kernels, title)


def _announce_if_cold_now(kernels, title: str) -> None:
    if title in _announced:
        return
    if isinstance(kernels, ModuleType):
        kernels = _kernels_of(kernels)
    if kernels and not is_cached(kernels):
        _announced.add(title)
        print(f"boomboard: compiling {title} for this machine, once (about {COMPILE_SECONDS} s; "
              "'boomboard compile' compiles every game ahead)", file=sys.stderr, flush=True)
