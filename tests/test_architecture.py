"""The layout is the architecture: layers import downward only, a game never
imports another game, and the compiled rules also run as plain Python."""

from __future__ import annotations

import ast
from pathlib import Path

import boomboard
from no_jit import run_json_script

PACKAGE = Path(boomboard.__file__).parent
# What each layer may import besides itself; anything unlisted is a top layer.
ALLOWED = {
    "core": set(),
    "games": {"core"},
    "registry": {"core", "games"},
    "search": {"core", "games", "registry"},
    "agents": {"core", "registry", "search"},
    "observation": {"core", "games", "registry", "search"},
    "vector": {"core", "registry", "search", "observation"},
    "openspiel": {"core", "registry", "search", "agents", "observation", "vector"},
    "pettingzoo": {"core", "registry", "observation"},
    "arena": {"core", "games", "registry", "search", "agents"},
    "solver": {"core", "games", "registry", "search", "agents"},
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
