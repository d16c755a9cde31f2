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

from analyzer.limits import Deadline
from analyzer.solver.counting.types import ComponentCounts
from analyzer.solver.polynomials import binomial_row, products_of_others

__all__ = ["Combined", "combine"]


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


def combine(
    counts: list[ComponentCounts],
    background: int,
    mines_left: int,
    *,
    deadline: Deadline | float | None = None,
) -> Combined:
    """Join component counts with a background of ``background`` cells and ``mines_left`` mines.

    ``deadline`` is checked between components (:class:`~analyzer.errors.SolverTimeoutError`).

    Examples
    --------
    One component of one cell that must hold a mine, two background cells, two
    mines in all: the other mine is on either background cell.

    >>> c = ComponentCounts(layouts=(0, 1), solutions=1, engine="enumerate", group_mines=((0, 1),))
    >>> combined = combine([c], background=2, mines_left=2)
    >>> combined.total, combined.group_numerators, combined.background_numerator
    (2, ((2,),), 1)
    """
    until = Deadline.of(deadline)
    limit = mines_left
    full, all_others = products_of_others([_trim(list(c.layouts), limit) for c in counts], limit, until)
    # Only C(B, j) for j = L - m with m a possible constrained mine count are
    # needed: one comb, then the ratio C(B, j + 1) = C(B, j) (B - j) / (j + 1).
    low = max(0, mines_left - (len(full) - 1))
    bg = binomial_row(background, low, mines_left, until)

    def bg_weight(m: int) -> int:
        j = mines_left - m
        return bg[j - low] if low <= j <= mines_left else 0

    constrained = {m: q * bg_weight(m) for m, q in enumerate(full) if q and bg_weight(m)}
    total = sum(constrained.values())

    numerators = []
    for c, others in zip(counts, all_others, strict=True):
        until.check("the combination of the components")
        terms = [(extra, o) for extra, o in enumerate(others) if o]
        # Only mine counts the component can have carry weight.
        weights = []
        for m in range(min(len(c.layouts), limit + 1)):
            if c.layouts[m]:
                until.check("the combination of the components")
                weights.append(sum(o * bg_weight(m + extra) for extra, o in terms))
            else:
                weights.append(0)
        numerators.append(c.group_numerators(weights))

    background_numerator = 0
    if background:
        # C(B - 1, j - 1) = C(B, j) j / B (exactly): from the row above, no new binomial.
        background_numerator = sum(
            q * (bg_weight(m) * (mines_left - m) // background)
            for m, q in enumerate(full)
            if q and mines_left - m >= 1
        )
    return Combined(
        total=total,
        group_numerators=tuple(numerators),
        background_numerator=background_numerator,
        constrained_mines=constrained,
    )
