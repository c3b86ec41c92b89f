"""What every browser test shares: Debian's chromium, driven headless by Playwright.

A test module marks itself ``pytestmark = requires_chromium`` and takes the
``browser`` fixture (tests/conftest.py), one chromium per module.
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
            yield chromium
        finally:
            chromium.close()
