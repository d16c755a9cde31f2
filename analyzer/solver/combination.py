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
those top down (:func:`~analyzer.solver.polynomials.weights_of_others`). Its
polynomials are stored over their spans (fewest to most mines: a component
whose cells are mostly decided has a long run of zeros below its fewest mines),
and long products are one big-integer product each, so the join grows with the
spans, not with the number of cells (a half-revealed 300x300 board has 18,305
constrained cells in 887 components, whose spans sum to 520).
"""

from __future__ import annotations

from dataclasses import dataclass

from analyzer.limits import Deadline
from analyzer.solver.counting.types import ComponentCounts
from analyzer.solver.polynomials import binomial_row, product_tree, weights_of_others

__all__ = ["Combined", "Joined", "combine", "join"]


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


@dataclass(frozen=True, slots=True)
class Joined:
    """Components (as polynomials in the mine count) joined with the background.

    Attributes
    ----------
    total : int
        Layouts of all unknown cells consistent with every clue and the mine total.
    others : list of list of int
        ``others[i][m]``: what every other component and the background make of
        component ``i`` holding ``m`` mines (0 where it has no layout with ``m``).
        A group's numerator is its mines summed over the component's layouts
        with ``m`` mines, times ``others[i][m]``, summed over ``m``.
    background_numerator : int
        Layouts with a mine on one given background cell.
    constrained_mines : dict of int to int
        Layouts by the number of mines among the constrained (non-background) cells.
    """

    total: int
    others: list[list[int]]
    background_numerator: int
    constrained_mines: dict[int, int]


def join(
    polys: list[list[int]], background: int, mines_left: int, *, deadline: Deadline | float | None = None
) -> Joined:
    """Join component polynomials (layouts by mine count) with ``background`` cells under ``mines_left``.

    >>> joined = join([[0, 1]], background=2, mines_left=2)
    >>> joined.total, joined.others, joined.background_numerator
    (2, [[0, 2]], 1)
    """
    until = Deadline.of(deadline)
    until.check("the combination of the components")
    tree = product_tree(polys, mines_left, until)
    root = tree.root
    # Only C(B, j) for j = L - m with m a possible constrained mine count are
    # needed: one comb, then the ratio C(B, j + 1) = C(B, j) (B - j) / (j + 1).
    # The root's terms run from degree s to s + w - 1 <= L (its span), so j runs
    # over L - s - w + 1 .. L - s.
    span = len(root.coeffs)
    low = mines_left - root.shift - span + 1
    bg = binomial_row(background, low, mines_left - root.shift, until)
    # weight[k]: the background's layouts when the constrained cells hold root.shift + k mines.
    weight = [bg[span - 1 - k] if q else 0 for k, q in enumerate(root.coeffs)]
    constrained = {
        root.shift + k: q * w for k, (q, w) in enumerate(zip(root.coeffs, weight, strict=True)) if w and q
    }
    # A component's mine count m weighs what the others and the background make of it:
    # sum_j others[j] * C(B, L - m - j), from the product tree top down.
    others = weights_of_others(tree, weight, until, offset=root.shift)
    background_numerator = 0
    if background:
        # C(B - 1, j - 1) = C(B, j) j / B (exactly): from the row above, no new binomial.
        pairs = enumerate(zip(root.coeffs, weight, strict=True))
        background_numerator = sum(
            [q * (w * (mines_left - root.shift - k) // background) for k, (q, w) in pairs if q]
        )
    return Joined(sum(constrained.values()), others, background_numerator, constrained)


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
    joined = join([list(c.layouts) for c in counts], background, mines_left, deadline=until)
    numerators = []
    for c, weights in zip(counts, joined.others, strict=True):
        until.check("the combination of the components")
        numerators.append(c.group_numerators(weights))  # 0 where the component has no layout
    return Combined(
        total=joined.total,
        group_numerators=tuple(numerators),
        background_numerator=joined.background_numerator,
        constrained_mines=joined.constrained_mines,
    )
