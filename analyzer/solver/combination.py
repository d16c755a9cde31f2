"""Join independent components and the background into exact totals.

Component ``i`` has the polynomial ``P_i(x) = sum_m layouts_i[m] x^m``. The
background (``B`` unknown cells in no clue) contributes ``(1 + x)^B``. The global
mine-count equation asks for ``L`` mines among all unknown cells, so the number
of layouts is the coefficient of ``x^L`` in ``prod_i P_i(x) * (1 + x)^B``: a
dynamic programme over mine counts (polynomial products) followed by binomial
weights ``C(B, L - M)``.

The numerator of a group of component ``i`` needs, for each of its mine counts
``m``, what every *other* component and the background make of it:
``sum_j others_i[j] C(B, L - m - j)``. A balanced product tree gives all of
those top down (:func:`~analyzer.solver.polynomials.weights_of_others`), for
about the square of the total degree in multiplications, where products of all
the others for each component would cost that square once per component.
"""

from __future__ import annotations

from dataclasses import dataclass

from analyzer.limits import Deadline
from analyzer.solver.counting.types import ComponentCounts
from analyzer.solver.polynomials import binomial_row, product_tree, weights_of_others

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
    until.check("the combination of the components")
    limit = mines_left
    polys = [_trim(list(c.layouts), limit) for c in counts]
    levels = product_tree(polys, limit, until)
    full = levels[-1][0]
    # Only C(B, j) for j = L - m with m a possible constrained mine count are
    # needed: one comb, then the ratio C(B, j + 1) = C(B, j) (B - j) / (j + 1).
    low = max(0, mines_left - (len(full) - 1))
    bg = binomial_row(background, low, mines_left, until)

    def bg_weight(m: int) -> int:
        j = mines_left - m
        return bg[j - low] if low <= j <= mines_left else 0

    weight = [bg_weight(m) if q else 0 for m, q in enumerate(full)]
    constrained = {m: q * weight[m] for m, q in enumerate(full) if q and weight[m]}
    total = sum(constrained.values())

    # A component's mine count m weighs what the others and the background make of it:
    # sum_j others[j] * C(B, L - m - j), from the product tree top down.
    numerators = []
    for c, weights in zip(counts, weights_of_others(levels, weight, until), strict=True):
        until.check("the combination of the components")
        numerators.append(c.group_numerators(weights))  # 0 where the component has no layout

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
