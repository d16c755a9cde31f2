"""Test-suite configuration: notebooks run (nbmake) whenever the notebooks extra is installed.

``pytest`` needs only the dev extra: a module (its doctests) that imports an optional extra at
module level is left out of the collection when the extra is missing, and the run's summary says
which and why.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from test_interactive_jupyterlab import Lab

OPTIONAL_MODULES: dict[str, tuple[str, str]] = {
    "analyzer/interactive/jupyter.py": ("anywidget", "widget"),
}
"""Modules that import an optional package at module level: path -> (package, the extra that has it)."""

EXTRAS: dict[str, str] = {
    "ms_toollib": "replays",
    "matplotlib": "notebooks",
    "anywidget": "widget",
    "distributed": "distributed",
}
"""Optional packages tests may need (``@pytest.mark.needs("ms_toollib")``) -> the extra that has them."""

OPTIONAL_DOCTESTS: dict[str, str] = {"analyzer/replays/": "ms_toollib"}
"""Folders whose docstring examples read replays through an optional package -> that package."""

_ROOT = Path(__file__).resolve().parent

ALL_EXAMPLES = os.environ.get("ANALYZER_TEST_ALL") == "1"
"""Whether this run draws every property test's full count of examples: ``make test-all`` sets
``ANALYZER_TEST_ALL=1``; ``make test`` (and CI) draws half of each count, at least 10, to keep
the default run short (``tests/strategies.py``'s ``examples``; a test that names no count, 50 of
Hypothesis's 100: :func:`_property_test_examples`)."""
_LEFT_OUT: list[str] = []


def pytest_configure(config: pytest.Config) -> None:
    # With the notebooks extra the notebooks run too.
    if importlib.util.find_spec("nbmake") is not None and hasattr(config.option, "nbmake"):
        config.option.nbmake = True
    _property_test_examples()
    _compile_kernels_before_the_workers(config)


def _property_test_examples() -> None:
    """Hypothesis draws half its default 100 examples for a property test that names no count,
    unless :data:`ALL_EXAMPLES`."""
    from hypothesis import settings

    settings.register_profile("analyzer-default-run", max_examples=50)
    if not ALL_EXAMPLES:
        settings.load_profile("analyzer-default-run")


def _compile_kernels_before_the_workers(config: pytest.Config) -> None:
    """On a run with pytest-xdist's workers, the numba kernels numba's cache lacks (a fresh clone
    without ``make setup``, or a kernel source changed since the cache was filled) are compiled
    first, here in the controller, by ``analyzer warmup``'s stages on every core.

    Otherwise every worker compiles each kernel its first test calls, all of them the same
    ones at once, inside the tests' time: a run of the default suite on a stale cache spent
    most of its time so (one 2 s test took 625 s). With the cache full this costs a second.
    """
    if hasattr(config, "workerinput") or not config.getoption("tx", None) or config.option.collectonly:
        return  # a worker, or no workers (the tests compile what they call), or no test to run
    from analyzer.jit import purge_stale_caches
    from analyzer.warmup import uncached_kernels, warm_up

    purge_stale_caches()  # a kernel source changed: its caches go now, not in a worker mid-run
    missing = uncached_kernels()
    if missing:
        print(f"conftest: compiling {len(missing)} numba kernels not cached yet, before the workers start")
        seconds = warm_up(lambda line: None)
        print(f"conftest: kernels compiled in {seconds:.0f} s")


@pytest.hookimpl(optionalhook=True)  # pytest-xdist's hook: a run without it (-p no:xdist) must not fail
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` (``make test``): a worker a core, and one more. The browser and JupyterLab tests
    wait on their pages for about a fifth of their time; a third worker on two cores fills those
    waits (the default run: 453 s with two workers, 437 s with three)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return cores + 1


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


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's own, which reads the groups to schedule by
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip, with the reason, a test (or a doctest) whose optional package is not installed; keep
    the JupyterLab tests on one of pytest-xdist's workers (with ``--dist loadgroup``, as ``make
    test`` runs), so that one JupyterLab starts, not one a worker (the ``lab`` fixture), and first,
    so that its worker does not finish alone after the others.

    This runs first: pytest-xdist's worker tags each test with its group in the same hook, and a
    group mark added after that is not seen (both workers started a JupyterLab)."""
    grouping = config.pluginmanager.hasplugin("xdist")
    for item in items:
        if grouping and "lab" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group("jupyterlab"))
        needed = [mark.args[0] for mark in item.iter_markers("needs")]
        if isinstance(item, pytest.DoctestItem):
            relative = item.path.resolve().relative_to(_ROOT).as_posix()
            needed += [need for folder, need in OPTIONAL_DOCTESTS.items() if relative.startswith(folder)]
        missing = [package for package in needed if importlib.util.find_spec(package) is None]
        if missing:
            extra = EXTRAS.get(missing[0], missing[0])
            item.add_marker(pytest.mark.skip(reason=f"needs {missing[0]} (pip install -e '.[{extra}]')"))
    if grouping:  # the one worker's long JupyterLab run first, the short tests fill in beside it
        items.sort(key=lambda item: "lab" not in getattr(item, "fixturenames", ()))


# Here, not in tests/conftest.py: a second conftest module would shadow this one for
# tests/test_docs.py's `from conftest import OPTIONAL_MODULES`.
@pytest.fixture(scope="session")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    """The process's one JupyterLab and the one browser tab that has it loaded
    (tests/test_interactive_jupyterlab.py's ``Lab``), started by the first test that opens a
    notebook in it and shared by the JupyterLab tests after it."""
    from test_interactive_jupyterlab import Lab

    shared = Lab(tmp_path_factory.mktemp("jupyterlab"))
    try:
        yield shared
    finally:
        shared.close()
