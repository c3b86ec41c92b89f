"""Every picture under docs/ is shown somewhere: an image no page links is
one nobody keeps current (the browser tests regenerate the web app's ones,
docs/web.md says how)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_docs_image_is_linked_from_the_readme_or_a_docs_page():
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    linked = set()
    for page in pages:
        for target in re.findall(r"\]\(([^)\s]+\.(?:png|svg|jpg|gif))\)", page.read_text(encoding="utf-8")):
            linked.add((page.parent / target).resolve())
    images = sorted(p.resolve() for p in (ROOT / "docs").rglob("*") if p.suffix in {".png", ".svg", ".jpg", ".gif"})
    assert images, "no images under docs/"
    unlinked = [str(p.relative_to(ROOT)) for p in images if p not in linked]
    assert not unlinked, f"images no page links: {unlinked}"
