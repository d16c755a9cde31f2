"""The CP-SAT model of a variant position: certain cells, infeasible cores, explanations.

:class:`VariantModel` switches every member by a literal, so that a solve under some of
them as assumptions names a core; connectivity comes lazily (cuts, then flows), the
certain cells by joint proofs (:meth:`VariantModel.certain`). The constants below tune
those searches; setting one on :mod:`analyzer.models.variants` sets it here too.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from ortools.sat.python import cp_model

from analyzer.errors import SolverTimeoutError
from analyzer.models.cpsat import _solver
from analyzer.models.variants.building import check_building
from analyzer.models.variants.connectivity import add_flow, connectivity_cuts, is_connected, path_cycles
from analyzer.models.variants.encoding import add_members, new_cells
from analyzer.models.variants.layouts import _Layouts
from analyzer.models.variants.spec import Connectivity, VariantSpec

__all__ = [
    "VariantModel",
    "FLOW_AFTER",
    "FLOW_EFFORT",
    "FLOW_SOON",
    "CUT_EFFORT",
    "ASSUMPTION_EFFORT",
    "DEFER_AFTER",
    "JOINT_EFFORT",
]

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


class _Deferred(Exception):
    """A solve the assumptions alone did not settle within :data:`ASSUMPTION_EFFORT`."""


@dataclass(frozen=True, slots=True)
class _Ask:
    """How :meth:`VariantModel.solve` puts each of its CP-SAT solves (its own options, as it
    takes them): ``patient`` false defers a solve the assumptions do not settle within
    ``within`` (:data:`ASSUMPTION_EFFORT` if ``None``); ``near``: cell values tried first."""

    patient: bool = True
    near: Mapping[int, int] | None = None
    within: float | None = None


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
        self.x = new_cells(model, spec.size, spec.fixed)
        check_building(deadline)
        self.lits = add_members(
            model,
            self.x,
            spec.clues,
            spec.rules,
            spec.total,
            switched=True,
            implied=implied,
            deadline=deadline,
        )
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
        ask = _Ask(patient, near, within)
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
            solver, status, solved = self._solve_once(assumptions, deadline, ask)
            if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                layout = [int(solver.boolean_value(v)) for v in solved]
                if self._add_cuts(checked, layout):
                    continue
                self._flowed = False
                return layout, []
            if status == cp_model.INFEASIBLE:
                if solved is self.x:
                    return None, self._members(solver.sufficient_assumptions_for_infeasibility())
                # the copy with the assumptions fixed: no core, every member assumed
                return None, self._members(lit.index for lit in assumptions)
            if status == cp_model.MODEL_INVALID:  # pragma: no cover - a bug in the builders
                raise RuntimeError(f"CP-SAT rejected the model: {self.model.validate()}")
            raise SolverTimeoutError("time limit reached while solving a variant position")

    def _add_cuts(self, checked: Sequence[tuple[int, Connectivity]], layout: Sequence[int]) -> bool:
        """Whether ``layout`` breaks a connectivity rule of ``checked`` (``(rule, conn)``): then
        the cuts it violates are added, and under a path rule the cycles it closes."""
        first = len(self.spec.clues)
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
        return broken

    def _members(self, indices: Iterable[int]) -> list[int]:
        """The members (sorted) whose literals are among ``indices`` (CP-SAT's variable indices)."""
        index = {lit.index: k for k, lit in enumerate(self.lits)}
        return sorted({index[i] for i in indices if i in index})

    def _solve_once(
        self, assumptions: Sequence[cp_model.IntVar], deadline: float | None, ask: _Ask
    ) -> tuple[cp_model.CpSolver, cp_model.CpSolverStatus, Sequence[cp_model.IntVar]]:
        """One CP-SAT solve under the assumptions, put as ``ask`` says: the solver, its status
        and the cell variables.

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
        model, patient, near = self.model, ask.patient, ask.near
        if not (patient and self._joint and self._fix_first):
            model.clear_assumptions()
            model.add_assumptions(list(assumptions))
            for i, value in (near or {}).items():
                model.add_hint(self.x[i], value)
            solver = self._new_solver(deadline)
            solver.parameters.max_deterministic_time = ASSUMPTION_EFFORT if ask.within is None else ask.within
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
            return None, self._members(v.index for v in assumptions)
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
        # The position's symmetries hold for every member together only.
        turns = self.spec.symmetries if members is None else ()
        self._copied = False
        layout, _ = self.solve(lits, deadline)
        if layout is None:
            return {}, {}, None
        proof = _CertainCells(self, lits, unknown, turns, deadline)
        proof.see(layout)
        # Even the first layout needed the copy with the members fixed: the solves under
        # assumptions below would run out of their effort too, so every cell goes to the
        # patient joint proof at once (an empty 8x8 board under B: 0.53 s -> 0.19 s). Not
        # where cuts come (C, O): there the first solve's many rounds say less (an empty 8x8
        # board under OS: 8.6 s -> 16 s).
        hard = self._copied and not self._lazy
        if not hard:
            with contextlib.suppress(_Deferred):  # past the effort: one cell at a time below
                proof.together(unknown, patient=False, within=JOINT_EFFORT)
        aside = proof.alone(hard)
        self._joint = True
        try:
            proof.together(aside, patient=True)
        finally:
            self._joint = self._fix_first = False
        return dict(sorted(proof.certain.items())), proof.cores, layout

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


class _CertainCells:
    """One :meth:`VariantModel.certain` under way: the values each cell of ``unknown`` was seen
    with in the layouts met (and their images under ``turns``), the cells proved certain and
    the cores of those proved alone. Its solves are ``model``'s, under ``lits``."""

    def __init__(
        self,
        model: VariantModel,
        lits: Sequence[cp_model.IntVar],
        unknown: Sequence[int],
        turns: Sequence[Sequence[int]],
        deadline: float | None,
    ) -> None:
        self.model = model
        self.lits = list(lits)
        self.unknown = unknown
        self.turns = turns
        self.inverses = [sorted(range(len(p)), key=p.__getitem__) for p in turns]
        self.deadline = deadline
        self.seen: dict[int, set[int]] = {i: set() for i in unknown}
        self.certain: dict[int, int] = {}
        self.cores: dict[int, list[int]] = {}

    def see(self, found: Sequence[int]) -> None:
        """A layout's value of every cell, and its images' (layouts too)."""
        seen = self.seen
        for j in self.unknown:
            seen[j].add(found[j])
            for inverse in self.inverses:
                seen[j].add(found[inverse[j]])

    def together(self, asked: Sequence[int], patient: bool, within: float | None = None) -> None:
        """The cells of ``asked`` seen one way only, proved together: some one of them the other
        way, until no layout has one so (each certain then). ``patient`` and ``within`` go to
        each solve (:meth:`VariantModel.solve`), which may raise :class:`_Deferred`."""
        model, seen, turns = self.model, self.seen, self.turns
        left = [i for i in asked if len(seen[i]) == 1]
        while left:
            # One cell of each orbit is asked: a layout with another the other way has an
            # image with this one so (an empty 8x8 board under TA: 4 cells, 2.5 s -> 0.7 s).
            within_left = set(left)
            ask = [i for i in left if not any(p[i] < i and p[i] in within_left for p in turns)]
            some = model.model.new_bool_var("some_other_way")
            model.model.add_bool_or(
                [model.target(i, mine=not next(iter(seen[i]))) for i in ask]
            ).only_enforce_if(some)
            flipped = {i: 1 - next(iter(seen[i])) for i in left}
            met: list[list[int]] = []
            other, _ = model.solve(
                [*self.lits, some], self.deadline, patient=patient, near=flipped, within=within, found=met
            )
            if other is None:
                for i in left:
                    self.certain[i] = next(iter(seen[i]))
                return
            for layout_met in [*met, other]:
                self.see(layout_met)
            left = [i for i in left if len(seen[i]) == 1]

    def alone(self, hard: bool) -> list[int]:
        """Each cell not yet settled, asked the other way by a solve of its own; the cells put
        aside (every one if ``hard``; those past :data:`ASSUMPTION_EFFORT`, and every one after
        :data:`DEFER_AFTER` of them in a row)."""
        aside: list[int] = []
        streak = 0  # cells put aside in a row
        for i in self.unknown:
            if len(self.seen[i]) > 1 or i in self.certain:
                continue
            value = next(iter(self.seen[i]))
            if streak >= DEFER_AFTER or hard:
                aside.append(i)
                continue
            try:
                other, core = self.model.solve(
                    [*self.lits, self.model.target(i, mine=not value)], self.deadline, patient=False
                )
            except _Deferred:
                aside.append(i)
                streak += 1
                continue
            streak = 0
            if other is None:
                self.certain[i] = value
                self.cores[i] = core
                continue
            self.see(other)
        return aside
