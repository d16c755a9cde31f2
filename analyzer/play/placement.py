"""Placing mines: ``mines`` distinct cells, every layout equally likely.

Every method takes ``width, height, mines``, the keyword ``exclude=`` (cells that
must stay mine-free, such as a safe zone around the first click) and ``seed=`` or
``rng=`` (a :class:`numpy.random.Generator`), and returns the layout as a
``frozenset`` of ``(row, col)`` cells; :func:`layout_to_mask` turns one into a
boolean numpy array. Each method picks ``K = mines`` of the ``P`` allowed cells
(the board's ``N = width * height`` cells minus the excluded ones), every one of
the ``C(P, K)`` layouts with probability exactly ``1 / C(P, K)``.

Methods (:data:`PLACEMENT_METHODS`)
-----------------------------------
``"basic"``
    The simple method: every allowed cell goes into a list, and mines are drawn
    from it one at a time without replacement. O(N) to fill the list, O(K) draws.
``"sequential"``
    One pass over the cells in order (selection sampling: Fan, Muller and Rezucha
    1962; Knuth's Algorithm S, TAOCP vol. 2, 3.4.2). Each cell gets a mine with
    probability (mines left) / (cells left), decided with integers only. O(N).
``"choice"``
    :meth:`numpy.random.Generator.choice` with ``replace=False`` (numpy runs
    Floyd's algorithm with a hash set -- the same layouts as ``"floyd"`` -- or a
    partial Fisher-Yates shuffle when K > N / 20 and N > 10000). O(K) or O(N), in C.
``"floyd"``
    Floyd's algorithm (Bentley and Floyd, CACM 30(9), 1987): K draws and a set, no
    structure of size N. O(K).
``"vectorised"``
    A vectorised pass: every allowed cell gets a mine independently with
    probability K / P (one numpy comparison), then the surplus or shortfall,
    typically about sqrt(K) cells, is removed or added uniformly. Exact (see
    :func:`place_mines_vectorised`). O(N), in C.

Uniformity is shown two ways: exactly, by :func:`sequential_layout_distribution`
(the one-pass method's decision tree walked with Fractions), and statistically, by
:func:`cell_frequency_test` and :func:`pair_frequency_test` (chi-square tests of how
often each cell and each pair of cells holds a mine).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from types import MappingProxyType
from typing import Any

import numpy as np

from analyzer.board.board import Cell
from analyzer.errors import GameError
from analyzer.play.allowed import Layout
from analyzer.play.allowed import checked as _checked
from analyzer.play.allowed import generator as _generator
from analyzer.play.allowed import positions_to_cells as _positions_to_cells
from analyzer.play.allowed import size as _size
from analyzer.play.uniformity import (
    ChiSquareResult,
    cell_frequency_test,
    chi_square_sf,
    pair_frequency_test,
)
from analyzer.play.uniformity import _incidence as _incidence
from analyzer.play.uniformity import _subset_chi_square as _subset_chi_square

__all__ = [
    "Cell",
    "Layout",
    "PlacementMethod",
    "PLACEMENT_METHODS",
    "place_mines",
    "place_mines_basic",
    "place_mines_sequential",
    "place_mines_choice",
    "place_mines_floyd",
    "place_mines_vectorised",
    "layout_to_mask",
    "layout_from_mask",
    "sequential_layout_distribution",
    "mine_draws",
    "ChiSquareResult",
    "cell_frequency_test",
    "pair_frequency_test",
    "chi_square_sf",
]

PlacementMethod = Callable[..., Layout]
"""``f(width, height, mines, *, exclude=(), seed=None, rng=None) -> Layout``."""

_BLOCK = 1 << 14
"""Random integers drawn per numpy call by the scanning methods."""

_MAX_ENUMERATED_LAYOUTS = 1_000_000


# ---------------------------------------------------------------- samplers
# Each sampler picks k distinct positions out of range(p), uniformly, and returns
# them sorted as an int64 array. The public functions map positions to cells.


def mine_draws(mines_left: Any, cells_left: Any) -> Any:
    """Selection sampling's step rule: how many of the ``cells_left`` equally likely draws
    (integers uniform below ``cells_left``) place a mine on the current cell.

    The current cell takes a mine when its draw is below this number, so it takes one with
    probability ``mine_draws(m, c) / c``. It is the one place the rule lives: the
    sequential sampler, :func:`sequential_layout_distribution` and
    :mod:`analyzer.verify`'s uniformity proof (which calls it with sympy symbols) all use it.

    >>> mine_draws(3, 10)
    3
    """
    return mines_left


def _sample_basic(p: int, k: int, rng: np.random.Generator) -> np.ndarray:
    pool = list(range(p))  # every allowed cell
    chosen = []
    if k:
        # The i-th draw is uniform below len(pool) = p - i; the bounds do not depend on
        # earlier draws, so numpy can draw them all at once.
        for j in rng.integers(0, np.arange(p, p - k, -1)).tolist():
            chosen.append(pool[j])
            pool[j] = pool[-1]  # remove pool[j] in O(1): move the last cell into its place
            pool.pop()
    return np.sort(np.array(chosen, dtype=np.int64))


def _sample_sequential(p: int, k: int, rng: np.random.Generator) -> np.ndarray:
    chosen = []
    left = k
    position = 0
    while left:
        # Cell `position` sees a draw uniform below its cells-left count, p - position;
        # those bounds are fixed in advance, so draws come from numpy in blocks.
        size = min(p - position, _BLOCK)
        draws = rng.integers(0, np.arange(p - position, p - position - size, -1)).tolist()
        for draw in draws:
            if draw < mine_draws(left, p - position):
                chosen.append(position)
                left -= 1
            position += 1
            if not left:
                break
    return np.array(chosen, dtype=np.int64)


def _sample_choice(p: int, k: int, rng: np.random.Generator) -> np.ndarray:
    return np.sort(rng.choice(p, size=k, replace=False, shuffle=False).astype(np.int64, copy=False))


def _sample_floyd(p: int, k: int, rng: np.random.Generator) -> np.ndarray:
    chosen: set[int] = set()
    if k:
        # For j = p-k, ..., p-1 draw t uniform in [0, j]; take t, or j if t is taken.
        draws = rng.integers(0, np.arange(p - k + 1, p + 1)).tolist()
        for j, t in zip(range(p - k, p), draws, strict=True):
            chosen.add(j if t in chosen else t)
    return np.sort(np.fromiter(chosen, dtype=np.int64, count=len(chosen)))


def _sample_vectorised(p: int, k: int, rng: np.random.Generator) -> np.ndarray:
    if k == 0:
        return np.empty(0, dtype=np.int64)
    hits = rng.random(p) < k / p  # the float only steers how many cells the pass picks
    picked = np.flatnonzero(hits)
    surplus = len(picked) - k
    if surplus > 0:  # drop a uniform subset of the picked cells
        picked = np.delete(picked, rng.choice(len(picked), size=surplus, replace=False))
    elif surplus < 0:  # add a uniform subset of the other cells
        free = np.flatnonzero(~hits)
        picked = np.union1d(picked, rng.choice(free, size=-surplus, replace=False))
    return picked.astype(np.int64, copy=False)


_SAMPLERS: Mapping[str, Callable[[int, int, np.random.Generator], np.ndarray]] = MappingProxyType(
    {
        "basic": _sample_basic,
        "sequential": _sample_sequential,
        "choice": _sample_choice,
        "floyd": _sample_floyd,
        "vectorised": _sample_vectorised,
    }
)


def _place(
    sampler: Callable[[int, int, np.random.Generator], np.ndarray],
    width: object,
    height: object,
    mines: object,
    exclude: Iterable[Cell],
    seed: object,
    rng: np.random.Generator | None,
) -> Layout:
    w, _, k, allowed, excluded = _checked(width, height, mines, exclude)
    return _positions_to_cells(sampler(allowed, k, _generator(seed, rng)), excluded, w)


# ---------------------------------------------------------- public methods
def place_mines_basic(
    width: int,
    height: int,
    mines: int,
    *,
    exclude: Iterable[Cell] = (),
    seed: int | None = None,
    rng: np.random.Generator | None = None,
) -> Layout:
    """Place mines the simple way: draw cells from a list without replacement.

    Every allowed cell goes into a list; each mine is a cell drawn uniformly from
    what is left of the list and removed from it (swapping the last cell into its
    place). The bound of the i-th draw, ``P - i``, does not depend on earlier
    draws, so the random integers are drawn from numpy in one call.

    Parameters
    ----------
    width, height : int
        Size of the board (0 or more; an empty board takes 0 mines).
    mines : int
        Number of mines to place.
    exclude : iterable of (row, col)
        Cells that must stay mine-free.
    seed : int, optional
        Seed of a fresh :func:`numpy.random.default_rng`.
    rng : numpy.random.Generator, optional
        A generator to draw from instead (not together with ``seed``).

    Returns
    -------
    frozenset of (row, col)
        The ``mines`` cells holding a mine.

    Raises
    ------
    GameError
        A negative size or mine count, an excluded cell outside the board, more
        mines than allowed cells, or both ``seed`` and ``rng``.

    Examples
    --------
    >>> layout = place_mines_basic(5, 2, 3, exclude=[(0, 0)], seed=1)
    >>> len(layout), (0, 0) in layout, all(0 <= r < 2 and 0 <= c < 5 for r, c in layout)
    (3, False, True)
    >>> layout == place_mines_basic(5, 2, 3, exclude=[(0, 0)], seed=1)
    True
    >>> place_mines_basic(2, 2, 4, exclude=[(1, 1)])
    Traceback (most recent call last):
    ...
    analyzer.errors.GameError: cannot place 4 mines in 3 allowed cells (2x2 board, 1 excluded)
    """
    return _place(_sample_basic, width, height, mines, exclude, seed, rng)


def place_mines_sequential(
    width: int,
    height: int,
    mines: int,
    *,
    exclude: Iterable[Cell] = (),
    seed: int | None = None,
    rng: np.random.Generator | None = None,
) -> Layout:
    """Place mines in one pass over the cells: selection sampling.

    This is selection sampling (C. T. Fan, M. E. Muller and I. Rezucha, "Development
    of sampling plans by using sequential (item by item) selection techniques and
    digital computers", JASA 57, 1962; Knuth's Algorithm S, TAOCP vol. 2, 3.4.2).
    The allowed cells are visited in row-major order; with ``m`` mines and ``c``
    cells left, a random integer uniform in ``[0, c)`` places a mine when it is
    below ``m`` -- probability exactly ``m / c``, with no float rounding. The pass
    stops when no mines are left; once ``m == c`` every remaining cell gets one.
    Every layout then has probability exactly ``1 / C(P, K)``
    (:func:`sequential_layout_distribution` walks the decision tree to show it).

    The bound of each draw (the cells left) is known in advance, so the integers
    come from numpy in blocks; the decisions are made cell by cell. O(N).

    Takes the arguments, returns the layout and raises the errors of
    :func:`place_mines_basic`.

    Examples
    --------
    >>> layout = place_mines_sequential(9, 9, 10, exclude=[(4, 4)], seed=7)
    >>> len(layout), (4, 4) in layout
    (10, False)
    >>> sorted(place_mines_sequential(3, 1, 3, seed=0))
    [(0, 0), (0, 1), (0, 2)]
    >>> place_mines_sequential(-1, 3, 0)
    Traceback (most recent call last):
    ...
    analyzer.errors.GameError: width must be a non-negative integer, got -1
    """
    return _place(_sample_sequential, width, height, mines, exclude, seed, rng)


def place_mines_choice(
    width: int,
    height: int,
    mines: int,
    *,
    exclude: Iterable[Cell] = (),
    seed: int | None = None,
    rng: np.random.Generator | None = None,
) -> Layout:
    """Place mines with :meth:`numpy.random.Generator.choice` (``replace=False``).

    numpy picks ``K`` of ``P`` positions with Floyd's algorithm and a hash set, or,
    when ``P > 10000`` and ``K > P / 20``, with a partial Fisher-Yates shuffle of
    ``range(P)``; both are exactly uniform. In the Floyd case numpy draws the same
    random integers as :func:`place_mines_floyd`, so the two give the same layout
    for the same seed -- this method is Floyd's algorithm in C. Excluded cells are
    skipped by a binary search per mine, so nothing of size ``N`` is built in Python.

    Takes the arguments, returns the layout and raises the errors of
    :func:`place_mines_basic`.

    Examples
    --------
    >>> layout = place_mines_choice(30, 16, 99, exclude=[(0, 0), (0, 1)], seed=3)
    >>> len(layout), {(0, 0), (0, 1)} & layout
    (99, set())
    >>> place_mines_choice(3, 3, 1, exclude=[(3, 0)])
    Traceback (most recent call last):
    ...
    analyzer.errors.GameError: excluded cell (3, 0) is outside the 3x3 board
    """
    return _place(_sample_choice, width, height, mines, exclude, seed, rng)


def place_mines_floyd(
    width: int,
    height: int,
    mines: int,
    *,
    exclude: Iterable[Cell] = (),
    seed: int | None = None,
    rng: np.random.Generator | None = None,
) -> Layout:
    """Place mines with Floyd's algorithm: ``K`` draws and a set, O(K).

    For ``j = P-K, ..., P-1`` draw ``t`` uniform in ``[0, j]`` and take position
    ``t``, or ``j`` itself when ``t`` is already taken (J. Bentley and B. Floyd,
    "A sample of brilliance", CACM 30(9), 1987). By induction every ``K``-subset
    is equally likely. No structure of size ``N`` is built.

    Takes the arguments, returns the layout and raises the errors of
    :func:`place_mines_basic`.

    Examples
    --------
    >>> len(place_mines_floyd(1000, 1000, 5, seed=0))
    5
    >>> place_mines_floyd(2, 2, 1, seed=0, rng=np.random.default_rng(0))
    Traceback (most recent call last):
    ...
    analyzer.errors.GameError: give seed= or rng=, not both
    """
    return _place(_sample_floyd, width, height, mines, exclude, seed, rng)


def place_mines_vectorised(
    width: int,
    height: int,
    mines: int,
    *,
    exclude: Iterable[Cell] = (),
    seed: int | None = None,
    rng: np.random.Generator | None = None,
) -> Layout:
    """Place mines with one vectorised pass and an exact correction.

    The one-pass rule of :func:`place_mines_sequential` cannot be vectorised as it
    stands: each cell's chance, (mines left) / (cells left), depends on how many
    mines the cells before it took, a running state numpy cannot compute without
    a Python loop. What does vectorise is the rule with that state frozen: every
    allowed cell gets a mine independently with probability ``K / P``, one numpy
    comparison over all cells. That gives a binomial number of mines, about
    ``K +- sqrt(K)``, so the surplus is then removed (a uniform subset of the
    picked cells) or the shortfall added (a uniform subset of the others).

    The result is exactly uniform, for any probability used in the pass (the float
    ``K / P`` only steers how much correcting is needed): the independent pass
    treats all cells alike, and so does the correction, so the distribution of the
    layout does not change when the cells are permuted; the permutations of the
    cells reach every ``K``-subset from any other, so all are equally likely.

    Takes the arguments, returns the layout and raises the errors of
    :func:`place_mines_basic`.

    Examples
    --------
    >>> len(place_mines_vectorised(100, 100, 1500, seed=2))
    1500
    >>> len(place_mines_vectorised(0, 0, 0))
    0
    """
    return _place(_sample_vectorised, width, height, mines, exclude, seed, rng)


PLACEMENT_METHODS: Mapping[str, PlacementMethod] = MappingProxyType(
    {
        "basic": place_mines_basic,
        "sequential": place_mines_sequential,
        "choice": place_mines_choice,
        "floyd": place_mines_floyd,
        "vectorised": place_mines_vectorised,
    }
)
"""The placement methods by name (a read-only mapping)."""


def place_mines(
    width: int,
    height: int,
    mines: int,
    *,
    method: str = "sequential",
    exclude: Iterable[Cell] = (),
    seed: int | None = None,
    rng: np.random.Generator | None = None,
) -> Layout:
    """Place mines with the method named ``method`` (a key of :data:`PLACEMENT_METHODS`).

    Every layout of ``mines`` mines among the cells not in ``exclude`` is equally likely.

    Parameters
    ----------
    width, height : int
        The board's size.
    mines : int
        How many mines to place.
    method : str
        ``"basic"``, ``"sequential"``, ``"choice"``, ``"floyd"`` or ``"vectorised"``.
    exclude : iterable of (row, col)
        Cells that get no mine (a safe zone around the first click).
    seed : int, optional
        The seed of a new generator; or pass ``rng``, a ``numpy.random.Generator``.
    rng : numpy.random.Generator, optional

    Returns
    -------
    Layout
        The mines' cells, as a frozenset of ``(row, col)``.

    Raises
    ------
    GameError
        An unknown method, or as for :func:`place_mines_basic`.

    Examples
    --------
    >>> sorted(PLACEMENT_METHODS)
    ['basic', 'choice', 'floyd', 'sequential', 'vectorised']
    >>> all(len(place_mines(4, 3, 5, method=m, seed=0)) == 5 for m in PLACEMENT_METHODS)
    True
    >>> place_mines(4, 3, 5, method="shuffle")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    analyzer.errors.GameError: unknown placement method 'shuffle'; expected one of basic, sequential, ...
    """
    try:
        function = PLACEMENT_METHODS[method]
    except (KeyError, TypeError):
        raise GameError(
            f"unknown placement method {method!r}; expected one of {', '.join(PLACEMENT_METHODS)}"
        ) from None
    return function(width, height, mines, exclude=exclude, seed=seed, rng=rng)


# ------------------------------------------------------------ conversions
def layout_to_mask(layout: Iterable[Cell], width: int, height: int) -> np.ndarray:
    """A boolean array of shape ``(height, width)``, ``True`` on the mines.

    Raises
    ------
    GameError
        A cell outside the board.

    Examples
    --------
    >>> layout_to_mask({(0, 1), (1, 2)}, 3, 2).astype(int)
    array([[0, 1, 0],
           [0, 0, 1]])
    """
    width = _size("width", width)
    height = _size("height", height)
    mask = np.zeros((height, width), dtype=bool)
    for cell in layout:
        row, col = cell
        if not (0 <= row < height and 0 <= col < width):
            raise GameError(f"mine {cell!r} is outside the {width}x{height} board")
        mask[row, col] = True
    return mask


def layout_from_mask(mask: np.ndarray) -> Layout:
    """The layout of a boolean ``(height, width)`` array: the cells that are ``True``.

    Examples
    --------
    >>> sorted(layout_from_mask(layout_to_mask({(0, 1), (1, 2)}, 3, 2)))
    [(0, 1), (1, 2)]
    """
    rows, cols = np.nonzero(np.asarray(mask, dtype=bool))
    return frozenset(zip(rows.tolist(), cols.tolist(), strict=True))


# ------------------------------------------------------ exact uniformity
def sequential_layout_distribution(
    width: int, height: int, mines: int, *, exclude: Iterable[Cell] = ()
) -> dict[Layout, Fraction]:
    """The exact distribution of :func:`place_mines_sequential`'s layouts.

    Walks the one-pass method's decision tree: at each allowed cell, with ``m``
    mines and ``c`` cells left, counts how many of the ``c`` equally likely draws
    place a mine under the same rule the sampler uses, and follows both branches
    with their probabilities as Fractions. A leaf is reached when no mines are
    left. Every layout comes out with probability exactly ``1 / C(P, K)``: the
    probabilities along a path multiply to ``K! (P-K)! / P!``.

    For tiny boards: the result has ``C(P, K)`` entries (at most 1,000,000).

    Parameters
    ----------
    width, height, mines, exclude
        As for :func:`place_mines_sequential`.

    Returns
    -------
    dict of frozenset of (row, col) to Fraction
        Each reachable layout and its probability.

    Raises
    ------
    GameError
        As for :func:`place_mines_basic`, or too many layouts to list.

    Examples
    --------
    >>> dist = sequential_layout_distribution(2, 2, 2, exclude=[(1, 1)])
    >>> for layout, probability in sorted(dist.items(), key=lambda item: sorted(item[0])):
    ...     print(sorted(layout), probability)
    [(0, 0), (0, 1)] 1/3
    [(0, 0), (1, 0)] 1/3
    [(0, 1), (1, 0)] 1/3
    >>> set(sequential_layout_distribution(3, 3, 3).values())
    {Fraction(1, 84)}
    """
    width, height, mines, allowed, excluded = _checked(width, height, mines, exclude)
    if math.comb(allowed, mines) > _MAX_ENUMERATED_LAYOUTS:
        raise GameError(
            f"too many layouts to list: C({allowed}, {mines}) = {math.comb(allowed, mines)} "
            f"> {_MAX_ENUMERATED_LAYOUTS}"
        )
    cells = _positions_to_cells(np.arange(allowed), excluded, width)
    order = sorted(cells)  # position t is the t-th allowed cell in row-major order
    distribution: dict[Layout, Fraction] = {}
    stack: list[tuple[int, int, tuple[Cell, ...], Fraction]] = [(0, mines, (), Fraction(1))]
    while stack:
        position, left, chosen, probability = stack.pop()
        if left == 0:
            distribution[frozenset(chosen)] = probability
            continue
        cells_left = allowed - position
        takes = mine_draws(left, cells_left)
        if not 0 <= takes <= cells_left:
            raise GameError(f"step rule gives {takes} mine draws of {cells_left}")
        if takes:
            stack.append(
                (
                    position + 1,
                    left - 1,
                    (*chosen, order[position]),
                    probability * Fraction(takes, cells_left),
                )
            )
        if takes < cells_left:
            stack.append((position + 1, left, chosen, probability * Fraction(cells_left - takes, cells_left)))
    return distribution
