"""Compile every numba kernel once, so later runs load them from numba's cache.

A kernel is compiled the first time it is called with new argument types, and with
``cache=True`` numba keeps the machine code in ``__pycache__`` beside the source (in
the user's cache folder when the installation is read-only: :func:`analyzer.jit.cache_folder`);
later processes load it in milliseconds. On a fresh install nothing is cached, and
the first solve or simulation would spend a minute compiling in silence. The set-up
(``make setup``, through ``analyzer warmup``) runs this module once: it drives each
compiled stage on a small real workload, so every kernel meets the argument types
it meets in use.

The stages run in processes of their own, as many at once as there are cores: each
compiles its kernels into numba's cache, where the others (and every later run) load
them. Numba compiles a kernel's callees with the kernel when they are not cached, in
the same process; so the callees of the largest kernels (the expert player's guess,
the players' game loop) are stages of their own, run beside the solver's, and the
stage that calls them starts once they are cached (:data:`AFTER`), compiling only its own.
"""

from __future__ import annotations

import importlib
import multiprocessing
import os
import pkgutil
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

__all__ = ["STAGES", "AFTER", "warm_up", "uncached_kernels"]


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


_RULE_PLAYERS = ("random", "local", "subset")
"""The players whose compiled game loop is :func:`analyzer.play.fast.rules.play_rules`."""


def _simulate(players: tuple[str, ...]) -> None:
    from analyzer.play.simulation import simulate

    for player in players:
        for rule, cell in (("safe", (0, 0)), ("opening", (3, 3))):
            simulate(9, 9, 10, player, 3, first_click=rule, first_cell=cell, seed=1)


def _rule_players() -> None:
    # The players' kernels but the game loop of the players with a policy (and the expert's guess
    # it calls): the rules' game loop, the layouts drawn, and the pseq player's candidates.
    import numpy as np

    from analyzer.play.fast import kernels, sample_layouts
    from analyzer.play.positions import mid_game

    sample_layouts(mid_game(9, 9, 10, seed=0), 2, seed=0)
    _simulate(_RULE_PLAYERS)
    state, known, nbr, mines, prob, _ = _position()
    out = np.empty(state.shape[0], np.int64)
    kernels.pseq_candidates(state, known, nbr, mines, prob, kernels.DEFAULT_MAX_NODES, out)


def _game_loop() -> None:
    # The compiled players' game loop on its own, once the guesses it calls are cached: the
    # players' stage, started after it, then loads it instead of optimising it again inside
    # the batch kernel that calls it (about 4 s of CPU).
    import numpy as np

    from analyzer.play.fast import neighbours_of, play_game

    nbr = neighbours_of("square", 9, 9)
    mask = np.zeros(81, dtype=np.bool_)
    mask[[8, 17, 26, 35, 44, 53, 62, 71, 80, 79]] = True
    play_game("probabilistic", mask, nbr, 0, first_is_guess=False)


def _streams() -> None:
    # The batched games' random streams (numpy's seeding and bounded draws replayed in numba),
    # called by nothing else: compiled beside the chain, so the players' stage loads them.
    from analyzer.play.fast import batch

    batch.streams_match()


def _players() -> None:
    from analyzer.names import PLAYER_NAMES

    _simulate(tuple(p for p in PLAYER_NAMES if p not in _RULE_PLAYERS and p != "optimal"))


def _position() -> tuple[Any, ...]:
    """A 9x9 position part way through a game, as the expert's guess sees it.

    Returns ``(state, known, nbr, mines, prob, log_total)``: the position (int8), the same after
    the single-number rules, the neighbour array, the mine count, the probabilities and the
    natural log of the number of layouts, of the types the game loop passes.
    """
    import numpy as np

    from analyzer.play.fast import kernels, neighbours_of
    from analyzer.play.positions import mid_game

    board = mid_game(9, 9, 10, seed=0)
    state = np.array(board.cells, dtype=np.int8)
    nbr = neighbours_of("square", 9, 9)
    known = state.copy()
    kernels._closure(known, nbr)
    prob = np.empty(state.shape[0])
    info = np.zeros(1)
    kernels.probabilities(known, nbr, board.mines, prob, kernels.DEFAULT_MAX_NODES, info)
    return state, known, nbr, board.mines, prob, float(info[0])


def _probabilities() -> None:
    # The players' probabilities (and the solver's enumerator they share), which most of the
    # expert's kernels call: compiled first, so that the stages after it load them.
    _position()


def _end_game() -> None:
    from analyzer.play.fast import kernels
    from analyzer.play.fast.endgame import endgame_move

    state, _, nbr, mines, prob, _ = _position()
    endgame_move(state, nbr, mines, kernels.EXPERT_ENDGAME_LAYOUTS, kernels.EXPERT_ENDGAME_NODES)
    kernels.isolated_move(state, nbr, mines, prob, kernels.EXPERT_ENDGAME_LAYOUTS, 1000)


def _outlooks() -> None:
    # What each guess would show: the expert's scores, the longest chain of kernels under its guess.
    import numpy as np

    from analyzer.play.fast import kernels

    state, known, nbr, mines, prob, _ = _position()
    cells = np.flatnonzero(known < 0).astype(np.int64)
    nodes = kernels.DEFAULT_MAX_NODES
    kernels._living_least_likely(state, known, nbr, mines, prob, cells, 2, nodes)
    kernels._tertiary(known, nbr, mines, int(cells[0]), kernels.EXPERT_MARGIN, 2, nodes)


def _patterns() -> None:
    # The expert's candidates and its 50/50 patterns.
    import numpy as np

    from analyzer.play.fast import fifty_fifty_patterns, kernels

    state, known, nbr, mines, prob, log_total = _position()
    n = state.shape[0]
    nodes = kernels.DEFAULT_MAX_NODES
    patterns = fifty_fifty_patterns("square", 9, 9)
    kernels.no_patterns()
    cands = np.flatnonzero(known == kernels.HIDDEN)[:3]  # the outlooks' stage compiles _guess_candidates
    kernels._split_candidates(state, nbr, prob, kernels.EXPERT_MARGIN, 3, 1)
    pseudo, more = np.empty(n, np.int64), np.empty(n, np.int64)
    found = kernels.pseudo_fifty_fifties(known, nbr, mines, prob, log_total, nodes, patterns, pseudo)
    extra = kernels.pseudo_fifty_fifties(
        known, nbr, mines, prob, log_total, nodes, kernels.chain_patterns(known, nbr, prob), more
    )
    kernels._union(pseudo, max(found, 0), more, max(extra, 0))
    influence = np.zeros(n)
    kernels.fifty_influence(known, nbr, mines, prob, log_total, nodes, patterns, cands, len(cands), influence)


def _expert_guess() -> None:
    # The expert player's guess, the largest kernel the game loop calls, compiled on its own
    # (called as the game loop calls it) once the stages before it have cached its callees, so
    # that it compiles only itself; the players' stage, started after it, loads it from the cache.
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
    "probabilities": _probabilities,
    "outlooks": _outlooks,
    "patterns": _patterns,
    "end game": _end_game,
    "expert guess": _expert_guess,
    "rule players": _rule_players,
    "game loop": _game_loop,
    "random streams": _streams,
    "players": _players,
    "metrics": _metrics,
    "optimal play": _optimal,
}
"""Each compiled stage and a small workload that calls all of its kernels."""

AFTER: dict[str, tuple[str, ...]] = {
    "outlooks": ("probabilities",),
    "patterns": ("probabilities",),
    "end game": ("probabilities",),  # it calls the probabilities' kernels (17 s before them, 7 s after)
    "rule players": ("outlooks",),
    "expert guess": ("outlooks", "patterns", "end game"),
    "game loop": ("expert guess", "rule players"),  # its guesses: the expert's and pseq's candidates
    "players": ("game loop", "random streams"),
}
"""Stages that start only once others are done: a kernel calls kernels of those stages, which it
then loads from the cache instead of compiling them again (numba compiles a kernel's callees in
the caller's process when they are not cached)."""

SECONDS = {
    "solver": 24.0,
    "probabilities": 11.0,
    "outlooks": 12.5,
    "patterns": 8.5,
    "end game": 6.5,
    "expert guess": 4.0,
    "rule players": 6.0,
    "game loop": 7.0,
    "random streams": 1.5,
    "players": 3.5,
    "metrics": 0.5,
    "optimal play": 4.5,
}
"""Each stage's compile time on an empty cache, about (CPU seconds on the 2-core machine): the
stages ready to start go longest chain first, so the longest chain (the probabilities, the
outlooks, the expert's guess, the players) is never kept waiting."""


def _chain(name: str) -> float:
    """The seconds from ``name``'s start to the end of the longest chain of stages waiting on it."""
    after = [later for later, before in AFTER.items() if name in before]
    return SECONDS[name] + max((_chain(later) for later in after), default=0.0)


def uncached_kernels() -> list[str]:
    """The package's kernels that numba's cache does not hold yet (every kernel module imported)."""
    import analyzer.play.fast
    from analyzer import jit

    for module in pkgutil.iter_modules(analyzer.play.fast.__path__, "analyzer.play.fast."):
        importlib.import_module(module.name)
    for name in ("analyzer.solver.kernels", "analyzer.play.metrics"):
        importlib.import_module(name)
    return jit.uncached_kernels()


def _run_stage(name: str) -> tuple[float, float]:
    """Run one stage; returns its wall and CPU seconds (the CPU time of this process)."""
    begun, cpu = time.perf_counter(), time.process_time()
    STAGES[name]()
    return time.perf_counter() - begun, time.process_time() - cpu


def _line(name: str, seconds: tuple[float, float]) -> str:
    return f"  {name}: {seconds[0]:.1f} s ({seconds[1]:.1f} s CPU)"


def warm_up(report: Callable[[str], None] = print, *, workers: int | None = None) -> float:
    """Run every stage's workload (compiling what is not cached yet); returns the seconds spent.

    ``workers`` processes run the stages at once (default: the cores there are, at most one a
    stage), each stage once the stages it waits on (:data:`AFTER`) are done; ``workers=1`` runs
    them one after the other in this process. ``report`` gets one line a stage, as it ends:
    its wall and CPU seconds.
    """
    start = time.perf_counter()
    workers = min(len(STAGES), os.cpu_count() or 1) if workers is None else workers
    if workers <= 1:
        for name in STAGES:
            report(_line(name, _run_stage(name)))
        return time.perf_counter() - start
    # Fresh interpreters (spawn): numba is not inherited half-initialised, and each process
    # writes the kernels it compiles into the cache the others read.
    from analyzer.jit import purge_stale_caches

    purge_stale_caches()  # once, here: never by one worker while another writes its kernels
    context = multiprocessing.get_context("spawn")
    waiting = sorted(STAGES, key=_chain, reverse=True)
    running: dict[Future[tuple[float, float]], str] = {}
    done: set[str] = set()
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        while waiting or running:
            # Only as many stages as workers are handed to the pool: the next free worker takes
            # the ready stage of the longest chain then, not the one queued first.
            ready = [name for name in waiting if done.issuperset(AFTER.get(name, ()))]
            for name in ready[: workers - len(running)]:
                waiting.remove(name)
                running[pool.submit(_run_stage, name)] = name
            if not running:
                raise RuntimeError(f"stages waiting on stages that never run: {waiting}")
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                name = running.pop(future)
                report(_line(name, future.result()))
                done.add(name)
    return time.perf_counter() - start
