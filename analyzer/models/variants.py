"""CP-SAT formulations of variant rules: certain cells, infeasible cores, solution counts.

The problem is given as plain data (:class:`VariantSpec`), built from the rules by
:mod:`analyzer.variants`: one Boolean ``x_i`` a cell (1: a mine), some fixed
(revealed cells are safe, flags are mines), and *members* that each hold only when
their literal is on, so that an explanation can switch them off one by one:

* a clue: ``sum(coef * x) in allowed`` (a Liar clue allows two values, a
  Negation clue a value and its opposite); the clues that are not counts: W, one of
  its ring patterns (*cubes*: cells with their values; a table constraint), P, the
  number of run starts around the ring (a mine after a cell that is not; one Boolean
  a start) in ``allowed``, E, one plus the cells of each line of sight with no mine
  before them (one Boolean a cell) in ``allowed``;
* a board rule: sums within bounds (Q, T, A), sums within bounds when a cell is a
  mine (D, H), sums that are all equal (B: one more integer variable), and
  connectivity (C, O), added lazily: a layout CP-SAT finds that breaks it adds the
  cuts it violates (a group of members and another member, or a group away from the
  border: some cell around the group is a member), and the model is solved again;
  from round 8 (:data:`FLOW_AFTER`) a copy with connectivity as a flow (:func:`add_flow`) is asked
  briefly, for a layout or its proof that there is none, and again, longer, as the rounds
  double (cuts alone took thousands of rounds on open O boards);
  a path (S): a circuit (CP-SAT's ``add_circuit``) through every mine and a node of its
  own, two mines side by side always neighbours on it (:func:`_add_path_circuit`); where
  the circuit is left out (the enumeration, the generator), the mine contacts along the
  edges, one Boolean each, number one less than the mines (with connectivity and at most
  two contacts a mine, the mines form a single path);
  with each board rule, its local consequences (the same layouts, refuted at once
  instead of cut by cut): forbidden patterns (O: no 2x2 checkerboard) and, for each
  connected set, a member off the border has a member beside it;
* the mine total.

Counting enumerates the layouts of the model without connectivity and keeps those
that :func:`is_connected` accepts.
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ortools.sat.python import cp_model

from analyzer.errors import SolverTimeoutError
from analyzer.limits import Deadline
from analyzer.models.cpsat import _solver
from analyzer.solver.counting.types import Accumulator, ComponentCounts

__all__ = [
    "ClueSpec",
    "Connectivity",
    "BoardRuleSpec",
    "VariantSpec",
    "VariantModel",
    "symmetries",
    "is_connected",
    "enumerate_layouts",
    "count_groups",
    "count_cubes",
    "KNOWN_SAFE",
    "KNOWN_MINE",
    "add_flow",
    "path_cycles",
    "FLOW_AFTER",
    "FLOW_EFFORT",
    "FLOW_SOON",
    "CUT_EFFORT",
    "ASSUMPTION_EFFORT",
    "DEFER_AFTER",
    "JOINT_EFFORT",
]

#: Constraints added between two looks at the deadline while a model is built.
_CHECK_EVERY = 256

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


def _looked(items: Sequence[Any], deadline: float | None) -> Iterator[Any]:
    """``items``, the deadline looked at every :data:`_CHECK_EVERY` of them."""
    for k, item in enumerate(items):
        if k % _CHECK_EVERY == 0:
            check_building(deadline)
        yield item


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


def _add_rule(
    model: cp_model.CpModel,
    x: list[cp_model.IntVar],
    rule: BoardRuleSpec,
    lit: cp_model.IntVar,
    implied: bool = True,
    circuit: bool = True,
    deadline: float | None = None,
) -> None:
    for k, (cells, low, high) in enumerate(rule.sums):
        if k % _CHECK_EVERY == 0:
            check_building(deadline)
        model.add_linear_constraint(sum(x[i] for i in cells), low, high).only_enforce_if(lit)
    for k, (cell, cells, low, high) in enumerate(rule.implied):
        if k % _CHECK_EVERY == 0:
            check_building(deadline)
        model.add_linear_constraint(sum(x[i] for i in cells), low, high).only_enforce_if([lit, x[cell]])
    if rule.equal:
        each = model.new_int_var(0, max(len(g) for g in rule.equal), f"equal_{rule.letter}")
        for group in rule.equal:
            model.add(sum(x[i] for i in group) == each).only_enforce_if(lit)
    check_building(deadline)
    for pattern in rule.forbidden if implied else ():
        model.add_bool_or([x[i].Not() if value else x[i] for i, value in pattern]).only_enforce_if(lit)
    check_building(deadline)
    for conn in rule.connected if implied else ():
        _add_degrees(model, x, conn, lit, deadline)
    if rule.path and implied and circuit:
        _add_path_circuit(model, x, rule.path, lit, deadline)
    elif rule.path:
        contacts = []
        for k, (a, b) in enumerate(rule.path):
            if k % _CHECK_EVERY == 0:
                check_building(deadline)
            both = model.new_bool_var(f"contact_{a}_{b}")  # x[a] and x[b], as clauses
            model.add_implication(both, x[a])
            model.add_implication(both, x[b])
            model.add_bool_or([x[a].Not(), x[b].Not(), both])
            contacts.append(both)
        some = model.new_bool_var(f"some_mine_{rule.letter}")
        model.add_max_equality(some, x)
        model.add(cp_model.LinearExpr.sum(contacts) == cp_model.LinearExpr.sum(x) - some).only_enforce_if(lit)
    if rule.path:
        # A path holds no cycle: not every cell of a 4-cycle (a 2x2 block) is a mine.
        check_building(deadline)
        for k, cycle in enumerate(_four_cycles(rule.path)):
            if k % _CHECK_EVERY == 0:
                check_building(deadline)
            model.add(sum(x[i] for i in cycle) <= len(cycle) - 1).only_enforce_if(lit)


def _add_degrees(
    model: cp_model.CpModel,
    x: list[cp_model.IntVar],
    conn: Connectivity,
    lit: cp_model.IntVar,
    deadline: float | None = None,
) -> None:
    """The local side of ``conn``: a member off the border has a member beside it along ``edges``
    (without a border: once there are two members or more).

    Valid for every layout that meets ``conn``; the cuts would find each of these one layout
    at a time (on an open 8x8 O position, thousands of rounds and flow proofs of seconds).
    """
    member = [xi if conn.of_mines else xi.Not() for xi in x]
    around: dict[int, list[int]] = {}
    for a, b in conn.edges:
        around.setdefault(a, []).append(b)
        around.setdefault(b, []).append(a)
    enforce = [lit]
    if not conn.border:
        many = model.new_bool_var("two_members")
        model.add(cp_model.LinearExpr.sum(member) >= 2).only_enforce_if(many)
        model.add(cp_model.LinearExpr.sum(member) <= 1).only_enforce_if(many.Not())
        enforce.append(many)
    border = set(conn.border)
    for k, (i, beside) in enumerate(sorted(around.items())):
        if k % _CHECK_EVERY == 0:
            check_building(deadline)
        if i not in border:
            model.add_bool_or([member[j] for j in beside]).only_enforce_if([*enforce, member[i]])


def _add_path_circuit(
    model: cp_model.CpModel,
    x: Sequence[cp_model.IntVar],
    edges: Sequence[tuple[int, int]],
    lit: Any,
    deadline: float | None = None,
) -> None:
    """Under ``lit``, the mines form one path along ``edges`` (or there are none): a circuit
    through a node of its own and every mine, each once (CP-SAT's ``add_circuit``, whose
    propagation and cuts know connectivity; a cell off the path loops on itself), and two
    mines side by side are neighbours on it (the path steps between them one way or the
    other: no other contact). Exact on its own, so the count of contacts that
    :func:`_add_rule` states without it is left out: smaller, and the cells are tied to the
    circuit at once (an open 8x8 SX position's certain cells 0.48 s to 0.21 s, 1.7 s with
    the count beside the circuit). Without ``lit`` every cell may loop on itself.
    """
    n = len(x)
    arcs: list[tuple[int, int, Any]] = []
    for i, xi in enumerate(x):
        if i % _CHECK_EVERY == 0:
            check_building(deadline)
        off = model.new_bool_var(f"off_path{i}")
        model.add(off + xi == 1).only_enforce_if(lit)
        arcs.append((i, i, off))
        for a, b in ((n, i), (i, n)):  # the path's two ends
            end = model.new_bool_var(f"end{a}_{b}")
            model.add_implication(end, xi)
            arcs.append((a, b, end))
    for k, (a, b) in enumerate(edges):
        if k % _CHECK_EVERY == 0:
            check_building(deadline)
        pair = []
        for u, v in ((a, b), (b, a)):
            step = model.new_bool_var(f"step{u}_{v}")
            model.add_implication(step, x[u])
            model.add_implication(step, x[v])
            arcs.append((u, v, step))
            pair.append(step)
        model.add_bool_or([x[a].Not(), x[b].Not(), lit.Not(), *pair])
    empty = model.new_bool_var("no_path")  # the node of its own loops: no mine, under lit
    for xi in x:
        model.add_bool_or([empty.Not(), xi.Not(), lit.Not()])
    arcs.append((n, n, empty))
    model.add_circuit(arcs)


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


def _add_clue(
    model: cp_model.CpModel, x: list[cp_model.IntVar], clue: ClueSpec, lit: cp_model.IntVar
) -> None:
    if clue.cubes is not None:
        _add_cubes(model, x, clue.cubes, lit)
        return
    if clue.ring is not None:
        _add_partition(model, x, clue, lit)
        return
    if clue.rays is not None:
        _add_sight(model, x, clue, lit)
        return
    expr = sum(coef * x[i] for i, coef in clue.terms)
    if len(clue.allowed) == 1:
        model.add(expr == clue.allowed[0]).only_enforce_if(lit)
    else:
        domain = cp_model.Domain.from_values(list(clue.allowed))
        model.add_linear_expression_in_domain(expr, domain).only_enforce_if(lit)


#: Rounds of lazy cuts after which :meth:`VariantModel.solve` first tries the flow formulation
#: (then again at twice as many rounds, and so on).
FLOW_AFTER = 8
#: CP-SAT's deterministic time (about seconds) for the first try (twice as much each next one).
FLOW_EFFORT = 0.5
#: The round of the first flow once the model's last solve needed one: its next ones likely
#: will too (an 8x8 CO position's joint proof: 0.49 s with :data:`FLOW_AFTER` each time,
#: 0.25 s this way).
FLOW_SOON = 2
#: CP-SAT's deterministic time a solve's rounds of cuts may take before a flow is tried
#: sooner than :data:`FLOW_AFTER` (twice as much before the next early try): on empty 8x8
#: boards the rounds are slow (CT 0.61 s -> 0.33, OB 0.59 -> 0.29, CB 1.05 -> 0.75).
CUT_EFFORT = 0.1
#: CP-SAT's deterministic time for a solve under assumptions before the members are fixed instead.
ASSUMPTION_EFFORT = 0.1
#: Cells in a row that :data:`ASSUMPTION_EFFORT` does not settle after which
#: :meth:`VariantModel.certain` puts every cell left aside, to be proved together.
DEFER_AFTER = 3
#: CP-SAT's deterministic time for a solve of :meth:`VariantModel.certain`'s first joint proof
#: (three times :data:`ASSUMPTION_EFFORT`: on open 8x8 snake positions, 0.2 to 1 gave the same times).
JOINT_EFFORT = 0.3


#: What ``check_building`` names when the time limit comes while a model is built.
BUILDING = "the building of a variant position's model"


def check_building(deadline: float | None) -> None:
    """Raise :class:`~analyzer.errors.SolverTimeoutError` if ``deadline`` has passed while the
    constraints or the model of a position are built (a 100x100 board's take seconds under S).

    >>> check_building(None)
    >>> check_building(0.0)
    Traceback (most recent call last):
    ...
    analyzer.errors.SolverTimeoutError: time limit reached during the building of a variant position's model
    """
    Deadline(deadline).check(BUILDING)


class _Deferred(Exception):
    """A solve the assumptions alone did not settle within :data:`ASSUMPTION_EFFORT`."""


def _in_domain(model: cp_model.CpModel, expr: Any, allowed: tuple[int, ...], lit: cp_model.IntVar) -> None:
    if not allowed:
        model.add(lit == 0)
        return
    domain = cp_model.Domain.from_values(list(allowed))
    model.add_linear_expression_in_domain(expr, domain).only_enforce_if(lit)


def _add_partition(
    model: cp_model.CpModel, x: list[cp_model.IntVar], clue: ClueSpec, lit: cp_model.IntVar
) -> None:
    """P: a run starts where a mine follows a cell that is not; all 8 mines are one run."""
    ring = clue.ring or ()

    def mine(k: int) -> Any:
        i = ring[k % len(ring)]
        return x[i] if i >= 0 else int(i == KNOWN_MINE)

    starts: list[Any] = []
    for k in range(len(ring)):
        here, before = mine(k), mine(k - 1)
        if isinstance(here, int) and isinstance(before, int):
            starts.append(int(here == 1 and before == 0))
        elif isinstance(here, int):
            starts.append(before.Not() if here else 0)
        elif isinstance(before, int):
            starts.append(0 if before else here)
        else:
            start = model.new_bool_var("run_start")
            model.add_bool_and([here, before.Not()]).only_enforce_if(start)
            model.add_bool_or([here.Not(), before, start])
            starts.append(start)
    whole: Any = 0
    if all(i == KNOWN_MINE or i >= 0 for i in ring):
        cells = [x[i] for i in ring if i >= 0]
        whole = model.new_bool_var("ring_full")
        model.add_min_equality(whole, cells) if cells else model.add(whole == 1)
    _in_domain(model, sum(starts) + whole, clue.allowed, lit)


def _add_sight(
    model: cp_model.CpModel, x: list[cp_model.IntVar], clue: ClueSpec, lit: cp_model.IntVar
) -> None:
    """E: one plus, on each line of sight, the cells whose way from the clue has no mine."""
    seen: list[Any] = [1]
    for ray in clue.rays or ():
        clear: Any = 1  # every cell so far safe
        for i in ray:
            if i >= 0:
                step = model.new_bool_var("in_sight")
                if isinstance(clear, int):
                    model.add(step + x[i] == 1)
                else:
                    model.add_bool_and([clear, x[i].Not()]).only_enforce_if(step)
                    model.add_bool_or([clear.Not(), x[i], step])
                clear = step
            seen.append(clear)
    _in_domain(model, sum(seen), clue.allowed, lit)


def _add_cubes(
    model: cp_model.CpModel,
    x: list[cp_model.IntVar],
    cubes: tuple[tuple[tuple[int, int], ...], ...],
    lit: cp_model.IntVar,
) -> None:
    """One of the cubes holds when ``lit`` is on; each cube's Boolean is its conjunction."""
    if any(not cube for cube in cubes):
        return  # a cube with nothing left to hold: the clue already holds
    if not cubes:
        model.add(lit == 0)  # no way for the clue to hold
        return
    scope = [i for i, _ in cubes[0]]
    if all([i for i, _ in cube] == scope for cube in cubes):
        # One scope (W, P): a table constraint, no variable a cube.
        table = [[value for _, value in cube] for cube in cubes]
        model.add_allowed_assignments([x[i] for i in scope], table).only_enforce_if(lit)
        return
    held = []
    for cube in cubes:
        literals = [x[i] if value else x[i].Not() for i, value in cube]
        if len(literals) == 1:
            held.append(literals[0])
            continue
        b = model.new_bool_var("cube")
        for term in literals:
            model.add_implication(b, term)
        model.add_bool_or([b, *(term.Not() for term in literals)])
        held.append(b)
    model.add_bool_or(held).only_enforce_if(lit)


class VariantModel:
    """The CP-SAT model of a :class:`VariantSpec`, every member switched by a literal.

    ``members``: the clues (in ``spec.clues`` order), then the board rules, then the
    mine total; ``lits[k]`` switches member ``k``. With ``implied`` (the default) each board
    rule also states its local consequences (``forbidden`` patterns, and a member of a
    connectivity rule has a member beside it): the same layouts, found and refuted sooner.
    """

    def __init__(self, spec: VariantSpec, *, implied: bool = True, deadline: float | None = None) -> None:
        self.spec = spec
        self._joint = False  # in the joint proof of certain()
        self._fix_first = False  # its solves go straight to a copy with the members fixed
        self._path = any(rule.path for rule in spec.rules)
        # The rules whose connectivity comes lazily, by cuts and flows: not a path rule's with
        # its circuit (exact).
        self._lazy = tuple(
            r for r, rule in enumerate(spec.rules) if rule.connected and not (rule.path and implied)
        )
        self._spent = 0.0  # CP-SAT's deterministic time in the solves of this model (not its copies')
        self._copied = False  # a solve went on to the copy with the members fixed (certain() reads it)
        self._flowed = False  # the last solve's layout came from a flow: the next one tries one sooner
        model = cp_model.CpModel()
        self.model = model
        self.x = [model.new_bool_var(f"x{i}") for i in range(spec.size)]
        for i, value in spec.fixed:
            model.add(self.x[i] == value)
        self.lits: list[cp_model.IntVar] = []
        check_building(deadline)
        for k, clue in enumerate(spec.clues):
            if k % _CHECK_EVERY == 0:
                check_building(deadline)
            lit = model.new_bool_var(f"clue{k}")
            _add_clue(model, self.x, clue, lit)
            self.lits.append(lit)
        for rule in spec.rules:
            lit = model.new_bool_var(f"rule{rule.letter}")
            _add_rule(model, self.x, rule, lit, implied, deadline=deadline)
            self.lits.append(lit)
        lit = model.new_bool_var("total")
        model.add(cp_model.LinearExpr.sum(self.x) == spec.total).only_enforce_if(lit)
        self.lits.append(lit)
        # One literal a cell for "this cell is safe", for assumptions and cores.
        self.safe = [model.new_bool_var(f"s{i}") for i in range(spec.size)]
        for xi, si in zip(self.x, self.safe, strict=True):
            model.add(xi + si == 1)

    def _new_solver(self, deadline: float | None) -> cp_model.CpSolver:
        """One worker, as everywhere. Under a path rule (S), no linear relaxation and a light
        presolve (one pass, no probing): the circuit's propagation does the work, and the
        many small solves of :meth:`certain` and the hint cost less each (on open 8x8
        positions, a solve 18 ms to 5 ms; a hard one-cell proof under SX 0.15 s to 0.05 s)."""
        solver = _solver(deadline)
        if self._path:
            solver.parameters.linearization_level = 0
            solver.parameters.cp_model_probing_level = 0
            solver.parameters.max_presolve_iterations = 1
        return solver

    def target(self, cell: int, mine: bool) -> cp_model.IntVar:
        """The literal that says ``cell`` is a mine (or safe)."""
        return self.x[cell] if mine else self.safe[cell]

    def local(self, deadline: float | None = None) -> tuple[VariantModel, list[int]] | None:
        """The model without the connectivity rules (C, O, S), and the index here of each of
        its members; ``None`` when there are none. Smaller, so each solve is quicker, and a
        cell it forces is forced here too (by the same members)."""
        first = len(self.spec.clues)
        kept = [r for r, rule in enumerate(self.spec.rules) if not rule.connected]
        if len(kept) == len(self.spec.rules):
            return None
        spec = replace(self.spec, rules=tuple(self.spec.rules[r] for r in kept))
        return VariantModel(spec, deadline=deadline), [
            *range(first),
            *(first + r for r in kept),
            len(self.lits) - 1,
        ]

    def _cut(self, rule: int, conn: Connectivity, cut: tuple[tuple[int, ...], int, int]) -> None:
        boundary, s, v = cut
        x = self.x

        def member(i: int) -> cp_model.LinearExpr:
            return x[i] if conn.of_mines else 1 - x[i]  # type: ignore[return-value]

        lit = self.lits[len(self.spec.clues) + rule]
        lhs = sum(member(u) for u in boundary)
        rhs = member(s) + member(v) - 1 if v >= 0 else member(s)
        self.model.add(lhs >= rhs).only_enforce_if(lit)

    def solve(
        self,
        assumptions: Sequence[cp_model.IntVar],
        deadline: float | None,
        *,
        patient: bool = True,
        near: Mapping[int, int] | None = None,
        within: float | None = None,
        found: list[list[int]] | None = None,
    ) -> tuple[list[int] | None, list[int]]:
        """A layout under the assumptions, or ``None`` and the members in CP-SAT's core.

        With ``patient`` false, a solve that the assumptions alone do not settle within
        ``within`` (CP-SAT's deterministic time; :data:`ASSUMPTION_EFFORT` by default)
        raises :class:`_Deferred` instead of going on with the members fixed
        (:meth:`_solve_once`). ``near``: cell values the search tries first (CP-SAT's
        solution hint). ``found``: a list that gets the other layouts met on the way (a
        flow copy's, below).

        Connectivity is added lazily: a layout that breaks an assumed connectivity rule
        adds the cuts it violates (valid consequences of the rule, switched by its
        literal) and the model is solved again. At round :data:`FLOW_AFTER` a copy with
        connectivity as flows is asked for a layout near the last one (:meth:`_solve_flow`),
        and again whenever the rounds double, with twice the effort each time (an open 8x8
        OL position went through thousands of rounds of cuts after one try ran out); an
        impatient solve starts the flows at :data:`ASSUMPTION_EFFORT` (an OS position's
        joint proof spent 0.43 s on a flow that found nothing, then 6 rounds of cuts). When
        the model's last solve took its layout from a flow, the first flow comes at round
        :data:`FLOW_SOON`, and whenever the rounds' deterministic time passes
        :data:`CUT_EFFORT` (twice that for the next), not under a path rule (its solver,
        with no linear relaxation, seldom finds a flow: an empty 8x8 OS board 8.5 s -> 13 s).
        A path rule's connectivity has neither cuts nor flows: its circuit is exact.
        """
        model = self.model
        rounds = 0
        flow_at, effort = (FLOW_SOON if self._flowed else FLOW_AFTER), FLOW_EFFORT
        if not patient:  # the flows get no more than a solve's own effort (it is deferred past it)
            effort = min(effort, ASSUMPTION_EFFORT)
        layout: list[int] = []
        assumed = {lit.index for lit in assumptions}
        first = len(self.spec.clues)
        checked = [
            (r, conn)
            for r in self._lazy
            if self.lits[first + r].index in assumed
            for conn in self.spec.rules[r].connected
        ]
        budget, start = (None if self._path else CUT_EFFORT), self._spent
        while True:
            rounds += 1
            if budget is not None and layout and rounds < flow_at and self._spent - start >= budget:
                flow_at, budget = rounds, 2 * budget  # the rounds are slow: a flow now
            if rounds == flow_at and checked and layout:
                conns = [conn for _, conn in checked]
                answer = self._solve_flow(assumptions, conns, layout, deadline, effort, near, found)
                if answer is not None:
                    self._flowed = answer[0] is not None
                    return answer
                # Tried soon, in vain: the effort grows from FLOW_AFTER on only (a C rule's
                # joint proof with no other member: 36 s, and 97 s when it grew from the start).
                flow_at, effort = 2 * flow_at, (effort if flow_at < FLOW_AFTER else 2 * effort)
            solver, status, solved = self._solve_once(assumptions, deadline, patient, near, within)
            if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                layout = [int(solver.boolean_value(v)) for v in solved]
                broken = False
                for r, conn in checked:
                    for cut in connectivity_cuts(layout, conn):
                        self._cut(r, conn, cut)
                        broken = True
                    rule = self.spec.rules[r]
                    for cycle in path_cycles(layout, rule.path) if rule.path and broken else ():
                        self.model.add(sum(self.x[i] for i in cycle) <= len(cycle) - 1).only_enforce_if(
                            self.lits[first + r]
                        )
                if broken:
                    continue
                self._flowed = False
                return layout, []
            if status == cp_model.INFEASIBLE:
                index = {lit.index: k for k, lit in enumerate(self.lits)}
                if solved is self.x:
                    named = list(solver.sufficient_assumptions_for_infeasibility())
                else:  # the copy with the assumptions fixed: no core, every member assumed
                    named = [lit.index for lit in assumptions]
                core = sorted({index[i] for i in named if i in index})
                return None, core
            if status == cp_model.MODEL_INVALID:  # pragma: no cover - a bug in the builders
                raise RuntimeError(f"CP-SAT rejected the model: {model.validate()}")
            raise SolverTimeoutError("time limit reached while solving a variant position")

    def _solve_once(
        self,
        assumptions: Sequence[cp_model.IntVar],
        deadline: float | None,
        patient: bool = True,
        near: Mapping[int, int] | None = None,
        within: float | None = None,
    ) -> tuple[cp_model.CpSolver, cp_model.CpSolverStatus, Sequence[cp_model.IntVar]]:
        """One CP-SAT solve under the assumptions: the solver, its status and the cell variables.

        Within :data:`ASSUMPTION_EFFORT` with the assumptions as such (an infeasible answer
        then names a core); past it, on a copy where they are fixed, which presolve
        simplifies (under B, a set of three members took 17 s assumed and 3 ms fixed). In
        the joint proof of :meth:`certain`, once a solve needed the copy the next ones go
        to it at once (under S, each of some 18 joint solves first spent its 0.1 s on the
        assumptions); elsewhere each solve tries the assumptions first, for their cores. The
        copy gets CP-SAT's full linear relaxation (``linearization_level`` 2) where no rule is
        connectivity: an empty 8x8 board under TA, its first layout 0.29 -> 0.04 s and its proof
        of the certain cells 0.66 -> 0.04 s (on every solve, the generator's positions under D
        went from 0.2 s to 0.5-1.2 s at worst; in the copy under C or O too, the empty board under
        OD 1.6 -> 2.0 s, CD 0.18 -> 0.45 s).
        """
        model = self.model
        if not (patient and self._joint and self._fix_first):
            model.clear_assumptions()
            model.add_assumptions(list(assumptions))
            for i, value in (near or {}).items():
                model.add_hint(self.x[i], value)
            solver = self._new_solver(deadline)
            solver.parameters.max_deterministic_time = ASSUMPTION_EFFORT if within is None else within
            status = solver.solve(model)
            self._spent += solver.deterministic_time
            model.clear_assumptions()
            model.clear_hints()
            if status != cp_model.UNKNOWN:
                return solver, status, self.x
            if not patient:
                raise _Deferred
            self._fix_first = self._joint
            self._copied = True
        fixed = model.clone()
        for v in assumptions:
            fixed.add(fixed.get_bool_var_from_proto_index(v.index) == 1)
        x = [fixed.get_bool_var_from_proto_index(v.index) for v in self.x]
        for i, value in (near or {}).items():
            fixed.add_hint(x[i], value)
        solver = self._new_solver(deadline)
        if not (self._path or self._lazy):
            solver.parameters.linearization_level = 2
        status = solver.solve(fixed)
        self._spent += solver.deterministic_time
        return solver, status, x

    def _solve_flow(
        self,
        assumptions: Sequence[cp_model.IntVar],
        conns: Sequence[Connectivity],
        start: Sequence[int],
        deadline: float | None,
        effort: float = FLOW_EFFORT,
        near: Mapping[int, int] | None = None,
        found: list[list[int]] | None = None,
    ) -> tuple[list[int] | None, list[int]] | None:
        """A layout of :meth:`solve` from a copy with ``conns`` as flows, within ``effort``
        (CP-SAT's deterministic time), starting from the layout ``start`` (the last one the
        cuts rejected).

        With ``near`` (the joint proof's cells the other way), the copy seeks the layout
        with the most cells as ``near`` has them, and every layout it meets on the way goes
        to ``found``: each is a layout of the position, so the joint proof sees more cells
        both ways a round (an 8x8 CO position's joint proof: 12 rounds, 0.50 s; 5, 0.25 s).

        ``None`` when CP-SAT ran out of that effort: the cuts carry on then. When the copy
        has no layout, that is a proof (the flows are exact), with every assumed member as
        its core: shrinking one to an explanation costs more solves, but proving it with
        cuts took hundreds of rounds on open O boards (an 8x8 ON position: 190 s to 2 s).
        """
        flow = self.model.clone()
        x = [flow.get_bool_var_from_proto_index(v.index) for v in self.x]
        for v in assumptions:  # fixed, not assumed: presolve then simplifies the flows
            flow.add(flow.get_bool_var_from_proto_index(v.index) == 1)
        fixed = dict(self.spec.fixed)
        for conn in conns:
            known = [i for i, v in fixed.items() if v == int(conn.of_mines)]
            add_flow(flow, x, conn, None, min(known) if known else None)
        for v, value in zip(x, start, strict=True):
            flow.add_hint(v, value)
        solver = self._new_solver(deadline)
        solver.parameters.max_deterministic_time = effort
        solver.parameters.cp_model_probing_level = 0  # a light presolve: CO and CT positions' flows
        solver.parameters.max_presolve_iterations = 1  # found their layouts in half the time
        solver.parameters.cut_level = 0  # no cuts: an 8x8 CO position's flows 0.07 s to 0.03 s each
        met = _Layouts(x, None, lambda layout: all(is_connected(layout, conn) for conn in conns))
        if near:
            flow.maximize(sum(x[i] if value else 1 - x[i] for i, value in near.items()))
        status = solver.solve(flow, met)
        if found is not None:
            found.extend(met.found)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            layout = [int(solver.boolean_value(v)) for v in x]
            if all(is_connected(layout, conn) for conn in conns):
                return layout, []
        if status == cp_model.INFEASIBLE:  # a proof too (the flows are exact): every member assumed
            index = {lit.index: k for k, lit in enumerate(self.lits)}
            return None, sorted({index[v.index] for v in assumptions if v.index in index})
        if deadline is not None and time.monotonic() >= deadline:
            raise SolverTimeoutError("time limit reached while solving a variant position")
        return None

    def certain(
        self,
        deadline: float | None = None,
        *,
        members: Sequence[int] | None = None,
        cells: Sequence[int] | None = None,
    ) -> tuple[dict[int, int], dict[int, list[int]], list[int] | None]:
        """Certain cells of ``spec.unknown`` (or of ``cells``) under every member (or under
        ``members``): ``{cell: 0 or 1}``, the cores of those proved alone, a layout.

        The layout is ``None`` when no layout meets every member (nothing is certain then). One
        solve finds a layout; then, while each solve settles within :data:`JOINT_EFFORT`, the
        cells not yet seen both ways are asked together: some one of them the other way (the
        search tried first on all of them flipped). A layout found marks every cell it differs
        on as uncertain; an infeasible answer proves every cell left certain at once (on most
        positions, two to ten solves for the board). Past that effort, the cells left are asked
        one at a time: a layout marks cells uncertain, an infeasible answer gives the cell's own
        core; a cell not settled within :data:`ASSUMPTION_EFFORT` is put aside (and, after
        :data:`DEFER_AFTER` such cells in a row, every cell left), and the cells put aside are
        asked together again, without limit. When the first layout took past that effort (and no
        rule adds cuts), every cell is put aside at once. A cell proved together with others has
        no core of its own here (:func:`hint` asks for one when it needs it). Under every
        member, the position's symmetries (``spec.symmetries``) lend each layout's images, and
        the joint proof asks one cell of each orbit. Under S a unique
        8x8 puzzle's 52 cells took one proof each (25 s) before cells were proved together; with
        a tenth of :data:`JOINT_EFFORT` for the joint proof, an open 8x8 SK position went to 50
        proofs of one cell (1.9 s) where the joint proof takes 0.07 s.
        """
        lits = self.lits if members is None else [self.lits[k] for k in members]
        unknown = list(self.spec.unknown if cells is None else cells)
        certain: dict[int, int] = {}
        cores: dict[int, list[int]] = {}
        # The position's symmetries hold for every member together only.
        turns = self.spec.symmetries if members is None else ()
        inverses = [sorted(range(len(p)), key=p.__getitem__) for p in turns]
        self._copied = False
        layout, _ = self.solve(lits, deadline)
        if layout is None:
            return {}, {}, None
        seen: dict[int, set[int]] = {i: set() for i in unknown}

        def see(found: Sequence[int]) -> None:
            """A layout's value of every cell, and its images' (layouts too)."""
            for j in unknown:
                seen[j].add(found[j])
                for inverse in inverses:
                    seen[j].add(found[inverse[j]])

        see(layout)
        # Even the first layout needed the copy with the members fixed: the solves under
        # assumptions below would run out of their effort too, so every cell goes to the
        # patient joint proof at once (an empty 8x8 board under B: 0.53 s -> 0.19 s). Not
        # where cuts come (C, O): there the first solve's many rounds say less (an empty 8x8
        # board under OS: 8.6 s -> 16 s).
        hard = self._copied and not self._lazy

        def prove_together(asked: list[int], patient: bool, within: float | None = None) -> None:
            left = [i for i in asked if len(seen[i]) == 1]
            while left:
                # One cell of each orbit is asked: a layout with another the other way has an
                # image with this one so (an empty 8x8 board under TA: 4 cells, 2.5 s -> 0.7 s).
                within_left = set(left)
                ask = [i for i in left if not any(p[i] < i and p[i] in within_left for p in turns)]
                some = self.model.new_bool_var("some_other_way")
                self.model.add_bool_or(
                    [self.target(i, mine=not next(iter(seen[i]))) for i in ask]
                ).only_enforce_if(some)
                flipped = {i: 1 - next(iter(seen[i])) for i in left}
                met: list[list[int]] = []
                other, _ = self.solve(
                    [*lits, some], deadline, patient=patient, near=flipped, within=within, found=met
                )
                if other is None:
                    for i in left:
                        certain[i] = next(iter(seen[i]))
                    return
                for layout_met in [*met, other]:
                    see(layout_met)
                left = [i for i in left if len(seen[i]) == 1]

        if not hard:
            with contextlib.suppress(_Deferred):  # past the effort: one cell at a time below
                prove_together(unknown, patient=False, within=JOINT_EFFORT)
        aside: list[int] = []
        streak = 0  # cells put aside in a row
        for i in unknown:
            if len(seen[i]) > 1 or i in certain:
                continue
            value = next(iter(seen[i]))
            if streak >= DEFER_AFTER or hard:
                aside.append(i)
                continue
            try:
                other, core = self.solve([*lits, self.target(i, mine=not value)], deadline, patient=False)
            except _Deferred:
                aside.append(i)
                streak += 1
                continue
            streak = 0
            if other is None:
                certain[i] = value
                cores[i] = core
                continue
            see(other)
        self._joint = True
        try:
            prove_together(aside, patient=True)
        finally:
            self._joint = self._fix_first = False
        return dict(sorted(certain.items())), cores, layout

    def _shrink(
        self,
        members: Sequence[int],
        order: Sequence[int],
        extra: Sequence[cp_model.IntVar],
        deadline: float | None,
    ) -> tuple[int, ...]:
        """Deletion: drop each member (in ``order``) whose removal keeps the set infeasible."""
        kept = list(members)
        for e in [k for k in order if k in kept] + [k for k in kept if k not in order]:
            if e not in kept:
                continue
            trial = [k for k in kept if k != e]
            layout, core = self.solve([self.lits[k] for k in trial] + list(extra), deadline)
            if layout is None:
                inside = set(core)
                kept = [k for k in trial if k in inside] if core else trial
        return tuple(sorted(kept))

    def minimal(
        self,
        cell: int,
        mine: bool,
        members: Sequence[int],
        order: Sequence[int],
        deadline: float | None = None,
    ) -> tuple[int, ...]:
        """A minimal subset of ``members`` that forces ``cell`` (mine or safe): deletion in ``order``.

        ``members`` must already force it. Removing any member of the answer lets the cell
        take the other value.
        """
        return self._shrink(members, order, [self.target(cell, mine=not mine)], deadline)

    def conflict(self, deadline: float | None = None) -> tuple[int, ...] | None:
        """A minimal set of members that no layout meets, or ``None`` if the position is consistent."""
        layout, core = self.solve(self.lits, deadline)
        if layout is not None:
            return None
        start = core or list(range(len(self.lits)))
        return self._shrink(start, [len(self.lits) - 1, *range(len(self.lits) - 1)], [], deadline)


def clue_holds(clue: ClueSpec, layout: Sequence[int]) -> bool:
    """Whether a layout (0/1 a cell, by the clue's cell numbers) meets the clue, as its
    CP-SAT constraints read it (:func:`_add_clue`).

    >>> clue_holds(ClueSpec(0, ((1, 1), (2, 2)), (2, 3)), [0, 1, 1])
    True
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


def _first_layout(
    model: cp_model.CpModel, x: Sequence[cp_model.IntVar], deadline: float | None
) -> list[int] | None:
    solver = _solver(deadline)
    status = solver.solve(model)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return [int(solver.boolean_value(v)) for v in x]
    if status == cp_model.INFEASIBLE:
        return None
    raise SolverTimeoutError("time limit reached while counting the layouts of a variant position")


def _enumerator(deadline: float | None) -> cp_model.CpSolver:
    """A solver that enumerates every solution, without CP-SAT's linear relaxation: it is
    rebuilt around each solution and helps no proof here (a 6x6 Q position's 52,595 layouts
    22.7 s -> 2.7 s of CPU; the same layouts)."""
    solver = _solver(deadline)
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.linearization_level = 0
    return solver


class _Layouts(cp_model.CpSolverSolutionCallback):
    """Every solution's layout that ``keep`` accepts, in ``found``; the search stops past
    ``limit`` of them (``None``: it goes on)."""

    def __init__(self, xs: Sequence[cp_model.IntVar], limit: int | None, keep: object) -> None:
        super().__init__()
        self._xs = xs
        self._indices = [v.index for v in xs]
        self._limit = limit
        self._keep = keep
        self.found: list[list[int]] = []
        self.overflow = False

    def on_solution_callback(self) -> None:
        # The helper's own read of a Boolean, not ``value``'s checks each call: the callback
        # of a 6x6 Q position's 52,595 layouts 3.3 s -> 2.4 s with the solve.
        read = self.SolutionBooleanValue
        layout = [int(read(i)) for i in self._indices]
        if self._keep(layout):  # type: ignore[operator]
            self.found.append(layout)
            if self._limit is not None and len(self.found) > self._limit:
                self.overflow = True
                self.stop_search()


def enumerate_layouts(
    spec: VariantSpec,
    *,
    limit: int,
    deadline: float | None = None,
    certain: Mapping[int, int] | None = None,
) -> list[list[int]] | None:
    """Every layout meeting all the members (cells of ``spec.unknown``), or ``None`` past ``limit``.

    Connectivity is checked on each layout found. ``certain`` gives cells already known to
    hold the same value in every layout (:meth:`VariantModel.certain`): fixing them loses no
    layout, and spares the enumeration the partial layouts a connectivity check would reject.
    """
    check_building(deadline)
    model = cp_model.CpModel()
    x = [model.new_bool_var(f"x{i}") for i in range(spec.size)]
    for i, value in spec.fixed:
        model.add(x[i] == value)
    for i, value in (certain or {}).items():
        model.add(x[i] == value)
    on = model.new_constant(1)
    for k, clue in enumerate(spec.clues):
        if k % _CHECK_EVERY == 0:
            check_building(deadline)
        _add_clue(model, x, clue, on)  # type: ignore[arg-type]
    for rule in spec.rules:
        # No circuit: its arcs would count each layout once a direction of its path.
        _add_rule(model, x, rule, on, circuit=False, deadline=deadline)  # type: ignore[arg-type]
    model.add(cp_model.LinearExpr.sum(x) == spec.total)
    conns = [c for rule in spec.rules for c in rule.connected]

    def keep(layout: list[int]) -> bool:
        return all(is_connected(layout, c) for c in conns)

    unknown = list(spec.unknown)
    rule_checks = [_rule_checks(rule) for rule in spec.rules]
    if not conns and all(c is not None for c in rule_checks):
        # More than ``limit`` layouts, proved at once: ``a`` mines and ``b`` safe cells of
        # one layout that flip freely give C(a + b, a) layouts of the same total (j of each
        # flipped, every j); the enumeration would stop after ``limit`` of them (an open 7x7
        # position under Q: 31 s to say so).
        first = _first_layout(model, x, deadline)
        if first is not None:
            checks = layout_checks(spec.clues, spec.rules)
            assert checks is not None
            fixed = {i for i, _ in spec.fixed} | set(certain or ())
            alone, pairs = free_cells(first, checks, [i for i in unknown if i not in fixed])
            if math.comb(len(alone), sum(first[i] for i in alone)) * 2 ** len(pairs) > limit:
                return None
    collector = _Layouts([x[i] for i in unknown], limit, lambda v: True)
    if conns:
        full = _Layouts(x, limit, keep)
        collector = full
    solver = _enumerator(deadline)
    status = solver.solve(model, collector)
    if collector.overflow:
        return None
    if status not in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
        if deadline is not None:
            # CP-SAT's own clock may stop it a little before ours reads the deadline.
            raise SolverTimeoutError("time limit reached while counting the layouts of a variant position")
        raise RuntimeError(
            f"CP-SAT stopped the enumeration: {solver.status_name(status)}"
        )  # pragma: no cover
    if conns:
        return [[layout[i] for i in unknown] for layout in collector.found]
    return collector.found


def count_groups(
    sizes: Sequence[int],
    clues: Sequence[tuple[tuple[tuple[int, int], ...], tuple[int, ...]]],
    *,
    deadline: float | None = None,
) -> ComponentCounts:
    """Count a component of groups: ``x_g in 0..size_g``, each clue ``sum(coef * x_g) in allowed``.

    A solution stands for ``prod C(size_g, x_g)`` cell layouts (the groups of a
    component are interchangeable cells of one colour in the same clues).

    >>> count_groups((2, 1), [(((0, 2), (1, 1)), (2,))]).layouts
    (0, 2, 0, 0)
    """
    model = cp_model.CpModel()
    xs = [model.new_int_var(0, size, f"g{g}") for g, size in enumerate(sizes)]
    for terms, allowed in clues:
        expr = sum(coef * xs[g] for g, coef in terms)
        model.add_linear_expression_in_domain(expr, cp_model.Domain.from_values(list(allowed)))
    acc = Accumulator(tuple(sizes))

    class _Collect(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            acc.add([self.value(v) for v in xs])

    solver = _enumerator(deadline)
    status = solver.solve(model, _Collect())
    if status in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
        return acc.result("cpsat-groups")
    raise SolverTimeoutError("time limit reached while counting a variant component")


def count_cubes(
    size: int,
    clues: Sequence[ClueSpec],
    *,
    limit: int,
    deadline: float | None = None,
) -> ComponentCounts | None:
    """Count a component of ``size`` cells under W, P or E clues (renumbered 0..size-1), by mine count.

    Every layout of the component is enumerated (one cell a group); ``None`` past ``limit``.

    >>> wall = ClueSpec(0, (), (), cubes=(((0, 1), (1, 0)), ((0, 0), (1, 1))))
    >>> count_cubes(2, [wall], limit=10).layouts
    (0, 2, 0)
    """
    model = cp_model.CpModel()
    x = [model.new_bool_var(f"x{i}") for i in range(size)]
    on = model.new_constant(1)
    for clue in clues:
        _add_clue(model, x, clue, on)  # type: ignore[arg-type]
    acc = Accumulator((1,) * size)
    # More than ``limit`` layouts, proved at once when one layout has enough cells that flip
    # freely: the enumeration would stop there too, after ``limit`` layouts (an open 7x7 P
    # position: 18 s to say so).
    first = _first_layout(model, x, deadline) if size > limit.bit_length() else None
    if first is not None:
        checks = layout_checks(clues, ())
        assert checks is not None
        alone, pairs = free_cells(first, checks, range(size))
        if 2 ** (len(alone) + len(pairs)) > limit:
            return None
    found = _Layouts(x, limit, lambda v: True)
    solver = _enumerator(deadline)
    status = solver.solve(model, found)
    if found.overflow:
        return None
    if status not in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
        raise SolverTimeoutError("time limit reached while counting a variant component")
    for layout in found.found:
        acc.add(layout)
    return acc.result("cpsat-cubes")
