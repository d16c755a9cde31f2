"""Many replays at once: files and folders, on several processes or on Dask, each result in input order.

A file that cannot be read or analysed never stops the others: its slot holds the error,
which names the file. With ``backend="dask"`` the files' bytes travel to the workers
(a replay is a few kilobytes), so the workers need not see the client's disks: a
scheduler on another machine analyses a folder of this one.
"""

from __future__ import annotations

import os
import tempfile
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from analyzer.errors import AnalyzerError, OptionError, ReplayError
from analyzer.limits import dask_client, positive_seconds
from analyzer.names import BACKENDS
from analyzer.replays.analyse import ReplayAnalysis, analyse_replay
from analyzer.replays.read import FORMATS, MAX_REPLAY_BYTES, read_replay

__all__ = ["replay_files", "analyse_files", "table_rows"]

Result = ReplayAnalysis | AnalyzerError

DASK_CHUNK = 16
"""Files a Dask task analyses (enough to hide the task's overhead, few enough to spread the work)."""


def replay_files(paths: Iterable[str | os.PathLike[str]]) -> list[Path]:
    """The replay files named: each file as given, each folder's replays (recursively, sorted).

    Raises
    ------
    ReplayError
        A path that does not exist, or a folder with no replay in it.
    """
    found: list[Path] = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            inside = sorted(p for p in path.rglob("*") if p.suffix.lstrip(".").lower() in FORMATS)
            if not inside:
                raise ReplayError(f"no replay (.{', .'.join(FORMATS)}) in the folder {str(path)!r}")
            found += inside
        elif path.exists():
            found.append(path)
        else:
            raise ReplayError(f"cannot read {str(path)!r}: no such file or folder")
    return found


def _one(path: Path, time_limit: float | None = None) -> Result:
    try:
        return analyse_replay(read_replay(path), time_limit=time_limit)
    except AnalyzerError as error:
        return error
    except Exception as error:  # a fault of ours on one file must not stop an archive
        return ReplayError(f"cannot analyse {str(path)!r}: internal error ({type(error).__name__}: {error})")


def analyse_files(
    paths: Iterable[str | os.PathLike[str]],
    *,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    time_limit: float | None = None,
    on_result: Callable[[int, Result], None] | None = None,
) -> list[Result]:
    """Read and analyse every replay named; results in input order.

    Parameters
    ----------
    paths : iterable of str or os.PathLike
        Files, and folders (their replays, recursively, sorted by path).
    workers : int
        Processes (``backend="local"``; ``1`` analyses in this process), or the
        processes of a local Dask cluster (``backend="dask"`` without ``address``).
    backend : {"local", "dask"}
        ``"dask"`` sends the files' contents, a few at a time, to ``dask.distributed``
        workers: the scheduler at ``address``, or a ``LocalCluster``.
    address : str, optional
        A Dask scheduler address (``backend="dask"`` only).
    time_limit : float, optional
        Seconds each game's analysis may take; past it, that game's slot holds a
        :class:`~analyzer.errors.ReplayError` saying so.
    on_result : callable, optional
        ``on_result(index, result)``, called as each file is done, in input order (a progress bar).

    Returns
    -------
    list of ReplayAnalysis or AnalyzerError
        A file that cannot be read or analysed does not stop the others: its slot holds
        the :class:`~analyzer.errors.ReplayError` (or other analyzer error) it raised.

    Raises
    ------
    OptionError
        Bad ``workers``, ``backend``, ``address`` or ``time_limit``, or no Dask scheduler there.
    ReplayError
        A path that does not exist, or a folder with no replay.

    Examples
    --------
    >>> from analyzer.replays import example_path
    >>> games = analyse_files([example_path("beginner_8x8_10.avf"), "README.md"])
    >>> games[0].result, type(games[1]).__name__
    ('won', 'ReplayError')
    """
    if not isinstance(workers, int) or isinstance(workers, bool) or workers < 1:
        raise OptionError(f"workers must be a whole number >= 1, got {workers!r}")
    if backend not in BACKENDS:
        raise OptionError(f"unknown backend {backend!r}; expected one of {', '.join(BACKENDS)}")
    if address is not None and backend != "dask":
        raise OptionError("address is for backend 'dask'")
    time_limit = positive_seconds(time_limit)
    files = replay_files(paths)
    results: list[Result] = []
    if backend == "dask":
        source = _dask_results(files, workers, address, time_limit)
    else:
        source = _results(files, workers, time_limit)
    for index, result in enumerate(source):
        results.append(result)
        if on_result is not None:
            on_result(index, result)
    return results


def table_rows(files: Sequence[str | os.PathLike[str]], results: Sequence[Result]) -> list[dict[str, Any]]:
    """One record a file, in input order, each with an ``error`` column: a table that loses no file.

    A game's record is its ``ReplayAnalysis.statistics()`` with
    ``error`` None; a file that could not be read or analysed keeps its row, its ``file`` as
    given, ``result`` ``"error"``, the message in ``error`` and every figure None.

    Parameters
    ----------
    files : sequence of str or os.PathLike
        The files analysed (:func:`replay_files`), in the order of ``results``.
    results : sequence of ReplayAnalysis or AnalyzerError
        What :func:`analyse_files` returned for them.

    Examples
    --------
    >>> from analyzer.replays import example_path
    >>> files = [example_path("beginner_8x8_10.avf"), "README.md"]
    >>> rows = table_rows(files, analyse_files(files))
    >>> [(row["result"], row["error"] is None) for row in rows]
    [('won', True), ('error', False)]
    >>> rows[1]["file"], rows[1]["bbbv"]
    ('README.md', None)
    """
    if len(files) != len(results):
        raise OptionError(f"{len(files)} files but {len(results)} results")
    games = [r for r in results if not isinstance(r, AnalyzerError)]
    keys = list(games[0].statistics()) if games else ["file", "result"]
    rows = []
    for name, result in zip(files, results, strict=True):
        if isinstance(result, AnalyzerError):
            row: dict[str, Any] = dict.fromkeys(keys)
            row.update(file=str(name), result="error", error=str(result))
        else:
            row = {**result.statistics(), "error": None}
        rows.append(row)
    return rows


def _results(files: list[Path], workers: int, time_limit: float | None) -> Iterator[Result]:
    if workers == 1 or len(files) < 2:
        yield from (_one(path, time_limit) for path in files)
        return
    with ProcessPoolExecutor(max_workers=min(workers, len(files))) as pool:
        yield from pool.map(
            _one,
            files,
            [time_limit] * len(files),
            chunksize=max(1, len(files) // (8 * workers)),
        )


# ------------------------------------------------------------------------- dask
def _packed(path: Path) -> tuple[str, bytes | str]:
    """The file's name as given and its bytes, or why they cannot be read (a one-line error)."""
    try:
        size = path.stat().st_size
        if size > MAX_REPLAY_BYTES:
            return str(path), f"{size:,} bytes is more than a replay holds (at most {MAX_REPLAY_BYTES:,})"
        return str(path), path.read_bytes()
    except OSError as error:
        return str(path), str(error.strerror or error)


def _analyse_packed(chunk: list[tuple[str, bytes | str]], time_limit: float | None) -> list[Result]:
    """On a Dask worker: each file written to a private folder under its own name, then analysed.

    The replay and its errors name the file as the client gave it, not the worker's copy.
    """
    import multiprocessing

    from analyzer.replays.read import _read_replay

    # Dask's worker processes are daemons, and a daemon may not start processes; the reader
    # parses each file in a child of its own (ms-toollib may abort on a malformed one), which it
    # waits for and ends itself. The flag only guards that check (whether the worker dies with
    # its parent was settled when it started), so it is lifted for good: no race between threads.
    multiprocessing.current_process()._config["daemon"] = False  # type: ignore[attr-defined]
    out: list[Result] = []
    _analyse_into(out, chunk, time_limit, _read_replay)
    return out


def _analyse_into(
    out: list[Result], chunk: list[tuple[str, bytes | str]], time_limit: float | None, read: Any
) -> None:
    with tempfile.TemporaryDirectory(prefix="analyzer-replays-") as folder:
        for number, (name, data) in enumerate(chunk):
            if isinstance(data, str):
                out.append(ReplayError(f"cannot read {name!r}: {data}"))
                continue
            copy = Path(folder) / f"{number}{Path(name).suffix}"
            try:
                copy.write_bytes(data)
                out.append(analyse_replay(read(copy, shown=name), time_limit=time_limit))
            except AnalyzerError as error:
                out.append(error)
            except Exception as error:  # a fault of ours on one file must not stop an archive
                out.append(
                    ReplayError(f"cannot analyse {name!r}: internal error ({type(error).__name__}: {error})")
                )
            finally:
                copy.unlink(missing_ok=True)


def _dask_results(
    files: list[Path], workers: int, address: str | None, time_limit: float | None
) -> Iterator[Result]:
    client, cluster = dask_client(workers, address)
    return _windowed(client, cluster, files, time_limit)


def _windowed(client: Any, cluster: Any, files: list[Path], time_limit: float | None) -> Iterator[Result]:
    """Chunks submitted a few ahead of the one awaited: results in order, bounded memory."""
    try:
        window = 2 * max(1, sum(client.nthreads().values()))
        chunks = [files[i : i + DASK_CHUNK] for i in range(0, len(files), DASK_CHUNK)]
        pending: deque[Any] = deque()
        for chunk in chunks:
            pending.append(
                client.submit(_analyse_packed, [_packed(p) for p in chunk], time_limit, pure=False)
            )
            if len(pending) >= window:
                yield from pending.popleft().result()
        while pending:
            yield from pending.popleft().result()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
