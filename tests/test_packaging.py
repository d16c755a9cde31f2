"""The package as a user installs it: its metadata, and a wheel built from this tree, installed apart from it.

The distribution is ``minesweeper-analyzer`` (``analyzer`` on the index is someone
else's), its version written once (``analyzer/_version.py``). The wheel must carry
everything the package reads at run time (the bundled example boards and replays, the
interactive board's front end, ``py.typed``) and nothing of the repository besides; a
copy installed away from the repository must find them, so ``analyzer verify`` checks
all 43 boards and ``analyzer solve`` reads a bundled board. ``scripts/smoke_wheel.sh``
(``make smoke``, in CI) goes further: the wheel built from the sdist, installed with its
dependencies, read-only, every command run as another user.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import zipfile
from pathlib import Path

import pytest

import analyzer
from analyzer.cli import main

pytestmark = pytest.mark.xdist_group("packaging")  # one wheel built and installed, not one a worker

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PROJECT = PYPROJECT["project"]
WHEEL = "minesweeper_analyzer-*.whl"


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
    # Built from a copy: setuptools builds in the source's build/ folder and ships what an earlier
    # build left there, which would hide a file the package-data patterns miss.
    source = base / "source"
    shutil.copytree(ROOT / "analyzer", source / "analyzer", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md", "LICENSE", "MANIFEST.in"):
        shutil.copy2(ROOT / name, source / name)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(base / "dist"), str(source)],
        check=True,
        capture_output=True,
    )
    (wheel,) = (base / "dist").glob(WHEEL)
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
    (wheel,) = (installed.parent / "dist").glob(WHEEL)
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


def test_the_installed_copy_joins_the_board_script(installed: Path) -> None:
    # The page and the widget load board.js joined from static/board/'s parts, read from the package.
    from analyzer.interactive.frontend import board_script

    code = "from analyzer.interactive.frontend import board_script; print(board_script(), end='')"
    done = _run(installed, "-c", code)
    assert done.returncode == 0, done.stderr
    assert done.stdout == board_script()


def _written_version() -> str:
    """The version as ``analyzer/_version.py`` writes it, read without importing."""
    tree = ast.parse((ROOT / "analyzer" / "_version.py").read_text(encoding="utf-8"))
    (value,) = [
        node.value.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        and [t.id for t in node.targets if isinstance(t, ast.Name)] == ["__version__"]
        and isinstance(node.value, ast.Constant)
    ]
    assert isinstance(value, str)
    return value


def test_the_version_is_written_once(capsys: pytest.CaptureFixture[str]) -> None:
    from packaging.version import Version

    version = _written_version()
    assert str(Version(version)) == version  # a version the index takes, in its normal form
    assert "version" not in PROJECT and PROJECT["dynamic"] == ["version"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "analyzer._version.__version__"}
    assert analyzer.__version__ == version
    with pytest.raises(SystemExit) as exit:
        main(["--version"])
    assert exit.value.code == 0
    assert capsys.readouterr().out == f"analyzer {version} (minesweeper-analyzer)\n"
    # and nowhere else in the package
    written = [
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "analyzer").rglob("*.py")
        if re.search(rf"(?<![\w.]){re.escape(version)}(?![\w.])", path.read_text(encoding="utf-8"))
    ]
    assert written == ["analyzer/_version.py"]


def test_the_metadata_says_what_the_index_shows() -> None:
    import trove_classifiers

    assert PROJECT["name"] == "minesweeper-analyzer"
    assert PROJECT["scripts"] == {"analyzer": "analyzer.cli:main"}
    assert PROJECT["description"] and PROJECT["readme"] == "README.md" and PROJECT["authors"]
    assert PROJECT["license"] == "MIT" and PROJECT["license-files"] == ["LICENSE"]
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License\n")
    assert {"minesweeper", "probability", "solver"} <= set(PROJECT["keywords"])
    classifiers = PROJECT["classifiers"]
    assert [c for c in classifiers if c not in trove_classifiers.classifiers] == []
    assert not [c for c in classifiers if c.startswith("License ::")]  # the license expression says it
    assert "Typing :: Typed" in classifiers and (ROOT / "analyzer" / "py.typed").exists()
    # the oldest Python named is the one requires-python starts at
    versions = [
        c.rsplit(" ", 1)[-1]
        for c in classifiers
        if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)
    ]
    assert versions and PROJECT["requires-python"] == f">={min(versions, key=lambda v: int(v.split('.')[1]))}"


def test_the_extras_are_the_ones_named() -> None:
    """`all` gathers the user's extras; make setup installs every extra; every hint names one that exists."""
    extras = PROJECT["optional-dependencies"]
    (gathered,) = extras["all"]
    match = re.fullmatch(r"minesweeper-analyzer\[([a-z,-]+)\]", gathered)
    assert match, gathered
    users = set(match.group(1).split(","))
    assert users == {"replays", "widget", "distributed", "progress", "images"}
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    (installed,) = re.findall(r"pip install --quiet -e \"\.\[([a-z,-]+)\]\"", makefile)
    assert "all" in installed.split(",") and set(installed.split(",")) | users == set(extras)
    hints = re.compile(r"pip install (?:-e )?'(?:minesweeper-analyzer|\.)\[([a-z-]+)\]'")
    named: set[str] = set()
    stale = "install 'analyzer" + "["  # spelt so that this file does not hold it
    for path in [*(ROOT / "analyzer").rglob("*.py"), *(ROOT / "tests").glob("*.py"), ROOT / "conftest.py"]:
        text = path.read_text(encoding="utf-8")
        assert stale not in text, f"{path}: 'analyzer' on the index is another package"
        named |= set(hints.findall(text))
    import conftest

    named |= set(conftest.EXTRAS.values())
    assert named and named <= set(extras), named - set(extras)


def test_the_wheel_holds_the_package_and_nothing_of_the_repository(installed: Path) -> None:
    (wheel,) = (installed.parent / "dist").glob(WHEEL)
    names = zipfile.ZipFile(wheel).namelist()
    skins = [
        f"analyzer/pictures/skins/{p.name}"
        for p in (ROOT / "analyzer" / "pictures" / "skins").iterdir()
        if p.is_dir()
    ]
    static = ["analyzer/interactive/static", "analyzer/interactive/static/board"]  # the board script's parts
    for folder in (*static, "analyzer/replays/examples", "analyzer/examples", *skins):
        in_tree = {
            f"{folder}/{p.name}" for p in (ROOT / folder).iterdir() if p.is_file() and p.suffix != ".py"
        }
        assert in_tree and in_tree <= set(names), in_tree - set(names)
    assert {n.split("/")[0] for n in names} == {"analyzer", wheel.name.split("-py3")[0] + ".dist-info"}
    assert not [n for n in names if "__pycache__" in n or n.endswith((".pyc", ".nbi", ".nbc"))]
    info = wheel.name.split("-py3")[0] + ".dist-info"
    assert f"{info}/licenses/LICENSE" in names
    metadata = zipfile.ZipFile(wheel).read(f"{info}/METADATA").decode()
    assert "\nName: minesweeper-analyzer\n" in metadata
    assert f"\nVersion: {_written_version()}\n" in metadata


def test_the_changelog_opens_with_this_version() -> None:
    """CHANGELOG.md (Keep a Changelog) has a dated section for the version the package says it is."""
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    versions = re.findall(r"^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}$", text, flags=re.MULTILINE)
    assert versions and versions[0] == analyzer.__version__, versions
    assert "CHANGELOG.md" in (ROOT / "MANIFEST.in").read_text(encoding="utf-8")
