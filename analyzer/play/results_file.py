"""A simulation's results file: one JSON line a finished batch, read back to resume.

Each line holds the format version, the setup (:meth:`Setup.to_dict
<analyzer.play.win_rate.Setup.to_dict>`), the range of game indices and the batch's
wins, guesses and seconds; :mod:`analyzer.play.simulation` says how a run uses them.
Every line is checked field by field before it counts (:func:`read_results`), and
:func:`plan` splits the games still to play into batches.
"""

from __future__ import annotations

import json
import math
import os
import warnings
from pathlib import Path
from typing import Any

from analyzer.errors import SimulationError
from analyzer.limits import quote
from analyzer.play.win_rate import Setup

__all__ = ["FORMAT", "checked_results_path", "read_results", "plan", "append"]

FORMAT = 1  # version of the results-file lines


def checked_results_path(path: Path) -> None:
    """Refuse a results path that cannot be appended to, before any game is played."""
    if path.is_dir():
        raise SimulationError(f"results path {quote(str(path))} is a directory, not a file")
    if not path.parent.is_dir():
        raise SimulationError(
            f"results path {quote(str(path))}: folder {quote(str(path.parent))} does not exist"
        )
    try:
        with path.open("ab"):
            pass
    except OSError as error:
        raise SimulationError(f"cannot write results to {quote(str(path))}: {error.strerror}") from None


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _entry_problem(entry: dict[str, Any]) -> str | None:
    """What is wrong with a results entry of this setup, or ``None``."""
    for name in ("start", "stop", "wins", "guesses"):
        if not _is_count(entry.get(name)):
            return f"{name!r} must be a non-negative integer, got {quote(repr(entry.get(name)), 40)}"
    start, stop, wins = entry["start"], entry["stop"], entry["wins"]
    if stop <= start:
        return f"'stop' ({stop}) must be greater than 'start' ({start})"
    if wins > stop - start:
        return f"'wins' ({wins}) is more than the {stop - start} games of the batch"
    seconds = entry.get("seconds")
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 0 <= seconds < math.inf:
        return f"'seconds' must be a non-negative number, got {quote(repr(seconds), 40)}"
    return None


def read_results(path: Path, setup: Setup) -> list[dict[str, Any]]:
    """The batches of ``setup`` already in ``path``, each line checked.

    A last line without its newline that is not JSON (a write cut short) is
    skipped with a warning; any other line that is not a valid entry raises
    :class:`~analyzer.errors.SimulationError` naming its line number.
    """
    if not path.exists():
        return []
    wanted = setup.to_dict()
    found = []
    raw = path.read_bytes().split(b"\n")
    where = f"results file {quote(str(path))}"
    for number, data in enumerate(raw, start=1):
        if not data.strip():
            continue
        is_cut = number == len(raw)  # no newline after it
        try:
            entry = json.loads(data.decode("utf-8"))
        except UnicodeDecodeError:
            raise SimulationError(f"{where}, line {number}: not UTF-8 text") from None
        except json.JSONDecodeError:
            if is_cut:
                warnings.warn(
                    f"{where}, line {number}: skipped an unfinished last line (an interrupted write)",
                    stacklevel=3,
                )
                continue
            raise SimulationError(f"{where}, line {number}: not a JSON line") from None
        if not isinstance(entry, dict) or "setup" not in entry:
            raise SimulationError(f"{where}, line {number}: not a results line of analyzer simulate")
        if entry.get("format") != FORMAT:
            raise SimulationError(
                f"{where}, line {number}: results format {quote(repr(entry.get('format')), 20)},"
                f" this version reads {FORMAT}"
            )
        if entry["setup"] != wanted:
            continue
        problem = _entry_problem(entry)
        if problem is not None:
            raise SimulationError(f"{where}, line {number}: {problem}; fix or remove the line")
        found.append(entry)
    return found


def plan(games: int, done: list[dict[str, Any]], batch_size: int) -> tuple[list[dict[str, Any]], list[range]]:
    """Non-overlapping finished batches inside ``0..games-1``, and ranges still to play."""
    kept: list[dict[str, Any]] = []
    covered = [False] * games
    for entry in sorted(done, key=lambda e: (e["start"], e["stop"])):
        start, stop = entry["start"], entry["stop"]
        if not (0 <= start < stop <= games) or any(covered[start:stop]):
            continue
        covered[start:stop] = [True] * (stop - start)
        kept.append(entry)
    todo = []
    index = 0
    while index < games:
        if covered[index]:
            index += 1
            continue
        stop = index
        while stop < games and not covered[stop] and stop - index < batch_size:
            stop += 1
        todo.append(range(index, stop))
        index = stop
    return kept, todo


def _is_json(data: bytes) -> bool:
    try:
        json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return False
    return True


def append(path: Path, entry: dict[str, Any]) -> None:
    """One JSON line, flushed and synced; an unfinished last line (a cut write) is dropped first."""
    with path.open("r+b") as handle:
        end = handle.seek(0, os.SEEK_END)
        if end > 0:
            handle.seek(-1, os.SEEK_END)
            if handle.read(1) != b"\n":
                # Back to the end of the last whole line: read_results skipped the rest.
                start = max(0, end - (1 << 20))
                handle.seek(start)
                tail = handle.read()
                cut = tail.rfind(b"\n")
                keep = start + cut + 1 if cut >= 0 else (0 if start == 0 else end)
                if keep != end and _is_json(tail[cut + 1 :]):
                    keep = end  # a whole entry that only lacks its newline
                if keep != end:
                    handle.truncate(keep)
                handle.seek(0, os.SEEK_END)
                if keep == end:  # a last line longer than 1 MiB: keep it, end it
                    handle.write(b"\n")
        handle.write((json.dumps(entry) + "\n").encode("utf-8"))
        handle.flush()
        os.fsync(handle.fileno())
