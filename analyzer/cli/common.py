"""What the commands share: the command line's errors, checks made before any work, progress."""

from __future__ import annotations

import argparse
import contextlib
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from analyzer.errors import AnalyzerError, OptionError, PlayerError
from analyzer.names import PRESETS


class _CliError(Exception):
    pass


class _UsageError(_CliError):
    """Options that cannot work together or a value out of range: exit status 2, before any work."""


_USAGE_ERRORS = (_UsageError, OptionError, PlayerError)
"""Errors that mean the command line itself is wrong (exit status 2, as argparse's own): a
value out of range or options that do not go together, found by the library's checks. A rule
set, a simulation's or a perfect-play search's options are checked before the work (``_checked``)
and refused as usage errors there; later ``RuleError``, ``SimulationError`` and ``GameError``
are about the board, a results file or the work, and exit with status 1."""


@contextlib.contextmanager
def _checked(option: str = "") -> Iterator[None]:
    """Options checked by the library before any work: whatever it refuses is a usage error."""
    try:
        yield
    except AnalyzerError as error:
        raise _UsageError(f"{option}{error}") from None


@contextlib.contextmanager
def _progress(what: str, *, after: float = 2.0) -> Iterator[Callable[[int, int], None]]:
    """On a terminal, show ``what`` and the seconds spent on standard error while the block runs.

    The block gets a function ``step(done, of)``: once called, the line shows ``done/of`` too.
    """
    counts: list[int] = []

    def step(done: int, of: int) -> None:
        counts[:] = [done, of]

    if not sys.stderr.isatty():
        yield step
        return
    done = threading.Event()
    start = time.perf_counter()

    def tick() -> None:
        if done.wait(after):
            return
        while not done.wait(1.0):
            share = f" {counts[0]}/{counts[1]}," if counts else ""
            seconds = time.perf_counter() - start
            print(f"\ranalyzer: {what}...{share} {seconds:.0f} s", end="", file=sys.stderr)
        print("\r\033[K", end="", file=sys.stderr)

    thread = threading.Thread(target=tick, daemon=True)
    thread.start()
    try:
        yield step
    finally:
        done.set()
        thread.join()


def _board_from_args(args: argparse.Namespace) -> tuple[int, int, int]:
    sizes = (args.width, args.height, args.mines)
    if args.preset is not None:
        if any(v is not None for v in sizes):
            raise _UsageError("give --preset or --width/--height/--mines, not both")
        return PRESETS[args.preset]
    if any(v is None for v in sizes):
        raise _UsageError("give --preset NAME, or all of --width, --height and --mines")
    _check_mines(*sizes)
    return sizes  # type: ignore[return-value]


def _check_mines(width: int, height: int, mines: int) -> None:
    if mines > width * height:
        raise _UsageError(f"--mines {mines} is more than the {width}x{height} board's {width * height} cells")


def _check_inside(
    cell: tuple[int, int], width: int, height: int, what: str, error: type[_CliError] = _CliError
) -> None:
    """Refuse a cell outside a ``width`` x ``height`` board: ``{what} is outside the WxH board``."""
    row, col = cell
    if not (0 <= row < height and 0 <= col < width):
        raise error(f"{what} is outside the {width}x{height} board")


def _check_address(args: argparse.Namespace) -> None:
    """``--address`` names a Dask scheduler: it goes with ``--backend dask`` only."""
    if args.address is not None and args.backend != "dask":
        raise _UsageError("--address is for --backend dask")


def _wants_progress(args: argparse.Namespace) -> bool:
    """``--progress`` or ``--no-progress``; neither: a progress bar when standard error is a terminal."""
    return sys.stderr.isatty() if args.progress is None else bool(args.progress)


def _keywords(args: argparse.Namespace, *names: str) -> dict[str, Any]:
    """The options ``names`` as keyword arguments of the same names, as the library functions take them."""
    return {name: getattr(args, name) for name in names}


def _cell(text: str) -> tuple[int, int]:
    parts = text.split(",")
    if len(parts) != 2 or not all(p.strip().isascii() and p.strip().isdigit() for p in parts):
        raise _CliError(f"expected a cell as R,C (0-based), got {text[:80]!r}")
    return (int(parts[0]), int(parts[1]))
