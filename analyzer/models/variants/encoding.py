"""The members of a variant position as CP-SAT constraints, each switched by a literal.

A clue (:func:`_add_clue`: a sum in a set of values; W's cubes, P's runs around the ring,
E's lines of sight), a board rule (:func:`_add_rule`: sums within bounds, equal sums, the
local side of connectivity, a path as a circuit or as a count of contacts), and all of them
with the mine total (:func:`add_members`), as :class:`~analyzer.models.variants.model.VariantModel`
and the enumeration (:mod:`analyzer.models.variants.layouts`) build them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ortools.sat.python import cp_model

from analyzer.models.variants.building import _CHECK_EVERY, check_building
from analyzer.models.variants.connectivity import _four_cycles
from analyzer.models.variants.spec import KNOWN_MINE, BoardRuleSpec, ClueSpec, Connectivity

__all__ = ["new_cells", "add_members"]


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


def new_cells(
    model: cp_model.CpModel, size: int, fixed: Sequence[tuple[int, int]] = ()
) -> list[cp_model.IntVar]:
    """One Boolean a cell (1: a mine), ``x0`` to ``x{size - 1}``, the ``fixed`` ones set."""
    x = [model.new_bool_var(f"x{i}") for i in range(size)]
    for i, value in fixed:
        model.add(x[i] == value)
    return x


def add_members(
    model: cp_model.CpModel,
    x: list[cp_model.IntVar],
    clues: Sequence[ClueSpec],
    rules: Sequence[BoardRuleSpec] = (),
    total: int | None = None,
    *,
    switched: bool,
    implied: bool = True,
    circuit: bool = True,
    deadline: float | None = None,
) -> list[cp_model.IntVar]:
    """The clues, then the board rules, then the mine total (if not ``None``) over ``x``.

    With ``switched`` each holds only when its own new literal is on (returned, in that order:
    a :class:`~analyzer.models.variants.model.VariantModel`'s members); otherwise all always
    hold (an enumeration's model) and the answer is empty. ``implied`` and ``circuit`` go to
    each rule (:func:`_add_rule`); ``deadline`` is looked at as they are added.
    """
    on = None if switched else model.new_constant(1)
    lits: list[cp_model.IntVar] = []
    for k, clue in enumerate(clues):
        if k % _CHECK_EVERY == 0:
            check_building(deadline)
        lit = model.new_bool_var(f"clue{k}") if on is None else on
        _add_clue(model, x, clue, lit)
        lits.append(lit)
    for rule in rules:
        lit = model.new_bool_var(f"rule{rule.letter}") if on is None else on
        _add_rule(model, x, rule, lit, implied, circuit, deadline)
        lits.append(lit)
    if total is not None and on is None:
        lit = model.new_bool_var("total")
        model.add(cp_model.LinearExpr.sum(x) == total).only_enforce_if(lit)
        lits.append(lit)
    elif total is not None:
        model.add(cp_model.LinearExpr.sum(x) == total)
    return lits if on is None else []
