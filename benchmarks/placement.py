"""Timing study of the mine placement methods.

Run ``python -m benchmarks.placement`` (``--quick`` for small sizes, ``--help``
for the options). It times every method of :data:`analyzer.play.placement.PLACEMENT_METHODS`

* on square boards ``n x n``, ``n = 0, 3, ..., 99``, with 15% of the cells mines
  (rounded down): the median time per placement over several repeats;
* on a 1000 x 1000 board (150,000 mines);
* at a fixed board size with the number of mines varied, which separates methods
  whose cost grows with the cells, O(N), from those whose cost grows with the
  mines, O(K) (at a fixed density both grow like N);

prints tables of the medians and the log-log slopes of time against cells and
against mines, and saves a plot (linear and log-log panels). ``make bench-placement`` writes
the plot to ``docs/placement_timing.png`` and every median, with when and where they were
measured, to ``docs/placement_timing.json`` (``--json``), which ``notebooks/placement.ipynb``
reads (:func:`load_study`): the notebook shows one measured study, not a new one each run.

What is timed is the sampling itself: picking ``K`` of the ``N`` cells as sorted
flat indices. Turning them into the ``frozenset`` of ``(row, col)`` tuples the
public functions return costs the same for every method; it is timed on its own
(``"to_cells"``), and the 1000 x 1000 table also times the public functions end
to end.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from analyzer.play import placement
from analyzer.play.placement import PLACEMENT_METHODS

__all__ = [
    "DENSITY",
    "SIZES",
    "QUICK_SIZES",
    "TO_CELLS",
    "Timing",
    "mines_for",
    "time_call",
    "time_method",
    "size_sweep",
    "mines_sweep",
    "loglog_slope",
    "slopes",
    "format_table",
    "plot_timings",
    "Study",
    "save_study",
    "load_study",
    "main",
]

DENSITY = Fraction(15, 100)
"""Share of the cells that are mines in the size sweep."""

SIZES = tuple(range(0, 100, 3))
"""Board sides of the full size sweep: 0, 3, ..., 99."""

QUICK_SIZES = tuple(range(0, 31, 3))
"""Board sides of the quick size sweep: 0, 3, ..., 30."""

TO_CELLS = "to_cells"
"""Pseudo-method: turning sorted flat indices into the frozenset of cells."""

_DEFAULT_OUTPUT = Path(__file__).resolve().parent.parent / "results" / "placement_timing.png"
"""Untracked by default; ``--output docs/placement_timing.png`` regenerates the README figure."""


@dataclass(frozen=True, slots=True)
class Timing:
    """Median seconds per call of one method on one board.

    ``stage`` is ``"sample"`` (picking the flat indices) or ``"place"`` (the public
    function, cells included); ``method`` is a placement method or :data:`TO_CELLS`.
    """

    method: str
    width: int
    height: int
    mines: int
    seconds: float
    stage: str = "sample"

    @property
    def cells(self) -> int:
        return self.width * self.height


def mines_for(width: int, height: int, density: Fraction = DENSITY) -> int:
    """The mine count of a board: ``floor(density * cells)``, in exact arithmetic.

    >>> mines_for(99, 99), mines_for(1000, 1000), mines_for(0, 0)
    (1470, 150000, 0)
    """
    return math.floor(Fraction(density) * width * height)


def time_call(function: Callable[[], Any], *, repeats: int = 7, min_time: float = 2e-3) -> float:
    """Median seconds per call of ``function()``.

    Each of ``repeats`` rounds calls it enough times to last about ``min_time``
    seconds (so that fast calls are not lost in the timer's resolution); the
    median of the rounds' per-call times is returned.

    >>> time_call(lambda: sum(range(100)), repeats=3) > 0
    True
    """
    start = time.perf_counter()
    function()
    first = time.perf_counter() - start
    number = max(1, min(100_000, math.ceil(min_time / max(first, 1e-9))))
    rounds = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(number):
            function()
        rounds.append((time.perf_counter() - start) / number)
    return statistics.median(rounds)


def time_method(
    method: str,
    width: int,
    height: int,
    mines: int,
    *,
    stage: str = "sample",
    repeats: int = 7,
    min_time: float = 2e-3,
    seed: int = 0,
) -> Timing:
    """Time one placement method (or :data:`TO_CELLS`) on one board.

    >>> timing = time_method("floyd", 9, 9, 10, repeats=3)
    >>> timing.method, timing.cells, timing.seconds > 0
    ('floyd', 81, True)
    """
    rng = np.random.default_rng(seed)
    cells = width * height
    call: Callable[[], Any]
    if method == TO_CELLS:
        positions = placement._sample_choice(cells, mines, rng)
        none = np.empty(0, dtype=np.int64)

        def call() -> Any:
            return placement._positions_to_cells(positions, none, width)

    elif stage == "sample":
        sampler = placement._SAMPLERS[method]

        def call() -> Any:
            return sampler(cells, mines, rng)

    elif stage == "place":
        place = PLACEMENT_METHODS[method]

        def call() -> Any:
            return place(width, height, mines, rng=rng)

    else:
        raise ValueError(f"unknown stage {stage!r}; expected 'sample' or 'place'")
    seconds = time_call(call, repeats=repeats, min_time=min_time)
    return Timing(method, width, height, mines, seconds, stage)


def _methods(methods: Iterable[str] | None, with_cells: bool) -> list[str]:
    names = list(PLACEMENT_METHODS) if methods is None else list(methods)
    return [*names, TO_CELLS] if with_cells else names


def size_sweep(
    sizes: Iterable[int] = SIZES,
    *,
    density: Fraction = DENSITY,
    methods: Iterable[str] | None = None,
    with_cells: bool = True,
    repeats: int = 7,
    min_time: float = 2e-3,
    seed: int = 0,
) -> tuple[Timing, ...]:
    """Time every method on ``n x n`` boards with ``floor(density n^2)`` mines.

    >>> rows = size_sweep([0, 4], methods=["sequential"], repeats=1, min_time=0)
    >>> [(t.method, t.cells, t.mines) for t in rows]
    [('sequential', 0, 0), ('to_cells', 0, 0), ('sequential', 16, 2), ('to_cells', 16, 2)]
    """
    names = _methods(methods, with_cells)
    return tuple(
        time_method(m, n, n, mines_for(n, n, density), repeats=repeats, min_time=min_time, seed=seed)
        for n in sizes
        for m in names
    )


def mines_sweep(
    width: int,
    height: int,
    mine_counts: Iterable[int],
    *,
    methods: Iterable[str] | None = None,
    with_cells: bool = False,
    repeats: int = 7,
    min_time: float = 2e-3,
    seed: int = 0,
) -> tuple[Timing, ...]:
    """Time every method on one board with each number of mines."""
    names = _methods(methods, with_cells)
    return tuple(
        time_method(m, width, height, k, repeats=repeats, min_time=min_time, seed=seed)
        for k in mine_counts
        for m in names
    )


def loglog_slope(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Least-squares slope of ``log y`` against ``log x``: the exponent ``a`` in ``y ~ x^a``.

    >>> round(loglog_slope([10, 100, 1000], [3, 300, 30000]), 6)
    2.0
    """
    if len(xs) != len(ys) or len(xs) < 2:
        raise ValueError("need at least two points")
    return float(np.polyfit(np.log(np.asarray(xs, float)), np.log(np.asarray(ys, float)), 1)[0])


def slopes(timings: Iterable[Timing], *, against: str = "cells", minimum: int = 1) -> dict[str, float]:
    """Log-log slope of time against ``"cells"`` or ``"mines"``, per method.

    Only points with at least ``minimum`` cells (or mines) are fitted, so that the
    fixed cost of a call does not hide how the cost grows.
    """
    points: dict[str, list[tuple[int, float]]] = {}
    for t in timings:
        x = t.cells if against == "cells" else t.mines
        if x >= max(minimum, 1):
            points.setdefault(t.method, []).append((x, t.seconds))
    return {
        method: loglog_slope([x for x, _ in pts], [y for _, y in pts])
        for method, pts in points.items()
        if len({x for x, _ in pts}) >= 2
    }


def _microseconds(seconds: float) -> str:
    return f"{seconds * 1e6:10.1f}"


def format_table(timings: Iterable[Timing], *, by: str = "size") -> str:
    """A text table of the medians in microseconds, one row per board, one column per method."""
    timings = list(timings)
    methods = list(dict.fromkeys(t.method for t in timings))
    rows: dict[tuple[int, int, int], dict[str, float]] = {}
    for t in timings:
        rows.setdefault((t.width, t.height, t.mines), {})[t.method] = t.seconds
    first = f"{'n':>5} {'cells':>8} {'mines':>7}" if by == "size" else f"{'board':>11} {'mines':>7}"
    lines = [first + "".join(f" {m:>10}" for m in methods)]
    for (w, h, k), cols in rows.items():
        head = f"{w:>5} {w * h:>8} {k:>7}" if by == "size" else f"{f'{w}x{h}':>11} {k:>7}"
        lines.append(head + "".join(f" {_microseconds(cols[m])}" if m in cols else " " * 11 for m in methods))
    return "\n".join(lines)


def plot_timings(
    sizes: Sequence[Timing],
    big: Sequence[Timing] = (),
    by_mines: Sequence[Timing] = (),
    *,
    path: str | Path | None = None,
) -> Any:
    """Plot the timings: linear and log-log panels against cells, and one against mines.

    matplotlib is imported here, with the Agg canvas (no display needed). Returns
    the :class:`matplotlib.figure.Figure`; saves it as PNG when ``path`` is given.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    panels = 3 if by_mines else 2
    figure = Figure(figsize=(5.2 * panels, 4.6), layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.subplots(1, panels)
    methods = list(dict.fromkeys(t.method for t in sizes))
    colours = {m: f"C{i}" for i, m in enumerate(methods)}
    style = {m: ("--" if m == TO_CELLS else "-") for m in methods}
    linear, loglog = axes[0], axes[1]
    for m in methods:
        pts = sorted((t.cells, t.seconds * 1e6) for t in sizes if t.method == m)
        linear.plot([x for x, _ in pts], [y for _, y in pts], style[m], color=colours[m], marker=".", label=m)
        pos = [(x, y) for x, y in pts if x > 0]
        big_pts = sorted((t.cells, t.seconds * 1e6) for t in big if t.method == m and t.stage == "sample")
        loglog.loglog(
            [x for x, _ in pos + big_pts],
            [y for _, y in pos + big_pts],
            style[m],
            color=colours[m],
            marker=".",
        )
        if big_pts:
            loglog.plot([x for x, _ in big_pts], [y for _, y in big_pts], "o", color=colours[m], mfc="none")
    linear.set(
        title=f"n x n boards, {float(DENSITY):.0%} mines",
        xlabel="cells N = n\N{SUPERSCRIPT TWO}",
        ylabel="median \N{MICRO SIGN}s per placement",
    )
    linear.legend(fontsize="small")
    reference = [
        t for t in [*sizes, *big] if t.method == "sequential" and t.cells > 0 and t.stage == "sample"
    ]
    if reference:
        top = max(reference, key=lambda t: t.cells)
        xs = np.array([min(t.cells for t in reference), top.cells], dtype=float)
        loglog.loglog(xs, top.seconds * 1e6 * xs / top.cells, ":", color="grey", label="slope 1 (O(N))")
        loglog.legend(fontsize="small")
    loglog.set(
        title=f"log-log (circles: {big[0].width} x {big[0].height})" if big else "log-log",
        xlabel="cells N",
        ylabel="median \N{MICRO SIGN}s per placement",
    )
    if by_mines:
        ax = axes[2]
        first = by_mines[0]
        for m in dict.fromkeys(t.method for t in by_mines):
            pts = sorted((t.mines, t.seconds * 1e6) for t in by_mines if t.method == m and t.mines > 0)
            ax.loglog(
                [x for x, _ in pts],
                [y for _, y in pts],
                style.get(m, "-"),
                color=colours.get(m),
                marker=".",
                label=m,
            )
        ax.set(
            title=f"{first.width} x {first.height} board: O(N) flat, O(K) rising",
            xlabel="mines K",
            ylabel="median \N{MICRO SIGN}s per placement",
        )
        ax.legend(fontsize="small")
    if path is not None:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        figure.savefig(path, dpi=110)
    return figure


@dataclass(frozen=True, slots=True)
class Study:
    """A timing study as :func:`main` measured it: the three sweeps and where they were run.

    ``measured`` holds the date, the command, the machine (processor, cores, load average),
    Python's and numpy's versions.
    """

    sizes: tuple[Timing, ...]
    big: tuple[Timing, ...]
    by_mines: tuple[Timing, ...]
    measured: dict[str, Any]

    def describe(self) -> str:
        """One line: when, on what, with which command."""
        m = self.measured
        return (
            f"measured {m['date']} on {m['machine']} ({m['cores']} cores, load {m['load']}), "
            f"Python {m['python']}, numpy {m['numpy']}: {m['command']}"
        )


def _machine() -> dict[str, Any]:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return {
        "machine": platform.processor() or platform.machine(),
        "cores": os.cpu_count(),
        "load": round(load, 2),
        "python": platform.python_version(),
        "numpy": np.__version__,
    }


def save_study(path: str | Path, study: Study) -> None:
    """Write ``study`` as JSON (one object per timing; seconds as floats)."""
    fields = ("method", "width", "height", "mines", "seconds", "stage")
    parts = [f' "measured": {json.dumps(study.measured)}']
    for name in ("sizes", "big", "by_mines"):
        rows = ",\n".join("  " + json.dumps({f: getattr(t, f) for f in fields}) for t in getattr(study, name))
        parts.append(f' "{name}": [\n{rows}\n ]' if rows else f' "{name}": []')
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{\n" + ",\n".join(parts) + "\n}\n", encoding="utf-8")


def load_study(path: str | Path) -> Study:
    """Read a study :func:`save_study` wrote.

    >>> study = load_study(Path(__file__).resolve().parent.parent / "docs" / "placement_timing.json")
    >>> sorted({t.method for t in study.sizes}) == sorted([*PLACEMENT_METHODS, TO_CELLS])
    True
    """
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    sweeps = {name: tuple(Timing(**row) for row in data[name]) for name in ("sizes", "big", "by_mines")}
    return Study(measured=data["measured"], **sweeps)


def _print_slopes(title: str, fitted: dict[str, float], out: Any) -> None:
    print(title, file=out)
    for method, slope in fitted.items():
        print(f"  {method:<11} {slope:5.2f}", file=out)


def main(argv: Sequence[str] | None = None, *, out: Any = None) -> int:
    """Run the timing study (the command line of ``python -m benchmarks.placement``)."""
    out = sys.stdout if out is None else out
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.placement", description="Time the mine placement methods."
    )
    parser.add_argument("--quick", action="store_true", help="small sizes (n <= 30), fewer repeats")
    parser.add_argument("--repeats", type=int, help="timing rounds per point (default 7, quick 3)")
    parser.add_argument("--big", type=int, help="side of the large board (default 1000, quick 300; 0: skip)")
    parser.add_argument(
        "--output", type=Path, default=_DEFAULT_OUTPUT, help=f"PNG path (default {_DEFAULT_OUTPUT})"
    )
    parser.add_argument("--no-plot", action="store_true", help="print the tables only")
    parser.add_argument(
        "--json", type=Path, help="also write every median, with the machine and date, to this file"
    )
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    repeats = args.repeats or (3 if args.quick else 7)
    sizes = QUICK_SIZES if args.quick else SIZES
    big_side = (300 if args.quick else 1000) if args.big is None else args.big
    sweep_side = 100 if args.quick else 300
    options = {"repeats": repeats, "seed": args.seed}

    print(
        f"Median microseconds per placement, n x n boards, {float(DENSITY):.0%} mines (sampling only;",
        file=out,
    )
    print(f"'{TO_CELLS}' is building the frozenset of (row, col) cells, the same for every method)", file=out)
    by_size = size_sweep(sizes, **options)
    print(format_table(by_size), file=out)

    big: tuple[Timing, ...] = ()
    if big_side:
        k = mines_for(big_side, big_side)
        big = tuple(time_method(m, big_side, big_side, k, **options) for m in _methods(None, True)) + tuple(
            time_method(m, big_side, big_side, k, stage="place", **options) for m in PLACEMENT_METHODS
        )
        print(f"\n{big_side} x {big_side} board, {k} mines: median milliseconds", file=out)
        print(f"  {'method':<11} {'sample':>9} {'place':>9}", file=out)
        for m in _methods(None, True):
            sample = next(t.seconds for t in big if t.method == m and t.stage == "sample")
            whole = next((t.seconds for t in big if t.method == m and t.stage == "place"), None)
            shown = f"{whole * 1e3:9.2f}" if whole is not None else " " * 9
            print(f"  {m:<11} {sample * 1e3:9.2f} {shown}", file=out)

    cells = sweep_side * sweep_side
    counts = sorted(
        {c for c in (10, 30, 100, 300, 1000, 3000, 10_000, 30_000, cells // 2) if c <= cells // 2}
    )
    by_mines = mines_sweep(sweep_side, sweep_side, counts, **options)
    print(f"\n{sweep_side} x {sweep_side} board, mines varied: median microseconds", file=out)
    print(format_table(by_mines, by="mines"), file=out)

    largest = max(sizes)
    fitted = slopes([*by_size, *(t for t in big if t.stage == "sample")], minimum=(largest // 2) ** 2)
    _print_slopes(
        f"\nlog-log slope of time against cells N (boards with N >= {(largest // 2) ** 2}"
        + (f" and {big_side} x {big_side}" if big else "")
        + "; 1 = linear; at a fixed density K grows like N too):",
        fitted,
        out,
    )
    _print_slopes(
        f"log-log slope of time against mines K ({sweep_side} x {sweep_side} board, K >= 100;"
        " ~0 = cost set by N, ~1 = cost set by K):",
        slopes(by_mines, against="mines", minimum=100),
        out,
    )
    if not args.no_plot:
        plot_timings(by_size, big, by_mines, path=args.output)
        print(f"\nplot saved to {args.output}", file=out)
    if args.json is not None:
        measured = {
            "date": datetime.date.today().isoformat(),
            "command": " ".join(
                ["python -m benchmarks.placement", *(argv if argv is not None else sys.argv[1:])]
            ),
            **_machine(),
        }
        save_study(args.json, Study(by_size, big, by_mines, measured))
        print(f"medians saved to {args.json}", file=out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
