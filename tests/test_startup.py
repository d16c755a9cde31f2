"""Start-up: what ``import analyzer`` and a small solve load, the light name lists, interpreted kernels."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import analyzer
from analyzer import jit, names
from analyzer.play.positions import mid_game

ROOT = Path(__file__).resolve().parent.parent
HEAVY = (
    "numba",
    "ortools",
    "networkx",
    "sympy",
    "dask",
    "distributed",
    "matplotlib",
    "scipy",
    "pandas",
    "gmpy2",
)


def _loaded_after(code: str) -> set[str]:
    """The heavy top-level modules a fresh interpreter has loaded after running ``code``."""
    probe = code + "\nimport sys, json\nprint(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))\n"
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout
    return set(json.loads(out.splitlines()[-1])) & set(HEAVY)


def test_import_analyzer_loads_no_heavy_module() -> None:
    assert _loaded_after("import analyzer") == set()


def test_the_probe_sees_a_heavy_import() -> None:
    # The check above could not fail if the probe missed modules: a name that loads the solver's
    # general path's graph library must show up.
    assert "ortools" in _loaded_after("import analyzer; analyzer.certain_cells('3x1x1\\nH1H\\n')")
    assert "networkx" in _loaded_after(
        "import analyzer; analyzer.solve('3x1x1\\nH1H\\n', engine='frontier').components"
    )


def test_a_small_solve_loads_neither_numba_nor_cp_sat() -> None:
    code = "import analyzer; a = analyzer.solve(analyzer.examples.read('cs70_4x3_4.mine')); a.probabilities"
    assert _loaded_after(code) == set()
    # Under a time limit (the CLI's default) too: its counts are small, GMP is not asked.
    timed = code.replace(".mine'))", ".mine'), time_limit=60)")
    assert "time_limit" in timed and _loaded_after(timed) == set()
    hidden = "import analyzer; analyzer.solve('90x90x900\\n' + ('H' * 90 + '\\n') * 90)"
    assert _loaded_after(hidden) == {"gmpy2"}  # a count of 1,235 digits: GMP's


def test_lazy_names_resolve_and_are_listed() -> None:
    for name in analyzer.__all__:
        assert getattr(analyzer, name) is not None
    assert set(analyzer.__all__) <= set(dir(analyzer))
    with pytest.raises(AttributeError, match="no attribute 'nonsense'"):
        analyzer.nonsense  # noqa: B018


def test_light_name_lists_equal_their_registries() -> None:
    from analyzer.play.players import PLAYERS
    from analyzer.solver.counting import ENGINES
    from analyzer.verify import CHECKS

    assert tuple(PLAYERS) == names.PLAYER_NAMES
    assert tuple(CHECKS) == names.CHECK_NAMES
    assert names.ENGINES == ENGINES


def test_kernels_interpreted_give_the_compiled_answers() -> None:
    """The same kernels run as Python (before numba loads) and compiled give the same analyses."""
    boards = [mid_game(w, h, m, seed=s).to_text() for s in range(12) for w, h, m in ((5, 4, 4), (9, 9, 10))]
    boards += [analyzer.examples.read(name) for name in analyzer.examples.names()]
    script = (
        "import sys, json\n"
        "import importlib\n"
        "s = importlib.import_module('analyzer.solver.solve')\n"
        "from analyzer import jit\n"
        "jit.INTERPRETED_SECONDS = 1e9\n"
        "out = []\n"
        "for text in json.load(sys.stdin):\n"
        "    a = s.solve(text)\n"
        "    out.append([a.total, [None if p is None else str(p) for p in a.cell_probabilities],"
        " len(a.components)])\n"
        "assert not jit.is_active() and 'numba' not in sys.modules\n"
        "print(json.dumps(out))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", script], input=json.dumps(boards), capture_output=True, text=True, cwd=ROOT
    )
    assert run.returncode == 0, run.stderr
    interpreted = json.loads(run.stdout)
    for text, (total, cells, n_components) in zip(boards, interpreted, strict=True):
        compiled = analyzer.solve(text)
        assert total == compiled.total
        assert cells == [None if p is None else str(p) for p in compiled.cell_probabilities]
        assert n_components == len(compiled.components)


def test_interpreted_kernels_detect_a_count_past_64_bits_without_a_warning(tmp_path: Path) -> None:
    """A layout of weight past 2**63 on a small board: interpreted, numpy warned on ``weight *= b``.

    64 columns of two hidden cells (rows 0 and 2) around a row of clues 2 3 ... 3 2: the clues
    force one mine a column (a column's count repeats every three, and 64 = 3 * 21 + 1 closes it
    at 1), so the one solution of the enumerator weighs 2**64 layouts, past 64 bits.
    """
    text = "64x3x64\n" + "H" * 64 + "\n2" + "3" * 62 + "2\n" + "H" * 64 + "\n"
    script = (
        "import sys, json\n"
        "from analyzer import jit, solve\n"
        "jit.INTERPRETED_SECONDS = 1e9\n"
        "a = solve(sys.stdin.read())\n"
        "assert not jit.is_active() and 'numba' not in sys.modules\n"
        "print(a.total)\n"
    )
    run = subprocess.run(
        [sys.executable, "-W", "error", "-c", script], input=text, capture_output=True, text=True, cwd=ROOT
    )
    assert run.returncode == 0, run.stderr
    assert int(run.stdout) == 2**64 == analyzer.solve(text).total
    board = tmp_path / "columns.mine"
    board.write_text(text)
    command = subprocess.run(
        [sys.executable, "-m", "analyzer", "solve", str(board)], capture_output=True, text=True, cwd=ROOT
    )
    assert command.returncode == 0 and "1.84e19 (20 digits) layouts" in command.stdout
    assert command.stderr == ""


def test_kernels_are_compiled_once_numba_is_active() -> None:
    from analyzer.solver.kernels import board as kernels

    analyzer.solve(mid_game(30, 16, 99, seed=3))
    assert jit.is_active()
    assert not isinstance(kernels.board_solution, jit.LazyKernel)
    assert type(kernels.board_solution).__module__.startswith("numba")


def test_the_warm_up_reaches_every_kernel() -> None:
    """After ``analyzer warmup``'s workloads every kernel of the package is in numba's cache."""
    import importlib
    import pkgutil

    import analyzer.play.fast
    from analyzer.warmup import STAGES, warm_up

    lines: list[str] = []
    warm_up(lines.append)
    assert sorted(line.split(":")[0].strip() for line in lines) == sorted(STAGES)  # as each ends
    assert all(line.endswith(" s CPU)") for line in lines)
    for module in pkgutil.iter_modules(analyzer.play.fast.__path__, "analyzer.play.fast."):
        importlib.import_module(module.name)
    importlib.import_module("analyzer.play.metrics")
    assert len(jit._KERNELS) >= 40
    assert jit.uncached_kernels() == []


def test_a_changed_kernel_source_purges_the_kernel_caches(tmp_path: Path) -> None:
    """Numba checks a cached kernel against its own file only: any kernel file's change drops them all."""
    kernels = tmp_path / "kernels.py"
    other = tmp_path / "other.py"
    kernels.write_text("@njit(cache=True)\ndef f(x):\n    return x\n")
    other.write_text("def g():\n    return 1\n")
    cache = tmp_path / "__pycache__"
    cache.mkdir()

    def cached() -> list[str]:
        for name in ("kernels.f-1.py311.nbi", "kernels.f-1.py311.1.nbc", "other.g-1.py311.nbi"):
            (cache / name).touch()
        return sorted(p.name for p in cache.iterdir() if p.suffix in (".nbi", ".nbc"))

    cached()
    assert jit.purge_stale_caches(tmp_path)  # no fingerprint yet: the old caches are not trusted
    assert sorted(p.name for p in cache.iterdir() if p.suffix in (".nbi", ".nbc")) == ["other.g-1.py311.nbi"]
    everything = cached()
    assert not jit.purge_stale_caches(tmp_path)  # nothing changed: the caches stay
    assert sorted(p.name for p in cache.iterdir() if p.suffix in (".nbi", ".nbc")) == everything
    other.write_text("def g():\n    return 2\n")  # not a kernel file: no effect
    assert not jit.purge_stale_caches(tmp_path)
    kernels.write_text("@njit(cache=True)\ndef f(x):\n    return x + 1\n")
    assert jit.purge_stale_caches(tmp_path)
    assert sorted(p.name for p in cache.iterdir() if p.suffix in (".nbi", ".nbc")) == ["other.g-1.py311.nbi"]


def test_the_interpreted_budget_counts_cpu_time_not_the_wall_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Load on the machine stretches the wall clock, not the work: waiting must not spend the budget."""
    import time

    monkeypatch.setattr(jit, "_ACTIVE", False)
    monkeypatch.setattr(jit, "_spent", [0.0])
    with jit.interpreted_if_small(12) as tiny:
        assert tiny
        time.sleep(jit.INTERPRETED_SECONDS + 0.05)  # a busy machine's wait: wall clock, no CPU
    assert jit._spent[0] < jit.INTERPRETED_SECONDS / 2
    with jit.interpreted_if_small(12) as tiny:
        assert tiny  # still interpreted: the sleep spent nothing
        end = time.thread_time() + jit.INTERPRETED_SECONDS + 0.01
        while time.thread_time() < end:  # real work does count
            pass
    with jit.interpreted_if_small(12) as tiny:
        assert not tiny
