"""The README's Python examples run as doctests: what the page shows is what the package prints."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"


@pytest.mark.needs("ms_toollib")  # the tour analyses a replay
def test_readme_examples_run_as_shown() -> None:
    result = doctest.testfile(
        str(README), module_relative=False, optionflags=doctest.NORMALIZE_WHITESPACE, verbose=False
    )
    assert result.attempted >= 8
    assert result.failed == 0
