"""The layout is the architecture: layers import downward only, at run time
too (imports inside functions, ``importlib``, module names in strings), a
layer's modules never import each other in a circle, a game never imports
another game, a shared layer never names a game, and the compiled rules also
run as plain Python."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import boomboard
from no_jit import run_json_script
from test_game_folders import docstrings

PACKAGE = Path(boomboard.__file__).parent
# What each layer may import besides itself; anything unlisted is a top layer.
# "jit", "ahead", "kernel_interface" and "numba_internals" are the compiled-kernel machinery under everything.
# The agents stand on the solver (the solver agent, ai's tables); a kind defined above them (learned)
# registers itself (boomboard.agents.register_agent_kind), and the interfaces import its layer.
BASE = {"jit", "ahead", "kernel_interface", "numba_internals"}
ALLOWED = {
    "jit": {"kernel_interface", "numba_internals"},  # it substitutes a game's kernels for the interface, by its name
    "ahead": {"jit", "numba_internals"},
    "kernel_interface": set(),
    "numba_internals": set(),
    "core": BASE,
    "games": BASE | {"core"},
    "registry": BASE | {"core", "games"},
    "ratings": {"core"},
    "search": BASE | {"core", "registry"},
    "solver": BASE | {"core", "registry", "search"},
    # A position's analysis stands on the solver's tables and the search; the analysis agent plays it.
    "analysis": BASE | {"core", "registry", "search", "solver"},
    "agents": BASE | {"core", "registry", "search", "solver", "analysis"},
    "observation": BASE | {"core", "registry", "search"},
    "vector": BASE | {"core", "registry", "search", "observation"},
    "learn": BASE | {"core", "registry", "search", "solver", "analysis", "agents", "observation", "vector", "ratings"},
    "openspiel": BASE | {"core", "registry", "search", "analysis", "agents", "observation", "vector", "learn"},
    "pettingzoo": BASE | {"core", "registry", "observation"},
    "records": {"core", "registry"},
    "arena": BASE | {"core", "games", "registry", "search", "analysis", "agents", "learn", "ratings"},
    # A game's course programs (games/NAME/course/) speak a course's protocol with the arena's referee
    # and agents: they stand on the arena, and only the command line above them loads them.
    "courses": BASE | {"core", "games", "registry", "search", "analysis", "agents", "learn", "ratings", "arena"},
}
# A module named in a string: "boomboard.solver.hashed.graph", or "boomboard.games.kaboom.game:Kaboom".
MODULE_NAME = re.compile(r"boomboard(?:\.[A-Za-z_][A-Za-z0-9_]*)+(?::[A-Za-z_][A-Za-z0-9_]*)?")
IMPORTERS = {"import_module", "__import__"}  # importlib.import_module(NAME), __import__(NAME)


def layer_of(path: Path) -> tuple[str, str | None]:
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    if parts[0] == "games" and len(parts) > 2 and parts[2] == "course":
        return "courses", parts[1]
    if parts[0] == "games" and len(parts) > 2:
        return "games", parts[1]
    return parts[0], None  # games/__init__.py, the list of the package's games, is no game's


def layer_of_module(name: str) -> str:
    """The layer of a module named ``boomboard.X...`` (a game's course package is the courses layer)."""
    parts = name.split(".")
    if len(parts) > 3 and parts[1] == "games" and parts[3] == "course":
        return "courses"
    return parts[1] if len(parts) > 1 else "boomboard"


def module_of(path: Path) -> str:
    parts = ["boomboard", *path.relative_to(PACKAGE).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_module(name: str) -> bool:
    """Whether ``name`` is a module or package of boomboard (not a name defined in one)."""
    relative = PACKAGE.joinpath(*name.split(".")[1:])
    return relative.with_suffix(".py").is_file() or (relative / "__init__.py").is_file()


def _from_import(path: Path, node: ast.ImportFrom) -> list[str]:
    """The modules ``from X import a, b`` loads: ``X.a`` where ``a`` is a module, else ``X``."""
    if node.level:
        package = module_of(path).split(".") if path.name == "__init__.py" else module_of(path).split(".")[:-1]
        base = ".".join(package[: len(package) - node.level + 1] + ([node.module] if node.module else []))
    else:
        base = node.module or ""
    return [f"{base}.{alias.name}" if is_module(f"{base}.{alias.name}") else base for alias in node.names]


def _type_checking_only(tree: ast.AST) -> set[int]:
    """The ids of the nodes under ``if TYPE_CHECKING:``: read by type checkers, never run."""
    found = set()
    for node in ast.walk(tree):
        checks = {getattr(node, "test", None) and getattr(node.test, name, None) for name in ("id", "attr")}
        if isinstance(node, ast.If) and "TYPE_CHECKING" in checks:
            found.update(id(inner) for statement in node.body for inner in ast.walk(statement))
    return found


def referenced_modules(path: Path, source: str | None = None) -> list[tuple[int, str, str]]:
    """Every boomboard module ``path`` (or ``source``, as if it were ``path``'s)
    loads or names, as (line, module, how): import statements anywhere
    (inside functions too), ``importlib.import_module`` and ``__import__``
    calls, and module names in string constants (a registry, a lazy import,
    ``game.compiled``); docstrings and ``if TYPE_CHECKING:`` aside."""
    tree = ast.parse(path.read_text() if source is None else source)
    skip = docstrings(tree) | _type_checking_only(tree)
    found = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name, "imports") for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            found += [(node.lineno, name, "imports") for name in _from_import(path, node)]
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", None)) in IMPORTERS:
            if node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                found.append((node.lineno, node.args[0].value, "imports by name"))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            found += [(node.lineno, name.split(":")[0], "names") for name in MODULE_NAME.findall(node.value)
                      if is_module(name.split(":")[0])]
    return [(line, name, how) for line, name, how in found if name.split(".")[0] == "boomboard"]


def test_what_runs_counts_what_type_checkers_and_docstrings_read_does_not():
    """The references the layer table is checked against: those that load a
    module at run time, wherever they are written."""
    source = '''"""Docstrings may name boomboard.arena.referee."""
import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..arena import store

LAZY = {"learned": "boomboard.learn.agent", "game": "boomboard.games.kaboom.game:Kaboom"}


def later():
    from ..solver.hashed import driver
    from . import search_agents
    return importlib.import_module("boomboard.solver.endgames"), __import__("boomboard.vector")
'''
    found = referenced_modules(PACKAGE / "agents" / "spec.py", source)
    assert {name for _, name, _ in found} == {"boomboard.learn.agent", "boomboard.games.kaboom.game",
                                              "boomboard.solver.hashed.driver", "boomboard.agents.search_agents",
                                              "boomboard.solver.endgames", "boomboard.vector"}
    assert {name for _, name, how in found if how == "imports by name"} == {"boomboard.solver.endgames",
                                                                            "boomboard.vector"}


def _source_files() -> list[Path]:
    return sorted(path for path in PACKAGE.rglob("*.py") if "__kernels__" not in path.parts)


def test_layers_import_downward_only_and_games_stay_apart():
    """Statements, imports inside functions, importlib and module names in
    strings: a module loaded by name at run time is a dependency too."""
    problems = []
    for path in _source_files():
        layer, game = layer_of(path)
        if layer not in ALLOWED:
            continue
        for line, module, how in referenced_modules(path):
            parts = module.split(".")
            target = layer_of_module(module)
            where = f"{path.relative_to(PACKAGE)}:{line} ({layer})"
            if target == layer or (layer == "courses" and target == "games"):
                if game and len(parts) > 2 and parts[2] != game:
                    problems.append(f"{where} {how} another game: {module}")
                continue
            if target not in ALLOWED[layer]:
                problems.append(f"{where} {how} {module}")
    assert problems == []


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The circles of ``graph`` (module -> modules it loads): each strongly
    connected component of more than one module, or a module loading itself (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles = []

    def visit(node: str) -> None:  # recursion depth is at most the number of modules in a layer
        index[node] = low[node] = len(index)
        stack.append(node)
        for child in sorted(graph.get(node, ())):
            if child not in index:
                visit(child)
                low[node] = min(low[node], low[child])
            elif child in stack:
                low[node] = min(low[node], index[child])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1 or node in graph.get(node, ()):
                cycles.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return cycles


def test_import_cycles_are_found():
    assert import_cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert import_cycles({"a": {"b"}, "b": set()}) == []


def test_no_layer_imports_itself_in_a_circle():
    """Within a layer (a package such as ``solver``), no module loads, even
    inside a function or by name, a module that loads it back: a layer's
    modules stand on one another in one order. A module's own packages are
    left out as targets: Python runs their ``__init__`` before the module anyway."""
    by_layer: dict[str, dict[str, set[str]]] = {}
    for path in _source_files():
        layer, _ = layer_of(path)
        module = module_of(path)
        graph = by_layer.setdefault(layer, {})
        graph.setdefault(module, set())
        for _, target, _ in referenced_modules(path):
            target_layer = layer_of_module(target)
            packages = {".".join(module.split(".")[:i]) for i in range(1, module.count(".") + 1)}
            if target_layer == layer and target != module and target not in packages:
                graph[module].add(target)
    cycles = {layer: found for layer, graph in sorted(by_layer.items()) if (found := import_cycles(graph))}
    assert cycles == {}


NO_JIT_SCRIPT = """
import json, random, boomboard
out = {}
for name in ("expendibots", "jump61", "kaboom", "explocus", "hexplocus"):
    rng = random.Random(11)
    state = boomboard.load_game(name).new_initial_state()
    seen = []
    while not state.is_terminal() and len(seen) < 40:
        state.apply_action(rng.choice(state.legal_actions()))
        seen.append(state.to_notation())
    out[name] = seen
print(json.dumps(out))
"""


def test_kernels_run_as_plain_python_with_the_same_results():
    plain, compiled = run_json_script(NO_JIT_SCRIPT, "1"), run_json_script(NO_JIT_SCRIPT, "0")
    assert plain == compiled
    assert all(len(positions) > 5 for positions in plain.values())


def _names_in_code(path: Path) -> set[str]:
    """Identifiers and string constants of a module, docstrings left out."""
    tree = ast.parse(path.read_text())
    skip = docstrings(tree)
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            found.add(node.id.lower())
        elif isinstance(node, ast.Attribute):
            found.add(node.attr.lower())
        elif (isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip
              and not any(char.isspace() for char in node.value)):  # prose (help, examples) may name games
            found.add(node.value.lower())
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            found.update(alias.name.lower() for alias in node.names)
            if isinstance(node, ast.ImportFrom) and node.module:
                found.add(node.module.lower())
    return found


def test_shared_layers_never_name_a_game():
    """Games are found through the registry: no ``if game == "kaboom"``, no
    per-game branch, no import of a game's modules outside its own folder."""
    games = set(boomboard.game_names()) | {path.name for path in (PACKAGE / "games").iterdir() if path.is_dir()}
    games.discard("__pycache__")
    problems = []
    for path in PACKAGE.rglob("*.py"):
        relative = path.relative_to(PACKAGE).as_posix()
        if relative.startswith(("games/", "__kernels__/")):
            continue
        if relative == "registry.py":
            continue  # the one list of games
        for text in _names_in_code(path):
            named = [game for game in games if game in text]
            if named:
                problems.append(f"{relative} names {', '.join(sorted(named))}: {text[:60]!r}")
    assert problems == []


# Every place that imports a module by a name computed at run time, and what the
# name can reach: each is followed here, so a new one fails this test until it is
# listed with where it leads. A game's own modules are the games layer, below
# every layer that asks for them; the rest load what a person names (an agent's
# module, a registered game) or a module this layer itself defines.
COMPUTED_IMPORTS = {
    ("core/game.py", "kernels"): "the game's own kernels.py (games layer)",
    ("core/game.py", "folder_module"): "a file of the game's own folder named by the contract (games layer)",
    ("core/contract.py", "_folder_modules"): "the kernels.py, geometry.py, observation.py of the folder checked",
    ("registry.py", "_import_class"): "a registered game's class: the package's games or one registered",
    ("core/lazy.py", "lazy_names"): "a name of the package's own __init__ table, a literal checked above",
    ("core/extras.py", "_installed"): "whether an extra's third-party module is installed (find_spec only)",
    ("arena/specs.py", "load_class"): "an agent class a person names by file or module path",
    ("arena/course.py", "new_game"): "the module of the game's own folder its `course_protocol` names (games layer)",
    ("cli/protocols.py", "course_packages"): "where a game's folder is, to see whether it has a course package",
    ("cli/protocols.py", "register"): "a game's course package (its folder, the courses layer, below the command line)",
    ("ahead.py", "load_ahead"): "a template's extension module built ahead, in its cache folder",
    ("jit.py", "_follow_package_of"): "the top package of a game's kernels (find_spec only)",
    ("jit.py", "template_kernels"): "a kernel template's source file (find_spec only)",
    ("jit.py", "_rebind"): "a kernel template's source file (find_spec only)",
}
COMPUTING = {"import_module", "__import__", "find_spec", "spec_from_file_location", "folder_module"}


def _computed_imports(path: Path) -> list[tuple[str, str, ast.Call]]:
    """(function, how, call) of each call in ``path`` that imports a module by a computed name."""
    tree = ast.parse(path.read_text())
    enclosing = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for inner in ast.walk(node):
                enclosing.setdefault(id(inner), node.name)
    found = []
    for node in ast.walk(tree):
        how = getattr(node.func, "attr", getattr(node.func, "id", None)) if isinstance(node, ast.Call) else None
        if how in COMPUTING and node.args and not isinstance(node.args[0], ast.Constant):
            found.append((enclosing.get(id(node), "<module>"), how, node))
    return found


def test_every_module_name_computed_at_run_time_is_followed():
    unlisted = [f"{path.relative_to(PACKAGE)}: {function} calls {how}({ast.unparse(call.args[0])})"
                for path in sorted(PACKAGE.rglob("*.py")) if "__kernels__" not in path.parts
                for function, how, call in _computed_imports(path)
                if (path.relative_to(PACKAGE).as_posix(), function) not in COMPUTED_IMPORTS]
    assert unlisted == []
    present = {(path.relative_to(PACKAGE).as_posix(), function) for path in PACKAGE.rglob("*.py")
               for function, _, _ in _computed_imports(path)}
    assert set(COMPUTED_IMPORTS) <= present, "a listed place no longer computes a name: drop it from the list"


def test_a_game_folder_s_modules_are_asked_for_by_the_names_the_contract_gives():
    from boomboard.core.contract import ATTRIBUTE, CONTRACT, FILE

    files = {item.name.removesuffix(".py") for item in CONTRACT if item.where == FILE and item.name.endswith(".py")}
    # or by a game's attribute the contract describes as naming a module of its folder
    naming = {item.name for item in CONTRACT if item.where == ATTRIBUTE and "a module of its folder" in item.purpose}
    asked = [(path.relative_to(PACKAGE), node.args[0])
             for path in PACKAGE.rglob("*.py") if "__kernels__" not in path.parts
             for node in ast.walk(ast.parse(path.read_text()))
             if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "folder_module" and node.args]
    assert asked, "folder_module is how a shared layer reaches a game's own module"
    for path, argument in asked:
        named = (isinstance(argument, ast.Constant) and argument.value in files) or (
            isinstance(argument, ast.Attribute) and argument.attr in naming)
        assert named, f"{path}: folder_module({ast.unparse(argument)})"
