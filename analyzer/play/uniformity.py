"""Statistical uniformity of a placement: chi-square tests of sampled layouts.

:func:`cell_frequency_test` and :func:`pair_frequency_test` test how often each
allowed cell, and each pair of allowed cells, holds a mine over many sampled
layouts (:mod:`analyzer.play.placement` re-exports them, beside the exact check
:func:`~analyzer.play.placement.sequential_layout_distribution`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from analyzer.board.board import Cell
from analyzer.errors import GameError
from analyzer.limits import whole_or_none
from analyzer.play.allowed import checked as _checked
from analyzer.play.allowed import positions_to_cells as _positions_to_cells

__all__ = ["ChiSquareResult", "cell_frequency_test", "pair_frequency_test", "chi_square_sf"]


@dataclass(frozen=True, slots=True)
class ChiSquareResult:
    """The outcome of a chi-square test.

    Attributes
    ----------
    statistic : float
        The chi-square statistic.
    dof : int
        Its degrees of freedom.
    p_value : float
        Chance of a statistic at least this large if the sampler is uniform.
    samples : int
        Number of layouts tested.
    """

    statistic: float
    dof: int
    p_value: float
    samples: int


def chi_square_sf(statistic: float, dof: int) -> float:
    """Survival function of the chi-square distribution, ``P(X >= statistic)``.

    Computed as the regularised upper incomplete gamma function ``Q(dof/2,
    statistic/2)``, by its series or its continued fraction (Numerical Recipes,
    6.2), to about 1e-14.

    Examples
    --------
    >>> round(chi_square_sf(3.841458820694124, 1), 6)
    0.05
    >>> round(chi_square_sf(124.342, 100), 4)
    0.05
    >>> chi_square_sf(0.0, 3)
    1.0
    """
    if whole_or_none(dof) is None or dof < 1:
        raise ValueError(f"dof must be a positive integer, got {dof!r}")
    if statistic <= 0:
        return 1.0
    a, x = dof / 2, statistic / 2
    log_prefactor = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:  # series for the lower function P(a, x)
        term = total = 1 / a
        n = a
        while abs(term) > abs(total) * 1e-16:
            n += 1
            term *= x / n
            total += term
        return max(0.0, 1.0 - total * math.exp(log_prefactor))
    tiny = 1e-300  # continued fraction for Q(a, x), modified Lentz
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in itertools.count(1):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-16 or i > 100_000:
            break
    return min(1.0, h * math.exp(log_prefactor))


def _incidence(
    layouts: Iterable[Iterable[Cell]], width: int, height: int, mines: int, exclude: Iterable[Cell]
) -> tuple[np.ndarray, int]:
    """Layouts as a 0/1 matrix, one row per layout, one column per allowed cell."""
    width, height, mines, allowed, excluded = _checked(width, height, mines, exclude)
    order = sorted(_positions_to_cells(np.arange(allowed), excluded, width))
    column = {cell: t for t, cell in enumerate(order)}
    rows = []
    for number, layout in enumerate(layouts):
        cells = frozenset(layout)
        if len(cells) != mines:
            raise GameError(f"layout {number} has {len(cells)} mines, expected {mines}")
        try:
            rows.append([column[cell] for cell in cells])
        except KeyError:
            bad = sorted(cell for cell in cells if cell not in column)
            raise GameError(f"layout {number} has a mine on {bad[0]!r}, not an allowed cell") from None
    matrix = np.zeros((len(rows), allowed), dtype=np.int64)
    if rows and mines:
        matrix[np.repeat(np.arange(len(rows)), mines), np.array(rows).ravel()] = 1
    return matrix, mines


def _falling_ratio(k: int, p: int, m: int) -> float:
    """Chance that ``m`` given allowed cells all hold a mine: ``k^(m) / p^(m)``."""
    return float(Fraction(math.perm(k, m), math.perm(p, m))) if m <= p else 0.0


def _subset_chi_square(matrix: np.ndarray, mines: int, order: int) -> ChiSquareResult:
    """Chi-square test of how often each ``order``-subset of cells is all mines.

    Under uniform layouts, the mean of the subsets' 0/1 indicators over ``S``
    layouts has known mean ``q`` and covariance ``Sigma / S``, where a pair of
    subsets with union of size ``u`` has ``Sigma = q_u - q^2``; the statistic
    ``S (x - q)^T Sigma^+ (x - q)`` is chi-square with ``rank(Sigma)`` degrees of
    freedom for large ``S`` (the indicators are dependent -- every layout has
    exactly ``K`` mines -- so a plain Pearson sum would be mis-scaled).
    """
    samples, allowed = matrix.shape
    subsets = np.array(list(itertools.combinations(range(allowed), order)), dtype=np.int64)
    if samples == 0 or len(subsets) == 0:
        return ChiSquareResult(0.0, 0, 1.0, samples)
    if order == 1:
        observed = matrix.sum(axis=0)
    else:
        together = matrix.T @ matrix
        observed = together[subsets[:, 0], subsets[:, 1]]
    overlap = (subsets[:, None, :, None] == subsets[None, :, None, :]).sum(axis=(2, 3))
    moments = np.array([_falling_ratio(mines, allowed, m) for m in range(2 * order + 1)])
    mean = moments[order]
    covariance = moments[2 * order - overlap] - mean * mean
    eigenvalues, eigenvectors = np.linalg.eigh(covariance)
    keep = eigenvalues > 1e-9 * max(eigenvalues.max(), 1e-300)
    dof = int(keep.sum())
    if dof == 0:
        return ChiSquareResult(0.0, 0, 1.0, samples)
    deviation = observed / samples - mean
    projections = eigenvectors[:, keep].T @ deviation
    statistic = float(samples * np.sum(projections**2 / eigenvalues[keep]))
    return ChiSquareResult(statistic, dof, chi_square_sf(statistic, dof), samples)


def cell_frequency_test(
    layouts: Iterable[Iterable[Cell]],
    width: int,
    height: int,
    mines: int,
    *,
    exclude: Iterable[Cell] = (),
) -> ChiSquareResult:
    """Chi-square test that every allowed cell holds a mine equally often.

    With ``O_i`` mines seen on allowed cell ``i`` over ``S`` layouts, and
    ``E = S K / P``, the statistic is Pearson's ``sum (O_i - E)^2 / E`` scaled by
    ``(P - 1) / (P - K)``: the cells are not independent (every layout has ``K``
    mines), and under uniform layouts the scaled sum is chi-square with ``P - 1``
    degrees of freedom.

    Parameters
    ----------
    layouts : iterable of layouts
        Sampled layouts, each of ``mines`` allowed cells.
    width, height, mines, exclude
        The placement they were sampled for.

    Returns
    -------
    ChiSquareResult

    Raises
    ------
    GameError
        A layout with the wrong number of mines or a mine off the allowed cells.

    Examples
    --------
    >>> from analyzer.play.placement import place_mines_sequential
    >>> rng = np.random.default_rng(0)
    >>> layouts = [place_mines_sequential(3, 3, 2, rng=rng) for _ in range(2000)]
    >>> result = cell_frequency_test(layouts, 3, 3, 2)
    >>> result.dof, result.samples, result.p_value > 0.001
    (8, 2000, True)
    >>> corner_first = [frozenset({(0, 0), cell}) for cell in sorted(layouts[0])] * 500
    >>> cell_frequency_test(corner_first, 3, 3, 2).p_value < 1e-9
    True
    """
    matrix, mines = _incidence(layouts, width, height, mines, exclude)
    samples, allowed = matrix.shape
    if samples == 0 or mines in (0, allowed):
        return ChiSquareResult(0.0, 0, 1.0, samples)
    expected = samples * mines / allowed
    pearson = float(np.sum((matrix.sum(axis=0) - expected) ** 2) / expected)
    statistic = pearson * (allowed - 1) / (allowed - mines)
    return ChiSquareResult(statistic, allowed - 1, chi_square_sf(statistic, allowed - 1), samples)


def pair_frequency_test(
    layouts: Iterable[Iterable[Cell]],
    width: int,
    height: int,
    mines: int,
    *,
    exclude: Iterable[Cell] = (),
) -> ChiSquareResult:
    """Chi-square test that every pair of allowed cells holds two mines equally often.

    Catches samplers whose cells are each hit equally often but not independently
    (mines that clump, or avoid each other). Pairs overlap, so their counts are
    correlated; the statistic uses the exact covariance of the pair indicators
    under uniform layouts (a pair of pairs sharing ``j`` cells has both all mines
    with probability ``K^(4-j) / P^(4-j)``, falling powers) and is chi-square with
    ``rank`` degrees of freedom -- ``C(P, 2) - 1`` when ``2 <= K <= P - 2``.

    For small boards: ``C(P, 2)`` pairs, at most 2016 (``P <= 64``).

    Parameters
    ----------
    layouts, width, height, mines, exclude
        As for :func:`cell_frequency_test`.

    Returns
    -------
    ChiSquareResult

    Raises
    ------
    GameError
        As for :func:`cell_frequency_test`, or more than 64 allowed cells.

    Examples
    --------
    >>> from analyzer.play.placement import place_mines_floyd
    >>> rng = np.random.default_rng(0)
    >>> layouts = [place_mines_floyd(4, 2, 3, rng=rng) for _ in range(3000)]
    >>> result = pair_frequency_test(layouts, 4, 2, 3)
    >>> result.dof, result.p_value > 0.001
    (27, True)
    """
    matrix, mines = _incidence(layouts, width, height, mines, exclude)
    if matrix.shape[1] > 64:
        raise GameError(f"too many allowed cells for a pair test: {matrix.shape[1]} > 64")
    return _subset_chi_square(matrix, mines, 2)
