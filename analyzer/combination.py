"""Join independent components and the background into exact totals.

Component ``i`` has the polynomial ``P_i(x) = sum_m layouts_i[m] x^m``. The
background (``B`` unknown cells in no clue) contributes ``(1 + x)^B``. The global
mine-count equation asks for ``L`` mines among all unknown cells, so the number
of layouts is the coefficient of ``x^L`` in ``prod_i P_i(x) * (1 + x)^B``: a
dynamic programme over mine counts (polynomial products) followed by binomial
weights ``C(B, L - M)``.

The numerator of a group of component ``i`` needs the product of every *other*
component; prefix and suffix products give all of those with ``3k``
multiplications instead of ``k^2``.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

from analyzer.counting import ComponentCounts

__all__ = ["Combined", "combine", "poly_mul", "products_of_others", "binomial_row"]


def poly_mul(a: list[int], b: list[int], limit: int) -> list[int]:
    """Product of two polynomials (coefficient lists), truncated past degree ``limit``.

    >>> poly_mul([1, 1], [1, 2, 1], limit=10)
    [1, 3, 3, 1]
    >>> poly_mul([1, 1], [1, 2, 1], limit=1)
    [1, 3]
    """
    size = min(len(a) + len(b) - 1, limit + 1)
    out = [0] * max(size, 0)
    for i, ai in enumerate(a):
        if not ai or i >= size:
            continue
        for j in range(min(len(b), size - i)):
            bj = b[j]
            if bj:
                out[i + j] += ai * bj
    return out


def products_of_others(polys: list[list[int]], limit: int) -> tuple[list[int], list[list[int]]]:
    """The product of all polynomials, and for each one the product of all the others.

    Prefix and suffix products give every "all but one" product with ``3k``
    multiplications instead of ``k^2`` (and no division, which exact integer
    polynomials do not allow in general). Degrees past ``limit`` are dropped.

    >>> products_of_others([[1, 1], [1, 2], [0, 1]], limit=10)
    ([0, 1, 3, 2], [[0, 1, 2], [0, 1, 1], [1, 3, 2]])
    """
    prefix = [[1]]
    for p in polys:
        prefix.append(poly_mul(prefix[-1], p, limit))
    suffix = [[1]] * (len(polys) + 1)
    for i in range(len(polys) - 1, -1, -1):
        suffix[i] = poly_mul(polys[i], suffix[i + 1], limit)
    return prefix[-1], [poly_mul(prefix[i], suffix[i + 1], limit) for i in range(len(polys))]


def binomial_row(n: int, low: int, high: int) -> list[int]:
    """``[C(n, low), C(n, low + 1), ..., C(n, high)]`` in ``O(high - low)`` big-int steps.

    >>> binomial_row(5, 1, 4)
    [5, 10, 10, 5]
    """
    if high < low:
        return []
    row = [comb(n, low)]
    for j in range(low, high):
        row.append(row[-1] * (n - j) // (j + 1))
    return row


def _trim(poly: list[int], limit: int) -> list[int]:
    return list(poly[: limit + 1]) if poly else [0]


@dataclass(frozen=True, slots=True)
class Combined:
    """Exact totals over the whole board.

    Attributes
    ----------
    total : int
        Layouts of all unknown cells consistent with every clue and the mine total.
    group_numerators : tuple of tuple of int
        ``group_numerators[i][g]``: over all those layouts, the sum of the mines in
        group ``g`` of component ``i``.
    background_numerator : int
        Layouts with a mine on one given background cell.
    constrained_mines : dict of int to int
        Layouts by the number of mines among the constrained (non-background) cells.
    """

    total: int
    group_numerators: tuple[tuple[int, ...], ...]
    background_numerator: int
    constrained_mines: dict[int, int]


def combine(counts: list[ComponentCounts], background: int, mines_left: int) -> Combined:
    """Join component counts with a background of ``background`` cells and ``mines_left`` mines.

    Examples
    --------
    One component of one cell that must hold a mine, two background cells, two
    mines in all: the other mine is on either background cell.

    >>> c = ComponentCounts(layouts=(0, 1), solutions=1, engine="enumerate", group_mines=((0, 1),))
    >>> combined = combine([c], background=2, mines_left=2)
    >>> combined.total, combined.group_numerators, combined.background_numerator
    (2, ((2,),), 1)
    """
    limit = mines_left
    full, all_others = products_of_others([_trim(list(c.layouts), limit) for c in counts], limit)
    # Only C(B, j) for j = L - m with m a possible constrained mine count are
    # needed: one comb, then the ratio C(B, j + 1) = C(B, j) (B - j) / (j + 1).
    low = max(0, mines_left - (len(full) - 1))
    bg = binomial_row(background, low, mines_left)

    def bg_weight(m: int) -> int:
        j = mines_left - m
        return bg[j - low] if low <= j <= mines_left else 0

    constrained = {m: q * bg_weight(m) for m, q in enumerate(full) if q and bg_weight(m)}
    total = sum(constrained.values())

    numerators = []
    for c, others in zip(counts, all_others, strict=True):
        terms = [(extra, o) for extra, o in enumerate(others) if o]
        # Only mine counts the component can have carry weight.
        weights = [
            sum(o * bg_weight(m + extra) for extra, o in terms) if c.layouts[m] else 0
            for m in range(min(len(c.layouts), limit + 1))
        ]
        numerators.append(c.group_numerators(weights))

    background_numerator = 0
    if background:
        background_numerator = sum(
            q * comb(background - 1, mines_left - m - 1)
            for m, q in enumerate(full)
            if q and mines_left - m >= 1
        )
    return Combined(
        total=total,
        group_numerators=tuple(numerators),
        background_numerator=background_numerator,
        constrained_mines=constrained,
    )
