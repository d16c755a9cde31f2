"""Replay analysis speed: one game at a time, and many games on one and on several processes.

``python -m benchmarks.replays --repeat 5 --games 1000 --workers 2``

For each bundled example: the median over ``--repeat`` runs of reading the file (ms-toollib,
in its child process) and of the exact per-click analysis, with the file's mouse events and
the clicks that opened cells. Then ``--games`` expert replays (copies of the two bundled expert
games, alternately) through :func:`analyzer.replays.batch.analyse_files`, on one process and
on ``--workers``: wall time and games per second.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs a file (default 5)")
    parser.add_argument("--games", type=int, default=1000, help="expert replays in the batch (default 1000)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes (default: all)")
    args = parser.parse_args(argv)
    if args.repeat < 1 or args.games < 1 or args.workers < 1:
        parser.error("--repeat, --games and --workers must be at least 1")

    from analyzer.replays import analyse_replay, example_names, example_path, read_replay
    from analyzer.replays.batch import analyse_files

    print(f"{'replay':24} {'events':>7} {'clicks':>7} {'read':>9} {'analyse':>9} {'total':>9}")
    for name in example_names():
        reads, analyses = [], []
        for _ in range(args.repeat):
            start = time.perf_counter()
            replay = read_replay(example_path(name))
            middle = time.perf_counter()
            game = analyse_replay(replay)
            reads.append(middle - start)
            analyses.append(time.perf_counter() - middle)
        read, analyse = statistics.median(reads), statistics.median(analyses)
        print(
            f"{name:24} {replay.events:>7} {len(game.clicks):>7} {1000 * read:>7.0f} ms"
            f" {1000 * analyse:>7.0f} ms {1000 * (read + analyse):>7.0f} ms",
            flush=True,
        )

    experts = [Path(str(example_path(n))) for n in example_names() if n.startswith("expert")]
    with tempfile.TemporaryDirectory() as folder:
        files = []
        for i in range(args.games):
            source = experts[i % len(experts)]
            copy = Path(folder) / f"game{i:05d}{source.suffix}"
            shutil.copyfile(source, copy)
            files.append(copy)
        print(f"\n{args.games} expert replays:")
        for workers in sorted({1, args.workers}):
            start = time.perf_counter()
            results = analyse_files(files, workers=workers)
            wall = time.perf_counter() - start
            failed = sum(1 for r in results if isinstance(r, Exception))
            print(
                f"  {workers} process{'es' if workers > 1 else ''}: {wall:.1f} s,"
                f" {args.games / wall:.1f} games/s, {failed} failed",
                flush=True,
            )
    print(f"\nload average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    sys.exit(main())
