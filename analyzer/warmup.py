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
The fast play engine's stages are its modules, one each (:data:`STAGES`): a new module
of kernels is a new stage, and the stages that call it wait on it.
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


def _position() -> tuple[Any, ...]:
    """A 9x9 position part way through a game, as the expert's guess sees it.

    Returns ``(state, known, nbr, mines, prob, log_total)``: the position (int8), the same after
    the single-number rules, the neighbour array, the mine count, the probabilities and the
    natural log of the number of layouts, of the types the game loop passes.
    """
    import numpy as np

    from analyzer.play.fast import neighbours_of
    from analyzer.play.fast.probabilities import DEFAULT_MAX_NODES, _closure, probabilities
    from analyzer.play.positions import mid_game

    board = mid_game(9, 9, 10, seed=0)
    state = np.array(board.cells, dtype=np.int8)
    nbr = neighbours_of("square", 9, 9)
    known = state.copy()
    _closure(known, nbr)
    prob = np.empty(state.shape[0])
    info = np.zeros(1)
    probabilities(known, nbr, board.mines, prob, DEFAULT_MAX_NODES, info)
    return state, known, nbr, board.mines, prob, float(info[0])


def _probabilities() -> None:
    # play/fast/probabilities.py: the players' probabilities (and the solver's enumerator they
    # share), which most of the other stages' kernels call: compiled first, so that they load them.
    _position()


def _candidates() -> None:
    # play/fast/candidates.py: the guess order and the expert's candidates, on a position of
    # nothing revealed (they call no kernel of another stage: compiled from the start).
    import numpy as np

    from analyzer.play.fast import neighbours_of
    from analyzer.play.fast.candidates import _guess_candidates, _split_candidates, lowest_probability_cell
    from analyzer.play.fast.expert import EXPERT_MARGIN
    from analyzer.play.fast.probabilities import HIDDEN

    state = np.full(81, HIDDEN, dtype=np.int8)
    nbr = neighbours_of("square", 9, 9)
    prob = np.full(81, 10 / 81)
    lowest_probability_cell(state, nbr, prob)
    _guess_candidates(state, nbr, prob, EXPERT_MARGIN, 3, False)
    _split_candidates(state, nbr, prob, EXPERT_MARGIN, 3, 1)


def _outlooks() -> None:
    # play/fast/outlooks.py: what each guess would show, the longest chain of kernels under the
    # expert's guess, and the expert's readings of it: the living cell, the look-ahead.
    import numpy as np

    from analyzer.play.fast.expert import EXPERT_MARGIN
    from analyzer.play.fast.outlooks import _living_least_likely, _outlooks, _tertiary
    from analyzer.play.fast.probabilities import DEFAULT_MAX_NODES

    state, known, nbr, mines, prob, _ = _position()
    cells = np.flatnonzero(known < 0).astype(np.int64)
    _, _, _, entropy, _ = _outlooks(
        state, known, nbr, mines, cells, 2, DEFAULT_MAX_NODES, False, False, False
    )
    _living_least_likely(prob, cells, 2, entropy)
    _tertiary(known, nbr, mines, int(cells[0]), EXPERT_MARGIN, 2, DEFAULT_MAX_NODES)


def _patterns() -> None:
    # play/fast/patterns.py: the expert's 50/50 patterns and the cells they explain or threaten.
    import numpy as np

    from analyzer.play.fast import fifty_fifty_patterns
    from analyzer.play.fast.patterns import (
        _union,
        chain_patterns,
        fifty_influence,
        no_patterns,
        pseudo_fifty_fifties,
    )
    from analyzer.play.fast.probabilities import DEFAULT_MAX_NODES, HIDDEN

    state, known, nbr, mines, prob, log_total = _position()
    n = state.shape[0]
    nodes = DEFAULT_MAX_NODES
    patterns = fifty_fifty_patterns("square", 9, 9)
    no_patterns()
    cands = np.flatnonzero(known == HIDDEN)[:3]
    pseudo, more = np.empty(n, np.int64), np.empty(n, np.int64)
    solved = (known, nbr, mines, prob, log_total, nodes)
    found = pseudo_fifty_fifties(solved, patterns, pseudo)
    extra = pseudo_fifty_fifties(solved, chain_patterns(known, nbr, prob), more)
    _union(pseudo, max(found, 0), more, max(extra, 0))
    influence = np.zeros(n)
    fifty_influence(solved, patterns, cands, len(cands), influence)


def _end_game() -> None:
    # play/fast/endgame.py: the expert's end game, and the closed-off parts it plays alone.
    from analyzer.play.fast.endgame import endgame_move, isolated_move
    from analyzer.play.fast.expert import EXPERT_ENDGAME_LAYOUTS, EXPERT_ENDGAME_NODES

    state, _, nbr, mines, prob, _ = _position()
    endgame_move(state, nbr, mines, EXPERT_ENDGAME_LAYOUTS, EXPERT_ENDGAME_NODES)
    isolated_move(state, nbr, mines, prob, EXPERT_ENDGAME_LAYOUTS, 1000)


def _expert_guess() -> None:
    # play/fast/expert.py: the expert player's guess, the largest kernel the game loop calls,
    # compiled on its own (called as the game loop calls it) once the stages before it have cached
    # its callees, so that it compiles only itself; the game loop's stage, after it, loads it.
    import numpy as np

    from analyzer.play.fast import guess_in, neighbours_of
    from analyzer.play.fast.probabilities import HIDDEN

    nbr = neighbours_of("square", 9, 9)
    guess_in("expert", np.full(81, HIDDEN, dtype=np.int8), nbr, 10)


def _pseq() -> None:
    # play/fast/pseq.py: the pseq player's filters, on the outlooks (compiled once they are cached).
    from analyzer.play.fast.probabilities import DEFAULT_MAX_NODES
    from analyzer.play.fast.pseq import pseq_candidates

    state, known, nbr, mines, prob, _ = _position()
    pseq_candidates(state, known, nbr, mines, prob, DEFAULT_MAX_NODES)


def _layouts() -> None:
    # play/fast/layout.py: a game's layout drawn (as numpy draws it, and to fit a position) and a
    # cell opened with its flood fill, as the game loops open them.
    import numpy as np

    from analyzer.play.fast import layout_mask, neighbours_of, sample_layouts
    from analyzer.play.fast.layout import _open, numbers_shown
    from analyzer.play.positions import mid_game

    sample_layouts(mid_game(9, 9, 10, seed=0), 2, seed=0)
    excluded = np.array([0, 1, 9, 10], dtype=np.int64)
    mask = layout_mask(9, 9, 10, excluded, np.random.default_rng(0))
    nbr = neighbours_of("square", 9, 9)
    state = np.full(81, -1, dtype=np.int8)
    count = numbers_shown(mask, nbr)
    stack = np.empty(81 * (nbr.shape[1] + 1), dtype=np.int64)
    _open(np.int64(0), mask, count, nbr, state, stack)


def _rule_players() -> None:
    # play/fast/rules.py: the game loop of the players that guess at random.
    _simulate(_RULE_PLAYERS)


def _game_loop() -> None:
    # play/fast/loop.py: the compiled players' game loop on its own, once the guesses it calls are
    # cached: the players' stage, started after it, then loads it instead of optimising it again
    # inside the batch kernel that calls it (about 4 s of CPU).
    import numpy as np

    from analyzer.play.fast import neighbours_of, play_game

    nbr = neighbours_of("square", 9, 9)
    mask = np.zeros(81, dtype=np.bool_)
    mask[[8, 17, 26, 35, 44, 53, 62, 71, 80, 79]] = True
    play_game("probabilistic", mask, nbr, 0, first_is_guess=False)


def _streams() -> None:
    # play/fast/batch.py's random streams (numpy's seeding and bounded draws replayed in numba),
    # called by nothing else: compiled beside the chain, so the players' stage loads them.
    from analyzer.play.fast import batch

    batch.streams_match()


def _players() -> None:
    # play/fast/batch.py's batches of games, and whatever else the players call.
    from analyzer.names import PLAYER_NAMES

    _simulate(tuple(p for p in PLAYER_NAMES if p not in _RULE_PLAYERS and p != "optimal"))


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
    "candidates": _candidates,
    "outlooks": _outlooks,
    "patterns": _patterns,
    "end game": _end_game,
    "expert guess": _expert_guess,
    "pseq": _pseq,
    "layouts": _layouts,
    "rule players": _rule_players,
    "game loop": _game_loop,
    "random streams": _streams,
    "players": _players,
    "metrics": _metrics,
    "optimal play": _optimal,
}
"""Each compiled stage and a small workload that calls all of its kernels: the fast play engine's
stages one module of :mod:`analyzer.play.fast` each, in the order they call one another."""

AFTER: dict[str, tuple[str, ...]] = {
    "outlooks": ("probabilities", "candidates"),
    "patterns": ("probabilities",),
    "end game": ("probabilities",),  # its workload's position calls the probabilities' kernels
    "expert guess": ("candidates", "outlooks", "patterns", "end game"),
    "pseq": ("outlooks",),
    "layouts": ("probabilities", "candidates"),  # a layout that fits a position: the chain rule
    "rule players": ("layouts",),
    "random streams": ("layouts",),
    "game loop": ("expert guess", "pseq", "layouts"),
    "players": ("game loop", "random streams"),
}
"""Stages that start only once others are done: a kernel calls kernels of those stages, which it
then loads from the cache instead of compiling them again (numba compiles a kernel's callees in
the caller's process when they are not cached)."""

SECONDS = {
    "solver": 24.0,
    "probabilities": 11.0,
    "candidates": 2.0,
    "outlooks": 12.5,
    "patterns": 8.5,
    "end game": 6.5,
    "expert guess": 4.0,
    "pseq": 4.0,
    "layouts": 3.0,
    "rule players": 4.0,
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
    import analyzer.solver.kernels
    from analyzer import jit

    for package in (analyzer.play.fast, analyzer.solver.kernels):
        for module in pkgutil.iter_modules(package.__path__, f"{package.__name__}."):
            importlib.import_module(module.name)
    importlib.import_module("analyzer.play.metrics")
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
