"""Replay analysis speed: one game at a time, and many games on one and on several processes.

``python -m benchmarks.replays --repeat 5 --games 1000 --workers 2``
``python -m benchmarks.replays --generated 1000 --workers 2``

For each bundled example: the median over ``--repeat`` runs of reading the file (ms-toollib,
in its child process) and of the exact per-click analysis, with the file's mouse events and
the clicks that opened cells. Then ``--games`` expert replays (copies of the two bundled expert
games, alternately) through :func:`analyzer.replays.batch.analyse_files`, on one process and
on ``--workers``: wall time and games per second.

With ``--generated N``, the games are the analyzer's own instead, written as EVF replays
(:func:`analyzer.replays.write.write_evf`, the cursor's path recorded every 8 pixels): N
expert games (30x16/99, first click (8, 15) safe, player ``expert``, game seeds 0..N-1),
analysed on one process and on ``--workers`` with a progress bar; and one 60x36/540 game
(seed 0, first click (18, 30) safe) played to a win by an oracle that opens a certainly safe
cell when there is one and otherwise the least likely mine among the safe cells (it knows the
layout, so the game is long: about 1,000 3BV), its cursor recorded every 2 pixels: tens of
thousands of mouse events, read and analysed ``--repeat`` times.
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
from typing import Any


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs a file (default 5)")
    parser.add_argument("--games", type=int, default=1000, help="expert replays in the batch (default 1000)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes (default: all)")
    parser.add_argument(
        "--generated",
        type=int,
        default=0,
        metavar="N",
        help="N of our own expert games as EVF, and a 60x36 game",
    )
    args = parser.parse_args(argv)
    if args.repeat < 1 or args.games < 1 or args.workers < 1 or args.generated < 0:
        parser.error("--repeat, --games and --workers must be at least 1")
    if args.generated:
        return _generated(args.generated, args.workers, args.repeat)

    from analyzer.replays import example_names, example_path
    from analyzer.replays.batch import analyse_files

    print(f"{'replay':24} {'events':>7} {'clicks':>7} {'read':>9} {'analyse':>9} {'total':>9}")
    for name in example_names():
        replay, game, read, analyse = _timed(example_path(name), args.repeat)
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


def _oracle_actions(
    width: int, height: int, mines: int, seed: int, first: tuple[int, int]
) -> tuple[Any, list[Any]]:
    """A won game: certainly safe cells first, else the safe cell least likely to be a mine."""
    from analyzer import Game, solve

    game = Game.new(width, height, mines, seed=seed, first_click="safe")
    actions = [("reveal", first)]
    game.reveal(*first)
    while game.status == "playing":
        analysis = solve(game.board)
        safe = analysis.safe
        if safe:
            cells = list(safe)
        else:
            probabilities = analysis.cell_probabilities
            hidden = [
                (p, divmod(i, width))
                for i, p in enumerate(probabilities)
                if p is not None and not game.is_mine(*divmod(i, width))
            ]
            cells = [min(hidden)[1]]
        for cell in cells:
            if game.status == "playing" and game.board.is_hidden(*cell):
                game.reveal(*cell)
                actions.append(("reveal", cell))
    return game, actions


def _timed(path: Any, repeat: int) -> tuple[Any, Any, float, float]:
    """The replay at ``path`` read and analysed ``repeat`` times: the last of each, and the median seconds."""
    from analyzer.replays import analyse_replay, read_replay

    reads, analyses = [], []
    for _ in range(repeat):
        start = time.perf_counter()
        replay = read_replay(path)
        middle = time.perf_counter()
        game = analyse_replay(replay)
        reads.append(middle - start)
        analyses.append(time.perf_counter() - middle)
    return replay, game, statistics.median(reads), statistics.median(analyses)


def _generated(count: int, workers: int, repeat: int) -> int:
    from tqdm import tqdm

    from analyzer import Game
    from analyzer.play.replay import replay
    from analyzer.replays.batch import analyse_files
    from analyzer.replays.write import game_actions, write_evf

    with tempfile.TemporaryDirectory() as folder:
        big, actions = _oracle_actions(60, 36, 540, 0, (18, 30))
        path = write_evf(Path(folder) / "big", 60, 36, big.mines or (), actions, cursor_step=2)
        read, analysed, read_s, analyse_s = _timed(path, repeat)
        print(
            f"60x36/540 oracle game: 3BV {read.bbbv}, {read.events:,} mouse events,"
            f" {len(analysed.clicks)} clicks,"
            f" {len(analysed.guesses)} guesses; read {read_s:.2f} s + analyse {analyse_s:.2f} s"
            f" = {read_s + analyse_s:.2f} s (median of {repeat})",
            flush=True,
        )

        start = time.perf_counter()
        files = []
        won = 0
        for seed in tqdm(range(count), desc="writing", unit="game", file=sys.stderr):
            game = Game.new(30, 16, 99, seed=seed, first_click="safe")
            moves = list(replay(game, "expert", seed=seed, first_cell=(8, 15)))
            won += game.status == "won"
            files.append(
                write_evf(
                    Path(folder) / f"expert{seed:05d}",
                    30,
                    16,
                    game.mines or (),
                    game_actions(moves),
                    cursor_step=8,
                )
            )
        print(
            f"\n{count} expert games written in {time.perf_counter() - start:.1f} s ({won} won)", flush=True
        )
        for processes in sorted({1, workers}):
            bar = tqdm(
                total=count,
                desc=f"{processes} process{'es' if processes > 1 else ''}",
                unit="replay",
                file=sys.stderr,
            )
            start = time.perf_counter()
            results = analyse_files(files, workers=processes, on_result=lambda i, r, bar=bar: bar.update())
            wall = time.perf_counter() - start
            bar.close()
            failed = sum(1 for r in results if isinstance(r, Exception))
            guesses = sum(len(r.guesses) for r in results if not isinstance(r, Exception))
            print(
                f"  {processes} process{'es' if processes > 1 else ''}: {wall:.1f} s,"
                f" {count / wall:.1f} replays/s, {guesses} guesses analysed, {failed} failed",
                flush=True,
            )
    print(f"\nload average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    sys.exit(main())
