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

``python -m benchmarks.replays --chords 40``
With ``--chords N``: the cost of a chord's odds on expert (30x16/99), the chance that every
cell it opens is safe, one count over layouts. 2N positions: N expert games won by the oracle
of ``--generated`` (seeds 0..N-1, first click (8, 15) safe), each a quarter and half of the way
through; in each, the 8 uncertain cells (mine probability strictly between 0 and 1)
nearest the first revealed number that touches one, as a chord of 8 uncertain cells would
open them (a real chord opens at most 7: its number has a flag); and a real 7-cell chord: a lone
1 with a flag and seven hidden neighbours at the game's start. Median and largest milliseconds
of the chord's count, after one untimed count (the first in a process imports networkx, about
0.5 s) (the position's solve, done first for every click, not counted; the
counting cache emptied before it, and, on a second line, before the chord's count too).

``python -m benchmarks.replays --backends 10000 --workers 2``
With ``--backends N``: N of the analyzer's own expert games written as EVF (as ``--generated``,
without the cursor), then analysed on ``--workers`` local processes and on a Dask LocalCluster of
``--workers`` processes (:func:`analyzer.replays.batch.analyse_files`): wall time and games per
second on each, and whether the two tables are equal.

Both ``--generated`` and ``--backends`` write their games on ``--workers`` processes
(:func:`write_games`, timed apart from the analysis), each file's clock fixed so that the files
are the same bytes whatever the number of workers.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
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
    parser.add_argument(
        "--chords", type=int, default=0, metavar="N", help="chord odds on N expert positions, in ms"
    )
    parser.add_argument(
        "--backends", type=int, default=0, metavar="N", help="N written expert games on local and on Dask"
    )
    args = parser.parse_args(argv)
    if (
        args.repeat < 1
        or args.games < 1
        or args.workers < 1
        or min(args.generated, args.chords, args.backends) < 0
    ):
        parser.error("--repeat, --games and --workers must be at least 1")
    if args.chords:
        return _chords(args.chords)
    if args.backends:
        return _backends(args.backends, args.workers)
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

    from analyzer.replays.batch import analyse_files
    from analyzer.replays.write import write_evf

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
        files, won = write_games(folder, count, workers=workers, cursor_step=8)
        written = time.perf_counter() - start
        print(
            f"\n{count} expert games written in {written:.1f} s on {_processes(workers)}"
            f" ({count / written:.2f} games/s, {won} won)",
            flush=True,
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


def _chords(count: int) -> int:
    from analyzer import Game
    from analyzer.replays.analyse import _all_safe, _safe_layouts
    from analyzer.solver.counting.dispatch import clear_cache
    from analyzer.solver.solve import solve

    cold: list[float] = []
    eight: list[float] = []
    seven: list[float] = []
    solves: list[float] = []
    positions = []
    for seed in range(count):
        won, actions = _oracle_actions(30, 16, 99, seed, (8, 15))
        for fraction in (4, 2):  # a quarter and half of the way through the game
            again = Game.from_layout(30, 16, sorted(won.mines or ()))
            for _, cell in actions[: len(actions) // fraction]:
                again.reveal(*cell)
            positions.append((seed, again.board))
    # Untimed: the first count in a process imports networkx (about 0.5 s, once).
    first = positions[0][1]
    _safe_layouts(first, [(r, c) for r in range(16) for c in range(30) if first[r, c] < 0][:2])
    for _, board in positions:
        clear_cache()
        start = time.perf_counter()
        analysis = solve(board, trust_flags=False)
        solves.append(time.perf_counter() - start)
        uncertain = [
            (r, c)
            for r in range(16)
            for c in range(30)
            if board[r, c] < 0 and 0 < analysis.probability(r, c) < 1
        ]
        numbers = [
            (r, c)
            for r in range(16)
            for c in range(30)
            if board[r, c] > 0 and any(n in uncertain for n in board.neighbours(r, c))
        ]
        if len(uncertain) >= 8 and numbers:
            r0, c0 = numbers[0]
            cells = tuple(
                sorted(uncertain, key=lambda cell: (max(abs(cell[0] - r0), abs(cell[1] - c0)), cell))[:8]
            )
            start = time.perf_counter()
            _all_safe(board, cells, analysis)
            eight.append(time.perf_counter() - start)
            clear_cache()
            start = time.perf_counter()
            _all_safe(board, cells, analysis)
            cold.append(time.perf_counter() - start)
    for seed in range(count):
        # A real chord of seven: a lone 1 somewhere in the open, one neighbour flagged.
        fresh = Game.new(30, 16, 99, seed=seed, first_click="safe")
        fresh.reveal(8, 15)
        lone = fresh.board
        if lone[8, 15] == 1 and sum(1 for n in lone.neighbours(8, 15) if lone[n] < 0) == 8:
            flagged = lone.replace({(7, 14): -2})
            opens = tuple(n for n in flagged.neighbours(8, 15) if flagged[n] == -1)
            counted = solve(flagged, trust_flags=False)
            start = time.perf_counter()
            _all_safe(flagged, opens, counted)
            seven.append(time.perf_counter() - start)
    for name, values in (
        ("solve of the position (context)", solves),
        ("chord of 8 uncertain cells, mid-game", eight),
        ("the same, counting cache emptied first", cold),
        ("chord of 7 (a lone 1 and a flag)", seven),
    ):
        if values:
            print(
                f"{name:38} {len(values):>4} positions: median {1000 * statistics.median(values):7.2f} ms,"
                f" largest {1000 * max(values):7.2f} ms",
                flush=True,
            )
    print(f"\nload average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    return 0


def write_games(
    folder: str | os.PathLike[str], count: int, *, workers: int = 1, cursor_step: int = 0
) -> tuple[list[Path], int]:
    """``count`` expert games written as EVF in ``folder``, on ``workers`` processes; the files and the wins.

    Game ``i`` (30x16/99, first click (8, 15) safe, player ``expert``, seed ``i``) is the file
    ``expert{i:05d}.evf`` (more digits past 99,999 games), its clock fixed
    (:func:`~analyzer.replays.write.write_evf` with ``timed=False``): the same bytes whatever
    the number of workers. A progress bar on standard error.
    """
    from tqdm import tqdm

    digits = max(5, len(str(count - 1)))
    paths = [Path(folder) / f"expert{seed:0{digits}d}" for seed in range(count)]
    files: list[Path] = []
    won = 0
    with tqdm(total=count, desc="writing", unit="game", file=sys.stderr) as bar:
        if workers == 1 or count < 2:
            for seed, path in enumerate(paths):
                file, is_won = _write_game(path, seed, cursor_step)
                files.append(file)
                won += is_won
                bar.update()
        else:
            with ProcessPoolExecutor(max_workers=min(workers, count)) as pool:
                done = pool.map(
                    _write_game,
                    paths,
                    range(count),
                    [cursor_step] * count,
                    chunksize=max(1, min(16, count // (8 * workers))),
                )
                for file, is_won in done:
                    files.append(file)
                    won += is_won
                    bar.update()
    return files, won


def _write_game(path: Path, seed: int, cursor_step: int) -> tuple[Path, bool]:
    """Expert game ``seed`` played and written at ``path``: the file, and whether the game was won."""
    from analyzer import Game
    from analyzer.play.replay import replay
    from analyzer.replays.write import game_actions, write_evf

    game = Game.new(30, 16, 99, seed=seed, first_click="safe")
    moves = list(replay(game, "expert", seed=seed, first_cell=(8, 15)))
    written = write_evf(
        path, 30, 16, game.mines or (), game_actions(moves), cursor_step=cursor_step, timed=False
    )
    return written, game.status == "won"


def _processes(workers: int) -> str:
    return f"{workers} process{'es' if workers > 1 else ''}"


def _backends(count: int, workers: int) -> int:
    from tqdm import tqdm

    from analyzer.replays.batch import analyse_files

    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        _, won = write_games(folder, count, workers=workers)
        written = time.perf_counter() - start
        print(
            f"{count} expert games written in {written:.1f} s on {_processes(workers)}"
            f" ({count / written:.2f} games/s, {won} won)",
            flush=True,
        )
        tables = {}
        for backend in ("local", "dask"):
            bar = tqdm(total=count, desc=backend, unit="replay", file=sys.stderr)
            start = time.perf_counter()
            results = analyse_files(
                [folder], workers=workers, backend=backend, on_result=lambda i, r, bar=bar: bar.update()
            )
            wall = time.perf_counter() - start
            bar.close()
            failed = sum(1 for r in results if isinstance(r, Exception))
            tables[backend] = [str(r) if isinstance(r, Exception) else r.statistics() for r in results]
            print(
                f"  {backend:5} ({_processes(workers)}): {wall:.1f} s,"
                f" {count / wall:.2f} games/s, {failed} failed",
                flush=True,
            )
        print(f"  the same table on both: {tables['local'] == tables['dask']}")
    print(f"\nload average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    sys.exit(main())
