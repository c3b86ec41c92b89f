"""Compiled kernels: numba, loaded on first use, cached per version of what they are built from.

Every compiled function of boomboard is declared with :func:`njit` from this
module instead of numba's own. Three things follow from that:

* **numba is imported on first call, not at import.** ``import boomboard``,
  ``boomboard --help`` and loading a game cost no compiler; the first call of
  a kernel from Python imports numba and compiles the kernel (or loads it from
  the cache). Until then, and for good under :func:`interpreted` (in the
  thread or context that entered it), a kernel can also run as the plain
  Python it is written in: small jobs (a one-move puzzle) finish before
  numba would have loaded.
* **The cache is keyed by the sources a kernel is built from.** numba checks
  only a function's own file; a kernel that calls another module's kernel
  would keep its stale compiled copy after that module changed. Here the
  kernels of a module are cached in a folder named after the module and a
  fingerprint of its source and of every boomboard module it imports,
  transitively (read from its import statements): an edit reaches exactly
  the kernels built from the edited file, and nothing stale is ever loaded,
  while an edit elsewhere (the web pages, the command line) recompiles
  nothing. The fingerprints are computed when a module's kernels are first
  compiled or loaded, once per process.
* **Kernels can be specialized per game.** :func:`specialize` turns a kernel
  template (a search, a solver pass, a batched step) into that game's own
  module, bound to the game's kernels at compile time: no switch over games,
  and one game compiles alone. Its fingerprint covers the template and the
  game's kernels, each with what they import, so an edited search recompiles
  for every game and an edited game's rules for that game alone. The rules
  for writing a template are in ``docs/explanation/engine.md`` ("Writing a kernel
  template").

The cache folder is the user's cache folder (``~/.cache/boomboard/kernels``
on Linux; nothing is written inside the package), or this machine's
temporary folder where that cannot be written; ``NUMBA_CACHE_DIR`` (numba's
own setting) overrides both.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import os
import sys
import threading
import time
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from types import ModuleType

from .numba_internals import cache_folder, in_cache

PACKAGE_DIR = Path(__file__).resolve().parent
_PACKAGE = "boomboard"
_INTERFACE = "boomboard.kernel_interface"
_lock = threading.RLock()
_state = {"numba": None, "cache_root": None}
# Per thread (and asyncio task): one thread's interpreted() or quiet_compiles()
# block changes nothing for another.
_interpreting: ContextVar[bool] = ContextVar("boomboard_interpreting", default=False)
_announcing: ContextVar[bool] = ContextVar("boomboard_announcing", default=True)


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


def _jit_disabled() -> bool:
    """Whether numba's compiler is switched off (``NUMBA_DISABLE_JIT``, an
    integer, read as numba reads it), without loading numba."""
    try:
        return int(os.environ.get("NUMBA_DISABLE_JIT", "0")) != 0
    except ValueError:  # numba ignores a value that is not an integer
        return False


# -- what a kernel is built from -----------------------------------------------------
# Compiled code reads the globals of its own module, which come from the
# modules its import statements name: those, transitively, are what a
# kernel is built from. Imports inside functions count too (reading them
# costs nothing and can only add a module). A package's __init__ counts only
# where names are imported from it.
_import_statements: dict[str, list] = {}  # a module -> its import statements (ast nodes)
_sources: dict[str, bytes] = {}  # a boomboard module -> its source, as read once
_folders: dict[str, Path] = {}  # a module with kernels -> the cache folder of its version


# The packages whose modules' sources a kernel's fingerprint follows: boomboard,
# and the package of each game from outside it whose kernels are compiled here
# (tests/engine_only_game, a game registered with boomboard.registry.register_game).
_roots: dict[str, Path] = {_PACKAGE: PACKAGE_DIR}


def _follow_package_of(module: str) -> None:
    """Count the sources of ``module``'s top-level package in fingerprints
    from now on, as boomboard's own are (nothing for an unknown module)."""
    top = module.split(".")[0]
    if top in _roots:
        return
    spec = importlib.util.find_spec(top)
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    if locations:
        with _lock:
            _roots[top] = Path(locations[0]).resolve()
            _module_path.cache_clear()


# The specialized copies (:func:`specialize`) by name, and the file each runs
# from: a copy may serve as another template's game kernels, so templates compose.
_copies: dict[str, Path] = {}


@functools.cache  # the followed packages' modules: a bounded set
def _module_path(module: str) -> Path | None:
    """The source file of ``module``, a module of boomboard or of another
    package followed (:func:`_follow_package_of`) or a specialized copy;
    None for any other."""
    if module in _copies:
        return _copies[module]
    parts = module.split(".")
    if parts[0] not in _roots:
        return None
    base = _roots[parts[0]].joinpath(*parts[1:])
    for path in (base / "__init__.py", base.with_suffix(".py")):
        if path.is_file():
            return path
    return None


def _source(module: str) -> bytes:
    if module not in _sources:
        _sources[module] = _module_path(module).read_bytes()
    return _sources[module]


def _statements_of(module: str, path: Path):
    """The import statements of ``module`` (read from ``path``), once per process."""
    if module not in _import_statements:
        import ast

        def statements(body):  # statements only: an import is never inside an expression
            for node in body:
                yield node
                for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                    yield from statements(getattr(node, field, ()))

        tree = ast.parse(path.read_bytes(), str(path))
        _import_statements[module] = [node for node in statements(tree.body)
                                      if isinstance(node, (ast.Import, ast.ImportFrom))]
    return _import_statements[module]


def _imported(module: str, path: Path) -> set[str]:
    """The boomboard modules that ``module`` (read from ``path``) imports."""
    import ast

    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    found = set()
    for node in _statements_of(module, path):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
            continue
        base = node.module or ""
        if node.level:
            base = ".".join(package[: len(package) - node.level + 1] + ([node.module] if node.module else []))
        # each name is a submodule, or else a name the module (a package's __init__) defines
        found.update(f"{base}.{alias.name}" if _module_path(f"{base}.{alias.name}") else base for alias in node.names)
    return {name for name in found if _module_path(name) is not None}


def _fingerprint(source: bytes, imports: set[str]) -> str:
    """16 hex digits that change whenever ``source`` or a boomboard module it
    ``imports``, transitively, does."""
    found, waiting = set(), list(imports)
    while waiting:
        name = waiting.pop()
        if name not in found:
            found.add(name)
            waiting.extend(_imported(name, _module_path(name)) - found)
    digest = hashlib.blake2b(source, digest_size=8)
    for name in sorted(found):
        digest.update(name.encode())
        digest.update(_source(name))
    return digest.hexdigest()


# -- the cache folders ---------------------------------------------------------------
def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / f".probe-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
        return True
    except OSError:
        return False


def cache_root() -> Path:
    """The folder of every cached kernel: one folder in it per module and
    version of what the module is built from."""
    if _state["cache_root"] is None:
        if os.environ.get("NUMBA_CACHE_DIR"):
            folder = Path(os.environ["NUMBA_CACHE_DIR"])
        else:  # never inside the package, which a read-only install cannot write
            from platformdirs import user_cache_dir

            folder = Path(user_cache_dir("boomboard")) / "kernels"
            if not _writable(folder):  # no writable home (a service's account): this machine's temporary folder
                import tempfile

                folder = Path(tempfile.gettempdir()) / f"boomboard-kernels-{os.getuid()}"
        _state["cache_root"] = folder
    return _state["cache_root"]


def _cache_folder(module: str, fingerprint: str) -> Path:
    """``module``'s cache folder for the version ``fingerprint``, made (and
    older versions of it pruned) if it is new."""
    folder = cache_root() / f"{module}-{fingerprint}"
    if not folder.exists():
        folder.mkdir(parents=True, exist_ok=True)
        _prune_old_versions(folder)
    return folder


def _prune_old_versions(current: Path, keep: int = 3, idle_days: float = 1.0) -> None:
    """Remove the caches of older versions of ``current``'s module: all but
    the ``keep`` newest, among those unused for ``idle_days`` (a process of
    another version may still be running on a recent one); and, as idle,
    those of the package-wide caches (``boomboard-<fingerprint>``) that
    per-module ones replaced."""
    import shutil

    module = current.name.rsplit("-", 1)[0]
    for pattern, kept in ((f"{module}-*", keep), ("boomboard-*", 0)):
        others = sorted((path for path in current.parent.glob(pattern) if path != current),
                        key=lambda path: path.stat().st_mtime, reverse=True)
        for path in others[kept:]:
            if time.time() - path.stat().st_mtime > idle_days * 86400:
                shutil.rmtree(path, ignore_errors=True)


def kernels_folder(module: str) -> Path:
    """The cache folder of the kernels of ``module`` (a module's name:
    boomboard's, a specialized copy's, or another imported one's) for the
    version of the sources they are built from."""
    _follow_package_of(module)
    with _lock:
        if module not in _folders:
            path = _module_path(module) or Path(getattr(sys.modules.get(module), "__file__", None) or "")
            if not path.is_file():  # no source (a script given with -c): numba says it cannot cache that
                return cache_root()
            _folders[module] = _cache_folder(module, _fingerprint(path.read_bytes(), _imported(module, path)))
        return _folders[module]


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
    compiled caller needs it), from and into its version's cache folder."""

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
                    if self._options.get("cache") and not numba.config.DISABLE_JIT:
                        with cache_folder(numba, kernels_folder(self.py_func.__module__)):
                            self._dispatcher = numba.njit(**self._options)(self.py_func)
                    else:
                        self._dispatcher = numba.njit(**self._options)(self.py_func)
        return self._dispatcher

    def __call__(self, *args):
        return self._call(*args)

    def _first_call(self, *args):
        if self._dispatcher is None and self.interpretable and _interpreting.get():
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
    solver passes) compile all the same. It holds for the thread (or asyncio
    task) that enters the block: other threads run as before, and a thread
    started inside the block does not inherit it."""
    token = _interpreting.set(True)
    try:
        yield
    finally:
        _interpreting.reset(token)


@contextmanager
def quiet_compiles():
    """Say nothing about compiling inside this block (in the thread or
    asyncio task that enters it), for a caller that shows compiles its own
    way, as ``boomboard compile``'s progress bars do."""
    token = _announcing.set(False)
    try:
        yield
    finally:
        _announcing.reset(token)


# -- per-game specialization ---------------------------------------------------------
class TemplateError(ImportError):
    """A kernel template that breaks the rules for templates (``docs/explanation/engine.md``,
    "Writing a kernel template"), found when it is specialized."""


_TEMPLATE_RULES = "docs/explanation/engine.md, 'Writing a kernel template'"
_specialized: dict[tuple[str, str], ModuleType] = {}
_rebound: dict[tuple[str, str], tuple[str, Path, str]] = {}


def _rebind(template: str, kernels: str) -> tuple[str, Path, str]:
    """The name of ``template``'s copy for ``kernels``, the template's file,
    and the copy's source: the template's, with its one import from
    :mod:`boomboard.kernel_interface` taken from ``kernels`` instead, every
    line where it was."""
    key = (template, kernels)
    if key not in _rebound:
        import ast

        spec = importlib.util.find_spec(template)
        if spec is None or not spec.has_location:
            raise TemplateError(f"{template} is not a module with a source file, as a kernel template must be")
        origin = Path(spec.origin)
        statement = f"from {_INTERFACE} import"
        interface = []
        for node in _statements_of(template, origin):
            if isinstance(node, ast.ImportFrom) and node.level:
                raise TemplateError(
                    f"{origin}, line {node.lineno}: a kernel template imports by absolute names only "
                    f"('from boomboard.... import ...'), not relative ones "
                    f"('from {'.' * node.level}{node.module or ''} import ...'): the copy of it that is compiled "
                    f"for each game is a module outside the package ({_TEMPLATE_RULES})")
            if _INTERFACE in ([node.module] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]):
                interface.append(node)
        lines = origin.read_text().splitlines(keepends=True)
        if len(interface) != 1 or not lines[interface[0].lineno - 1].startswith(statement):
            raise TemplateError(f"{template} must import its game kernels in one '{statement} ...' statement "
                                f"at the start of a line ({_TEMPLATE_RULES})")
        line = interface[0].lineno - 1
        lines[line] = f"from {kernels} import" + lines[line][len(statement):]
        name = f"boomboard_specialized.{kernels.replace('.', '_')}.{template.replace('.', '_')}"
        _rebound[key] = name, origin, "".join(lines)
    return _rebound[key]


def template_kernels(template: str) -> tuple[str, ...]:
    """The game kernels ``template`` imports from :mod:`boomboard.kernel_interface`."""
    spec = importlib.util.find_spec(template)
    if spec is None or not spec.has_location:
        raise TemplateError(f"{template} is not a module with a source file, as a kernel template must be")
    return tuple(alias.name for node in _statements_of(template, Path(spec.origin))
                 if getattr(node, "module", None) == _INTERFACE for alias in node.names)


def specialized_folder(template: str, kernels: str) -> Path:
    """The cache folder of ``template``'s copy for the game kernels
    ``kernels``, named after a fingerprint of the template and the game's
    kernels, each with what they import, transitively."""
    _follow_package_of(kernels)
    with _lock:
        name, origin, source = _rebind(template, kernels)
        if name not in _folders:
            imports = (_imported(template, origin) - {_INTERFACE}) | {kernels}
            _folders[name] = _cache_folder(name, _fingerprint(source.encode(), imports))
        return _folders[name]


def specialize(template: str, kernels: str) -> ModuleType:
    """The module ``template`` with its game kernels taken from ``kernels``.

    A template is an ordinary module of compiled functions that imports the
    game kernels it calls from :mod:`boomboard.kernel_interface`, in one
    ``from boomboard.kernel_interface import ...`` statement, and imports
    everything else by absolute names (:class:`TemplateError` says so
    otherwise). Its specialized copy imports the same names from the module
    ``kernels`` (a game's ``kernels.py``, or another template's copy for a
    game that gives it those names) instead. numba caches a function by
    its file, so the copy is written once into its own cache folder
    (:func:`specialized_folder`) and runs from there; with numba's compiler
    off (``NUMBA_DISABLE_JIT=1``) it runs as the template's own file instead,
    where debuggers and coverage look (its lines are the template's).
    """
    key = (template, kernels)
    module = _specialized.get(key)
    if module is not None:
        return module
    with _lock:
        module = _specialized.get(key)
        if module is not None:
            return module
        name, origin, source = _rebind(template, kernels)
        if _jit_disabled():
            path = origin
        else:
            path = specialized_folder(template, kernels) / f"{name}.py"
            if not path.exists() or path.read_text() != source:
                partial = path.with_suffix(f".{os.getpid()}.tmp")
                partial.write_text(source)
                os.replace(partial, path)  # atomic: processes racing here write the same text
        module = ModuleType(name)
        module.__file__ = str(path)
        sys.modules[name] = module
        _copies[name] = path
        _module_path.cache_clear()
        try:
            exec(compile(source, str(path), "exec", dont_inherit=True), vars(module))
        except BaseException:
            del sys.modules[name]
            raise
        for value in vars(module).values():
            if isinstance(value, Kernel):
                value.interpretable = False
        _specialized[key] = module
        return module


# -- saying so when a game compiles -------------------------------------------------
_announced: set[str] = set()
_pending: list[tuple[object, str]] = []  # (kernels, title) to check once numba is loaded
COMPILE_SECONDS = 15  # about what compiling one game's search takes on one core (docs/results/benchmarks.md)


def _is_cached(kernel: Kernel) -> bool:
    """Whether numba's cache already holds ``kernel`` compiled for some signature."""
    return in_cache(kernel.dispatcher) is not False  # unknown (numba's compiler off, another numba): say nothing


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
    kernels built ahead of time (:func:`build_ahead`), never loads it.
    Nothing is said inside :func:`interpreted` or :func:`quiet_compiles`."""
    if title in _announced or _interpreting.get() or not _announcing.get() or _jit_disabled():
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
