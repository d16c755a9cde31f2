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
from typing import Any

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
        if not info.name.endswith(".__main__")  # python -m's entry points run the command line when imported
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
#: Pages whose examples read pictures (Pillow).
READ_PICTURES = {"guide/pictures-front.md"}


def _needs(page: Path) -> Any:
    name = str(page.relative_to(DOCS))
    if name in READ_REPLAYS:
        return pytest.param(page, marks=pytest.mark.needs("ms_toollib"))
    if name in READ_PICTURES:
        return pytest.param(page, marks=pytest.mark.needs("PIL"))
    return page


@pytest.mark.parametrize(
    "page",
    [_needs(page) for page in PAGES_WITH_EXAMPLES],
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


# ------------------------------------------------------------------ the pages read as prose
ROOT = DOCS.parent
#: Every Markdown page a reader opens: the manual's and the README.
MARKDOWN_PAGES = sorted([*DOCS.rglob("*.md"), ROOT / "README.md"])

_FENCE = re.compile(r"^(`{3,}|~{3,}|:{3,})")
_HEADING = re.compile(r"^#{1,6} ")
_SEPARATOR = re.compile(r"^\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?$")
#: Words and marks a sentence does not start with: the tail of one cut off above.
_CONTINUATION = re.compile(r"^([a-z]|[,;:.)\]}]|-[^-\s]|(And|Or|But|Nor|Which|Whose)\b)")
#: A lower-case name that may open a sentence: "minesolve's search", "numpydoc: a summary".
_NAMED = re.compile(r"^[a-z][\w.-]*('s\b|:\s)")
#: How a section's last paragraph ends: a full stop, a question or an exclamation (closing
#: brackets, quotes and emphasis may follow); a colon would open a block that is not there.
_CLOSED = re.compile(r"[.!?][)\]*_`'\"]*$")


def _blocks(text: str) -> tuple[list[tuple[str, int, list[str]]], list[str]]:
    """The page as blocks ``(kind, first line number, lines)``, and what is wrong with its fences.

    Kinds: ``heading``, ``fence`` (fenced code, a MyST directive, ``$$`` math), ``code``
    (indented four spaces), ``table`` (rows of ``|``), ``list``, ``other`` (quotes, pictures,
    HTML, definitions) and ``prose``. A fence left open at the end of the page is a problem.
    """
    lines = text.splitlines()
    blocks: list[tuple[str, int, list[str]]] = []
    problems = []
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        fence = _FENCE.match(stripped)
        if not stripped:
            i += 1
        elif fence or stripped == "$$":
            marker = fence.group(1) if fence else "$$"
            end = i + 1
            while end < len(lines) and not (
                lines[end].strip().startswith(marker[0] * len(marker))
                and lines[end].strip().strip(marker[0]) == ""
            ):
                end += 1
            if end == len(lines):
                problems.append(f"line {i + 1}: the fence {stripped!r} is never closed")
            blocks.append(("fence", i + 1, lines[i : end + 1]))
            i = end + 1
        elif _HEADING.match(line):
            blocks.append(("heading", i + 1, [line]))
            i += 1
        else:
            end = i
            while end < len(lines) and lines[end].strip() and not _HEADING.match(lines[end]):
                if end > i and (_FENCE.match(lines[end].strip()) or lines[end].strip() == "$$"):
                    break
                end += 1
            chunk = lines[i:end]
            if line.startswith(("    ", "\t")):
                kind = "code"
            elif stripped.startswith("|"):
                kind = "table"
            elif re.match(r"^([-*+]|\d+[.)])\s", stripped):
                kind = "list"
            elif stripped.startswith((">", "!", "<", ":", "[^")) or re.match(r"^\[[^]]+\]:\s", stripped):
                kind = "other"
            else:
                kind = "prose"
            blocks.append((kind, i + 1, chunk))
            i = end
    return blocks, problems


def prose_problems(text: str) -> list[str]:
    """What reads as a garbled page: text cut mid-sentence, open fences, stray rows, a repeat.

    - a section (heading to heading) whose first paragraph starts mid-sentence (a lower-case
      letter, a comma, a closing bracket, *and* or *which*...), or whose last paragraph stops
      without closing punctuation;
    - a code fence never closed;
    - a table row (``|``) with no header and separator row above it, or a row of columns
      (cells set apart by runs of spaces) in running text, outside any code block;
    - a line of words repeated back to back (blank lines between them aside).
    """
    blocks, problems = _blocks(text)
    sections: list[list[tuple[str, int, list[str]]]] = [[]]
    for block in blocks:
        if block[0] == "heading":
            sections.append([])
        else:
            sections[-1].append(block)
    for section in sections:
        if not section:
            continue
        kind, number, lines = section[0]
        first = lines[0].strip()
        if kind == "prose" and _CONTINUATION.match(first) and not _NAMED.match(first):
            problems.append(f"line {number}: the section starts mid-sentence: {first[:60]!r}")
        kind, number, lines = section[-1]
        if kind == "prose" and not _CLOSED.search(lines[-1].rstrip()):
            last = number + len(lines) - 1
            problems.append(f"line {last}: the section ends mid-sentence: {lines[-1].strip()[-60:]!r}")
    for kind, number, lines in blocks:
        if kind == "table" and (len(lines) < 2 or not _SEPARATOR.match(lines[1].strip())):
            problems.append(f"line {number}: a table row without a header and separator: {lines[0][:60]!r}")
        if kind == "prose":
            for offset, line in enumerate(lines):
                if re.search(r"\S {3,}\S+ {3,}\S", line.strip()):
                    problems.append(f"line {number + offset}: a row of columns outside code: {line[:60]!r}")
    previous = None
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped:
            continue
        # a line of words (a board's rows, HHHH, repeat as they should)
        if stripped == previous and re.search(r"\w\s+\S", stripped):
            problems.append(f"line {number}: repeats the line above: {stripped[:60]!r}")
        previous = stripped
    return problems


@pytest.mark.parametrize("page", MARKDOWN_PAGES, ids=lambda path: str(path.relative_to(ROOT)))
def test_pages_read_as_whole_sentences(page: Path) -> None:
    assert prose_problems(page.read_text(encoding="utf-8")) == []


#: Pages cut as docs/guide/boards.md, simulation.md and optimal.md once were: what is wrong,
#: the page, and what the check must say of it.
GARBLED = {
    "starts mid-sentence": (
        "# Page\n\n## Files and paths\n\nwithout looking for the clues in conflict.\n\nA whole sentence.\n"
    ),
    "starts with a continuation": "# Page\n\nA sentence.\n\n## Next\n\n, and so it goes on.\n",
    "ends mid-sentence": (
        "# Page\n\nA whole sentence.\n\n`solve_many` solves many positions. The results come back"
        " in input order, each exactly\n\n## Next\n\nMore.\n"
    ),
    "ends on a colon": "# Page\n\nA sentence. The table below:\n\n## Next\n\nMore.\n",
    "is never closed": (
        "# Page\n\nA sentence.\n\n```\n\nOn positions this cheap, processes cost more than they save.\n"
    ),
    "a table row without a header": "# Page\n\nA sentence.\n\n| 2 | usage | one line |\n\nMore.\n",
    "a row of columns outside code": (
        "# Page\n\nA sentence.\n\nexpert 30x16/99             1000         8,765         5,776\n\nMore.\n"
    ),
    "repeats the line above": (
        "# Page\n\nA sentence:\n\n    analyzer optimal --width 4 --height 4 --mines 4\n\n"
        "    analyzer optimal --width 4 --height 4 --mines 4\n\nMore.\n"
    ),
}


@pytest.mark.parametrize(("problem", "text"), GARBLED.items(), ids=list(GARBLED))
def test_garbled_pages_are_caught(problem: str, text: str) -> None:
    said = {
        "starts with a continuation": "starts mid-sentence",
        "ends on a colon": "ends mid-sentence",
    }.get(problem, problem)
    problems = prose_problems(text)
    assert len(problems) == 1 and said in problems[0], problems


def test_whole_pages_of_every_kind_pass() -> None:
    """Lists, tables, code, math, directives, names in lower case and a closing link are prose's own."""
    page = (
        "# Page\n\n`analyzer.solve(board)` answers exactly:\n\n- a list item\n- ends without a stop\n\n"
        "| a | b |\n| --- | --- |\n| 1 | 2 |\n\n    HHHH\n    HHHH\n\n```python\n>>> 1 + 1\n2\n```\n\n"
        "$$\nx = 1\n$$\n\n```{toctree}\n:maxdepth: 1\n\nsolve\n```\n\n## Names\n\nminesolve's search"
        " looks ahead (see [the page](solve.md)).\n\n## Code last\n\nThe command:\n\n    analyzer web\n"
    )
    assert prose_problems(page) == []


def _tracked_files() -> set[str] | None:
    """The repository's files (``git ls-files``), or None outside a git checkout."""
    import shutil
    import subprocess

    if shutil.which("git") is None or not (ROOT / ".git").exists():
        return None
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode()
    return set(filter(None, listed.split("\0")))


def relative_links(text: str) -> list[str]:
    """The targets of a page's Markdown links and pictures that are paths, not addresses or anchors."""
    text = re.sub(r"(?ms)^(\s*)(`{3,}|~{3,}).*?^\s*\2\s*$", "", text)  # fenced code
    text = re.sub(r"`[^`\n]*`", "", text)  # inline code
    targets = re.findall(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)", text)
    return [t for t in targets if not re.match(r"^([a-z][a-z0-9+.-]*:|#)", t)]


@pytest.mark.parametrize("page", MARKDOWN_PAGES, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_link_is_a_file_of_the_repository(page: Path) -> None:
    """A link read on the repository (the README's "they also read here") must find its file there,
    not one that only ``make docs`` writes (docs/reference/generated, docs/notebooks/*.ipynb)."""
    tracked = _tracked_files()
    if tracked is None:
        pytest.skip("not a git checkout: which files are the repository's is not known")
    broken = []
    for target in relative_links(page.read_text(encoding="utf-8")):
        path = (page.parent / target.split("#")[0]).resolve()
        try:
            name = path.relative_to(ROOT).as_posix()
        except ValueError:
            broken.append(target)
            continue
        if name not in tracked and not any(t.startswith(name + "/") for t in tracked):
            broken.append(target)
    assert broken == []


def test_relative_links_are_found_and_made_files_are_not_the_repository_s() -> None:
    page = '[a](guide/solve.md) ![b](pic.png "t") [c](https://x.org) [d](#top) `[e](f.md)`\n'
    assert relative_links(page) == ["guide/solve.md", "pic.png"]
    tracked = _tracked_files()
    if tracked is None:
        pytest.skip("not a git checkout")
    assert "docs/guide/solve.md" in tracked and "notebooks/solve.ipynb" in tracked
    assert not any(name.startswith("docs/reference/generated/") for name in tracked)
    assert "docs/notebooks/solve.ipynb" not in tracked
