"""Where numba's cache of the kernels goes, for an installation the user cannot write too.

Numba caches a kernel in ``NUMBA_CACHE_DIR``, else in ``__pycache__`` beside its source,
else in the user's cache folder (``$XDG_CACHE_HOME/numba``), each only if it can write
there. The tests run as root, whom file modes do not stop, so a folder is made unwritable
the way root cannot write either: a ``__pycache__`` (or a cache home) that is a file.
``scripts/smoke_wheel.sh`` checks the same with a read-only installation and another user.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from analyzer import jit

ROOT = Path(__file__).resolve().parent.parent

KERNEL = """
from analyzer.jit import njit

@njit(cache=True)
def increment(x):
    return x + 1
"""

PROBE = """
import json, sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
import kernel_module
from analyzer import jit
value = kernel_module.increment(41)
dispatcher = kernel_module.increment.dispatcher
folder = jit.cache_folder(Path(sys.argv[1]))
print(json.dumps({
    "value": value,
    "numba": dispatcher.stats.cache_path,
    "ours": None if folder is None else str(folder),
    "hits": sum(dispatcher.stats.cache_hits.values()),
    "uncached": [name for name in jit.uncached_kernels() if name.startswith("kernel_module")],
}))
"""


def _setting(tmp_path: Path, where: str) -> tuple[Path, dict[str, str]]:
    """A folder with a kernel module, and the environment that leaves numba only ``where`` to cache it."""
    source = tmp_path / "src"
    source.mkdir()
    (source / "kernel_module.py").write_text(KERNEL)
    environment = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    environment["XDG_CACHE_HOME"] = str(tmp_path / "user-cache")
    environment["PYTHONDONTWRITEBYTECODE"] = "1"
    if where == "NUMBA_CACHE_DIR":
        environment["NUMBA_CACHE_DIR"] = str(tmp_path / "numba-cache-dir")
    if where in ("user", "nowhere"):
        (source / "__pycache__").write_text("a file, not a folder: nothing is written beside the source\n")
    if where == "nowhere":
        (tmp_path / "user-cache").write_text("a file, not a folder\n")
    return source, environment


def _probe(source: Path, environment: dict[str, str]) -> tuple[dict[str, object], str]:
    run = subprocess.run(
        [sys.executable, "-c", PROBE, str(source)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=environment,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout.splitlines()[-1]), run.stderr


@pytest.mark.parametrize(
    ("where", "expected"),
    [
        ("beside", "src/__pycache__"),
        ("NUMBA_CACHE_DIR", "numba-cache-dir/src_"),
        ("user", "user-cache/numba/src_"),
    ],
)
def test_the_cache_folder_is_the_one_numba_writes(tmp_path: Path, where: str, expected: str) -> None:
    source, environment = _setting(tmp_path, where)
    first, _ = _probe(source, environment)
    assert first["value"] == 42
    assert first["ours"] == first["numba"], first
    assert str(first["numba"]).startswith(str(tmp_path / expected)), first
    assert first["uncached"] == []  # the kernel's entry is found where numba wrote it
    again, _ = _probe(source, environment)
    assert again["hits"] == 1  # and the next process loads it from there


def test_without_a_writable_cache_folder_kernels_compile_uncached(tmp_path: Path) -> None:
    source, environment = _setting(tmp_path, "nowhere")
    result, stderr = _probe(source, environment)
    assert result["value"] == 42 and result["numba"] is None and result["ours"] is None
    assert result["uncached"] == ["kernel_module.increment"]
    notes = [line for line in stderr.splitlines() if line.strip()]
    assert len(notes) == 1 and "set NUMBA_CACHE_DIR to a writable folder" in notes[0], stderr


def test_a_changed_kernel_source_purges_the_users_cache_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A read-only installation's kernels are cached in the user's folder: an upgrade purges them there."""
    from numba.core import config

    monkeypatch.setattr(config, "CACHE_DIR", "")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    package = tmp_path / "package"
    package.mkdir()
    (package / "__pycache__").write_text("a file: the installation is not writable\n")
    kernels = package / "kernels.py"
    kernels.write_text("@njit(cache=True)\ndef f(x):\n    return x\n")
    folder = jit.cache_folder(package)
    assert folder is not None and folder.is_relative_to(tmp_path / "user-cache" / "numba")
    cached = folder / "kernels.f-1.py311.nbi"
    cached.touch()
    assert jit.purge_stale_caches(package)  # no fingerprint there yet
    assert not cached.exists()
    cached.touch()
    assert not jit.purge_stale_caches(package) and cached.exists()  # unchanged: kept
    kernels.write_text("@njit(cache=True)\ndef f(x):\n    return x + 1\n")
    assert jit.purge_stale_caches(package) and not cached.exists()
