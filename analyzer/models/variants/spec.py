"""A variant position as plain data: the cells, the clues and board rules over them, the total.

:mod:`analyzer.variants.constraints` builds a :class:`VariantSpec` from the rules; the rest of
:mod:`analyzer.models.variants` reads it (the CP-SAT model, the enumeration, the symmetries).
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["KNOWN_SAFE", "KNOWN_MINE", "ClueSpec", "Connectivity", "BoardRuleSpec", "VariantSpec"]

#: In a ring or a line of sight (P, E): a cell known safe (or off the board), a cell known a mine.
KNOWN_SAFE = -1
KNOWN_MINE = -2


@dataclass(frozen=True, slots=True)
class ClueSpec:
    """A clue: ``sum(coef * x[i] for i, coef in terms)`` is one of ``allowed``.

    With ``cubes`` (W) the clue is instead: one of the cubes holds, a cube being
    ``(cell, value)`` pairs that must all hold (no cube: the clue cannot hold). With
    ``ring`` (P: the 8 cells around, in ring order) the number of runs of mines is one of
    ``allowed``; with ``rays`` (E: the lines of sight, nearest first) one plus the safe
    cells seen before a mine. Their entries are cells, :data:`KNOWN_SAFE` or :data:`KNOWN_MINE`.
    """

    cell: int
    terms: tuple[tuple[int, int], ...]
    allowed: tuple[int, ...]
    cubes: tuple[tuple[tuple[int, int], ...], ...] | None = None
    ring: tuple[int, ...] | None = None
    rays: tuple[tuple[int, ...], ...] | None = None

    def scope(self) -> tuple[int, ...]:
        """The cells the clue reads (hidden ones, by index)."""
        found: set[int] = {i for i, _ in self.terms}
        found.update(i for cube in self.cubes or () for i, _ in cube)
        found.update(i for i in self.ring or () if i >= 0)
        found.update(i for ray in self.rays or () for i in ray if i >= 0)
        return tuple(sorted(found))

    def renumbered(self, index: dict[int, int]) -> ClueSpec:
        """The clue with its cells renumbered (known entries kept)."""

        def one(i: int) -> int:
            return index[i] if i >= 0 else i

        return ClueSpec(
            self.cell,
            tuple((index[i], c) for i, c in self.terms),
            self.allowed,
            None
            if self.cubes is None
            else tuple(tuple((index[i], v) for i, v in cube) for cube in self.cubes),
            None if self.ring is None else tuple(one(i) for i in self.ring),
            None if self.rays is None else tuple(tuple(one(i) for i in ray) for ray in self.rays),
        )


@dataclass(frozen=True, slots=True)
class Connectivity:
    """The member cells (mines if ``of_mines``, else safe cells) are connected along ``edges``.

    With ``border`` empty they form one group; otherwise every member is joined to
    a member among ``border``.
    """

    edges: tuple[tuple[int, int], ...]
    of_mines: bool
    border: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class BoardRuleSpec:
    """A board rule as constraints over the cells.

    ``sums``: ``(cells, low, high)``, each sum within bounds. ``implied``:
    ``(cell, cells, low, high)``, the sum within bounds when ``cell`` is a mine.
    ``equal``: groups of cells whose sums are all equal. ``connected``: connectivity (lazy cuts).
    ``path``: edges whose both ends are mines number one less than the mines (none if no mine).
    ``forbidden``: patterns ``((cell, value), ...)`` that no layout of the rule shows in full
    (consequences of the rule stated locally, which CP-SAT propagates at once).
    """

    letter: str
    sums: tuple[tuple[tuple[int, ...], int, int], ...] = ()
    implied: tuple[tuple[int, tuple[int, ...], int, int], ...] = ()
    equal: tuple[tuple[int, ...], ...] = ()
    connected: tuple[Connectivity, ...] = ()
    path: tuple[tuple[int, int], ...] = ()
    forbidden: tuple[tuple[tuple[int, int], ...], ...] = ()


@dataclass(frozen=True, slots=True)
class VariantSpec:
    """A variant position as constraints: ``size`` cells, ``fixed`` values, the members.

    ``symmetries``: permutations of the cells (``p[i]``, where cell ``i`` goes) that map
    the position onto itself, every member onto one of the same kind (:func:`symmetries`);
    a layout's image under one is a layout too. The identity is left out.
    """

    size: int
    fixed: tuple[tuple[int, int], ...]
    clues: tuple[ClueSpec, ...]
    rules: tuple[BoardRuleSpec, ...]
    total: int
    unknown: tuple[int, ...] = field(default=())
    symmetries: tuple[tuple[int, ...], ...] = field(default=())
