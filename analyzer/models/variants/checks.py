"""A layout checked in Python, and many layouts proved at once without enumerating them.

The clues and the local board rules as predicates over a layout (:func:`clue_holds`,
:func:`layout_checks`), and the cells of one layout that flip freely (:func:`free_cells`):
the enumeration (:mod:`analyzer.models.variants.layouts`) refuses a count past its limit at
once with them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from analyzer.models.variants.spec import KNOWN_MINE, BoardRuleSpec, ClueSpec

__all__ = ["clue_holds", "free_cells", "layout_checks"]


def clue_holds(clue: ClueSpec, layout: Sequence[int]) -> bool:
    """Whether a layout (0/1 a cell, by the clue's cell numbers) meets the clue, as its
    CP-SAT constraints read it (:func:`_add_clue`).

    >>> clue_holds(ClueSpec(0, ((1, 1), (2, 2)), (2, 3)), [0, 1, 1])
    True
    >>> from analyzer.models.variants.spec import KNOWN_SAFE
    >>> ring = ClueSpec(0, (), (2,), ring=(0, KNOWN_SAFE, 1, KNOWN_SAFE, 2, KNOWN_SAFE, 3, KNOWN_SAFE))
    >>> clue_holds(ring, [1, 1, 0, 0]), clue_holds(ring, [1, 0, 0, 0])
    (True, False)
    """
    if clue.cubes is not None:
        return any(all(layout[i] == v for i, v in cube) for cube in clue.cubes)
    if clue.ring is not None:
        ring = [layout[i] if i >= 0 else int(i == KNOWN_MINE) for i in clue.ring]
        value = sum(1 for k, here in enumerate(ring) if here and not ring[k - 1]) + int(all(ring))
        return value in clue.allowed
    if clue.rays is not None:
        value = 1
        for ray in clue.rays:
            clear = True
            for i in ray:
                clear = clear and not (i >= 0 and layout[i])
                value += clear
        return value in clue.allowed
    return sum(coef * layout[i] for i, coef in clue.terms) in clue.allowed


#: The most chosen cells in one constraint's scope that :func:`free_cells` flips together.
_FREE_IN_SCOPE = 4


def free_cells(
    layout: Sequence[int], checks: Sequence[tuple[tuple[int, ...], Any]], cells: Sequence[int]
) -> tuple[list[int], list[tuple[int, int]]]:
    """Cells of ``cells`` that may be flipped in ``layout`` all at once or in any subset, every
    check still met, then pairs of the others (a mine and a safe cell that flip together):
    a proof of many layouts without enumerating them (with ``a`` mines and ``b`` safe cells
    alone and ``p`` pairs, ``C(a + b, a) * 2 ** p`` layouts of the same mine total).

    ``checks``: ``(scope, holds)``, ``holds(layout)`` true when the constraint is met; a
    check reads only its scope. A cell (or pair) joins when, for every check that reads it,
    every subset of the cells and pairs chosen in that scope (at most :data:`_FREE_IN_SCOPE`)
    flipped with it still meets the check: then every subset of the answer does (each
    check sees only its own cells flipped).

    >>> one = ((0, 1), lambda v: v[0] + v[1] <= 1)
    >>> free_cells([0, 0, 0], [one], [0, 1, 2])
    ([0, 2], [])
    >>> free_cells([1, 0, 0], [((0, 1, 2), lambda v: sum(v) == 1)], [0, 1, 2])
    ([], [(0, 1)])
    """
    reading: dict[int, list[int]] = {}
    for k, (scope, _) in enumerate(checks):
        for i in scope:
            reading.setdefault(i, []).append(k)
    chosen: dict[int, list[tuple[int, ...]]] = {}
    trial = list(layout)

    def joins(unit: tuple[int, ...]) -> bool:
        for k in sorted({k for i in unit for k in reading.get(i, ())}):
            others = chosen.get(k, [])
            if len(others) >= _FREE_IN_SCOPE:
                return False
            for mask in range(1 << len(others)):
                flipped = [*unit, *(i for b, o in enumerate(others) if mask >> b & 1 for i in o)]
                for i in flipped:
                    trial[i] = 1 - trial[i]
                holds = checks[k][1](trial)
                for i in flipped:
                    trial[i] = 1 - trial[i]
                if not holds:
                    return False
        for k in {k for i in unit for k in reading.get(i, ())}:
            chosen.setdefault(k, []).append(unit)
        return True

    alone = [c for c in cells if joins((c,))]
    left = set(cells) - set(alone)
    pairs: list[tuple[int, int]] = []
    for a in sorted(left):
        if a not in left:
            continue
        near = sorted({j for k in reading.get(a, ()) for j in checks[k][0]} & left - {a})
        for b in near:
            if layout[a] != layout[b] and joins((a, b)):
                pairs.append((a, b))
                left -= {a, b}
                break
    return alone, pairs


def _rule_checks(rule: BoardRuleSpec) -> list[tuple[tuple[int, ...], Any]] | None:
    """A board rule as :func:`free_cells`' checks, ``None`` for a rule over the whole board
    (B's equal sums, connectivity, a path)."""
    if rule.equal or rule.connected or rule.path:
        return None
    checks: list[tuple[tuple[int, ...], Any]] = []
    for cells, low, high in rule.sums:
        checks.append(
            (tuple(cells), lambda v, cells=cells, low=low, high=high: low <= sum(v[i] for i in cells) <= high)
        )
    for cell, cells, low, high in rule.implied:
        checks.append(
            (
                (cell, *cells),
                lambda v, cell=cell, cells=cells, low=low, high=high: (
                    not v[cell] or low <= sum(v[i] for i in cells) <= high
                ),
            )
        )
    for pattern in rule.forbidden:
        checks.append(
            (tuple(i for i, _ in pattern), lambda v, pattern=pattern: not all(v[i] == b for i, b in pattern))
        )
    return checks


def layout_checks(
    clues: Sequence[ClueSpec], rules: Sequence[BoardRuleSpec]
) -> list[tuple[tuple[int, ...], Any]] | None:
    """The clues and board rules as :func:`free_cells`' checks; ``None`` when a rule reads
    the whole board (B, C, O, S)."""
    checks: list[tuple[tuple[int, ...], Any]] = [
        (clue.scope(), lambda v, clue=clue: clue_holds(clue, v)) for clue in clues
    ]
    for rule in rules:
        more = _rule_checks(rule)
        if more is None:
            return None
        checks += more
    return checks
