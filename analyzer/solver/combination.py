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

import math
from dataclasses import dataclass

from analyzer.limits import Deadline
from analyzer.solver.counting.types import ComponentCounts
from analyzer.solver.polynomials import Shifted, binomial_row, product_tree, weights_of_others

__all__ = ["Combined", "Joined", "combine", "join"]

_ONE_POLY = Shifted(0, (1,))


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

    A component with one possible mine count (``c x^s``, most of a large
    mid-game's components) does not enter the product tree: the others'
    product is ``C x^S`` times the tree's (``C``, ``S`` the product of their
    ``c`` and the sum of their ``s``), so the tree's vectors are ``C`` times
    smaller and its levels fewer; such a component's own weight is
    ``total / c`` (its layouts times it make the total).

    >>> joined = join([[0, 1]], background=2, mines_left=2)
    >>> joined.total, joined.others, joined.background_numerator
    (2, [[0, 2]], 1)
    >>> join([[0, 2], [1, 1]], background=1, mines_left=2).others
    [[0, 2], [2, 2]]
    """
    until = Deadline.of(deadline)
    until.check("the combination of the components")
    singles: dict[int, tuple[int, int]] = {}  # component: (its one mine count, its layouts)
    for i, p in enumerate(polys):
        terms = [m for m, q in enumerate(p) if q]
        if len(terms) == 1:
            singles[i] = (terms[0], p[terms[0]])
    shift = sum(m for m, _ in singles.values())
    if shift > mines_left:  # no layout: let the tree find it
        singles, shift = {}, 0
    scale = math.prod([q for _, q in singles.values()])
    rest = [i for i in range(len(polys)) if i not in singles]
    if len(rest) > 1:
        tree = product_tree([polys[i] for i in rest], mines_left - shift, until)
        root = tree.root
    else:  # no product to make (small boards mostly)
        root = Shifted.of(polys[rest[0]], mines_left - shift) if rest else _ONE_POLY
    at = shift + root.shift  # the fewest constrained mines
    # Only C(B, j) for j = L - m with m a possible constrained mine count are
    # needed: one comb, then the ratio C(B, j + 1) = C(B, j) (B - j) / (j + 1).
    # The root's terms run from degree s to s + w - 1 <= L (its span), so j runs
    # over L - s - w + 1 .. L - s.
    span = len(root.coeffs)
    low = mines_left - at - span + 1
    bg = binomial_row(background, low, mines_left - at, until)
    # weight[k]: the background's layouts when the constrained cells hold at + k mines.
    weight = [bg[span - 1 - k] if q else 0 for k, q in enumerate(root.coeffs)]
    constrained = {
        at + k: scale * q * w for k, (q, w) in enumerate(zip(root.coeffs, weight, strict=True)) if w and q
    }
    total = sum(constrained.values())
    # A component's mine count m weighs what the others and the background make of it:
    # sum_j others[j] * C(B, L - m - j), from the product tree top down.
    if len(rest) > 1:
        in_tree = weights_of_others(tree, weight, until, offset=root.shift)
    else:  # one polynomial: the others are the background alone
        in_tree = [
            [0] * root.shift + [w if q else 0 for q, w in zip(root.coeffs, weight, strict=True)]
        ] * len(rest)
    others: list[list[int]] = [[] for _ in polys]
    for i, vector in zip(rest, in_tree, strict=True):
        length = min(len(polys[i]), mines_left + 1)
        others[i] = [scale * r for r in vector] + [0] * (length - len(vector))
    for i, (m, q) in singles.items():
        vector = [0] * min(len(polys[i]), mines_left + 1)
        vector[m] = total // q
        others[i] = vector
    background_numerator = 0
    if background:
        # C(B - 1, j - 1) = C(B, j) j / B (exactly): from the row above, no new binomial.
        pairs = enumerate(zip(root.coeffs, weight, strict=True))
        background_numerator = scale * sum(
            [q * (w * (mines_left - at - k) // background) for k, (q, w) in pairs if q]
        )
    return Joined(total, others, background_numerator, constrained)


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
