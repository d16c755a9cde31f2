"""Compile every numba kernel once, so later runs load them from numba's cache.

A kernel is compiled the first time it is called with new argument types, and with
``cache=True`` numba keeps the machine code in ``__pycache__`` beside the source;
later processes load it in milliseconds. On a fresh install nothing is cached, and
the first solve or simulation would spend a minute compiling in silence. The set-up
(``make setup``, through ``analyzer warmup``) runs this module once: it drives each
compiled stage on a small real workload, so every kernel meets the argument types
it meets in use.

The stages run in processes of their own, as many at once as there are cores: each
compiles its kernels into numba's cache, where the others (and every later run) load
them. The players' stage, the longest, starts first.
"""

from __future__ import annotations

import importlib
import multiprocessing
import os
import pkgutil
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

__all__ = ["STAGES", "warm_up", "uncached_kernels"]


def _solver() -> None:
    from analyzer.play.positions import clue_lattice, mid_game
    from analyzer.solver.counting.enumerate import count_enumerate_compiled
    from analyzer.solver.counting.frontier import count_frontier_compiled
    from analyzer.solver.decomposition import ComponentProblem
    from analyzer.solver.solve import solve

    for seed in range(3):
        for flags in (True, False):
            solve(mid_game(30, 16, 99, seed=seed), trust_flags=flags).to_numpy()
    solve("4x3x4\nHHHH\nFHHH\n2H2H\n").to_numpy()
    solve(clue_lattice(4, seed=0)).to_numpy()  # a tangled component: the compiled frontier programme
    count_frontier_compiled(ComponentProblem((1, 2), (((0, 1), 1),)))  # the same, called on its own
    count_enumerate_compiled(ComponentProblem((1, 2), (((0, 1), 1),)), max_nodes=100)  # the general path's


def _players() -> None:
    from analyzer.names import PLAYER_NAMES
    from analyzer.play.fast import fifty_fifty_patterns, sample_layouts
    from analyzer.play.positions import mid_game
    from analyzer.play.simulation import simulate

    fifty_fifty_patterns("square", 9, 9)  # an expert with pseudo-50/50 options asks for them
    sample_layouts(mid_game(9, 9, 10, seed=0), 2, seed=0)

    for player in PLAYER_NAMES:
        if player == "optimal":
            continue
        for rule, cell in (("safe", (0, 0)), ("opening", (3, 3))):
            simulate(9, 9, 10, player, 3, first_click=rule, first_cell=cell, seed=1)


def _expert_guess() -> None:
    # The expert player's guess, the largest kernel the game loop calls, compiled on its own
    # (called as the game loop calls it) so that it can be built beside the solver's kernels,
    # and the players' stage, started after it, loads it from the cache.
    import numpy as np

    from analyzer.play.fast import guess_in, kernels, neighbours_of

    nbr = neighbours_of("square", 9, 9)
    guess_in("expert", np.full(81, kernels.HIDDEN, dtype=np.int8), nbr, 10)


def _metrics() -> None:
    from analyzer.play.metrics import metrics_sample

    metrics_sample(9, 9, 10, 5, seed=1)


def _optimal() -> None:
    import pickle

    from analyzer.play.optimal import OptimalSearch, optimal

    search = OptimalSearch(3, 3, 2)
    optimal(3, 3, 2, first_click="safe", search=search)
    pickle.loads(pickle.dumps(search))  # the memo travels to workers as arrays


STAGES: dict[str, Callable[[], None]] = {
    "solver": _solver,
    "expert guess": _expert_guess,
    "players": _players,
    "metrics": _metrics,
    "optimal play": _optimal,
}
"""Each compiled stage and a small workload that calls all of its kernels."""


LONGEST_FIRST = ("expert guess", "solver", "players", "optimal play", "metrics")
"""The stages, longest compile first (on one core: the expert's guess about 35 s, the solver 30 s,
the rest of the players' kernels 20 s once the expert's guess is cached)."""

AFTER = {"players": "expert guess"}
"""Stages that start only once another is done (its kernels cached, not compiled twice)."""


def uncached_kernels() -> list[str]:
    """The package's kernels that numba's cache does not hold yet (every kernel module imported)."""
    import analyzer.play.fast
    from analyzer import jit

    for module in pkgutil.iter_modules(analyzer.play.fast.__path__, "analyzer.play.fast."):
        importlib.import_module(module.name)
    for name in ("analyzer.solver.kernels", "analyzer.play.metrics"):
        importlib.import_module(name)
    return jit.uncached_kernels()


def _run_stage(name: str) -> float:
    begun = time.perf_counter()
    STAGES[name]()
    return time.perf_counter() - begun


def warm_up(report: Callable[[str], None] = print, *, workers: int | None = None) -> float:
    """Run every stage's workload (compiling what is not cached yet); returns the seconds spent.

    ``workers`` processes run the stages at once (default: the cores there are, at most one a
    stage); ``workers=1`` runs them one after the other in this process. ``report`` gets one
    line a stage, in the order of :data:`STAGES`.
    """
    start = time.perf_counter()
    workers = min(len(STAGES), os.cpu_count() or 1) if workers is None else workers
    if workers <= 1:
        for name in STAGES:
            report(f"  {name}: {_run_stage(name):.1f} s")
        return time.perf_counter() - start
    # Fresh interpreters (spawn): numba is not inherited half-initialised, and each process
    # writes the kernels it compiles into the cache the others read.
    from analyzer.jit import purge_stale_caches

    purge_stale_caches()  # once, here: never by one worker while another writes its kernels
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        order = [name for name in LONGEST_FIRST if name in STAGES]
        order += [name for name in STAGES if name not in order]
        futures: dict[str, Any] = {}
        for name in order:
            if name in AFTER:
                futures[AFTER[name]].result()  # the pool's other processes keep compiling meanwhile
            futures[name] = pool.submit(_run_stage, name)
        for name in STAGES:
            report(f"  {name}: {futures[name].result():.1f} s")
    return time.perf_counter() - start
