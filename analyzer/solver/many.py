"""``solve_many``: many positions at once, in this process, on a pool of processes or on Dask.

Each board is solved exactly as :func:`~analyzer.solver.solve.solve` solves it alone;
the results come back in input order. A board that cannot be solved (text that does
not parse, a board no layout satisfies, a time limit passed) does not stop the others:
its slot holds the :class:`~analyzer.errors.AnalyzerError` that ``solve`` raised for it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from analyzer.board.board import Board
from analyzer.errors import AnalyzerError, OptionError
from analyzer.limits import dask_client, flag, positive_seconds
from analyzer.names import BACKENDS, ENGINES
from analyzer.solver.analysis import Analysis
from analyzer.solver.solve import solve

__all__ = ["solve_many", "BACKENDS"]


def _solve_chunk(boards: Sequence[Board | str], options: dict[str, Any]) -> list[Analysis | AnalyzerError]:
    out: list[Analysis | AnalyzerError] = []
    for board in boards:
        try:
            out.append(solve(board, **options))
        except AnalyzerError as error:
            out.append(error)
    return out


def solve_many(
    boards: Iterable[Board | str],
    *,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    chunk_size: int | None = None,
    engine: str = "auto",
    time_limit: float | None = None,
    trust_flags: bool = True,
    deductions: bool = True,
) -> list[Analysis | AnalyzerError]:
    """Solve many boards; results in input order, one slot a board.

    Parameters
    ----------
    boards : iterable of Board or str
        The positions (``Board`` values or ``.mine`` texts).
    workers : int
        Processes (``backend="local"``; ``1`` solves in this process) or local
        Dask workers. The results do not depend on it.
    backend : {"local", "dask"}
        ``"dask"`` runs chunks of boards on ``dask.distributed``: the scheduler
        at ``address``, or a ``LocalCluster`` of ``workers`` processes.
    address : str, optional
        A Dask scheduler address (``backend="dask"`` only).
    chunk_size : int, optional
        Boards sent to a worker at a time (default: about four chunks a worker).
    engine, time_limit, trust_flags, deductions
        As for :func:`~analyzer.solver.solve.solve`, applied to every board
        (``time_limit`` is per board).

    Returns
    -------
    list of Analysis or AnalyzerError
        ``result[i]`` is ``solve(boards[i], ...)``, or the
        :class:`~analyzer.errors.AnalyzerError` that call raised (for example
        :class:`~analyzer.errors.InconsistentBoardError` or
        :class:`~analyzer.errors.BoardParseError`). Other exceptions (bugs) propagate.

    Raises
    ------
    OptionError
        Bad ``workers``, ``backend``, ``address`` or ``chunk_size``.

    Examples
    --------
    >>> results = solve_many(["3x1x1\\nH1H\\n", "3x1x1\\n3HH\\n"])
    >>> results[0].probability(0, 0)
    Fraction(1, 2)
    >>> type(results[1]).__name__
    'InconsistentBoardError'
    """
    _check_options(workers, backend, address, chunk_size)
    flag(trust_flags, "trust_flags")
    flag(deductions, "deductions")
    positive_seconds(time_limit)
    if engine not in ENGINES:
        raise OptionError(f"unknown engine {engine!r}; expected one of {', '.join(ENGINES)}")
    items = list(boards)
    options = {
        "engine": engine,
        "time_limit": time_limit,
        "trust_flags": trust_flags,
        "deductions": deductions,
    }
    if not items:
        return []
    if backend == "local" and workers == 1:
        return _solve_chunk(items, options)
    size = chunk_size or max(1, -(-len(items) // (4 * workers)))
    chunks = [items[i : i + size] for i in range(0, len(items), size)]
    if backend == "dask":
        parts = _run_dask(chunks, options, workers, address)
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            parts = list(pool.map(_solve_chunk, chunks, [options] * len(chunks)))
    return [result for part in parts for result in part]


def _check_options(workers: int, backend: str, address: str | None, chunk_size: int | None) -> None:
    """Refuse bad ``workers``, ``backend``, ``address`` or ``chunk_size`` (:class:`OptionError`)."""
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise OptionError(f"workers must be a whole number >= 1, got {workers!r}")
    if backend not in BACKENDS:
        raise OptionError(f"unknown backend {backend!r}; expected one of {', '.join(BACKENDS)}")
    if address is not None and backend != "dask":
        raise OptionError("address is for backend 'dask'")
    if chunk_size is not None and (
        isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1
    ):
        raise OptionError(f"chunk_size must be a whole number >= 1, got {chunk_size!r}")


def _run_dask(
    chunks: list[list[Board | str]], options: dict[str, Any], workers: int, address: str | None
) -> list[list[Analysis | AnalyzerError]]:
    client, cluster = dask_client(workers, address, processes=workers > 1)
    try:
        futures = [client.submit(_solve_chunk, chunk, options, pure=False) for chunk in chunks]
        return list(client.gather(futures))
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
