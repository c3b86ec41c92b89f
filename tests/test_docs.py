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
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").rglob("*.md")) + [README]

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



def _headings(path: Path) -> list[tuple[int, str, int]]:
    """Each heading of ``path`` as (line index, the anchor a Markdown renderer
    gives it, its level). Anchors as GitHub makes them: lower case,
    punctuation dropped, spaces as hyphens, a repeated heading numbered."""
    headings = []
    seen: dict[str, int] = {}
    in_code = False
    for index, line in enumerate(path.read_text().splitlines()):
        in_code ^= line.startswith("```")
        heading = re.match(r"(#{1,6}) (.*)", line)
        if heading and not in_code:
            slug = re.sub(r"[^\w\- ]", "", heading.group(2).strip().lower()).replace(" ", "-")
            headings.append((index, f"{slug}-{seen[slug]}" if slug in seen else slug, len(heading.group(1))))
            seen[slug] = seen.get(slug, 0) + 1
    return headings


def _heading_anchors(path: Path) -> set[str]:
    return {anchor for _, anchor, _ in _headings(path)}


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


# The figures the README (and the solver's pages) quote, each beside the link
# to the section whose table they come from. A claim: the file that quotes
# it, a pattern over that file's text (whitespace folded to single spaces)
# whose groups are the quoted figures and the link, and the function that
# makes the same figures from the linked section's tables.

def _section_tables(path: Path, anchor: str) -> list[list[dict[str, str]]]:
    """The Markdown tables under the heading ``anchor`` of ``path`` (up to the
    next heading of its level or above), each as its rows keyed by column."""
    lines = path.read_text().splitlines()
    headings = _headings(path)
    found = [(index, level) for index, name, level in headings if name == anchor]
    assert found, f"{path.name} has no section #{anchor}"
    start, level = found[0]
    end = next((index for index, _, other in headings if index > start and other <= level), len(lines))
    tables, block = [], []
    for line in lines[start:end] + [""]:
        if line.startswith("|"):
            block.append([cell.strip() for cell in line.strip().strip("|").split("|")])
        elif block:
            tables.append([dict(zip(block[0], row)) for row in block[2:]])
            block = []
    return tables


def _table_with(tables: list[list[dict[str, str]]], *columns: str) -> list[dict[str, str]]:
    """The section's first table with these columns (a section lists its
    latest run first, older runs after it)."""
    for rows in tables:
        if rows and all(column in rows[0] for column in columns):
            return rows
    raise AssertionError(f"no table with the columns {columns}")


def _count(cell: str) -> int:
    return int(cell.replace(",", ""))


def _millions(*counts: int) -> tuple[str, ...]:
    return tuple(f"{count / 1e6:.2f}" for count in counts)


def _span_in_millions(rows: list[dict[str, str]], column: str) -> tuple[str, ...]:
    counts = [_count(row[column]) for row in rows]
    return _millions(min(counts), max(counts))


def _rules_speed(tables):
    rows = _table_with(tables, "game", "python State (actions/s)", "compiled (actions/s)")
    games = [row for row in rows if "(reference)" not in row["game"]]
    (reference,) = [row for row in rows if "(reference)" in row["game"]]
    return (_span_in_millions(games, "python State (actions/s)") + _span_in_millions(games, "compiled (actions/s)")
            + _millions(_count(reference["python State (actions/s)"])))


def _search_speed(tables):
    rows = _table_with(tables, "game", "position", "alpha-beta nodes/s")
    return _span_in_millions([row for row in rows if row["position"] == "start"], "alpha-beta nodes/s")


def _vector_speed(tables):
    column = "vector (4096 envs, steps/s)"
    rows = _table_with(tables, "game", column)
    return _span_in_millions([row for row in rows if "(reference)" not in row["game"]], column)


def _kaboom_solve(tables):
    """The default board's dense solve with the passes built ahead, as
    `boomboard compile` runs it: CPU seconds (each run's, which must round
    alike) and MB on disk."""
    (row,) = [row for row in _table_with(tables, "game", "CPU s", "disk MB", "numba loaded")
              if row["game"] == "kaboom@dense"]
    runs = {f"{float(seconds):.1f}" for seconds in row["CPU s"].split("/")}
    assert len(runs) == 1, f"the runs differ when rounded: {row['CPU s']}"
    return (runs.pop(), row["disk MB"])


LINK = r"\[[^\]]+\]\((?P<link>[^)\s]+)\)"
STRENGTH_AND_SPEED = "docs/explanation/strength-and-speed.md"
QUOTED_FIGURES = [
    ("README.md",
     r"(\S+) to (\S+) million actions per second through the Python `State`, (\S+) to (\S+) million in compiled"
     r" loops, against (\S+) million for OpenSpiel's C\+\+ `connect_four` stepped from Python, measured in the"
     r" same run \(" + LINK, _rules_speed),
    ("README.md", r"the compiled alpha-beta searches (\S+) to (\S+) million nodes a second on one core \(" + LINK,
     _search_speed),
    ("README.md", r"(\S+) to (\S+) million steps per second with observations: " + LINK, _vector_speed),
    ("README.md", r"solves Kaboom's default board \((\S+) CPU s, (\S+) MB on disk: " + LINK, _kaboom_solve),
    ("docs/explanation/solver.md", r"Kaboom 4x4 with a bomb each \((\S+) CPU seconds and (\S+) MB on disk: " + LINK,
     _kaboom_solve),
    ("docs/results/solved.md", r"(\S+) CPU s and (\S+) MB on disk \(" + LINK, _kaboom_solve),
    # The manual's one-line summary repeats the README's figures, each checked the same way.
    (STRENGTH_AND_SPEED,
     r"(\S+) to (\S+) million actions per second through the Python `State`, (\S+) to (\S+) million in compiled"
     r" loops, against (\S+) million for OpenSpiel's C\+\+ `connect_four` stepped from Python, measured in the"
     r" same run \(" + LINK, _rules_speed),
    (STRENGTH_AND_SPEED, r"the compiled alpha-beta searches (\S+) to (\S+) million nodes a second on one core \(" + LINK,
     _search_speed),
    (STRENGTH_AND_SPEED, r"(\S+) to (\S+) million steps per second with observations: " + LINK, _vector_speed),
    (STRENGTH_AND_SPEED, r"(\S+) CPU s and (\S+) MB on disk \(" + LINK, _kaboom_solve),
]


def _folded(path: Path) -> str:
    return " ".join(path.read_text().split())


@pytest.mark.parametrize("quoted_in, pattern, from_tables", QUOTED_FIGURES,
                         ids=[f"{quoted_in}-{from_tables.__name__.strip('_')}" for quoted_in, _, from_tables in QUOTED_FIGURES])
def test_quoted_figures_equal_the_table_they_link(quoted_in, pattern, from_tables):
    """A figure quoted in a summary is the figure of the table its link leads
    to, at the precision quoted: rerunning a benchmark into the table, or
    editing the sentence alone, fails here until the two agree again."""
    path = ROOT / quoted_in
    matches = list(re.finditer(pattern, _folded(path)))
    assert len(matches) == 1, f"{quoted_in}: expected one sentence matching {pattern!r}, found {len(matches)}"
    quoted = matches[0]
    name, anchor = quoted.group("link").split("#")
    tables = _section_tables((path.parent / name).resolve(), anchor)
    figures, expected = quoted.groups()[:-1], from_tables(tables)
    assert figures == expected, f"{quoted_in} quotes {figures}, its table {quoted.group('link')} gives {expected}"


def test_every_speed_figure_in_the_readme_is_checked():
    """Each "N million" the README quotes is part of a sentence checked above,
    so a new figure cannot go in unchecked."""
    text = _folded(README)
    checked = [m.span() for quoted_in, pattern, _ in QUOTED_FIGURES if quoted_in == "README.md"
               for m in re.finditer(pattern, text)]
    for figure in re.finditer(r"[\d.]+ million", text):
        assert any(start <= figure.start() < end for start, end in checked), f"unchecked: {figure.group(0)}"


NUMBER_WORDS = {4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}


def test_the_help_headline_and_the_docs_name_every_game():
    from boomboard.cli.main import app
    from boomboard.registry import registered_games

    titles = [info.title for info in registered_games()]
    headline = re.search(r"\((.*)\)", app.info.help).group(1)
    assert headline.split(", ") == titles
    api = (ROOT / "docs" / "reference" / "api.md").read_text()
    listed = re.search(r"boomboard\.game_names\(\) +# (\[.*\])", api).group(1)
    assert listed == repr(game_names())
    assert f"**New game** lists the {NUMBER_WORDS[len(titles)]} games" in (ROOT / "docs" / "how-to" / "web.md").read_text()


# The manual's pages, as against the results pages (research logs and the
# evidence behind the figures), the games' rules and the index.
INDEX = ROOT / "docs" / "README.md"
MANUAL = [page for part in ("tutorial", "how-to", "reference", "explanation")
          for page in sorted((ROOT / "docs" / part).glob("*.md"))]
GLOSSARY = ROOT / "docs" / "reference" / "glossary.md"


def _linked_pages(path: Path) -> set[Path]:
    """The Markdown files inside the repository that ``path`` links to."""
    targets = set()
    for target in re.findall(r"\]\(([^)\s]+)\)", path.read_text()):
        name = target.split("#")[0]
        if name and not re.match(r"[a-z]+:", target) and name.endswith(".md"):
            targets.add((path.parent / name).resolve())
    return targets


def test_the_index_links_every_docs_page():
    """docs/README.md maps the whole manual: a page it does not link is a
    page no reader finds, so a new page must be given its place there."""
    pages = set((ROOT / "docs").rglob("*.md")) - {INDEX}
    missing = sorted(str(page.relative_to(ROOT)) for page in pages - _linked_pages(INDEX))
    assert not missing, f"not linked from docs/README.md: {missing}"


def test_the_index_has_the_four_parts_of_the_manual():
    headings = [anchor for _, anchor, level in _headings(INDEX) if level == 2]
    assert headings[:4] == ["tutorial", "how-to-guides", "reference", "explanation"]
    for part in ("tutorial", "how-to", "reference", "explanation"):
        assert (ROOT / "docs" / part).is_dir() and any((ROOT / "docs" / part).glob("*.md"))


def _prose(text: str) -> str:
    """The text outside code blocks and inline code."""
    return re.sub(r"`[^`]*`", "", re.sub(r"^```.*?^```", "", text, flags=re.S | re.M))


@pytest.mark.parametrize("path", MANUAL, ids=lambda p: str(p.relative_to(ROOT)))
def test_manual_pages_carry_no_lab_notes(path):
    """Commit hashes, issue numbers and match-log tails belong to the results
    pages; the manual states a figure and links to its evidence."""
    prose = _prose(path.read_text())
    hashes = [word for word in re.findall(r"\b[0-9a-f]{7,40}\b", prose)
              if re.search(r"[a-f]", word) and re.search(r"\d", word)]
    assert not hashes, f"{path.name}: commit hashes {hashes}"
    assert not re.findall(r"\bissue #?\d+|#\d{2,}\b", prose, re.IGNORECASE), f"{path.name}: issue numbers"
    assert not re.findall(r"--first \d+", prose), f"{path.name}: match-log tails"


def test_manual_pages_with_lab_notes_fail_the_check(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("Measured at commit aa33571 (issue 13).\n")
    with pytest.raises(AssertionError, match="commit hashes"):
        test_manual_pages_carry_no_lab_notes(page)


# Terms a newcomer meets before they are explained: each manual page that
# uses one links to its glossary entry (the first use is where to do it).
GLOSSARY_TERMS = {"remoteness": "remoteness", "dense records": "dense-records", "tiers": "tiers",
                  "contempt": "contempt", "margin": "margin", "quiescence": "quiescence", "perft": "perft",
                  "principal variation": "principal-variation", "transposition table": "transposition-table",
                  "misère": "misère", "exact value": "exact-value", "estimated value": "estimated-value"}


def test_the_glossary_defines_every_term():
    assert set(GLOSSARY_TERMS.values()) <= _heading_anchors(GLOSSARY)


@pytest.mark.parametrize("path", [page for page in MANUAL if page != GLOSSARY], ids=lambda p: str(p.relative_to(ROOT)))
def test_manual_pages_link_the_glossary_for_its_terms(path):
    text = path.read_text()
    prose = " ".join(_prose(text).split()).lower()
    unlinked = [term for term, anchor in GLOSSARY_TERMS.items()
                if re.search(rf"\b{term}\b", prose) and f"glossary.md#{anchor}" not in text]
    assert not unlinked, f"{path.name} uses {unlinked} without a link to the glossary"


def test_the_command_reference_lists_every_command():
    """docs/reference/cli.md has a row for each command and subcommand of
    `boomboard`, and none that is gone."""
    import typer.main

    from boomboard.cli.main import app

    root = typer.main.get_command(app)
    commands = set()
    for name, command in root.commands.items():
        subcommands = getattr(command, "commands", {})
        commands |= {f"{name} {sub}" for sub in subcommands}
        if not subcommands or command.invoke_without_command:  # a group that also runs on its own
            commands.add(name)
    rows = [line for line in (ROOT / "docs" / "reference" / "cli.md").read_text().splitlines() if line.startswith("| `")]
    listed = {name for row in rows for name in re.findall(r"`([a-z0-9 ]+)`", row.split("|")[1])}
    assert commands - listed == set(), f"commands missing from docs/reference/cli.md: {sorted(commands - listed)}"
    assert listed - commands == set(), f"docs/reference/cli.md lists commands that do not exist: {sorted(listed - commands)}"
