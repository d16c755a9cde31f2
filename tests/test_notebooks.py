"""The stored notebooks: what they name exists, and ``make notebooks-run`` leaves an unchanged one alone.

The notebooks themselves run under nbmake (see conftest.py); these tests read the stored files.
"""

from __future__ import annotations

import importlib
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
DOTTED = re.compile(r"(?<![\w.])analyzer(?:\.[A-Za-z_]\w*)+")


def _texts(value: Any) -> list[str]:
    """Every string inside a cell's source or outputs (a notebook stores text as a string or lines)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return ["".join(value)]
    if isinstance(value, list):
        return [text for item in value for text in _texts(item)]
    if isinstance(value, dict):
        return [text for key, item in value.items() if key != "image/png" for text in _texts(item)]
    return []


def named(notebook: Path) -> set[str]:
    """The dotted ``analyzer.…`` names in the notebook's cells: their sources and stored outputs."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    texts = [text for cell in cells for part in ("source", "outputs") for text in _texts(cell.get(part, []))]
    return {match.group(0) for text in texts for match in DOTTED.finditer(text)}


def resolves(name: str) -> bool:
    """Whether ``name`` is a module of the package, or an attribute (of an attribute ...) of one."""
    parts = name.split(".")
    for split in range(len(parts), 0, -1):
        try:
            value: Any = importlib.import_module(".".join(parts[:split]))
        except ModuleNotFoundError as error:
            if error.name and not error.name.startswith("analyzer"):
                pytest.skip(f"{name}: needs {error.name}")
            continue
        for attribute in parts[split:]:
            if not hasattr(value, attribute):
                return False
            value = getattr(value, attribute)
        return True
    return False


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=[path.stem for path in NOTEBOOKS])
def test_every_module_a_notebook_names_exists(notebook: Path) -> None:
    # interactive.ipynb's outputs named analyzer.interactive.widget.BoardWidget, a module renamed since.
    names = named(notebook)
    assert names, f"{notebook.name} names nothing of the package: the pattern is wrong"
    missing = sorted(name for name in names if not resolves(name))
    assert not missing, f"{notebook.name} names what does not exist (run make notebooks-run): {missing}"


def test_a_renamed_module_is_caught() -> None:
    assert resolves("analyzer.interactive.jupyter.BoardWidget") and resolves("analyzer.solve")
    assert not resolves("analyzer.interactive.widget.BoardWidget")
    assert not resolves("analyzer.no_such_module")


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=[path.stem for path in NOTEBOOKS])
def test_a_stored_notebook_holds_nothing_that_changes_every_run(notebook: Path) -> None:
    """What ``scripts/run_notebooks.py`` leaves out: so re-running an unchanged notebook rewrites nothing."""
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import run_notebooks
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    nbformat = pytest.importorskip("nbformat")
    stored = notebook.read_text(encoding="utf-8")
    again = nbformat.writes(run_notebooks.normalise(nbformat.reads(stored, as_version=4)))
    again += "" if again.endswith("\n") else "\n"  # as nbformat.write ends a file
    assert again == stored, f"{notebook.name}: not as scripts/run_notebooks.py writes it"
    assert not re.search(r"object at 0x[0-9a-f]+", stored), f"{notebook.name}: an address in an output"
    absolute = re.search(r"(?<![.\w])/[\w./-]*/analyzer/", stored)  # a path on the machine that ran it
    assert absolute is None, f"{notebook.name}: {absolute.group(0)} in an output"
