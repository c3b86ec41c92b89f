"""Each game's rules for people, as its folder holds them.

A game's package (the folder of the class the registry names) holds
``rules.md``, or ``rules-NAME.md`` where one folder serves several games
(Explocus and HExplocus). The web app's rules page and ``docs/games/`` show the
same text; nothing here names a game.

>>> rules_markdown("kaboom").splitlines()[0]
'# How to play Kaboom'
"""

from __future__ import annotations

import html
import re
from importlib import resources

from .registry import game_class


def rules_markdown(name: str) -> str:
    """The rules of the registered game ``name`` (Markdown), from its folder;
    raises ``UnknownGameError`` for a game the registry does not know and
    ``FileNotFoundError`` for a game whose folder has no rules."""
    cls = game_class(name)
    package = resources.files(cls.__module__.rpartition(".")[0])
    for file_name in (f"rules-{cls.name}.md", "rules.md"):
        if package.joinpath(file_name).is_file():
            return package.joinpath(file_name).read_text(encoding="utf-8")
    raise FileNotFoundError(f"no rules.md for {name!r}")


_EXAMPLE = re.compile(r"<!--\s*example:\s*(.+?)\s*-->")


def rules_example(name: str) -> tuple[str, str, str] | None:
    """The rules' animated example, ``(game string, position, move)``, from
    the first ``<!-- example: GAME | POSITION | MOVE -->`` line of the rules
    (``\\n`` in the position stands for a line break), or ``None``."""
    match = _EXAMPLE.search(rules_markdown(name))
    if match is None:
        return None
    game, position, move = (part.strip() for part in match.group(1).split(" | "))
    return game, position.replace("\\n", "\n"), move


def _inline(text: str) -> str:
    parts = re.split(r"(`[^`]+`)", text)
    out = []
    for part in parts:
        if part.startswith("`") and part.endswith("`") and len(part) > 1:
            out.append(f"<code>{html.escape(part[1:-1])}</code>")
            continue
        part = html.escape(part, quote=False)
        part = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", part)
        part = re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])", r"<em>\1</em>", part)
        part = re.sub(r"\[([^\]]+)\]\((https?://[^)\s]+)\)", r'<a href="\2">\1</a>', part)
        out.append(part)
    return "".join(out)


def markdown_to_html(text: str) -> str:
    """The little Markdown the rules use, as HTML: headings, paragraphs,
    bulleted and numbered lists, fenced code blocks (the diagrams), inline
    code, bold, italics and links."""
    out: list[str] = []
    lines = text.splitlines()
    i = 0
    paragraph: list[str] = []

    def flush() -> None:
        if paragraph:
            out.append(f"<p>{_inline(' '.join(paragraph))}</p>")
            paragraph.clear()

    while i < len(lines):
        line = lines[i]
        if line.strip().startswith("<!--") and line.strip().endswith("-->"):
            flush()  # a comment, such as the example's line: not shown
        elif line.startswith("```"):
            flush()
            block = []
            i += 1
            while i < len(lines) and not lines[i].startswith("```"):
                block.append(lines[i])
                i += 1
            out.append(f'<pre class="diagram">{html.escape(chr(10).join(block))}</pre>')
        elif m := re.match(r"(#{1,6})\s+(.*)", line):
            flush()
            level = len(m.group(1))
            out.append(f"<h{level}>{_inline(m.group(2))}</h{level}>")
        elif re.match(r"\s*([*-]|\d+\.)\s+", line):
            flush()
            ordered = bool(re.match(r"\s*\d+\.", line))
            items: list[str] = []
            while i < len(lines) and lines[i].strip():
                if m := re.match(r"\s*(?:[*-]|\d+\.)\s+(.*)", lines[i]):
                    items.append(m.group(1))
                else:
                    items[-1] += " " + lines[i].strip()
                i += 1
            tag = "ol" if ordered else "ul"
            out.append(f"<{tag}>" + "".join(f"<li>{_inline(item)}</li>" for item in items) + f"</{tag}>")
            continue
        elif not line.strip():
            flush()
        else:
            paragraph.append(line.strip())
        i += 1
    flush()
    return "\n".join(out)


def rules_html(name: str) -> str:
    """:func:`rules_markdown` as HTML."""
    return markdown_to_html(rules_markdown(name))
