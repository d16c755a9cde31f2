"""The manual (docs/): every public name in the reference, every page reachable, every example run.

The Sphinx build (``make docs``) fails on a broken reference; these checks are the fast part that
the default test run can afford: the reference's lists against the package and the command line,
the toctrees from the index, and the pages' Python examples as doctests.
"""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import pkgutil
import re
from pathlib import Path

import pytest

import analyzer
from analyzer.cli import _parser
from conftest import OPTIONAL_MODULES

DOCS = Path(__file__).resolve().parent.parent / "docs"
REFERENCE = DOCS / "reference"
#: Pages Sphinx reads (see docs/conf.py): the Markdown and reST sources, and the notebooks, which
#: docs/conf.py copies from notebooks/ (so they are listed from there).
NOTEBOOKS = DOCS.parent / "notebooks"
#: Sources that are not pages of their own: included by another page, or templates.
NOT_PAGES = {"reference/generated", "_templates", "_build"}


def _autosummary_entries(page: Path) -> list[str]:
    """The names listed under the ``.. autosummary::`` directives of a reST page."""
    names: list[str] = []
    inside = False
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith(".. autosummary::"):
            inside = True
        elif inside and line and not line.startswith(" "):
            inside = False
        elif inside and line.strip() and not line.strip().startswith(":"):
            names.append(line.strip())
    return names


def test_reference_lists_every_name_of_the_package() -> None:
    listed = _autosummary_entries(REFERENCE / "api.rst")
    assert len(listed) == len(set(listed)), "a name is listed twice in docs/reference/api.rst"
    missing = sorted(set(analyzer.__all__) - set(listed))
    extra = sorted(set(listed) - set(analyzer.__all__))
    assert not missing, f"add to docs/reference/api.rst (an autosummary list): {missing}"
    assert not extra, f"not in analyzer.__all__ (remove from docs/reference/api.rst): {extra}"


def test_reference_lists_every_module() -> None:
    modules = {
        info.name
        for info in pkgutil.walk_packages(analyzer.__path__, "analyzer.")
        if info.name != "analyzer.__main__"  # runs the command line when imported
    }
    listed = _autosummary_entries(REFERENCE / "modules.rst")
    assert len(listed) == len(set(listed)), "a module is listed twice in docs/reference/modules.rst"
    missing = sorted(modules - set(listed))
    extra = sorted(set(listed) - modules)
    assert not missing, f"add to docs/reference/modules.rst (an autosummary list): {missing}"
    assert not extra, f"no such module (remove from docs/reference/modules.rst): {extra}"


def test_documented_modules_export_what_they_name() -> None:
    """A module page documents its ``__all__``: each name there must exist."""
    for name in _autosummary_entries(REFERENCE / "modules.rst"):
        needed = OPTIONAL_MODULES.get(name.replace(".", "/") + ".py")
        if needed is not None and importlib.util.find_spec(needed[0]) is None:
            continue  # its extra is not installed: conftest.py leaves it out and says so
        module = importlib.import_module(name)
        for exported in getattr(module, "__all__", ()):
            assert hasattr(module, exported), f"{name}.__all__ names {exported!r}, which it lacks"


def test_reference_documents_every_subcommand() -> None:
    parser = _parser()
    (subparsers,) = [action for action in parser._actions if action.dest == "command"]
    commands = set(subparsers.choices)  # type: ignore[attr-defined]
    text = (REFERENCE / "cli.rst").read_text(encoding="utf-8")
    documented = re.findall(r"^   :path: (\S+)$", text, flags=re.M)
    assert len(documented) == len(set(documented))
    assert sorted(commands - set(documented)) == [], "add an argparse block to docs/reference/cli.rst"
    assert sorted(set(documented) - commands) == [], "no such subcommand in docs/reference/cli.rst"
    guide = (DOCS / "guide" / "cli.md").read_text(encoding="utf-8")
    unshown = sorted(command for command in commands if f"analyzer {command}" not in guide)
    assert not unshown, f"docs/guide/cli.md shows no example of: {unshown}"


def _sources() -> set[str]:
    """Every page Sphinx would read, as a document name (path under docs/ without suffix)."""
    pages = set()
    for path in DOCS.rglob("*"):
        relative = path.relative_to(DOCS)
        if path.suffix not in {".md", ".rst"} or any(str(relative).startswith(part) for part in NOT_PAGES):
            continue
        pages.add(str(relative.with_suffix("")))
    pages |= {f"notebooks/{path.stem}" for path in NOTEBOOKS.glob("*.ipynb")}
    return pages


def _toctree_children(document: str) -> list[str]:
    """The documents a page's toctrees list (MyST ```{toctree}``` fences or reST directives)."""
    source = next(DOCS.glob(f"{document}.*"), None)
    if source is None or source.suffix not in {".md", ".rst"}:
        return []
    children = []
    inside = False
    for line in source.read_text(encoding="utf-8").splitlines():
        stripped = line.strip()
        if stripped in {"```{toctree}", ".. toctree::"} or stripped.startswith(".. autosummary::"):
            inside = stripped != ".. autosummary::" and not stripped.startswith(".. autosummary")
            continue
        if inside and (stripped == "```" or (source.suffix == ".rst" and line and not line[0].isspace())):
            inside = False
        elif inside and stripped and not stripped.startswith(":"):
            target = (Path(document).parent / stripped).as_posix()
            children.append(str(Path(*_normalise(target))))
    return children


def _normalise(path: str) -> list[str]:
    parts: list[str] = []
    for part in path.split("/"):
        if part == "..":
            parts.pop()
        elif part not in {"", "."}:
            parts.append(part)
    return parts


def test_every_page_is_reachable_from_the_index() -> None:
    pages = _sources()
    seen = {"index"}
    todo = ["index"]
    while todo:
        for child in _toctree_children(todo.pop()):
            assert child in pages, f"a toctree lists {child!r}, which is no page"
            if child not in seen:
                seen.add(child)
                todo.append(child)
    assert sorted(pages - seen) == [], "pages no toctree reaches from docs/index.md"


PAGES_WITH_EXAMPLES = sorted(
    path for path in DOCS.rglob("*.md") if ">>> " in path.read_text(encoding="utf-8")
)


#: Pages whose examples read replays (ms-toollib, the replays extra).
READ_REPLAYS = {"getting-started.md", "guide/replays.md"}


@pytest.mark.parametrize(
    "page",
    [
        pytest.param(page, marks=pytest.mark.needs("ms_toollib"))
        if str(page.relative_to(DOCS)) in READ_REPLAYS
        else page
        for page in PAGES_WITH_EXAMPLES
    ],
    ids=lambda path: str(path.relative_to(DOCS)),
)
def test_page_examples_run_as_shown(page: Path) -> None:
    result = doctest.testfile(
        str(page),
        module_relative=False,
        optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS,
        verbose=False,
    )
    assert result.attempted > 0
    assert result.failed == 0


def test_the_guide_pages_have_examples() -> None:
    """Each guide page about the library shows it at work in a doctest (the CLI page shows commands)."""
    guide = {path.stem for path in (DOCS / "guide").glob("*.md")} - {"index", "cli"}
    with_examples = {path.stem for path in PAGES_WITH_EXAMPLES if path.parent.name == "guide"}
    assert sorted(guide - with_examples) == []
