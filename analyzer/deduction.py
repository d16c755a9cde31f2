"""Exact deductions before counting: fix groups that every solution fixes.

Rules, applied until nothing changes, over the group equations:

* a clue that needs no more mines: its other groups are all safe;
* a clue that needs as many mines as it has unknown cells: all are mines;
* the subset rule: if one clue's groups are among another's, the cells the
  other has in addition hold the difference of their needs; when that is 0
  (or all of them) they are all safe (all mines).

Each rule only restates an equation, so every solution of the original system
satisfies what it fixes: the counts are unchanged, and the fixed groups leave
the equations, which cuts components into smaller ones.
"""

from __future__ import annotations

from dataclasses import dataclass

from analyzer.constraints import Clue, ConstraintSystem, Group

__all__ = ["Deduced", "deduce"]


@dataclass(frozen=True, slots=True)
class Deduced:
    """A system with fixed groups taken out.

    ``system`` holds the clues that still constrain something (their ``needed``
    reduced by the fixed mines) over the groups left, regrouped; ``fixed`` maps
    each fixed group of the original system to its number of mines (0 or its size).
    """

    system: ConstraintSystem
    fixed: tuple[tuple[Group, int], ...]


def deduce(system: ConstraintSystem) -> Deduced | None:
    """Apply the rules; ``None`` if they meet a contradiction (counting will name it).

    Examples
    --------
    The 0 clears cells 2 and 3 (flat indices); the subset rule between the two
    1s then clears cell 0; cells 1 and 5 share one mine, which stays to count:

    >>> from analyzer.board import Board
    >>> from analyzer.constraints import build_constraints

    >>> deduced = deduce(build_constraints(Board.from_text("4x2x2\\nHHHH\\n1H10\\n")))
    >>> [(group.cells, value) for group, value in deduced.fixed]
    [((2, 3), 0), ((0,), 0)]
    >>> [(clue.needed, clue.cells) for clue in deduced.system.clues]
    [(1, (1, 5)), (1, (1, 5))]
    """
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
    while queue:
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
