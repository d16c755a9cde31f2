"""Test-suite configuration: notebooks run (nbmake) whenever the notebooks extra is installed.

``pytest`` needs only the dev extra: a module (its doctests) that imports an optional extra at
module level is left out of the collection when the extra is missing, and the run's summary says
which and why.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

OPTIONAL_MODULES: dict[str, tuple[str, str]] = {
    "analyzer/interactive/jupyter.py": ("anywidget", "widget"),
}
"""Modules that import an optional package at module level: path -> (package, the extra that has it)."""

_ROOT = Path(__file__).resolve().parent
_LEFT_OUT: list[str] = []


def pytest_configure(config: pytest.Config) -> None:
    # With the notebooks extra the notebooks run too.
    if importlib.util.find_spec("nbmake") is not None and hasattr(config.option, "nbmake"):
        config.option.nbmake = True


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    try:
        relative = collection_path.resolve().relative_to(_ROOT).as_posix()
    except ValueError:
        return None
    needed = OPTIONAL_MODULES.get(relative)
    if needed is not None and importlib.util.find_spec(needed[0]) is None:
        _LEFT_OUT.append(f"{relative}: needs {needed[0]} (pip install -e '.[{needed[1]}]')")
        return True
    return None


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    for line in dict.fromkeys(_LEFT_OUT):
        terminalreporter.write_line(f"not collected: {line}")
