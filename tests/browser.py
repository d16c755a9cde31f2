"""A real headless Chromium for the tests that look at a page as a person does (Playwright).

Debian's ``chromium`` is driven through Playwright's Python package with
``executable_path``: no browser is downloaded. Without either, the tests that
use :func:`page` are skipped with a message saying how to enable them.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
HOW = (
    "browser tests need Debian's chromium (apt-get install chromium) and Playwright's Python"
    " package (pip install -e '.[browser-tests]'; no browser download is needed)"
)


def chromium_path() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


@contextmanager
def page(width: int = 1100, height: int = 700) -> Iterator[Any]:
    """A fresh page in headless Chromium; skips the test when the browser or Playwright is missing."""
    executable = chromium_path()
    if executable is None:
        pytest.skip(HOW)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip(HOW)
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            yield browser.new_page(viewport={"width": width, "height": height})
        finally:
            browser.close()
