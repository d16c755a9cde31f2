"""Test-suite configuration: notebooks run (nbmake) whenever the notebooks extra is installed."""

from __future__ import annotations

import importlib.util

import pytest


def pytest_configure(config: pytest.Config) -> None:
    # ``pytest`` needs only the dev extra; with the notebooks extra the notebooks run too.
    if importlib.util.find_spec("nbmake") is not None and hasattr(config.option, "nbmake"):
        config.option.nbmake = True
