"""Hostile boards against ``solve(time_limit=T)``: how far past T each returns, and its peak memory.

Run ``python -m benchmarks.limits`` (``--cases lattice:121:1 midgame:300:2 ...``).
Each case runs in a fresh process (so that its peak resident memory is its
own) and prints the wall-clock time from the call of :func:`analyzer.solve` on
the board's text (parsing included) to its answer or error in the caller's
hands, the time past ``T``, when dropping that error had freed what the
stopped work held, the process's peak resident memory and the outcome. The default cases
are the limits audit's reproducers:

- ``lattice:N`` — :func:`analyzer.play.positions.clue_lattice`: an N x N board
  (N odd) whose cells at odd row and odd column show their number (mines at
  density 0.2 elsewhere, seed 0): one component of thousands of groups that
  no engine counts in seconds;
- ``midgame:N`` — an N x N board (density 0.16) with a random half of its
  safe cells revealed: thousands of components, a few of them hard;
- ``hidden:N`` — an N x N board with nothing revealed (no time limit: it needs
  no work, and its count has thousands of digits).

The target is an answer or a clear error within T + 0.5 s and under 4 GB.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time

import numpy as np

from analyzer.board import Board
from analyzer.play.positions import clue_lattice, reveal_true_numbers

DEFAULT_CASES = (
    "lattice:121:1",
    "lattice:161:1",
    "lattice:201:1",
    "midgame:300:2",
    "midgame:500:20",
    "hidden:120:0",
)


def half_revealed(n: int, seed: int = 0, density: float = 0.16) -> Board:
    """An n x n board with a random half of its safe cells showing their number."""
    rng = np.random.default_rng(seed)
    mines = rng.random((n, n)) < density
    shown = (rng.random((n, n)) < 0.5) & ~mines
    return reveal_true_numbers(
        n,
        n,
        [tuple(cell) for cell in np.argwhere(mines).tolist()],
        [tuple(cell) for cell in np.argwhere(shown).tolist()],
    )


def board_for(kind: str, n: int) -> Board:
    if kind == "lattice":
        if n % 2 == 0:
            raise SystemExit("a clue lattice has an odd side")
        return clue_lattice((n - 1) // 2, density=0.2)
    if kind == "midgame":
        return half_revealed(n)
    if kind == "hidden":
        return Board.from_text(f"{n}x{n}x{n * n // 5}\n" + ("H" * n + "\n") * n)
    raise SystemExit(f"unknown case kind {kind!r}; expected lattice, midgame or hidden")


def one(kind: str, n: int, limit: float, read: bool = False) -> dict[str, object]:
    """Run one case in this process: seconds, peak memory and outcome (``read``: every cell's
    probability read as a float, ``Analysis.to_numpy``, inside the time)."""
    import analyzer
    from analyzer.errors import AnalyzerError
    from analyzer.limits import describe_count

    text = board_for(kind, n).to_text()
    start = time.monotonic()
    try:
        analysis = analyzer.solve(text, time_limit=limit or None)
        if read:
            analysis.to_numpy()
        seconds = time.monotonic() - start
        outcome = f"answered: {describe_count(analysis.total)} layouts"
        del analysis
    except AnalyzerError as error:
        seconds = time.monotonic() - start  # the caller holds the answer (or the error) here
        outcome = f"{type(error).__name__}: {error}"
    # Dropping the error frees what the stopped work held (its traceback keeps the frames alive).
    freed = time.monotonic() - start
    return {
        "case": f"{kind}:{n}:{limit:g}",
        "seconds": seconds,
        "freed": freed,
        "past_limit": seconds - limit if limit else None,
        "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "outcome": outcome[:120],
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--cases", nargs="+", default=list(DEFAULT_CASES), help="KIND:N:SECONDS (0: no limit)"
    )
    parser.add_argument(
        "--read", action="store_true", help="read every probability (as floats) inside the time of a case"
    )
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        kind, n, limit = args.one.split(":")
        print(json.dumps(one(kind, int(n), float(limit), args.read)))
        return
    print("| case | seconds | past T | memory freed at, s | peak MB | within T+0.5 s, under 4 GB | outcome |")
    print("|---|---:|---:|---:|---:|---|---|")
    for case in args.cases:
        run = subprocess.run(
            [sys.executable, "-m", "benchmarks.limits", "--one", case, *(["--read"] if args.read else [])],
            capture_output=True,
            text=True,
        )
        if run.returncode:
            print(f"| {case} | | | | | no | crashed: {run.stderr.strip().splitlines()[-1:]} |")
            continue
        row = json.loads(run.stdout)
        past = row["past_limit"]
        ok = (past is None or past <= 0.5) and row["peak_mb"] < 4096
        print(
            f"| {row['case']} | {row['seconds']:.2f} | {'' if past is None else f'{past:+.2f}'} |"
            f" {row['freed']:.2f} | {row['peak_mb']:.0f} | {'yes' if ok else 'no'} | {row['outcome']} |"
        )


if __name__ == "__main__":
    main()
