"""The documentation is written for a reader who has only this repository:
no words from how the project was built, no links out of it to a rulebook,
and each game's rules in docs/games/ agree with the rules the app shows."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from boomboard.game_rules import rules_markdown
from boomboard.registry import game_names

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted((ROOT / "docs").rglob("*.md")) + [ROOT / "README.md"]

# Words from the project's history that mean nothing to a reader of the docs.
JARGON = [
    r"\bthe seed\b", r"\bseed's\b", r"\bseeds/", r"\bissue's\b", r"\(issue \d+\)",
    r"\bissue \d+\b", r"(?-i:RULES\.md)", r"\.\./shared", r"\bthe rulebook\b", r"\brulebook's\b",
]  # (a game folder's own rules.md, in lower case, is no jargon)


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_docs_have_no_history_jargon(path):
    text = path.read_text()
    found = [(pattern, m.group(0)) for pattern in JARGON for m in re.finditer(pattern, text, re.IGNORECASE)]
    assert not found, f"{path.name}: {found}"


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_docs_link_only_inside_the_repository(path):
    text = path.read_text()
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        file = (path.parent / target.split("#")[0]).resolve()
        assert file.is_relative_to(ROOT), f"{path.name} links out of the repository: {target}"
        assert file.exists(), f"{path.name} links to a missing file: {target}"



def _heading_anchors(path: Path) -> set[str]:
    """The anchors a Markdown renderer gives the headings of ``path`` (as
    GitHub does: lower case, punctuation dropped, spaces as hyphens, a
    repeated heading numbered)."""
    anchors: set[str] = set()
    seen: dict[str, int] = {}
    in_code = False
    for line in path.read_text().splitlines():
        in_code ^= line.startswith("```")
        heading = re.match(r"#{1,6} (.*)", line)
        if heading and not in_code:
            slug = re.sub(r"[^\w\- ]", "", heading.group(1).strip().lower()).replace(" ", "-")
            anchors.add(f"{slug}-{seen[slug]}" if slug in seen else slug)
            seen[slug] = seen.get(slug, 0) + 1
    return anchors


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_docs_links_to_a_section_find_it(path):
    for target in re.findall(r"\]\(([^)\s]+)\)", path.read_text()):
        if re.match(r"[a-z]+:", target) or "#" not in target:
            continue
        name, section = target.split("#", 1)
        file = (path.parent / name).resolve() if name else path
        if file.suffix == ".md":
            assert section in _heading_anchors(file), f"{path.name} links to a missing section: {target}"

def test_no_progress_bars_pasted_into_docs():
    for path in DOCS:
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if "━" in line and "games/s" in line and not _in_code_block(path, number):
                raise AssertionError(f"{path.name}:{number}: {line}")


def _in_code_block(path: Path, number: int) -> bool:
    fences = sum(1 for line in path.read_text().splitlines()[: number - 1] if line.startswith("```"))
    return fences % 2 == 1


GAME_DOCS = {"expendibots": "expendibots", "jump61": "jump61", "kaboom": "kaboom",
             "explocus": "explocus", "hexplocus": "explocus", "chain_reaction": "chain_reaction"}


@pytest.mark.parametrize("name", game_names())
def test_each_game_doc_holds_the_rules_the_app_shows(name):
    """docs/games/GAME.md carries the game's rules.md word for word (the web
    app's rules page shows the same text), diagrams included."""
    rules = rules_markdown(name)
    assert "```" in rules, "the rules need at least one diagram"
    doc = (ROOT / "docs" / "games" / f"{GAME_DOCS[name]}.md").read_text()
    body = rules.split("\n", 1)[1].strip()  # the rules' own title is the doc's section heading
    assert body in doc, f"docs/games/{GAME_DOCS[name]}.md lacks the text of {name}'s rules.md"


@pytest.mark.parametrize("name", game_names())
def test_each_rules_example_plays_and_shows_a_cascade(name):
    """The rules page animates its example: a legal move from a valid
    position whose picture takes more than one step."""
    import boomboard
    from boomboard.game_rules import rules_example, rules_html
    from boomboard.web.cascade import cascade_steps

    game_string, position, move = rules_example(name)
    game = boomboard.load_game(game_string)
    assert game.name == name
    state = game.state_from_notation(position)
    action = state.string_to_action(move)
    assert len(cascade_steps(game, state.array, action)) >= 2
    assert "<!--" not in rules_html(name) and "<pre" in rules_html(name)


NUMBER_WORDS = {4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}


def test_the_help_headline_and_the_docs_name_every_game():
    from boomboard.cli.main import app
    from boomboard.registry import registered_games

    titles = [info.title for info in registered_games()]
    headline = re.search(r"\((.*)\)", app.info.help).group(1)
    assert headline.split(", ") == titles
    api = (ROOT / "docs" / "api.md").read_text()
    listed = re.search(r"boomboard\.game_names\(\) +# (\[.*\])", api).group(1)
    assert listed == repr(game_names())
    assert f"**New game** lists the {NUMBER_WORDS[len(titles)]} games" in (ROOT / "docs" / "web.md").read_text()
