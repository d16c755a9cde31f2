"""Statistics of a mine layout that players quote: 3BV, openings, islands.

Definitions (the usual ones of the Minesweeper community; cells are joined by
the board's neighbourhood, so they follow its topology):

* an **opening** is a maximal connected set of safe cells showing 0; clicking
  any of them reveals the whole set and the numbers around it;
* **3BV** (Bechtel's Board Benchmark Value) is the fewest clicks that reveal
  every safe cell without chords or flags: one per opening, plus one per
  numbered safe cell that touches no zero;
* an **island** is a maximal connected set of those numbered cells that touch no
  zero (numbers that can only be cleared one click each).

The counts are computed by a compiled flood fill (numba) over the board's
neighbour array, so the distribution over 10^5 random expert layouts
(:func:`metrics_sample`, ``analyzer stats``) takes seconds.

>>> layout_metrics(4, 3, [(0, 0), (2, 3)])  # two openings clear every number
LayoutMetrics(bbbv=2, openings=2, islands=0)
>>> layout_metrics(3, 3, [(1, 1)])  # eight numbers around one mine, no zero: one island
LayoutMetrics(bbbv=8, openings=0, islands=1)
"""

from __future__ import annotations

import os
import statistics
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

import numpy as np

from analyzer.board.board import Cell
from analyzer.board.topology import Topology, check_topology, neighbour_array
from analyzer.errors import BoardParseError, GameError
from analyzer.jit import njit
from analyzer.play.game import FirstClickRule
from analyzer.play.placement import place_mines

__all__ = ["LayoutMetrics", "MetricsSample", "layout_metrics", "mask_metrics", "metrics_sample", "METRICS"]

METRICS = ("bbbv", "openings", "islands")
"""The statistics :class:`LayoutMetrics` holds, in order."""


@dataclass(frozen=True, slots=True)
class LayoutMetrics:
    """3BV, openings and islands of one layout (see the module docstring)."""

    bbbv: int
    openings: int
    islands: int


@njit(cache=True)
def _metrics(is_mine: np.ndarray, nbr: np.ndarray) -> tuple[int, int, int]:  # pragma: no cover - compiled
    n = is_mine.shape[0]
    count = np.zeros(n, np.int64)
    for i in range(n):
        if is_mine[i]:
            for k in range(nbr.shape[1]):
                j = nbr[i, k]
                if j < n:
                    count[j] += 1
    # Safe cells next to a safe zero are cleared by that zero's opening.
    by_opening = np.zeros(n, np.bool_)
    for i in range(n):
        if not is_mine[i] and count[i] == 0:
            by_opening[i] = True
            for k in range(nbr.shape[1]):
                j = nbr[i, k]
                if j < n:
                    by_opening[j] = True
    seen = np.zeros(n, np.bool_)
    stack = np.empty(n, np.int64)
    openings = 0
    islands = 0
    lone_numbers = 0
    for start in range(n):
        if seen[start] or is_mine[start]:
            continue
        zero = count[start] == 0
        if not zero and by_opening[start]:
            continue
        # A flood over zeros (an opening) or over numbers that touch no zero (an island).
        openings += zero
        islands += not zero
        top = 0
        stack[top] = start
        top += 1
        seen[start] = True
        while top:
            top -= 1
            i = stack[top]
            if not zero:
                lone_numbers += 1
            for k in range(nbr.shape[1]):
                j = nbr[i, k]
                if j >= n or seen[j] or is_mine[j]:
                    continue
                if zero and count[j] == 0 or not zero and count[j] != 0 and not by_opening[j]:
                    seen[j] = True
                    stack[top] = j
                    top += 1
    return openings + lone_numbers, openings, islands


def mask_metrics(
    is_mine: np.ndarray, width: int, height: int, *, topology: Topology = "square"
) -> LayoutMetrics:
    """:class:`LayoutMetrics` of a layout given as a flat boolean mask (row-major)."""
    mask = np.asarray(is_mine, dtype=np.bool_).reshape(-1)
    if mask.shape[0] != width * height:
        raise GameError(f"mask has {mask.shape[0]} cells, expected {width}x{height} = {width * height}")
    nbr = np.asarray(neighbour_array(topology, width, height), dtype=np.int64)
    return LayoutMetrics(*_metrics(mask, nbr))


def layout_metrics(
    width: int, height: int, layout: Iterable[Cell], *, topology: Topology = "square"
) -> LayoutMetrics:
    """3BV, openings and islands of the layout whose mines are the cells ``layout``.

    Raises
    ------
    GameError
        A mine outside the board, or an unknown topology.
    """
    try:
        topology = check_topology(topology, width, height)
    except BoardParseError as error:
        raise GameError(str(error)) from None
    mask = np.zeros(width * height, dtype=np.bool_)
    for row, col in layout:
        if not (0 <= row < height and 0 <= col < width):
            raise GameError(f"mine {(row, col)!r} is outside the {width}x{height} board")
        mask[row * width + col] = True
    return mask_metrics(mask, width, height, topology=topology)


@dataclass(frozen=True, slots=True)
class MetricsSample:
    """The metrics of ``boards`` random layouts: one int array per metric, board by board.

    Board ``i`` is drawn from ``numpy.random.SeedSequence(seed, spawn_key=(i,))``,
    so the sample is the same for any number of workers.
    """

    width: int
    height: int
    mines: int
    first_click: str
    first_cell: Cell | None
    seed: int
    values: dict[str, np.ndarray]

    @property
    def boards(self) -> int:
        return len(self.values["bbbv"])

    def summary(self, metric: str) -> dict[str, float]:
        """Mean, standard deviation, minimum, quartiles and maximum of one metric."""
        data = self.values[metric]
        q1, median, q3 = (float(x) for x in np.percentile(data, [25, 50, 75]))
        return {
            "mean": float(np.mean(data)),
            "sd": float(statistics.pstdev(data.tolist())) if len(data) > 1 else 0.0,
            "min": float(data.min()),
            "q1": q1,
            "median": median,
            "q3": q3,
            "max": float(data.max()),
        }

    def histogram(self, metric: str) -> dict[int, int]:
        """How many boards have each value of ``metric``."""
        values, counts = np.unique(self.values[metric], return_counts=True)
        return {int(v): int(c) for v, c in zip(values, counts, strict=True)}


def _sample_chunk(
    width: int, height: int, mines: int, rule: str, first: Cell | None, seed: int, start: int, stop: int
) -> np.ndarray:
    parsed = FirstClickRule.parse(rule)
    exclude: list[Cell] = []
    if first is not None:
        zone = parsed.protected_cells("square", width, height, *first)
        exclude = [divmod(j, width) for j in zone]
    nbr = np.asarray(neighbour_array("square", width, height), dtype=np.int64)
    out = np.empty((stop - start, len(METRICS)), dtype=np.int64)
    mask = np.zeros(width * height, dtype=np.bool_)
    for k, index in enumerate(range(start, stop)):
        rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(index,)))
        layout = place_mines(width, height, mines, exclude=exclude, rng=rng)
        mask[:] = False
        for row, col in layout:
            mask[row * width + col] = True
        out[k] = _metrics(mask, nbr)
    return out


def metrics_sample(
    width: int,
    height: int,
    mines: int,
    boards: int,
    *,
    first_click: str = "none",
    first_cell: Cell | None = None,
    seed: int = 0,
    workers: int = 1,
) -> MetricsSample:
    """3BV, openings and islands of ``boards`` random layouts, on ``workers`` processes.

    Mines are placed uniformly (the game engine's default method); under a
    first-click rule other than ``none`` the cells that rule keeps mine-free
    around ``first_cell`` (default the top-left corner) are left out.

    >>> sample = metrics_sample(9, 9, 10, 200, seed=1)
    >>> sample.boards, bool(sample.values["bbbv"].min() >= 1)
    (200, True)
    >>> bool((metrics_sample(9, 9, 10, 200, seed=1, workers=2).values["bbbv"] == sample.values["bbbv"]).all())
    True
    """
    checks = (("width", width, 1), ("height", height, 1), ("mines", mines, 0), ("boards", boards, 1))
    for name, value, low in (*checks, ("workers", workers, 1)):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise GameError(f"{name} must be an integer >= {low}, got {value!r}")
    rule = FirstClickRule.parse(first_click)
    if rule.no_guess:
        raise GameError(
            f"first-click rule {rule.name!r} is for single games (Game); layout statistics do not draw it"
        )
    cell = None
    if rule.name != "none":
        cell = (0, 0) if first_cell is None else first_cell
        if not (0 <= cell[0] < height and 0 <= cell[1] < width):
            raise GameError(f"first cell {cell!r} is outside the {width}x{height} board")
        room = width * height - len(rule.protected_cells("square", width, height, *cell))
        if mines > room:
            raise GameError(
                f"first-click rule {rule.name!r} at {cell} leaves room for {room} mines, got {mines}"
            )
    elif mines > width * height:
        raise GameError(f"more mines ({mines}) than cells ({width * height})")
    workers = min(workers, os.cpu_count() or 1, boards)
    bounds = np.linspace(0, boards, max(1, 4 * workers) + 1).astype(int)
    chunks = [(int(a), int(b)) for a, b in zip(bounds[:-1], bounds[1:], strict=True) if b > a]
    args = [(width, height, mines, str(rule), cell, seed, a, b) for a, b in chunks]
    if workers == 1:
        parts = [_sample_chunk(*a) for a in args]
    else:
        with ProcessPoolExecutor(workers) as pool:
            parts = list(pool.map(_sample_chunk, *zip(*args, strict=True)))
    table = np.concatenate(parts)
    return MetricsSample(
        width, height, mines, str(rule), cell, seed, {name: table[:, k] for k, name in enumerate(METRICS)}
    )
