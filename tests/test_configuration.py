"""docs/reference/configuration.md lists every environment variable the package reads
or sets, and nothing else; its tables of the repository's tools and of
memory bounds name what exists."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import boomboard

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = Path(boomboard.__file__).resolve().parent
PAGE = ROOT / "docs" / "reference" / "configuration.md"


def section_rows(heading: str) -> list[list[str]]:
    """The cells of each row of the first table after ``heading``."""
    text = PAGE.read_text()
    start = text.index(f"\n{heading}\n")
    rows, in_table = [], False
    for line in text[start:].splitlines()[1:]:
        if line.startswith("|"):
            in_table = True
            cells = [cell.strip() for cell in line.strip("|").split("|")]
            if not set("".join(cells)) <= set("-: "):  # the line under the header
                rows.append(cells)
        elif in_table:
            break
    return rows[1:]  # without the header


def ticked(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


def _is_environ(node: ast.AST) -> bool:
    """``os.environ`` or a bare ``environ`` (``from os import environ``)."""
    return (isinstance(node, ast.Attribute) and node.attr == "environ" and isinstance(node.value, ast.Name)
            and node.value.id == "os") or (isinstance(node, ast.Name) and node.id == "environ")


def _is_getenv(node: ast.AST) -> bool:
    return (isinstance(node, ast.Attribute) and node.attr in ("getenv", "putenv", "unsetenv")
            and isinstance(node.value, ast.Name) and node.value.id == "os") or (
        isinstance(node, ast.Name) and node.id == "getenv")


def _name_nodes(tree: ast.Module):
    """The expressions that name an environment variable, read or set."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and _is_environ(node.value):  # os.environ[NAME], read or set
            yield node.slice
        elif isinstance(node, ast.Call) and node.args and (
                _is_getenv(node.func) or (isinstance(node.func, ast.Attribute) and _is_environ(node.func.value)
                                          and node.func.attr in ("get", "setdefault", "pop"))):
            yield node.args[0]
        elif isinstance(node, ast.Compare) and any(_is_environ(c) for c in node.comparators):  # NAME in os.environ
            yield node.left
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict" and (
                node.args and _is_environ(node.args[0])):  # dict(os.environ, NAME=value): a child's environment
            yield from (ast.Constant(keyword.arg) for keyword in node.keywords if keyword.arg)
        elif isinstance(node, ast.Dict) and any(k is None and _is_environ(v) for k, v in zip(node.keys, node.values)):
            yield from (key for key in node.keys if key is not None)  # {**os.environ, NAME: value}


def environment_names(path: Path, root: Path = PACKAGE.parent) -> tuple[set[str], list[str]]:
    """The variables ``path`` reads or sets, and the reads whose name is not
    a string (a literal, or a module-level constant holding one), each as
    ``file:line: expression`` with the file relative to ``root``."""
    tree = ast.parse(path.read_text(), str(path))
    constants = {target.id: node.value.value for node in tree.body if isinstance(node, ast.Assign)
                 for target in node.targets if isinstance(target, ast.Name)
                 and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)}
    names, unknown = set(), []
    for node in _name_nodes(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            names.add(node.value)
        elif isinstance(node, ast.Name) and node.id in constants:
            names.add(constants[node.id])
        else:
            unknown.append(f"{path.relative_to(root).as_posix()}:{node.lineno}: {ast.unparse(node)}")
    return names, unknown


def test_the_scan_finds_every_form_of_read_and_write(tmp_path):
    source = tmp_path / "boomboard" / "sample.py"
    source.parent.mkdir()
    source.write_text('import os\nfrom os import environ, getenv\nHOOK = "H"\n'
                      'os.environ["A"]; os.environ["B"] = "1"; os.environ.get("C"); os.environ.setdefault("D", "1")\n'
                      'os.getenv("E"); getenv("F"); environ.get(HOOK); "G" in os.environ; os.environ.pop("I", None)\n'
                      'dict(os.environ, J="1"); {**os.environ, "K": "1"}; os.environ.get(f"L_{HOOK}")\n')
    names, unknown = environment_names(source, tmp_path)
    assert names == set("ABCDEFHGIJK")
    assert unknown == ["boomboard/sample.py:6: f'L_{HOOK}'"]


def test_every_environment_variable_the_package_reads_or_sets_is_in_the_table_and_no_other():
    # BOOMBOARD_QUIET_COMPILE (jit.py, cli/compile.py) and BOOMBOARD_RAY_TEST_FAULT
    # (solver/dense/ray.py) are left out of the table on purpose: other branches of
    # issue 36 remove them, and once those are merged this holds with no exception.
    # Before that merge this test fails, naming exactly those two.
    found, unknown = set(), []
    for path in sorted(PACKAGE.rglob("*.py")):
        names, not_named = environment_names(path)
        found |= names
        unknown += not_named
    assert not unknown, f"environment variables named by an expression, not a string: {unknown}"
    listed = [name for row in section_rows("## Environment variables") for name in ticked(row[0])]
    assert len(listed) == len(set(listed)), f"listed twice: {listed}"
    assert not found - set(listed), f"read or set by boomboard but not in docs/reference/configuration.md: {found - set(listed)}"
    assert not set(listed) - found, f"in docs/reference/configuration.md but nothing reads them: {set(listed) - found}"


def test_the_repository_tools_table_names_files_that_read_each_variable():
    rows = section_rows("The repository's own tools, not the installed package, read a few more:")
    assert rows
    for row in rows:
        names, files = ticked(row[0]), ticked(row[1])
        assert names and files, row
        texts = [(ROOT / file).read_text() for file in files]
        for name in names:
            # the wrapped Players' names are built from the colour: f"BOOMBOARD_WRAP_{colour.upper()}"
            wanted = "BOOMBOARD_WRAP_" if name.startswith("BOOMBOARD_WRAP_") else name
            assert any(wanted in text for text in texts), f"{name} is not in {files}"


def test_the_memory_bounds_table_names_constants_that_exist_with_the_values_given():
    rows = section_rows("## What a process keeps in memory")
    assert rows
    constants = 0
    for _what, where, bound in rows:
        for dotted in ticked(where):
            module_name, _, attribute = dotted.rpartition(".")
            if not module_name.startswith("boomboard") or not attribute.isupper():
                continue
            value = getattr(importlib.import_module(module_name), attribute)
            assert f"{value:,}" in bound, f"{dotted} is {value:,}, but the table says: {bound}"
            constants += 1
    assert constants >= 4


def test_the_configuration_page_is_linked_from_the_readmes_list_of_pages():
    assert "(docs/reference/configuration.md)" in (ROOT / "README.md").read_text()
