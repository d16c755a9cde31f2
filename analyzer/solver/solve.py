"""``solve``: exact mine probabilities of a board.

The pipeline (one module a stage): :mod:`analyzer.solver.constraints` turns clues into
equations over groups; :mod:`analyzer.solver.decomposition` splits them into
independent components; :mod:`analyzer.solver.counting` (or CP-SAT, in
:mod:`analyzer.models.cpsat`) counts each component's layouts by mine count;
:mod:`analyzer.solver.combination` joins components and background under the mine
total; the result is an :class:`~analyzer.solver.analysis.Analysis`.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import partial
from typing import Any

import numpy as np

from analyzer.board.board import FLAG, Board
from analyzer.board.topology import neighbour_array
from analyzer.errors import InconsistentBoardError
from analyzer.jit import interpreted_if_small, specialized
from analyzer.limits import binomial, check_binomial_time, flag, positive_seconds
from analyzer.solver.analysis import Analysis, ComponentSummary, made_analysis
from analyzer.solver.combination import Combined, Joined, combine, join
from analyzer.solver.conflict import conflict_error
from analyzer.solver.constraints import ConstraintSystem, Group, build_constraints
from analyzer.solver.counting import ENGINES, ComponentCounts, count_component
from analyzer.solver.counting.frontier import (
    COMPILED_FRONTIER_COEFFICIENTS,
    COMPILED_FRONTIER_STATES_PER_SECOND,
    compiled_frontier_states,
)
from analyzer.solver.decomposition import Component, components
from analyzer.solver.deduction import Deduced, deduce
from analyzer.solver.kernels.board import (
    BOARD_COUNTED,
    BOARD_JOINED,
    JOIN_BITS,
    BoardCounts,
    board_solution,
    unpack_board_counts,
)
from analyzer.solver.kernels.enumerate import MAX_ENUMERATION_CELLS

__all__ = ["solve", "count_layouts"]

_ZERO = Fraction(0)
_ONE = Fraction(1)
_NO_CLUE_SHORTCUT = True  # the tests turn it off to compare with the general path
_IS_CLUE = (0).__le__  # 0 <= value: a revealed number
_COMPILED_PATH = True  # likewise
_JOIN_BITS = JOIN_BITS  # likewise (0: the compiled path joins with Python integers always)

#: The search nodes a component may take in the compiled path before the board goes
#: to the general pipeline (whose frontier programme counts tangled components);
#: a component of more than 59 cells (mostly tangled ones); all the components of
#: a board together, at least, or so many a cell on a large board (the kernel has
#: no deadline: this bounds its time to about as much as its linear work, and
#: under a time limit to what is left of it). Measured on the lattices of
#: ``python -m benchmarks.solve solve``: about 22 ns a node.
COMPILED_NODE_BUDGET = 200_000
COMPILED_LARGE_NODE_BUDGET = 20_000
COMPILED_BOARD_NODE_BUDGET = 1_000_000
COMPILED_NODES_PER_CELL = 50
_COMPILED_NODES_PER_SECOND = 20_000_000  # optimistic for the time left: half the measured rate
#: States the compiled frontier programme may make in one board, at least, or so
#: many a cell (about a million a second here: a 300x300 mid-game takes some
#: 70,000), each component within
#: :data:`~analyzer.solver.counting.frontier.COMPILED_FRONTIER_COEFFICIENTS` counts.
COMPILED_BOARD_FRONTIER_STATES = 2_000_000
COMPILED_FRONTIER_STATES_PER_CELL = 20


def solve(
    board: Board | str | os.PathLike[str],
    *,
    engine: str = "auto",
    time_limit: float | None = None,
    trust_flags: bool = True,
    deductions: bool = True,
) -> Analysis:
    """Exact probability that each unknown cell of a board holds a mine.

    Every layout of mines consistent with the revealed numbers, the flags and
    the total mine count is equally likely; a cell's probability is the
    fraction of those layouts with a mine on it.

    Parameters
    ----------
    board : Board, str or os.PathLike
        The position, its ``.mine`` text, or the path of a ``.mine`` file (a
        ``pathlib.Path``, or a one-line string naming an existing file).
    engine : {"auto", "enumerate", "frontier", "split", "cpsat"}
        How components are counted: the plain enumerator, the frontier
        dynamic programme, the split-square recursion (a component cut at a
        small separator, each side counted for every assignment of it),
        OR-Tools CP-SAT, or (``"auto"``) the enumerator while a component stays
        small and the frontier programme past that (see
        :mod:`analyzer.solver.counting.dispatch`). All give the same exact answer.
        ``"auto"`` first tries the compiled path: where every component is
        small, the stages up to the join (and the join itself where its numbers
        fit 52 bits) run in one compiled call
        (:func:`~analyzer.solver.kernels.board.board_solution`) and the fractions and
        component summaries are made when first asked for.
    time_limit : float, optional
        Seconds; past it :class:`~analyzer.errors.SolverTimeoutError` is raised.
    trust_flags : bool
        If false, flags are treated as hidden cells (a player's flags can be wrong).
    deductions : bool
        If false, skip the exact deductions made before counting (the answer is
        the same; this is for checking them).

    Returns
    -------
    Analysis

    Raises
    ------
    BoardParseError
        If ``board`` is text that cannot be parsed.
    InconsistentBoardError
        If no layout satisfies the board; ``.clues`` names the clues in conflict.
    SolverTimeoutError
        If the work runs past ``time_limit``.

    Examples
    --------
    >>> analysis = solve("4x3x4\\nHHHH\\nFHHH\\n2H2H\\n")
    >>> analysis.total
    24
    >>> analysis.probability(2, 1), analysis.probability(1, 2), analysis.probability(0, 0)
    (Fraction(1, 2), Fraction(1, 3), Fraction(1, 4))
    >>> solve("3x1x1\\n3HH\\n")
    Traceback (most recent call last):
    ...
    analyzer.errors.InconsistentBoardError: clue 3 at (0, 0) needs 3 mines but has only 1 hidden neighbour
    """
    board, deadline = _checked_input(board, engine, time_limit, "solve")
    if trust_flags is not True:  # the checks cost a tiny board's solve: only where needed
        trust_flags = flag(trust_flags, "trust_flags")
    if deductions is not True:
        deductions = flag(deductions, "deductions")
    # No clue (no cell 0 or more): stops at the first clue, in C, where a generator costs a tiny board.
    if _NO_CLUE_SHORTCUT and not any(map(_IS_CLUE, board.cells)):
        return _without_clues(board, engine, trust_flags, deadline)
    with interpreted_if_small(len(board.cells)) as tiny:
        if _COMPILED_PATH and engine == "auto" and deductions:
            fast = _solve_compiled(board, trust_flags, deadline, tiny)
            if fast is not None:
                return fast
        return _solve_general(board, engine, deadline, trust_flags, deductions)


def _solve_general(
    board: Board, engine: str, deadline: float | None, trust_flags: bool, deductions: bool
) -> Analysis:
    """Every stage as its own object: any engine, the component cache, conflicts named."""
    original = build_constraints(board, trust_flags=trust_flags, deadline=deadline)
    counted = _count_layouts(original, engine, deadline, deductions)
    if counted is None:
        # No layout: that is settled. Naming a minimal set of clues in conflict
        # (on the system as the board gives it) has a deadline of its own.
        raise _conflict(original, engine, deadline)
    system, fixed, comps, counts, combined = counted
    total = combined.total
    cell_p: list[Fraction | None] = [None] * len(board.cells)
    if trust_flags:
        for i, value in enumerate(board.cells):
            if value == FLAG:
                cell_p[i] = _ONE
    for group, value in fixed:
        p = _ONE if value else _ZERO
        for i in group.cells:
            cell_p[i] = p
    for comp, numerators in zip(comps, combined.group_numerators, strict=False):
        for g, numerator in zip(comp.groups, numerators, strict=True):
            group = system.groups[g]
            p = Fraction(numerator, total * group.size)
            for i in group.cells:
                cell_p[i] = p
    if system.background:
        p = Fraction(combined.background_numerator, total)
        for i in system.background:
            cell_p[i] = p

    width = board.width
    summaries = tuple(
        ComponentSummary(
            cells=tuple(sorted(divmod(i, width) for g in comp.groups for i in system.groups[g].cells)),
            clues=tuple(sorted(system.clues[c].cell for c in comp.clues)),
            groups=len(comp.groups),
            solutions=counted.solutions,
            layouts_by_mines=_strip(counted.layouts),
            engine=counted.engine,
        )
        for comp, counted in zip(comps, counts, strict=True)
    )
    if fixed:
        # The cells deductions settled, with the clues they used up, as one more
        # component that has a single layout.
        live = {clue.cell for clue in system.clues}
        summaries += (
            ComponentSummary(
                cells=tuple(sorted(divmod(i, width) for group, _ in fixed for i in group.cells)),
                clues=tuple(sorted(clue.cell for clue in original.clues if clue.cell not in live)),
                groups=len(fixed),
                solutions=1,
                layouts_by_mines=_strip(_fixed_counts(fixed).layouts),
                engine="deduction",
            ),
        )
    return Analysis(
        board=board,
        total=total,
        mines_left=system.mines_left,
        background_size=len(system.background),
        components=summaries,
        mine_count_distribution={
            m: Fraction(n, total) for m, n in sorted(combined.constrained_mines.items())
        },
        trust_flags=trust_flags,
        cell_probabilities=tuple(cell_p),
        layout_counter=partial(count_layouts, trust_flags=trust_flags, engine=engine),
        solver=partial(solve, trust_flags=trust_flags, engine=engine),
    )


def _cells_without_clues(
    cells: Sequence[int], left: int, unknown: int, flagged: bool
) -> tuple[Fraction | None, ...]:
    """A clueless board's probabilities: ``left / unknown`` everywhere, 1 on the flags when ``flagged``
    (trusted ones)."""
    p = Fraction(left, unknown) if unknown else _ZERO
    if flagged:
        return tuple(_ONE if value == FLAG else p for value in cells)
    return (p,) * len(cells)


def _floats_without_clues(cells: Sequence[int], p: float, flagged: bool) -> np.ndarray:
    """A clueless board's probabilities as floats: ``p`` everywhere, 1 on the flags when ``flagged``
    (trusted ones)."""
    values = np.empty(len(cells))
    values.fill(p)  # np.full costs a tiny board's whole answer (0.57 against 0.22 us for two cells)
    if flagged:
        values[np.asarray(cells) == FLAG] = 1.0
    return values


#: Search nodes each component, and the board, may take in the compiled path while the
#: kernels run interpreted (:func:`analyzer.jit.interpreted_if_small`).
INTERPRETED_NODE_BUDGET = 2_000


def _interpreted_if_tiny(board: Board) -> contextlib.AbstractContextManager[bool]:
    return interpreted_if_small(len(board.cells))


def _budgets(cells: int, seconds_left: float | None) -> tuple[int, int, int, int, int]:
    """The compiled path's budgets for a board of ``cells`` cells: nodes a component (small, large),
    nodes and frontier states for the whole board, frontier counts a component."""
    nodes = max(COMPILED_BOARD_NODE_BUDGET, COMPILED_NODES_PER_CELL * cells)
    states = max(COMPILED_BOARD_FRONTIER_STATES, COMPILED_FRONTIER_STATES_PER_CELL * cells)
    if seconds_left is not None:
        left = max(0.0, seconds_left)
        nodes = min(nodes, int(left * _COMPILED_NODES_PER_SECOND))
        states = compiled_frontier_states(left, states)
    return (COMPILED_NODE_BUDGET, COMPILED_LARGE_NODE_BUDGET, nodes, states, COMPILED_FRONTIER_COEFFICIENTS)


_INTERPRETED_BUDGETS = (INTERPRETED_NODE_BUDGET,) * 3 + (0, 0)
# Up to so many cells, with at least so many seconds left or no time limit, the budgets are
# the same for every board: made once (a tiny board's solve takes microseconds).
_SMALL_BOARD_CELLS = min(
    COMPILED_BOARD_NODE_BUDGET // COMPILED_NODES_PER_CELL,
    COMPILED_BOARD_FRONTIER_STATES // COMPILED_FRONTIER_STATES_PER_CELL,
)
_UNCUT_SECONDS = max(
    COMPILED_BOARD_NODE_BUDGET / _COMPILED_NODES_PER_SECOND,
    COMPILED_BOARD_FRONTIER_STATES / COMPILED_FRONTIER_STATES_PER_SECOND,
)
_SMALL_BOARD_BUDGETS = _budgets(_SMALL_BOARD_CELLS, None)


def _compiled(
    board: Board, trust_flags: bool, tiny: bool = False, deadline: float | None = None
) -> tuple[int, int, int, int, int, int, np.ndarray]:
    """:func:`~analyzer.solver.kernels.board.board_solution` of a board: ``(status, total, known_mines,
    background, fixed_mines, n_slots, out)``.

    ``tiny``: the kernels run interpreted (:func:`_interpreted_if_tiny`), with a small node
    budget and no frontier programme. The compiled frontier programme cannot be
    interrupted: its states are what the time left allows (about a million a second).
    """
    cells = len(board.cells)
    values = np.fromiter(board.cells, np.int8, cells)  # np.array takes longer to find the type
    around = neighbour_array(board.topology, board.width, board.height)
    if tiny:
        budgets = _INTERPRETED_BUDGETS
    elif cells > _SMALL_BOARD_CELLS:
        budgets = _budgets(cells, None if deadline is None else deadline - time.monotonic())
    elif deadline is None:
        budgets = _SMALL_BOARD_BUDGETS
    else:
        left = deadline - time.monotonic()
        budgets = _SMALL_BOARD_BUDGETS if left >= _UNCUT_SECONDS else _budgets(cells, left)
    args = (values, around, trust_flags, board.mines, _JOIN_BITS, MAX_ENUMERATION_CELLS, *budgets)
    if tiny:  # interpreted: the numbers are numpy's, where compiled they come back as Python ints
        found = board_solution(*args)
        return (*map(int, found[:-1]), found[-1])  # type: ignore[return-value]
    # The types never change (an int8 board, intp neighbours, a bool and ints the board and
    # options checked): the compiled kernel for them, past numba's dispatch.
    if not _DIRECT:
        _DIRECT.append(specialized(board_solution, *args))
    return _DIRECT[0](*args)  # type: ignore[no-any-return]


#: :func:`~analyzer.solver.kernels.board.board_solution` compiled for the types :func:`_compiled` passes.
_DIRECT: list[Callable[..., tuple[int, int, int, int, int, int, np.ndarray]]] = []


def _join_compiled(board: Board, counted: BoardCounts, deadline: float | None) -> tuple[Joined, int] | None:
    """The compiled counts joined under the mine total, and the mines the rules fixed; ``None``: no layout."""
    fixed_mines = sum([v for v in counted.fixed if v > 0])
    rest = board.mines - counted.known_mines - fixed_mines
    if rest < 0:
        return None
    joined = join(counted.layouts, counted.background, rest, deadline=deadline)
    return (joined, fixed_mines) if joined.total else None


def _solve_compiled(
    board: Board, trust_flags: bool, deadline: float | None, tiny: bool = False
) -> Analysis | None:
    """``solve`` through one compiled kernel; ``None`` where it does not apply.

    The kernel (:func:`~analyzer.solver.kernels.board.board_solution`) gives each
    component's exact counts when every component is small, and joins them too
    when every number of the join fits 52 bits; larger counts are joined here
    with Python integers, by the general path's join
    (:func:`~analyzer.solver.combination.join`). Boards it does not take (a
    component too large, no layout, which the general path explains) go to the
    general path. The answer is the general path's: fractions and the component
    summaries are made when asked for (the summaries by the general path), so a
    solve that only reads a few cells pays for those.
    """
    status, total, known_mines, background, fixed_mines, n_slots, out = _compiled(
        board, trust_flags, tiny, deadline
    )
    if status == BOARD_JOINED:
        n = len(board.cells)
        cells = _CellFractions(None, None, out, n, n_slots)
        distribution = partial(_joined_distribution, out, n, n_slots, fixed_mines, total)
        return _compiled_analysis(board, trust_flags, total, known_mines, background, distribution, cells)
    if status != BOARD_COUNTED:
        return None
    counted = unpack_board_counts(out.view(np.int64))
    found = _join_compiled(board, counted, deadline)
    if found is None:
        return None
    joined, fixed_mines = found
    total = joined.total
    others = joined.others
    # A probability for each slot: group g at slot g, then (read from the end, as
    # the kernel numbers them) background -3, trusted flag -2, revealed -1.
    slots: list[tuple[int, int]] = []
    for size, fix, k, mines in zip(
        counted.sizes, counted.fixed, counted.comp_of, counted.group_mines, strict=True
    ):
        if mines is None:
            slots.append((1, 1) if fix else (0, 1))
        else:
            numerator = sum([n * w for n, w in zip(mines, others[k], strict=False) if n])
            slots.append((numerator, total * size))
    slots.append((joined.background_numerator, total))
    slots.append((1, 1))
    slots.append((0, 1))  # never read: revealed cells have no probability
    cells = _CellFractions(slots, counted.cell_slot)
    distribution = partial(_distribution, joined.constrained_mines, fixed_mines, total)
    return _compiled_analysis(
        board, trust_flags, total, counted.known_mines, counted.background, distribution, cells
    )


def _compiled_analysis(
    board: Board,
    trust_flags: bool,
    total: int,
    known_mines: int,
    background: int,
    distribution: partial[dict[int, Fraction]],
    cells: _CellFractions,
) -> Analysis:
    """The compiled path's Analysis: the component summaries (from the general path), the mine-count
    distribution and the fractions made when first asked for."""
    return made_analysis(
        board,
        total,
        board.mines - known_mines,
        background,
        partial(_general_components, board, trust_flags),
        distribution,
        trust_flags,
        cells,
        _LAYOUT_COUNTERS[trust_flags],
        _SOLVERS[trust_flags],
        cells.one,
        cells.floats,
    )


def _joined_parts(
    out: np.ndarray, n: int, n_slots: int
) -> tuple[list[tuple[int, int]], list[int], list[int]]:
    """The slots (numerator, denominator), each of the ``n`` cells' slot and the (constrained mines,
    layouts) pairs of :func:`~analyzer.solver.kernels.board.board_solution`'s ``out`` (each exact as
    a float)."""
    values = out[n:].astype(np.int64).tolist()
    slots = list(zip(values[:n_slots], values[n_slots : 2 * n_slots], strict=True))
    t = 2 * n_slots
    return slots, values[t : t + n], values[t + n :]


def _joined_distribution(
    out: np.ndarray, n: int, n_slots: int, fixed_mines: int, total: int
) -> dict[int, Fraction]:
    pairs = _joined_parts(out, n, n_slots)[2]
    return _distribution(dict(zip(pairs[::2], pairs[1::2], strict=True)), fixed_mines, total)


class _CellFractions:
    """The compiled path's probabilities: a numerator and denominator a slot, a cell's slot; each
    slot's ``Fraction`` made when a cell of it is first read (cells of a group share it).

    Made from the kernel's ``out`` (``slots`` and ``slot_of`` ``None``; ``n`` cells,
    ``n_slots`` slots), they are read from it when first needed, and every cell's float is
    the kernel's.
    """

    __slots__ = ("_slots", "_slot_of", "_made", "_out", "_n", "_n_slots")

    def __init__(
        self,
        slots: list[tuple[int, int]] | None,
        slot_of: list[int] | None,
        out: np.ndarray | None = None,
        n: int = 0,
        n_slots: int = 0,
    ) -> None:
        self._slots = slots
        self._slot_of = slot_of
        self._made: dict[int, Fraction] = {}
        self._out = out
        self._n = n
        self._n_slots = n_slots

    def _read(self) -> tuple[list[tuple[int, int]], list[int]]:
        if self._slots is None or self._slot_of is None:
            assert self._out is not None
            self._slots, self._slot_of, _ = _joined_parts(self._out, self._n, self._n_slots)
        return self._slots, self._slot_of

    def floats(self) -> np.ndarray:
        """Every cell's probability as a float (NaN where revealed), one division a slot.

        ``numerator / denominator`` of Python integers is the correctly rounded float,
        however large the counts, so each equals ``float`` of the cell's ``Fraction``
        (as the kernel's, whose counts are below 2**53, are).
        """
        if self._out is not None:
            return self._out[: self._n].copy()
        slots, slot_of = self._read()
        values = np.array([n / d for n, d in slots], dtype=float)
        values[-1] = np.nan  # the revealed cells' slot (read from the end, as the kernel numbers them)
        return values[np.asarray(slot_of, dtype=np.intp)]

    def one(self, index: int) -> Fraction | None:
        slots, slot_of = self._read()
        slot = slot_of[index]
        if slot == -1:
            return None
        found = self._made.get(slot)
        if found is None:
            found = self._made[slot] = Fraction(*slots[slot])
        return found

    def __call__(self) -> tuple[Fraction | None, ...]:
        slots, slot_of = self._read()
        made = self._made
        for slot in set(slot_of):  # one Fraction a slot, shared by its cells
            if slot != -1 and slot not in made:
                made[slot] = Fraction(*slots[slot])
        of_slot: dict[int, Fraction | None] = {**made, -1: None}
        return tuple(map(of_slot.__getitem__, slot_of))

    def __reduce__(self) -> tuple[Any, ...]:
        return (_CellFractions, (self._slots, self._slot_of, self._out, self._n, self._n_slots))


def _distribution(constrained: dict[int, int], fixed_mines: int, total: int) -> dict[int, Fraction]:
    return {m + fixed_mines: Fraction(n, total) for m, n in sorted(constrained.items())}


def _general_components(board: Board, trust_flags: bool) -> tuple[ComponentSummary, ...]:
    with _interpreted_if_tiny(board):
        return _solve_general(board, "auto", None, trust_flags, True).components


def _without_clues(board: Board, engine: str, trust_flags: bool, deadline: float | None = None) -> Analysis:
    """A board with no revealed number: every unknown cell has the same probability, no work needed.

    The same Analysis the general path gives (checked in the tests), without
    building the constraint system or a neighbour table.
    """
    flags = board.cells.count(FLAG) if trust_flags else 0
    unknown = len(board.cells) - flags
    left = board.mines - flags
    check_binomial_time(unknown, left, deadline, "the number of layouts")
    if engine == "auto":
        counter, solver = _LAYOUT_COUNTERS[trust_flags], _SOLVERS[trust_flags]
    else:
        counter = partial(count_layouts, trust_flags=trust_flags, engine=engine)
        solver = partial(solve, trust_flags=trust_flags, engine=engine)
    return made_analysis(
        board,
        binomial(unknown, left),
        left,
        unknown,
        (),
        {0: _ONE},
        trust_flags,
        partial(_cells_without_clues, board.cells, left, unknown, flags > 0),
        counter,
        solver,
        None,
        # left / unknown of Python ints is the correctly rounded float of the Fraction.
        partial(_floats_without_clues, board.cells, left / unknown if unknown else 0.0, flags > 0),
    )


def count_layouts(
    board: Board | str | os.PathLike[str],
    *,
    engine: str = "auto",
    time_limit: float | None = None,
    trust_flags: bool = True,
) -> int:
    """The number of mine layouts consistent with a board; 0 when there is none.

    The same count as :attr:`Analysis.total <analyzer.solver.analysis.Analysis.total>`,
    through the same stages, but without the probabilities, and without the
    search for the clues in conflict that makes :func:`solve` slow to fail:
    for a player asking "could this cell show a 3?" of many boards.

    Parameters
    ----------
    board : Board, str or os.PathLike
        The position, its ``.mine`` text, or the path of a ``.mine`` file.
    engine, time_limit, trust_flags
        As for :func:`solve`.

    Returns
    -------
    int
        The number of layouts, exact; 0 when no layout satisfies the board.

    Raises
    ------
    BoardParseError
        If ``board`` is text that cannot be parsed.
    SolverTimeoutError
        If the work runs past ``time_limit``.

    Examples
    --------
    >>> count_layouts("3x1x1\\nH1H\\n"), count_layouts("3x1x1\\nH2H\\n")
    (2, 0)
    """
    board, deadline = _checked_input(board, engine, time_limit, "count_layouts")
    trust_flags = flag(trust_flags, "trust_flags")
    with _interpreted_if_tiny(board) as tiny:
        if _COMPILED_PATH and engine == "auto":
            status, total, *_, out = _compiled(board, trust_flags, tiny)
            if status == BOARD_JOINED:
                return total
            if status == BOARD_COUNTED:
                found = _join_compiled(board, unpack_board_counts(out.view(np.int64)), deadline)
                return 0 if found is None else found[0].total
        try:
            original = build_constraints(board, trust_flags=trust_flags, deadline=deadline)
        except InconsistentBoardError:
            return 0
        counted = _count_layouts(original, engine, deadline, deductions=True)
        return 0 if counted is None else counted[4].total


# The layout counter and solver an Analysis of the compiled path carries, by trust_flags.
_LAYOUT_COUNTERS = {flag: partial(count_layouts, trust_flags=flag) for flag in (False, True)}
_SOLVERS = {flag: partial(solve, trust_flags=flag) for flag in (False, True)}


def _checked_input(
    board: Board | str | os.PathLike[str], engine: str, time_limit: float | None, caller: str
) -> tuple[Board, float | None]:
    seconds = positive_seconds(time_limit)
    # The time limit counts from the call: parsing is part of the work.
    deadline = None if seconds is None else time.monotonic() + seconds
    board = Board.coerce(board, caller)
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; expected one of {ENGINES}")
    return board, deadline


_Counted = tuple[
    ConstraintSystem, tuple[tuple[Group, int], ...], tuple[Component, ...], list[ComponentCounts], Combined
]


def _count_layouts(
    original: ConstraintSystem, engine: str, deadline: float | None, deductions: bool
) -> _Counted | None:
    """Deductions, components, counting and combination; ``None`` when no layout exists."""
    deduced = deduce(original, deadline=deadline) if deductions else Deduced(original, ())
    if deduced is None:
        return None
    system, fixed = deduced.system, deduced.fixed
    comps = components(system, deadline=deadline)
    counts: list[ComponentCounts] = []
    for comp in comps:
        counted = count_component(comp.problem(system), engine=engine, deadline=deadline)
        if counted.is_empty:
            return None
        counts.append(counted)
    combined = combine(
        [*counts, _fixed_counts(fixed)], len(system.background), system.mines_left, deadline=deadline
    )
    if combined.total == 0:
        return None
    return system, fixed, comps, counts, combined


def _fixed_counts(fixed: tuple[tuple[Group, int], ...]) -> ComponentCounts:
    """The groups deductions fixed, as one component with a single layout."""
    mines = sum(value for _, value in fixed)
    values = tuple(value for _, value in fixed)
    layouts = (0,) * mines + (1,)

    def numerators(weights: Sequence[int]) -> tuple[int, ...]:
        weight = weights[mines] if mines < len(weights) else 0
        return tuple(value * weight for value in values)

    return ComponentCounts(layouts=layouts, solutions=1, engine="deduction", numerator_function=numerators)


#: The work the search for a minimal set of clues in conflict may do, in CP-SAT effort
#: (:class:`~analyzer.models.cpsat.Effort`; measured on the shared 2-core machine: a chain of
#: 100 clues gets its minimal set in 0.6 s, one of 999 stops at 0.9 s). Counted, not timed,
#: so a board gets the same error on a busy machine as on a quiet one; once it is spent the
#: error names the smallest set found so far and says it may not be minimal.
CONFLICT_EFFORT = 2.0
#: Seconds that search may take whatever effort is left: a bound for a machine far slower than this.
CONFLICT_SECONDS = 10.0
#: The least time that search gets even when the caller's time limit has run out:
#: the answer (no layout) is known, only its explanation is cut short.
_CONFLICT_FLOOR = 0.25


def _conflict_deadline(deadline: float | None) -> float:
    now = time.monotonic()
    budget = CONFLICT_SECONDS if deadline is None else min(CONFLICT_SECONDS, deadline - now)
    return now + max(_CONFLICT_FLOOR, budget)


def _conflict(system: ConstraintSystem, engine: str, limit: float | None) -> InconsistentBoardError:
    """The error for a board with no layout (:func:`~analyzer.solver.conflict.conflict_error`).

    The search's budget starts once CP-SAT is imported: a process's first import of OR-Tools can
    take a second on a busy machine, and spent the whole budget before the search began.
    """
    from analyzer.models.cpsat import Effort  # imported before the clock starts

    return conflict_error(system, engine, _conflict_deadline(limit), Effort(seconds=CONFLICT_EFFORT))


def _strip(values: tuple[int, ...]) -> tuple[int, ...]:
    end = len(values)
    while end > 1 and values[end - 1] == 0:
        end -= 1
    return values[:end]
