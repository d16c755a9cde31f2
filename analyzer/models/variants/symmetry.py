"""The symmetries of a variant position: the permutations of its cells that map it onto itself."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from analyzer.models.variants.building import _looked, check_building
from analyzer.models.variants.spec import VariantSpec

__all__ = ["symmetries"]


def _canonical(spec: VariantSpec, p: Sequence[int], deadline: float | None = None) -> tuple[Any, ...]:
    """``spec`` with its cells renamed by ``p``, in a form where the order of members, of
    their cells and of a ring's start and direction do not count (the clues a multiset;
    each board rule stays in its place, so each must map onto itself)."""

    def each(items: Sequence[Any]) -> Iterator[Any]:
        return _looked(items, deadline)

    def cell(i: int) -> int:
        return p[i] if i >= 0 else i  # KNOWN_SAFE, KNOWN_MINE stay

    def pairs(items: Sequence[tuple[int, int]]) -> frozenset[tuple[int, int]]:
        return frozenset((cell(i), v) for i, v in items)

    def cycle(ring: Sequence[int]) -> tuple[int, ...]:  # P counts runs: any start, either way
        mapped = [cell(i) for i in ring]
        turns = [mapped[k:] + mapped[:k] for k in range(len(mapped))]
        return min(tuple(t) for way in (turns, [t[::-1] for t in turns]) for t in way)

    clues: dict[tuple[Any, ...], int] = {}
    for clue in each(spec.clues):
        key = (
            pairs(clue.terms),
            clue.allowed,
            None if clue.cubes is None else frozenset(pairs(cube) for cube in clue.cubes),
            None if clue.ring is None else cycle(clue.ring),
            None if clue.rays is None else frozenset(tuple(cell(i) for i in ray) for ray in clue.rays),
        )
        clues[key] = clues.get(key, 0) + 1
    rules = tuple(
        (
            rule.letter,
            frozenset((frozenset(map(cell, cells)), low, high) for cells, low, high in each(rule.sums)),
            frozenset(
                (cell(c), frozenset(map(cell, cells)), low, high)
                for c, cells, low, high in each(rule.implied)
            ),
            frozenset(frozenset(map(cell, group)) for group in each(rule.equal)),
            tuple(
                (
                    frozenset(frozenset((cell(a), cell(b))) for a, b in each(conn.edges)),
                    conn.of_mines,
                    frozenset(map(cell, conn.border)),
                )
                for conn in rule.connected
            ),
            frozenset(frozenset((cell(a), cell(b))) for a, b in each(rule.path)),
            frozenset(pairs(pattern) for pattern in each(rule.forbidden)),
        )
        for rule in spec.rules
    )
    return pairs(spec.fixed), frozenset(clues.items()), rules, spec.total


def symmetries(
    spec: VariantSpec, candidates: Sequence[Sequence[int]], *, deadline: float | None = None
) -> tuple[tuple[int, ...], ...]:
    """The ``candidates`` (permutations of the cells) that map ``spec`` onto itself.

    ``deadline``: ``check_building`` looks at it as the constraints are compared.

    A candidate is kept when the fixed cells, the clues (as a multiset) and each board
    rule are the same after renaming the cells: then the image of any layout meets every
    member, and a cell's orbit is all certain or all not, with the same value. The kept
    ones of a group of candidates (the square's turns and flips) form a group again.

    >>> empty = VariantSpec(size=4, fixed=(), clues=(), rules=(), total=1, unknown=(0, 1, 2, 3))
    >>> symmetries(empty, [(1, 0, 3, 2), (2, 3, 0, 1)])
    ((1, 0, 3, 2), (2, 3, 0, 1))
    >>> one = VariantSpec(size=4, fixed=((0, 0),), clues=(), rules=(), total=1, unknown=(1, 2, 3))
    >>> symmetries(one, [(1, 0, 3, 2), (0, 2, 1, 3)])
    ((0, 2, 1, 3),)
    """
    identity = range(spec.size)
    kept = []
    base: tuple[Any, ...] | None = None
    for p in candidates:
        check_building(deadline)
        p = tuple(p)
        if sorted(p) != list(identity) or p == tuple(identity):
            continue
        if frozenset((p[i], v) for i, v in spec.fixed) != frozenset(spec.fixed):
            continue  # the cheap test first: most positions of a game are not symmetric
        if base is None:
            base = _canonical(spec, identity, deadline)
        if _canonical(spec, p, deadline) == base:
            kept.append(p)
    return tuple(kept)
