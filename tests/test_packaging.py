"""The package as a user installs it: a wheel built from this tree, installed apart from it.

The wheel must carry everything the package reads at run time (the bundled
example boards, ``py.typed``); a copy installed away from the repository must
find them, so ``analyzer verify`` checks all 43 boards and ``analyzer solve``
reads a bundled board.
"""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the package installed from a freshly built wheel (dependencies from this venv)."""
    base = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(base / "dist"), str(ROOT)],
        check=True,
        capture_output=True,
    )
    (wheel,) = (base / "dist").glob("analyzer-*.whl")
    site = base / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site), str(wheel)],
        check=True,
        capture_output=True,
    )
    return site


def _run(site: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(site))
    return subprocess.run(
        [sys.executable, *args], cwd=site.parent, env=env, capture_output=True, text=True, timeout=600
    )


def test_the_wheel_ships_the_example_boards(installed: Path) -> None:
    (wheel,) = (installed.parent / "dist").glob("analyzer-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    shipped = sorted(n for n in names if n.startswith("analyzer/examples/") and n.endswith(".mine"))
    in_tree = sorted(f"analyzer/examples/{p.name}" for p in (ROOT / "analyzer" / "examples").glob("*.mine"))
    assert shipped == in_tree and shipped
    assert "analyzer/py.typed" in names


def test_an_installed_copy_is_the_one_imported(installed: Path) -> None:
    done = _run(installed, "-c", "import analyzer; print(analyzer.__file__)")
    assert done.returncode == 0, done.stderr
    assert Path(done.stdout.strip()).is_relative_to(installed)


def test_installed_verify_checks_all_43_boards(installed: Path) -> None:
    done = _run(
        installed,
        "-m",
        "analyzer",
        "verify",
        "--check",
        "expectation_linearity_boards",
        "--check",
        "component_product_boards",
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("exact check on 43 boards") == 2, done.stdout


def test_installed_solve_reads_a_bundled_board(installed: Path) -> None:
    board = installed / "analyzer" / "examples" / "cs70_4x3_4.mine"
    done = _run(installed, "-m", "analyzer", "solve", str(board), "--json")
    assert done.returncode == 0, done.stderr
    assert '"total": "24"' in done.stdout, done.stdout[:400]
