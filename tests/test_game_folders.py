"""A game is one folder: the shared layers that adapt and draw the games find
them through the registry and the game's own modules, and never name one."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import boomboard

PACKAGE = Path(boomboard.__file__).parent
SHARED = ["observation.py", "openspiel.py", "vector", "pettingzoo", "web"]


def shared_files() -> list[Path]:
    files = []
    for entry in SHARED:
        path = PACKAGE / entry
        files += sorted(path.rglob("*.py")) if path.is_dir() else [path]
    return files


def docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes (docs and examples may name games)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def test_the_shared_layers_name_no_game_and_import_no_game_folder():
    names = boomboard.game_names()
    named = re.compile(rf"^\s*({'|'.join(map(re.escape, names))})\s*(\(.*)?$", re.IGNORECASE)
    problems = []
    for path in shared_files():
        tree = ast.parse(path.read_text())
        skip = docstrings(tree)
        where = path.relative_to(PACKAGE)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
                if named.match(node.value):
                    problems.append(f"{where}:{node.lineno} names a game: {node.value!r}")
            elif isinstance(node, ast.ImportFrom) and node.module and ".games" in f".{node.module}":
                problems.append(f"{where}:{node.lineno} imports a game folder: {node.module}")
            elif isinstance(node, ast.Import) and any(".games." in alias.name for alias in node.names):
                problems.append(f"{where}:{node.lineno} imports a game folder")
    assert problems == []


def test_every_game_folder_gives_what_the_shared_layers_read():
    for name in boomboard.game_names():
        game = boomboard.load_game(name)
        kernels = game.kernels
        for kernel in ("apply_action_steps", "encode_observation"):
            assert callable(getattr(kernels, kernel)), (name, kernel)
        geometry = game.geometry()
        assert all(callable(getattr(geometry, f)) for f in ("layout", "cell_contents", "gesture")), name
        observation = game.folder_module("observation")
        assert observation.PLANES and observation.HIGH > 0, name
        assert game.openspiel_name and game.pettingzoo_name.endswith("_v0")
        assert 0 < game.max_legal_actions() <= game.num_distinct_actions()
