"""The layout is the architecture: layers import downward only, a game never
imports another game, a shared layer never names a game, and the compiled
rules also run as plain Python."""

from __future__ import annotations

import ast
from pathlib import Path

import boomboard
from no_jit import run_json_script
from test_game_folders import docstrings

PACKAGE = Path(boomboard.__file__).parent
# What each layer may import besides itself; anything unlisted is a top layer.
# "jit", "ahead" and "kernel_interface" are the compiled-kernel machinery under everything.
BASE = {"jit", "ahead", "kernel_interface"}
ALLOWED = {
    "jit": set(),
    "ahead": {"jit"},
    "kernel_interface": set(),
    "core": BASE,
    "games": BASE | {"core"},
    "registry": BASE | {"core", "games"},
    "search": BASE | {"core", "registry"},
    "agents": BASE | {"core", "registry", "search"},
    "observation": BASE | {"core", "registry", "search"},
    "vector": BASE | {"core", "registry", "search", "observation"},
    "openspiel": BASE | {"core", "registry", "search", "agents", "observation", "vector"},
    "pettingzoo": BASE | {"core", "registry", "observation"},
    "arena": BASE | {"core", "games", "registry", "search", "agents"},
    "solver": BASE | {"core", "registry", "search", "agents"},
    "learn": BASE | {"core", "registry", "search", "agents", "observation", "vector", "solver", "arena"},
}


def layer_of(path: Path) -> tuple[str, str | None]:
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    if parts[0] == "games" and len(parts) > 1:
        return "games", parts[1]
    return parts[0], None


def imported_modules(path: Path) -> list[str]:
    tree = ast.parse(path.read_text())
    package = ["boomboard", *path.relative_to(PACKAGE).with_suffix("").parts[:-1]]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                found.append(".".join(base + ([node.module] if node.module else [])))
            elif node.module:
                found.append(node.module)
    return [name for name in found if name.split(".")[0] == "boomboard"]


def test_layers_import_downward_only_and_games_stay_apart():
    problems = []
    for path in PACKAGE.rglob("*.py"):
        layer, game = layer_of(path)
        if layer not in ALLOWED:
            continue
        for module in imported_modules(path):
            parts = module.split(".")
            target = parts[1] if len(parts) > 1 else "boomboard"
            if target == layer:
                if game and len(parts) > 2 and parts[2] != game:
                    problems.append(f"{path.relative_to(PACKAGE)} imports another game: {module}")
                continue
            if target not in ALLOWED[layer]:
                problems.append(f"{path.relative_to(PACKAGE)} ({layer}) imports {module}")
    assert problems == []


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


# Programs that speak one course's protocol for one game (the Jump61 course's
# text program, the Expendibots course's Player, referee and puzzle): a course
# is about its game, so these may name it; nothing else outside a game's folder may.
COURSE_PROGRAMS = {"arena/course.py", "arena/course_player.py", "arena/course_puzzle.py", "arena/course_referee.py",
                   "arena/jump61_text.py", "cli/protocols.py"}


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
        if relative.startswith(("games/", "__kernels__/")) or relative in COURSE_PROGRAMS:
            continue
        if relative == "registry.py":
            continue  # the one list of games
        for text in _names_in_code(path):
            named = [game for game in games if game in text]
            if named:
                problems.append(f"{relative} names {', '.join(sorted(named))}: {text[:60]!r}")
    assert problems == []
