"""Many replays at once: files and folders, on several processes, each result in input order."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from analyzer.errors import AnalyzerError, OptionError, ReplayError
from analyzer.replays.analyse import ReplayAnalysis, analyse_replay
from analyzer.replays.read import FORMATS, read_replay

__all__ = ["replay_files", "analyse_files"]


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


def _one(path: Path) -> ReplayAnalysis | AnalyzerError:
    try:
        return analyse_replay(read_replay(path))
    except AnalyzerError as error:
        return error


def analyse_files(
    paths: Iterable[str | os.PathLike[str]],
    *,
    workers: int = 1,
    on_result: Callable[[int, ReplayAnalysis | AnalyzerError], None] | None = None,
) -> list[ReplayAnalysis | AnalyzerError]:
    """Read and analyse every replay named, on ``workers`` processes; results in input order.

    A file that cannot be read or analysed does not stop the others: its slot holds
    the :class:`~analyzer.errors.ReplayError` (or other analyzer error) it raised.
    ``on_result(index, result)`` is called as each file is done (for a progress bar).
    """
    if not isinstance(workers, int) or isinstance(workers, bool) or workers < 1:
        raise OptionError(f"workers must be a whole number >= 1, got {workers!r}")
    files = replay_files(paths)
    results: list[ReplayAnalysis | AnalyzerError] = []
    for index, result in enumerate(_results(files, workers)):
        results.append(result)
        if on_result is not None:
            on_result(index, result)
    return results


def _results(files: list[Path], workers: int) -> Iterator[ReplayAnalysis | AnalyzerError]:
    if workers == 1 or len(files) < 2:
        yield from map(_one, files)
        return
    with ProcessPoolExecutor(max_workers=min(workers, len(files))) as pool:
        yield from pool.map(_one, files, chunksize=max(1, len(files) // (8 * workers)))
