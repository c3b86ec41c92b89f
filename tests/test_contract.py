"""The game contract (boomboard.core.contract): every registered game keeps
it, a game that breaks it is refused at registration with every problem
named, docs/explanation/engine.md shows it as it is, and no shared file, the web page's
script and stylesheet included, names a game."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

import boomboard
import boomboard.kernel_interface as kernel_interface
from boomboard import registry
from boomboard.core import GameContractError
from boomboard.core.contract import CONTRACT, KERNEL, REQUIRED, check_game, contract_table
from boomboard.core.outcome import SHARED_REASONS, EndReasons, Reason
from boomboard.games.kaboom import KaboomGame

PACKAGE = Path(boomboard.__file__).parent
DOCS = Path(__file__).parent.parent / "docs"
BROKEN = "broken_game.game:BrokenGame"  # tests/broken_game


@pytest.fixture
def scratch_registry(monkeypatch):
    """The registry's tables, copied for one test: what it registers is gone after."""
    monkeypatch.setattr(registry, "_GAMES", dict(registry._GAMES))
    monkeypatch.setattr(registry, "_CHECKED", set(registry._CHECKED))


@pytest.mark.parametrize("name", boomboard.game_names())
def test_every_registered_game_keeps_the_contract(name):
    cls = registry.game_class(name)
    assert check_game(cls) == []
    assert name in registry._CHECKED  # checked when first asked for


def test_a_broken_game_folder_is_refused_naming_every_problem(scratch_registry):
    before = boomboard.game_names()
    with pytest.raises(GameContractError) as refused:
        registry.register_game("broken_game", BROKEN)
    message = str(refused.value)
    expected = [
        "method board_view(state): missing (the terminal's picture of a state (`BoardView`); the play capability",
        "method string_to_action(state, text): takes (text), the contract says (state, text)",
        "kernel in kernels.py evaluate(s, params): takes (s), the contract says (s, params)",
        "kernel in kernels.py is_explosive(s, params, action): missing (whether an action blows something up "
        "(quiescence); the search capability needs it)",
        "the solver codec items come all together or not at all; missing: solver_codec_spec(tokens), "
        "decode(spec, key, params, s), layer_of(spec, s, params)",
        "file in the folder geometry.py: missing (what the web page draws and clicks; the play capability",
        "file in the folder rules.md: missing",
        "end reason STUCK (3) takes a code or name of the shared reasons",
    ]
    for problem in expected:
        assert problem in message, problem
    assert message.count("\n  - ") == len(expected)  # nothing else is reported
    assert "'broken_game (broken_game.game:BrokenGame)'" in message
    assert boomboard.game_names() == before  # refused: nothing registered


def test_a_game_that_keeps_the_contract_registers_and_loads(scratch_registry):
    registry.register_game("kaboom_variant", f"{__name__}:KaboomVariant")
    assert "kaboom_variant" in boomboard.game_names()
    assert registry.game_class("kaboom_variant") is KaboomVariant


class KaboomVariant(KaboomGame):
    """Kaboom under another name: a game from outside the package, kept to the contract."""

    name = "kaboom_variant"


def test_registration_refuses_a_taken_name_a_wrong_name_and_no_class(scratch_registry):
    with pytest.raises(GameContractError, match="registered already"):
        registry.register_game("kaboom", "boomboard.games.kaboom:KaboomGame")
    with pytest.raises(GameContractError, match="another name than its own, 'kaboom'"):
        registry.register_game("kaboom2", "boomboard.games.kaboom:KaboomGame")
    with pytest.raises(GameContractError, match="cannot import"):
        registry.register_game("nowhere", "boomboard.games.nowhere:Nothing")
    with pytest.raises(GameContractError, match="not a subclass of boomboard.Game"):
        registry.register_game("not_a_game", "boomboard.core.outcome:Outcome")
    assert "kaboom2" not in boomboard.game_names() and "nowhere" not in boomboard.game_names()


def test_the_default_game_is_registered():
    assert registry.DEFAULT_GAME in boomboard.game_names()


def test_the_contract_s_kernels_are_the_kernel_interface_s():
    """Templates import the kernel interface's names: the contract lists each,
    with its parameters, and no other."""
    documented = {name: tuple(inspect.signature(function).parameters)
                  for name, function in vars(kernel_interface).items() if inspect.isfunction(function)}
    listed = {item.name: item.params for item in CONTRACT if item.where == KERNEL}
    assert listed == documented


def test_docs_engine_md_shows_the_contract_table():
    """The table in docs/explanation/engine.md is contract_table() itself, so the two cannot drift."""
    assert contract_table() in (DOCS / "explanation" / "engine.md").read_text()
    assert any(item.need == REQUIRED for item in CONTRACT) and any(item.need != REQUIRED for item in CONTRACT)


def test_end_reasons_are_the_game_s_own_and_the_shared_ones():
    for name in boomboard.game_names():
        reasons = registry.game_class(name).end_reasons
        assert reasons.own, name  # every game ends some way of its own
        assert {int(r) for r in reasons.own}.isdisjoint(int(r) for r in SHARED_REASONS), name
        for reason in (*reasons.own, *SHARED_REASONS):
            assert reasons.of(int(reason)) is getattr(reasons, reason.name)
    clash = EndReasons(Reason(5, "CONNECT", "a"), Reason(5, "OTHER", "b"), Reason(6, "CONNECT", "c"))
    assert len(clash.problems()) == 2


def test_a_reason_survives_pickling_with_its_name_and_text():
    import pickle

    reason = registry.game_class("kaboom").end_reasons.CONNECT
    again = pickle.loads(pickle.dumps(boomboard.Outcome(0, reason)))
    assert again.reason == reason and again.reason.name == "CONNECT" and again.reason.text == reason.text


# -- no shared file names a game: the web page's assets too ------------------------------------
def _code_of_script(text: str) -> str:
    """A script's code with its comments left out (strings and regular expressions kept)."""
    out, i, n = [], 0, len(text)
    last = ""  # the last character of code that is not a space: whether a "/" opens a regular expression
    while i < n:
        char, pair = text[i], text[i:i + 2]
        if pair == "//":
            i = text.find("\n", i)
            i = n if i < 0 else i
        elif pair == "/*":
            end = text.find("*/", i + 2)
            i = n if end < 0 else end + 2
        elif char in "\"'`" or (char == "/" and last in "(,=:[!&|?{};+-*%<>~^"):
            end = i + 1
            in_class = False
            while end < n and (text[end] != char or in_class):
                if text[end] == "\\":
                    end += 1
                elif char == "/" and text[end] in "[]":
                    in_class = text[end] == "["
                end += 1
            out.append(text[i:end + 1])
            last, i = char, end + 1
        else:
            out.append(char)
            last = char if not char.isspace() else last
            i += 1
    return "".join(out)


def _code_of_stylesheet(text: str) -> str:
    return re.sub(r"/\*.*?\*/", "", text, flags=re.DOTALL)


def _code_of_page(text: str) -> str:
    return re.sub(r"<!--.*?-->", "", text, flags=re.DOTALL)


CODE_OF = {".js": _code_of_script, ".css": _code_of_stylesheet, ".html": _code_of_page}


def test_the_comment_stripper_keeps_code_and_strings():
    script = 'const a = "http://x"; // kaboom\n/* jump61 */ const b = /"\\/[/]/g; const c = `//`;'
    assert _code_of_script(script) == 'const a = "http://x"; \n const b = /"\\/[/]/g; const c = `//`;'
    assert _code_of_stylesheet("/* HExplocus */ .a { b: c; }") == " .a { b: c; }"


def test_the_web_page_s_script_and_stylesheet_name_no_game():
    """The page gets everything per game from the server (the state's
    ``presentation``, the catalog's ``default``): no game's name or title in
    its code, comments aside."""
    words = set()
    for name in boomboard.game_names():
        cls = registry.game_class(name)
        words |= {name.lower(), cls.title.lower(), cls.rules.__name__.split(".")[-2].lower()}
    static = PACKAGE / "web" / "static"
    files = sorted(path for path in static.iterdir() if path.suffix in CODE_OF)
    assert {path.suffix for path in files} == set(CODE_OF)
    problems = []
    for path in files:
        code = CODE_OF[path.suffix](path.read_text())
        for line in code.splitlines():
            named = sorted(word for word in words if word in line.lower())
            if named:
                problems.append(f"{path.name}: names {', '.join(named)}: {line.strip()[:80]!r}")
    assert problems == []
