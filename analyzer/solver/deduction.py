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
from math import gcd

from analyzer.limits import Deadline
from analyzer.solver.constraints import Clue, ConstraintSystem, Group

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

    ``deadline`` is checked every few thousand steps of the rules and of the
    elimination (:class:`~analyzer.errors.SolverTimeoutError` past it).

    Examples
    --------
    The 0 clears cells 2 and 3 (flat indices); the subset rule between the two
    1s then clears cell 0; cells 1 and 5 share one mine, which stays to count:

    >>> from analyzer.board.board import Board
    >>> from analyzer.solver.constraints import build_constraints

    >>> deduced = deduce(build_constraints(Board.from_text("4x2x2\\nHHHH\\n1H10\\n")))
    >>> [(group.cells, value) for group, value in deduced.fixed]
    [((2, 3), 0), ((0,), 0)]
    >>> [(clue.needed, clue.cells) for clue in deduced.system.clues]
    [(1, (1, 5)), (1, (1, 5))]
    """
    until = Deadline.of(deadline)
    until.check("deductions")
    groups = system.groups
    sizes = [len(group.cells) for group in groups]
    n_eq = len(system.clues)
    members: list[set[int]] = [set() for _ in range(n_eq)]
    for g, group in enumerate(groups):
        for c in group.clues:
            members[c].add(g)
    need = [clue.needed for clue in system.clues]
    room = [sum(sizes[g] for g in members[c]) for c in range(n_eq)]
    eqs_of = [list(group.clues) for group in groups]
    value: dict[int, int] = {}

    def fix(g: int, v: int) -> bool:
        if g in value:
            return value[g] == v
        value[g] = v
        for c in eqs_of[g]:
            members[c].discard(g)
            need[c] -= v
            room[c] -= sizes[g]
            if not 0 <= need[c] <= room[c]:
                return False
            queue.add(c)
        return True

    queue = set(range(n_eq))
    for c in range(n_eq):
        if not 0 <= need[c] <= room[c]:
            return None
    use_elimination = elimination and len(groups) <= MAX_ELIMINATION_GROUPS
    steps = 0
    while queue:
        while queue:
            steps += 1
            if steps & 1023 == 0:
                until.check("deductions")
            c = queue.pop()
            if not members[c]:
                continue
            if need[c] == 0 or need[c] == room[c]:
                full = need[c] == room[c]
                for g in list(members[c]):
                    if not fix(g, sizes[g] if full else 0):
                        return None
                continue
            # Subset rule against clues sharing a group with c.
            neighbours = {d for g in members[c] for d in eqs_of[g] if d != c and members[d]}
            for d in neighbours:
                if members[c] <= members[d]:
                    extra = members[d] - members[c]
                    diff = need[d] - need[c]
                    extra_room = room[d] - room[c]
                    if not 0 <= diff <= extra_room:
                        return None
                    if extra and (diff == 0 or diff == extra_room):
                        for g in list(extra):
                            if not fix(g, sizes[g] if diff else 0):
                                return None
                if not members[c]:
                    break
        if use_elimination:
            forced = _eliminate([(members[c], need[c]) for c in range(n_eq) if members[c]], sizes, until)
            if forced is None:
                return None
            for g, v in forced:
                if not fix(g, v):
                    return None

    until.check("deductions")
    if not value:
        return Deduced(system, ())
    live = [c for c in range(n_eq) if members[c]]
    renumber = {c: k for k, c in enumerate(live)}
    clues = tuple(
        Clue(
            system.clues[c].cell,
            need[c],
            tuple(sorted(i for g in members[c] for i in groups[g].cells)),
        )
        for c in live
    )
    # Regroup: groups that now sit in the same live clues merge.
    by_signature: dict[tuple[int, ...], list[int]] = {}
    for g, group in enumerate(groups):
        if g in value:
            continue
        signature = tuple(sorted(renumber[c] for c in group.clues if members[c]))
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
    return Deduced(reduced, tuple((groups[g], v) for g, v in value.items()))


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
