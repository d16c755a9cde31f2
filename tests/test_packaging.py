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
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with the package installed from a freshly built wheel.

    The environment is new and has nothing of the tree; the wheel's
    dependencies (numpy, numba, ...) are borrowed from the running environment
    through a path file, so no network is needed. A path file adds folders to
    ``sys.path`` but does not run the path files in them, so the checkout's
    editable install is not seen. Returns the environment's folder.
    """
    base = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(base / "dist"), str(ROOT)],
        check=True,
        capture_output=True,
    )
    (wheel,) = (base / "dist").glob("analyzer-*.whl")
    env = base / "env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True)
    python = env / "bin" / "python"
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps", str(wheel)],
        check=True,
        capture_output=True,
        env=_clean_environment(),
    )
    site = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            check=True,
            capture_output=True,
            text=True,
            env=_clean_environment(),
        ).stdout.strip()
    )
    borrowed = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (site / "_borrowed_dependencies.pth").write_text("\n".join(sorted(borrowed)) + "\n")
    return env


def _run(env: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``args`` run by the environment's ``analyzer`` command (or its python with ``-c``) outside the tree."""
    program = env / "bin" / ("python" if args[0] == "-c" else "analyzer")
    command = [str(program), *args]
    return subprocess.run(
        command, cwd=env, env=_clean_environment(), capture_output=True, text=True, timeout=600
    )


def _clean_environment() -> dict[str, str]:
    """This process's environment without what would point Python back at the checkout."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}


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
        "verify",
        "--check",
        "expectation_linearity_boards",
        "--check",
        "component_product_boards",
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("exact check on 43 boards") == 2, done.stdout


def test_installed_solve_reads_a_bundled_board(installed: Path) -> None:
    found = _run(installed, "-c", "from analyzer import examples; print(examples.path('cs70_4x3_4.mine'))")
    board = Path(found.stdout.strip())
    assert board.is_relative_to(installed), found.stdout + found.stderr
    done = _run(installed, "solve", str(board), "--json")
    assert done.returncode == 0, done.stderr
    assert '"total": "24"' in done.stdout, done.stdout[:400]
