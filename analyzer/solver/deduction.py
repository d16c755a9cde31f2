"""Exact deductions before counting: fix groups that every solution fixes.

Rules, applied until nothing changes, over the group equations:

* a clue that needs no more mines: its other groups are all safe;
* a clue that needs as many mines as it has unknown cells: all are mines;
* the subset rule: if one clue's groups are among another's, the cells the
  other has in addition hold the difference of their needs; when that is 0
  (or all of them) they are all safe (all mines);
* Gaussian elimination: in the reduced row echelon form of the equations, a
  row whose right-hand side is the largest (smallest) value its left side can
  take within the bounds ``0 <= x_g <= size_g`` fixes each of its groups at a
  bound.

Each rule only restates an equation, so every solution of the original system
satisfies what it fixes: the counts are unchanged, and the fixed groups leave
the equations, which cuts components into smaller ones.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import chain
from math import gcd

import numpy as np

from analyzer.limits import Deadline
from analyzer.solver.constraints import Clue, ConstraintSystem, Group
from analyzer.solver.kernels.deduction import closure

__all__ = ["Deduced", "deduce", "MAX_ELIMINATION_GROUPS"]

MAX_ELIMINATION_GROUPS = 600
"""Gaussian elimination runs on systems of at most this many groups (it is cubic at worst)."""


@dataclass(frozen=True, slots=True)
class Deduced:
    """A system with fixed groups taken out.

    ``system`` holds the clues that still constrain something (their ``needed``
    reduced by the fixed mines) over the groups left, regrouped; ``fixed`` maps
    each fixed group of the original system to its number of mines (0 or its size).
    """

    system: ConstraintSystem
    fixed: tuple[tuple[Group, int], ...]


def deduce(
    system: ConstraintSystem, *, elimination: bool = True, deadline: Deadline | float | None = None
) -> Deduced | None:
    """Apply the rules; ``None`` if they meet a contradiction (counting will name it).

    The single-clue and subset rules run compiled (:func:`analyzer.solver.kernels.deduction.closure`)
    to their fixpoint, which does not depend on the order the clues are tried in;
    elimination runs on what they leave, and the rules again on what it fixes.
    ``deadline`` is checked between those rounds and in every step of the
    elimination (:class:`~analyzer.errors.SolverTimeoutError` past it).

    Examples
    --------
    The 0 clears cells 2 and 3 (flat indices); the subset rule between the two
    1s then clears cell 0; cells 1 and 5 share one mine, which stays to count
    (``fixed`` lists the groups in the system's order):

    >>> from analyzer.board.board import Board
    >>> from analyzer.solver.constraints import build_constraints

    >>> deduced = deduce(build_constraints(Board.from_text("4x2x2\\nHHHH\\n1H10\\n")))
    >>> [(group.cells, value) for group, value in deduced.fixed]
    [((0,), 0), ((2, 3), 0)]
    >>> [(clue.needed, clue.cells) for clue in deduced.system.clues]
    [(1, (1, 5)), (1, (1, 5))]
    """
    until = Deadline.of(deadline)
    until.check("deductions")
    groups = system.groups
    sizes = [len(group.cells) for group in groups]
    group_off = np.zeros(len(groups) + 1, np.int64)
    np.cumsum([len(group.clues) for group in groups], out=group_off[1:])
    group_clues = np.fromiter(
        chain.from_iterable(group.clues for group in groups), np.int64, count=int(group_off[-1])
    )
    need = np.fromiter((clue.needed for clue in system.clues), np.int64, count=len(system.clues))
    size_array = np.array(sizes, np.int64)
    value = np.full(len(groups), -1, np.int64)
    use_elimination = elimination and len(groups) <= MAX_ELIMINATION_GROUPS
    while True:
        # The single-clue and subset rules, compiled, to their fixpoint.
        ok, left, free, clue_off, clue_groups = closure(size_array, group_off, group_clues, need, value)
        if not ok:
            return None
        until.check("deductions")
        fixes = value.tolist()
        offsets, members_flat = clue_off.tolist(), clue_groups.tolist()
        # The clues that still hold free groups, with those groups.
        live = np.flatnonzero(free).tolist()
        members = {c: [g for g in members_flat[offsets[c] : offsets[c + 1]] if fixes[g] < 0] for c in live}
        if not use_elimination:
            break
        needs = left.tolist()
        forced = _eliminate([(set(members[c]), needs[c]) for c in live], sizes, until)
        if forced is None:
            return None
        if not forced:
            break
        for g, v in forced:  # every forced group is free: rows hold free groups only
            value[g] = v

    until.check("deductions")
    if all(v < 0 for v in fixes):
        return Deduced(system, ())
    return _reduced(system, fixes, left.tolist(), live, members)


def _reduced(
    system: ConstraintSystem,
    fixes: list[int],
    needs: list[int],
    live: list[int],
    members: dict[int, list[int]],
) -> Deduced:
    """``system`` without the groups ``fixes`` fixes: the ``live`` clues (their ``needs`` left,
    their free groups ``members``), and the free groups regrouped by the live clues they sit in."""
    groups = system.groups
    renumber = {c: k for k, c in enumerate(live)}
    clues = tuple(
        Clue(
            system.clues[c].cell,
            needs[c],
            tuple(sorted(i for g in members[c] for i in groups[g].cells)),
        )
        for c in live
    )
    # Regroup: groups that now sit in the same live clues merge.
    by_signature: dict[tuple[int, ...], list[int]] = {}
    for g, group in enumerate(groups):
        if fixes[g] >= 0:
            continue
        signature = tuple(sorted(renumber[c] for c in group.clues if c in renumber))
        by_signature.setdefault(signature, []).extend(group.cells)
    new_groups = tuple(Group(tuple(sorted(cells)), signature) for signature, cells in by_signature.items())
    reduced = ConstraintSystem(
        board=system.board,
        unknown=system.unknown,
        mines_left=system.mines_left,
        clues=clues,
        groups=new_groups,
        background=system.background,
    )
    return Deduced(reduced, tuple((groups[g], v) for g, v in enumerate(fixes) if v >= 0))


def _eliminate(
    rows: list[tuple[set[int], int]], sizes: list[int], until: Deadline | None = None
) -> list[tuple[int, int]] | None:
    """Groups that the reduced row echelon form of the equations fixes at a bound.

    Rows are sparse (``{group: coefficient}``) with integer coefficients kept
    small by their gcd (fraction-free elimination). Rows are reduced in blocks
    linked by shared groups; a lone row gives nothing the single-clue rules
    miss. Returns ``None`` if a row cannot be met
    within the bounds ``0 <= x_g <= size_g``.

    With ``x0 + x1 = 1``, ``x1 + x2 = 1`` and ``x0 + x1 + x2 = 2`` over single
    cells, elimination leaves ``x1 = 0``, ``x0 = 1``, ``x2 = 1``:

    >>> sorted(_eliminate([({0, 1}, 1), ({1, 2}, 1), ({0, 1, 2}, 2)], [1, 1, 1]))
    [(0, 1), (1, 0), (2, 1)]
    """
    # Rows linked through shared groups, found by union-find over groups.
    parent: dict[int, int] = {}

    def root(g: int) -> int:
        while parent.setdefault(g, g) != g:
            parent[g] = parent[parent[g]]
            g = parent[g]
        return g

    for groups, _ in rows:
        first = root(min(groups))
        for g in groups:
            parent[root(g)] = first
    linked: dict[int, list[tuple[set[int], int]]] = {}
    for groups, rhs in rows:
        linked.setdefault(root(min(groups)), []).append((groups, rhs))
    forced: dict[int, int] = {}
    for block in linked.values():
        if len(block) < 2:
            continue
        found = _reduce_block(block, sizes, until or Deadline(None))
        if found is None:
            return None
        forced.update(found)
    return sorted(forced.items())


def _reduce_block(
    rows: list[tuple[set[int], int]], sizes: list[int], until: Deadline
) -> dict[int, int] | None:
    matrix: list[tuple[dict[int, int], int]] = [({g: 1 for g in groups}, rhs) for groups, rhs in rows]
    for r in range(len(matrix)):
        until.check("the elimination of the deductions")
        row, rhs = matrix[r]
        if not row:
            continue
        col = min(row)
        pivot = row[col]
        for s, (other, other_rhs) in enumerate(matrix):
            if s == r or col not in other:
                continue
            factor = other[col]
            # other := pivot * other - factor * row, then divide by the gcd.
            merged = {g: pivot * a for g, a in other.items()}
            for g, a in row.items():
                value = merged.get(g, 0) - factor * a
                if value:
                    merged[g] = value
                else:
                    merged.pop(g, None)
            new_rhs = pivot * other_rhs - factor * rhs
            divisor = gcd(new_rhs, *merged.values())
            if divisor > 1:
                merged = {g: a // divisor for g, a in merged.items()}
                new_rhs //= divisor
            matrix[s] = (merged, new_rhs)
    forced: dict[int, int] = {}
    for row, rhs in matrix:
        if not row:
            if rhs != 0:
                return None
            continue
        high = sum(a * sizes[g] for g, a in row.items() if a > 0)
        low = sum(a * sizes[g] for g, a in row.items() if a < 0)
        if rhs > high or rhs < low:
            return None
        if rhs in (high, low):
            at_top = rhs == high
            for g, a in row.items():
                forced[g] = sizes[g] if (a > 0) == at_top else 0
    return forced
