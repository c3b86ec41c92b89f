"""What every browser test shares: Debian's chromium, driven headless by Playwright.

A test module marks itself ``pytestmark = requires_chromium`` and takes the
``browser`` fixture (tests/conftest.py), one chromium per test process.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")

# CI installs chromium (scripts/system-deps), so there a missing browser fails
# the tests rather than skipping them unseen.
requires_chromium = pytest.mark.skipif(not CHROMIUM.exists() and os.environ.get("CI") != "true",
                                       reason="Debian's chromium is not installed (scripts/system-deps installs it)")


@contextmanager
def chromium_browser() -> Iterator:
    """A headless chromium, closed on leaving; skips the test where Playwright is not installed."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install .[test])")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                              args=["--no-sandbox", "--disable-gpu"])
        try:
            yield _OwnersBrowser(chromium)
        finally:
            chromium.close()


class _OwnersBrowser:
    """The browser, whose every page holds the tests' owner token (tests/web_helpers.py): a game a test
    made through the API is the page's to play, as one the page made itself."""

    def __init__(self, chromium):
        self._chromium = chromium

    def new_page(self, **options):
        from web_helpers import OWNER_TOKEN

        # the page's own requests read the token from its storage; the test's, through page.request, send it too
        headers = {"X-Boomboard-Owner": OWNER_TOKEN, **options.pop("extra_http_headers", {})}
        # pages ask for less motion, so a move's cascade is not drawn step by step (up to 2.6 s a move);
        # a test of the animation asks for reduced_motion="no-preference"
        options.setdefault("reduced_motion", "reduce")
        page = self._chromium.new_page(extra_http_headers=headers, **options)
        page.add_init_script(f"localStorage.setItem('boomboard-owner', {OWNER_TOKEN!r})")
        return page

    def __getattr__(self, name):
        return getattr(self._chromium, name)
