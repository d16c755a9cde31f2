"""A real headless Chromium for the tests that look at a page as a person does (Playwright).

Debian's ``chromium`` is driven through Playwright's Python package with
``executable_path``: no browser is downloaded. Without either, the tests that
use :func:`page` are skipped with a message saying how to enable them.

One browser serves a test process (a pytest-xdist worker): it starts with the first page and
closes when the process ends. Each page gets a browser context of its own (its own cookies,
storage, permissions and downloads), so tests stay apart as in fresh browsers, without paying
a browser's start-up each.
"""

from __future__ import annotations

import atexit
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


_BROWSER: dict[str, Any] = {}
"""The process's Playwright driver and browser, started by the first page."""


def _browser() -> Any:
    executable = chromium_path()
    if executable is None:
        pytest.skip(HOW)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip(HOW)
    browser = _BROWSER.get("browser")
    if browser is None or not browser.is_connected():  # the first page, or a browser that crashed
        _close()
        driver = sync_playwright().start()
        _BROWSER["driver"] = driver
        _BROWSER["browser"] = driver.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
    return _BROWSER["browser"]


@atexit.register
def _close() -> None:
    browser, driver = _BROWSER.pop("browser", None), _BROWSER.pop("driver", None)
    try:
        if browser is not None and browser.is_connected():
            browser.close()
    finally:
        if driver is not None:
            driver.stop()


@contextmanager
def page(width: int = 1100, height: int = 700) -> Iterator[Any]:
    """A fresh page, in a context of its own, in the process's headless Chromium.

    Skips the test when the browser or Playwright is missing.
    """
    context = _browser().new_context(viewport={"width": width, "height": height})
    try:
        yield context.new_page()
    finally:
        context.close()
