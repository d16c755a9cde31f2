"""Benchmarks (scripts, not tests): ``python -m benchmarks.solve solve|engines``.

``solve``
    Times :func:`analyzer.solve` on a suite of boards (the bundled examples,
    random mid-game positions at 9x9/10, 16x16/40, 30x16/99 and 100x100/2000,
    and hard synthetic boards, among them 16x16/51 layouts showing only their
    3s) and prints, per class, our median and, when ms-toollib is installed
    (the ``bench`` extra), the median of
    ``ms_toollib.cal_probability_onboard`` on the same boards in the same run,
    the ratio of the medians, how many boards ours took longer on than the peer
    and the largest ratio of one board, and a check that both agree to 1e-9.
``engines``
    Times each counting engine (enumerate, frontier, CP-SAT) on the same suite.
``many``
    Times :func:`analyzer.solve_many` on ``--positions`` random mid-game positions
    of each preset, in this process and on ``--workers`` processes, beside
    ms-toollib solving the same boards one after the other in this process
    (median of ``--repeat`` runs; positions per second).

Timings are like for like: ms-toollib reads flags as hidden cells, so on a
board with flags ours is timed (and compared) with ``trust_flags=False``. Each
class is timed cold (the component cache emptied before each run) and, for
ours, warm (the cache kept from the runs before).
Options: ``--repeat N`` (timings per board, the median is kept), ``--boards N``
(random positions per class), ``--quick`` (small suite), ``--classes a,b``, ``--per-board``
(``solve``: each board's two times and their ratio under its class).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from analyzer.board.board import FLAG, HIDDEN, Board
from analyzer.errors import SolverTimeoutError
from analyzer.play.positions import chain, clue_lattice, double_chain, mid_game, numbers_of, wide_frontier
from analyzer.solver.counting import clear_cache
from analyzer.solver.solve import solve

__all__ = ["suite", "main"]

_EXAMPLES = Path(__file__).resolve().parent.parent / "analyzer" / "examples"


@dataclass(frozen=True)
class BoardClass:
    name: str
    boards: tuple[Board, ...]


#: A random expert position published with the request to solve it under 50 ms CPU, cold.
EXPERT_POSITION = """30x16x99
HHH101H1HHHH10001HHHHHHHH21000
H1H212HHHHHH21113HHHH2HHHH2100
HHHHHHHHHHH2HHHHHH2HH2HHHHH211
2H1HH4HHH2HHHHHHHHHHH2HHHHH2HH
HHHHHHH3122HHHH3HHH1HH3HHHH22H
HHHHHH11001H2HHHHHHHHH22H11HHH
12222210011H2HHHHHH2H2H1H23HHH
00001H1001HHHHHHH32HHHHH12HH3H
0000111001HHHHHHHHHHH1HHHH5H3H
1100000122HHHH1H2HH11HHHHHHHHH
H2110012HHHHHHHHHHHHHHHHHHH5HH
2HH1001H4HHH1H1HHHHH1H2HH2HHHH
HH210122212H1HHHHHHHHHHHHHHH3H
1HH222HH101HH2HHHH3H2H21112HHH
HH1HH3HH101HHHHHHH31HHHHHHHHHH
HH1HHH1H101HH1HHHHH1HHHHHHHHHH
"""

#: Positions published with ms-toollib's own tests (github.com/eee555/ms-toollib,
#: ``base/tests/test_probability.rs``: its boards 1 to 5, as given, before the test marks any
#: mine; ``base/tests/test_probability_speed.rs``: a 21x10 board of 75 mines from
#: https://github.com/xienaoban/minesweeper/issues/3), in the ``.mine`` format.
MS_TOOLLIB_POSITIONS = (
    "8x8x10\nHHHHHHHH\nHHHHHHHH\nHHH1HHHH\nHHH2HHHH\nHHHHHHHH\nHHHHHH8H\nHHHHHHHH\nHHHHHHHH\n",
    "8x8x10\n" + "HHHHHHHH\n" * 8,
    "8x8x10\nHHHHHHHH\nHHHHHHHH\nHHHHHHHH\nHHH2HHHH\nHHHHHHHH\nHHHHHHHH\nHHHHHHHH\nHHHHHHHH\n",
    "8x8x10\n1HHHHHHH\n1HHHHHHH\n2HHHHHHH\nHHHHHHHH\nHHHHHHHH\nHHHHHHHH\nHHHHHHHH\nHHHHHHHH\n",
    "8x8x29\nHHHHHHHH\nHH1HH6HH\nHH2HHH1H\nHH3HHHHH\nHHHHHHHH\nHHHH5HHH\nH2HHHH1H\nHHHHHHHH\n",
    "21x10x75\n"
    "2H3H3H3H3H3H3H3H3H3H1\n"
    + "H" * 21
    + "\n3H4H4H4H4H4H4H4H4H4H1\n"
    + "H" * 21
    + "\n3H4H4H4"
    + "H" * 14
    + "\n"
    + ("H" * 21 + "\n") * 5,
)


def _half_open(width: int, height: int, mines: int, *, seed: int) -> Board:
    """A position of a random layout with about half of its safe cells revealed (flood fill included)."""
    import random

    from analyzer.play.game import Game
    from analyzer.play.placement import place_mines

    game = Game.from_layout(width, height, place_mines(width, height, mines, seed=seed))
    safe = [(r, c) for r in range(height) for c in range(width) if not game.is_mine(r, c)]
    random.Random(seed).shuffle(safe)
    for cell in safe[: len(safe) // 2]:
        if not game.is_finished:
            game.reveal(*cell)
    return game.board


def suite(*, boards: int = 10, quick: bool = False) -> list[BoardClass]:
    """The benchmark suite, deterministic (fixed seeds)."""
    classes = []
    examples = tuple(Board.from_text(p.read_text()) for p in sorted(_EXAMPLES.glob("*.mine")))
    if examples:
        classes.append(BoardClass("examples", examples))
    presets = [
        ("beginner 9x9/10", 9, 9, 10),
        ("intermediate 16x16/40", 16, 16, 40),
        ("expert 30x16/99", 30, 16, 99),
    ]
    for name, w, h, m in presets:
        classes.append(
            BoardClass(
                name,
                tuple(
                    mid_game(w, h, m, progress=0.2 + 0.6 * (s % 5) / 4, flag_fraction=0.5 * (s % 2), seed=s)
                    for s in range(boards)
                ),
            )
        )
    tiny = [(1, 1, 0), (2, 1, 1), (2, 2, 1), (3, 2, 2), (3, 3, 2), (3, 3, 3)]
    classes.append(
        BoardClass("tiny 1x1 to 3x3", tuple(_half_open(*tiny[s % 6], seed=s) for s in range(boards)))
    )
    classes.append(BoardClass("1-D 30x1/6", tuple(_half_open(30, 1, 6, seed=s) for s in range(boards))))
    classes.append(BoardClass("expert position (published)", (Board.from_text(EXPERT_POSITION),)))
    classes.append(
        BoardClass("ms-toollib's test positions", tuple(Board.from_text(t) for t in MS_TOOLLIB_POSITIONS))
    )
    classes.append(BoardClass("chain of 1s and 2s (120)", tuple(chain(120, seed=s) for s in range(boards))))
    classes.append(BoardClass("double chain (60)", tuple(double_chain(60, seed=s) for s in range(boards))))
    classes.append(
        BoardClass("wide frontier 30x16", tuple(wide_frontier(30, 16, seed=s) for s in range(boards)))
    )
    classes.append(BoardClass("clue lattice 7x7 (3s)", tuple(clue_lattice(3, seed=s) for s in range(boards))))
    classes.append(BoardClass("3s of 16x16/51", tuple(numbers_of(16, 16, 51, seed=s) for s in range(boards))))
    if not quick:
        classes.append(BoardClass("clue lattice 9x9 (3s)", tuple(clue_lattice(4, seed=s) for s in range(3))))
        classes.append(
            BoardClass(
                "100x100/2000 mid-game",
                tuple(mid_game(100, 100, 2000, progress=0.5, seed=s) for s in range(2)),
            )
        )
    return classes


def _median_time(run: Callable[[], object], repeat: int, *, cold: bool = True) -> tuple[float, object]:
    """Median wall time of ``run`` over ``repeat`` runs, cold (the component cache emptied first) or warm.

    One run first, untimed: Python specializes a function's code over its first calls, so
    without it the first board down a path (the first clueless board, say) was timed slow.
    """
    times = []
    result = run()
    for _ in range(repeat):
        if cold:
            clear_cache()
        start = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def _ms_toollib_grid(board: Board) -> list[list[int]]:
    # ms-toollib: 0-8 numbers, 10 hidden, 11 flag.
    return [[10 if v == HIDDEN else 11 if v == FLAG else v for v in row] for row in board.rows()]


def _agreement(board: Board, ours: object, theirs: list[list[float]]) -> float:
    worst = 0.0
    probabilities = ours.probabilities  # type: ignore[attr-defined]
    for r in range(board.height):
        for c in range(board.width):
            p = probabilities[r][c]
            if p is not None:
                worst = max(worst, abs(float(p) - theirs[r][c]))
    return worst


def _read_floats(solved: Any) -> Any:
    analysis = solved()
    analysis.to_numpy()
    return analysis


def _read_fractions(solved: Any) -> Any:
    analysis = solved()
    _ = analysis.cell_probabilities
    return analysis


def _bench_solve(
    classes: Sequence[BoardClass], repeat: int, time_limit: float | None, per_board: bool = False
) -> int:
    # Steady state: the compiled kernels, as in any process past its first quarter second of
    # small solves (before that, small boards run the kernels interpreted: benchmarks.startup).
    from analyzer import jit

    jit.activate()
    ms_toollib: Any
    try:
        import ms_toollib
    except ImportError:  # the bench extra is not installed
        ms_toollib = None
        print("ms-toollib is not installed (pip install -e '.[bench]'): timing ours alone\n")
    header = (
        f"{'class':28} {'boards':>6} {'ours cold':>12} {'ours max':>10} {'ours warm':>10} {'exact cold':>11}"
    )
    if ms_toollib:
        header += f" {'ms-toollib':>11} {'ratio':>7} {'slower':>7} {'worst':>7} {'max |diff|':>11}"
    print(header)
    print("-" * len(header))
    worst_overall = 0.0
    failures = 0
    for cls in classes:
        ours, warm, exact, theirs, diffs = [], [], [], [], []
        for board in cls.boards:
            # ms-toollib reads flags as hidden cells it may correct: like for like,
            # ours is timed and compared with untrusted flags when a board has flags.
            # Like for like: every probability read, as the floats the peer returns
            # ("ours"), and as the exact Fractions a user reads ("exact").
            solved = partial(solve, board, time_limit=time_limit, trust_flags=FLAG not in board.cells)
            run = partial(_read_floats, solved)
            analysis = None
            try:
                t, analysis = _median_time(run, repeat)
                warm.append(_median_time(run, repeat, cold=False)[0])
                exact.append(_median_time(partial(_read_fractions, solved), repeat)[0])
            except SolverTimeoutError:  # counted as infinitely slow, the peer still timed beside it
                t = float("inf")
                warm.append(t)
                exact.append(t)
                failures += 1
            ours.append(t)
            if ms_toollib:
                grid = _ms_toollib_grid(board)
                t2, result = _median_time(
                    partial(ms_toollib.cal_probability_onboard, grid, board.mines), repeat
                )
                theirs.append(t2)
                if analysis is not None:
                    diffs.append(_agreement(board, analysis, result[0]))  # type: ignore[index]
        line = (
            f"{cls.name:28} {len(cls.boards):>6} {_ms(statistics.median(ours)):>12} {_ms(max(ours)):>10}"
            f" {_ms(statistics.median(warm)):>10} {_ms(statistics.median(exact)):>11}"
        )
        if ms_toollib and theirs:
            mine, peer = statistics.median(ours), statistics.median(theirs)
            # Board by board too: a class's medians can hide boards where the peer is faster.
            ratios = [a / b for a, b in zip(ours, theirs, strict=True)]
            slower = f"{sum(r > 1 for r in ratios)}/{len(ratios)}"
            worst = max(diffs, default=0.0)
            worst_overall = max(worst_overall, worst)
            line += f" {_ms(peer):>11} {mine / peer:>6.2f}x {slower:>7} {max(ratios):>6.1f}x {worst:>11.1e}"
        print(line, flush=True)
        if per_board and ms_toollib and theirs:
            for board, a, b in zip(cls.boards, ours, theirs, strict=True):
                text = board.to_text().strip().replace("\n", " / ")
                print(f"    {a * 1e6:8.1f} us  {b * 1e6:8.1f} us  {a / b:5.2f}x  {text[:90]}")
    if ms_toollib:
        verdict = "agree" if worst_overall <= 1e-9 else "DISAGREE"
        print(f"\nall boards: ours and ms-toollib {verdict} (largest difference {worst_overall:.1e})")
    if failures:
        print(f"{failures} boards ran past the time limit of {time_limit} s")
    return 0 if worst_overall <= 1e-9 else 1


def _bench_engines(classes: Sequence[BoardClass], repeat: int, time_limit: float | None) -> int:
    engines = ("enumerate", "frontier", "split", "cpsat", "auto")
    print(f"{'class':28} " + " ".join(f"{e:>11}" for e in engines))
    for cls in classes:
        cells = []
        for engine in engines:
            times = []
            for board in cls.boards:
                try:
                    t, _ = _median_time(partial(solve, board, engine=engine, time_limit=time_limit), repeat)
                except SolverTimeoutError:
                    t = float("inf")
                times.append(t)
            cells.append(_ms(statistics.median(times)))
        print(f"{cls.name:28} " + " ".join(f"{c:>11}" for c in cells), flush=True)
    return 0


def _bench_many(positions: int, workers: int, repeat: int) -> int:
    from analyzer.solver.many import solve_many

    try:
        import ms_toollib
    except ImportError:
        ms_toollib = None
    presets = [
        ("beginner 9x9/10", 9, 9, 10),
        ("intermediate 16x16/40", 16, 16, 40),
        ("expert 30x16/99", 30, 16, 99),
    ]
    counts = sorted({1, workers})
    header = f"{'class':24} {'boards':>7}" + "".join(
        f" {f'{w} process' + ('es' if w > 1 else ''):>13}" for w in counts
    )
    if ms_toollib:
        header += f" {'ms-toollib':>11} {'ratio':>7}"
    print(header + "   (positions per second)")
    print("-" * len(header))
    for name, w, h, m in presets:
        # Flag-free positions: ms-toollib reads flags as unknown cells, solve trusts them.
        boards = [mid_game(w, h, m, progress=0.2 + 0.6 * (s % 5) / 4, seed=s) for s in range(positions)]
        line = f"{name:24} {len(boards):>7}"
        rates = []
        for n in counts:
            seconds, results = _median_time(partial(solve_many, boards, workers=n), repeat)
            assert all(not isinstance(r, Exception) for r in results)  # type: ignore[union-attr]
            rates.append(len(boards) / seconds)
            line += f" {rates[-1]:>13,.0f}"
        if ms_toollib:
            grids = [_ms_toollib_grid(b) for b in boards]

            def theirs(grids: list[list[list[int]]] = grids, boards: list[Board] = boards) -> None:
                for grid, board in zip(grids, boards, strict=True):
                    ms_toollib.cal_probability_onboard(grid, board.mines)

            seconds, _ = _median_time(theirs, repeat)
            peer = len(boards) / seconds
            line += f" {peer:>11,.0f} {peer / rates[0]:>6.2f}x"
        print(line, flush=True)
    if ms_toollib:
        print("\nratio: ms-toollib's rate over ours in one process (below 1: ours is faster)")
    return 0


def _ms(seconds: float) -> str:
    if seconds == float("inf"):
        return "timeout"
    return f"{seconds * 1e3:.3f} ms"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.solve", description=__doc__.split("\n")[0])
    parser.add_argument("what", choices=("solve", "engines", "many"))
    parser.add_argument("--repeat", type=int, default=3, help="timings per board (median kept)")
    parser.add_argument("--boards", type=int, default=10, help="random boards per class")
    parser.add_argument("--quick", action="store_true", help="leave out the largest classes")
    parser.add_argument("--classes", default=None, help="comma-separated substrings of class names to run")
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per solve")
    parser.add_argument("--positions", type=int, default=2000, help="many: positions a preset")
    parser.add_argument("--workers", type=int, default=2, help="many: processes beside one")
    parser.add_argument(
        "--per-board", action="store_true", help="solve: each board's times (ours, ms-toollib) and ratio too"
    )
    args = parser.parse_args(argv)
    if args.what == "many":
        return _bench_many(args.positions, args.workers, args.repeat)
    classes = suite(boards=args.boards, quick=args.quick)
    if args.classes:
        wanted = [w.strip().lower() for w in args.classes.split(",")]
        classes = [c for c in classes if any(w in c.name.lower() for w in wanted)]
    if args.what == "solve":
        return _bench_solve(classes, args.repeat, args.time_limit, args.per_board)
    return _bench_engines(classes, args.repeat, args.time_limit)


if __name__ == "__main__":
    sys.exit(main())
