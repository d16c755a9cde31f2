"""Fixtures shared by several test modules."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from test_interactive_jupyterlab import Lab


@pytest.fixture(scope="session")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    """The process's one JupyterLab (tests/test_interactive_jupyterlab.py's ``Lab``), started by the
    first test that asks for a notebook's address and shared by the JupyterLab tests after it."""
    from test_interactive_jupyterlab import Lab

    shared = Lab(tmp_path_factory.mktemp("jupyterlab"))
    try:
        yield shared
    finally:
        shared.close()
