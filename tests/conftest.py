"""Fixtures shared across parts: one headless Chromium for every browser test of the session, and the
Hypothesis profile (``ci`` unless ``HYPOTHESIS_PROFILE=fuzz``; see tests/support/hypothesis_profiles.py).

Playwright's sync API runs one event loop per process, so the report tests and the studio tests must
share a single Playwright instance rather than each starting their own.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.support import hypothesis_profiles

# Loaded before any test module is imported, so every @settings(...) inherits the profile.
hypothesis_profiles.register()

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    """The distribution's Chromium driven by Playwright, launched once per session (skipped if absent)."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is not installed")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()
