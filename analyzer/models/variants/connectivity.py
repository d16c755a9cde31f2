"""Connectivity (C, O) and the path (S) on a layout, and as constraints.

On a layout (0/1 a cell): whether a connectivity rule holds (:func:`is_connected`), the cuts
a layout that breaks it violates (:func:`connectivity_cuts`), the cycles that break a path
(:func:`path_cycles`); as constraints, connectivity as a flow (:func:`add_flow`).
"""

from __future__ import annotations

from collections.abc import Sequence

from ortools.sat.python import cp_model

from analyzer.models.variants.spec import Connectivity

__all__ = ["is_connected", "connectivity_cuts", "path_cycles", "add_flow"]


def is_connected(mines: Sequence[int], conn: Connectivity) -> bool:
    """Whether a layout (0/1 a cell) meets a connectivity rule.

    >>> line = Connectivity(((0, 1), (1, 2)), of_mines=True)
    >>> is_connected([1, 1, 0], line), is_connected([1, 0, 1], line)
    (True, False)
    >>> is_connected([1, 0, 1], Connectivity(((0, 1), (1, 2)), of_mines=True, border=(0, 2)))
    True
    """
    want = 1 if conn.of_mines else 0
    members = {i for i, v in enumerate(mines) if v == want}
    if not members:
        return True
    adjacency: dict[int, list[int]] = {i: [] for i in members}
    for a, b in conn.edges:
        if a in members and b in members:
            adjacency[a].append(b)
            adjacency[b].append(a)
    start = [i for i in conn.border if i in members] if conn.border else [min(members)]
    seen = set(start)
    stack = list(start)
    while stack:
        for j in adjacency[stack.pop()]:
            if j not in seen:
                seen.add(j)
                stack.append(j)
    return len(seen) == len(members)


def _components(members: set[int], adjacency: dict[int, list[int]]) -> list[set[int]]:
    found: list[set[int]] = []
    seen: set[int] = set()
    for start in sorted(members):
        if start in seen:
            continue
        group = {start}
        stack = [start]
        while stack:
            for j in adjacency.get(stack.pop(), ()):
                if j in members and j not in group:
                    group.add(j)
                    stack.append(j)
        seen |= group
        found.append(group)
    return found


def connectivity_cuts(layout: Sequence[int], conn: Connectivity) -> list[tuple[tuple[int, ...], int, int]]:
    """Cuts a layout that breaks ``conn`` violates, each valid for every layout that meets it.

    A cut ``(boundary, s, v)`` says: if ``s`` (and ``v``, when ``v >= 0``) are members, a
    member lies on ``boundary``: a set of non-members of the layout that every path from
    ``s`` to ``v`` (or to the border) crosses. For each group of members cut off (from the
    border, or from the next group), two such walls when they differ: the cells around the
    group (its inner side) and the cells of its side that touch the rest, or the border (its
    outer side); a layout that opens one wall from inside is then still cut by the other.

    >>> line = Connectivity(((0, 1), (1, 2), (2, 3)), of_mines=True)
    >>> connectivity_cuts([1, 0, 0, 1], line)
    [((1,), 0, 3), ((2,), 3, 0), ((2,), 0, 3), ((1,), 3, 0)]
    """
    want = 1 if conn.of_mines else 0
    members = {i for i, v in enumerate(layout) if v == want}
    adjacency: dict[int, list[int]] = {}
    for a, b in conn.edges:
        adjacency.setdefault(a, []).append(b)
        adjacency.setdefault(b, []).append(a)
    groups = _components(members, adjacency)
    border = set(conn.border)
    if border:
        outside = {i for group in groups if group & border for i in group}
        cut_off = [(group, outside) for group in groups if not group & border]
    elif len(groups) > 1:
        cut_off = [(group, groups[(k + 1) % len(groups)]) for k, group in enumerate(groups)]
    else:
        cut_off = []
    inner: list[tuple[tuple[int, ...], int, int]] = []
    outer: list[tuple[tuple[int, ...], int, int]] = []
    for group, rest in cut_off:
        v = min(rest) if not border else -1
        boundary = tuple(sorted({j for i in group for j in adjacency.get(i, ()) if j not in group}))
        inner.append((boundary, min(group), v))
        # The group's side: the cells reached from it without entering the rest. Its cells
        # next to the rest (or on the border, under a border) are a wall too.
        side = set(group)
        stack = list(group)
        while stack:
            for j in adjacency.get(stack.pop(), ()):
                if j not in side and j not in rest:
                    side.add(j)
                    stack.append(j)
        wall = tuple(
            sorted(i for i in side - group if i in border or any(j in rest for j in adjacency.get(i, ())))
        )
        if wall != boundary:
            outer.append((wall, min(group), v))
    return inner + outer


def _four_cycles(edges: Sequence[tuple[int, int]]) -> list[tuple[int, ...]]:
    """The cycles of four cells of a graph (each once): two cells with two neighbours in common.

    Only the cells two steps from a cell are asked (a 100x100 grid: 0.1 s, where every pair of
    cells took 90 s).

    >>> _four_cycles([(0, 1), (1, 3), (3, 2), (2, 0), (3, 4)])
    [(0, 1, 2, 3)]
    """
    around: dict[int, set[int]] = {}
    for a, b in edges:
        around.setdefault(a, set()).add(b)
        around.setdefault(b, set()).add(a)
    cycles = set()
    for a in around:
        for c in {c for b in around[a] for c in around[b]}:
            if a < c:
                common = sorted(around[a] & around[c])
                for k, b in enumerate(common):
                    for d in common[k + 1 :]:
                        cycles.add(tuple(sorted((a, b, c, d))))
    return sorted(cycles)


def path_cycles(layout: Sequence[int], edges: Sequence[tuple[int, int]]) -> list[tuple[int, ...]]:
    """The groups of mines that close a cycle, each mine touching exactly two others of its group.

    Under a path rule (mines touching along ``edges`` number one less than the mines, at most
    two a mine) a layout that is not one path always holds such a group; no layout of the
    rule has every cell of one a mine, so each is a cut (:meth:`VariantModel.solve`).
    """
    mines = {i for i, v in enumerate(layout) if v}
    adjacency: dict[int, list[int]] = {}
    for a, b in edges:
        if a in mines and b in mines:
            adjacency.setdefault(a, []).append(b)
            adjacency.setdefault(b, []).append(a)
    return [
        tuple(sorted(group))
        for group in _components(mines, adjacency)
        if len(group) > 2 and all(len(adjacency.get(i, ())) == 2 for i in group)
    ]


def add_flow(
    model: cp_model.CpModel,
    x: Sequence[cp_model.IntVar],
    conn: Connectivity,
    lit: cp_model.IntVar | None,
    root: int | None = None,
) -> None:
    """``conn`` as a flow, switched by ``lit`` (always on if ``None``): exact, and quick to satisfy.

    Every member takes in one unit more than it sends on; units leave the sources (the
    border members, or one root member when there is no border: ``root`` if given, a cell
    known to be a member) and travel along ``edges`` between members only. CP-SAT finds
    connected layouts quickly this way but may take long to prove there are none, which
    the cuts of :class:`VariantModel` do better.
    """
    n = len(x)
    enforce = [] if lit is None else [lit]
    is_member = [xi if conn.of_mines else xi.Not() for xi in x]
    inflow: list[list[cp_model.IntVar]] = [[] for _ in range(n)]
    outflow: list[list[cp_model.IntVar]] = [[] for _ in range(n)]
    for a, b in conn.edges:
        for u, v in ((a, b), (b, a)):
            f = model.new_int_var(0, n, f"flow{u}_{v}")
            model.add(f == 0).only_enforce_if(is_member[u].Not())
            model.add(f == 0).only_enforce_if(is_member[v].Not())
            outflow[u].append(f)
            inflow[v].append(f)
    sources = conn.border or ((root,) if root is not None else tuple(range(n)))
    gates = [is_member[i] for i in sources]
    if not conn.border and root is None:
        gates = [model.new_bool_var(f"root{i}") for i in sources]
        model.add(cp_model.LinearExpr.sum(gates) <= 1)
        for i, gate in zip(sources, gates, strict=True):
            model.add_implication(gate, is_member[i])
            model.add(cp_model.LinearExpr.sum(gates) >= 1).only_enforce_if([*enforce, is_member[i]])
    for i, gate in zip(sources, gates, strict=True):
        supply = model.new_int_var(0, n, f"source{i}")
        model.add(supply == 0).only_enforce_if(gate.Not())
        inflow[i].append(supply)
    for i in range(n):
        balance = cp_model.LinearExpr.sum(inflow[i]) - cp_model.LinearExpr.sum(outflow[i])
        model.add(balance == (x[i] if conn.of_mines else 1 - x[i])).only_enforce_if(enforce)
