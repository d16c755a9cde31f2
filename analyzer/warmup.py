"""Compile every numba kernel once, so later runs load them from numba's cache.

A kernel is compiled the first time it is called with new argument types, and with
``cache=True`` numba keeps the machine code in ``__pycache__`` beside the source;
later processes load it in milliseconds. On a fresh install nothing is cached, and
the first solve or simulation would spend a minute compiling in silence. The set-up
(``make setup``, through ``analyzer warmup``) runs this module once: it drives each
compiled stage on a small real workload, so every kernel meets the argument types
it meets in use.
"""

from __future__ import annotations

import time
from collections.abc import Callable

__all__ = ["STAGES", "warm_up"]


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
    from analyzer.play.simulation import simulate

    for player in PLAYER_NAMES:
        if player == "optimal":
            continue
        for rule, cell in (("safe", (0, 0)), ("opening", (3, 3))):
            simulate(9, 9, 10, player, 3, first_click=rule, first_cell=cell, seed=1)


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
    "players": _players,
    "metrics": _metrics,
    "optimal play": _optimal,
}
"""Each compiled stage and a small workload that calls all of its kernels."""


def warm_up(report: Callable[[str], None] = print) -> float:
    """Run every stage's workload (compiling what is not cached yet); returns the seconds spent."""
    start = time.perf_counter()
    for name, run in STAGES.items():
        begun = time.perf_counter()
        run()
        report(f"  {name}: {time.perf_counter() - begun:.1f} s")
    return time.perf_counter() - start
