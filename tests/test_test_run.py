"""The test run's own arrangements (conftest.py), checked as ``make test`` runs them: on
pytest-xdist's workers with ``--dist loadgroup``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

_TESTS = """
import os
from pathlib import Path

import pytest


@pytest.fixture
def lab() -> str:  # the JupyterLab tests' fixture, by name: what the conftest groups by
    return os.environ["PYTEST_XDIST_WORKER"]


@pytest.mark.parametrize("i", range(6))
def test_in_the_lab(lab: str, i: int) -> None:
    Path(f"lab-{i}").write_text(lab)


@pytest.mark.parametrize("i", range(6))
def test_elsewhere(i: int) -> None:
    Path(f"other-{i}").write_text(os.environ["PYTEST_XDIST_WORKER"])
"""


def _run_project(folder: Path, tests: str, *options: str) -> subprocess.CompletedProcess[str]:
    """pytest with ``options`` on a project of ``tests`` (one module) under the repository's
    conftest.py (without the plugins the check does not need: 6 s less start-up)."""
    (folder / "conftest.py").write_text((ROOT / "conftest.py").read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "test_project.py").write_text(tests, encoding="utf-8")
    quiet = ["-p", "no:cacheprovider", "-p", "no:nbmake", "-p", "no:hypothesispytest"]
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", *options, *quiet],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.needs("xdist")
def test_the_jupyterlab_tests_share_one_worker(tmp_path: Path) -> None:
    """Every test that takes the ``lab`` fixture runs on one worker (one JupyterLab starts, not one a
    worker). Two things broke it, both caught here: the conftest's hook marking them after
    pytest-xdist's had read the marks, and pytest 9.2, under which pytest-xdist 3.8's groups are
    lost (pytest-dev/pytest-xdist#1386: hence ``pytest<9.2`` in the dev extra)."""
    run = _run_project(tmp_path, _TESTS, "-n", "2", "--dist", "loadgroup")
    assert run.returncode == 0, run.stdout + run.stderr
    labs = {(tmp_path / f"lab-{i}").read_text() for i in range(6)}
    others = {(tmp_path / f"other-{i}").read_text() for i in range(6)}
    assert len(labs) == 1, f"the lab tests ran on {sorted(labs)}"
    assert others - labs, "the other worker ran nothing: the run was not shared out"


def test_the_conftest_runs_without_pytest_xdist(tmp_path: Path) -> None:
    """``pytest -p no:xdist`` (one process, as a debugger wants it): the conftest's pytest-xdist hook
    is optional, not an unknown hook that stops the run, and the modules' ``xdist_group`` marks are
    known markers under the project's ``--strict-markers`` without the plugin that registers them."""
    tests = (
        "import pytest\n\npytestmark = pytest.mark.xdist_group('g')\n\n\n"
        "def test_alone() -> None:\n    assert 1 + 1 == 2\n"
    )
    # The project's pytest settings (--strict-markers, the markers), from its pyproject.toml.
    (tmp_path / "pyproject.toml").write_text(
        (ROOT / "pyproject.toml").read_text(encoding="utf-8").split("[tool.ruff]")[0], encoding="utf-8"
    )
    run = _run_project(tmp_path, tests, "-p", "no:xdist", "test_project.py")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 passed" in run.stdout
