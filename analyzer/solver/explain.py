"""Why a cell is certain: a minimal set of clues (and the mine total, when needed) that forces it.

The board becomes one CP-SAT model (:mod:`analyzer.models.cpsat`): an integer per
group of cells, each clue an equation switched on by a literal, the mine total
one more. The claim is negated (the safe cell holds a mine, the mine is not
there) and the literals assumed: the model is infeasible exactly when the cell
is certain, and CP-SAT's infeasible core, shrunk by deletion
(:func:`~analyzer.models.cpsat.minimal_core`), is a set of clues that forces
the cell and from which no clue can be dropped. Where a few more solves allow,
implicit hitting sets (:func:`~analyzer.models.cpsat.smallest_core`) prove it
the smallest such set, or find one that is.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from analyzer.board.board import FLAG, Board, Cell
from analyzer.errors import InconsistentBoardError, InvalidCellError
from analyzer.jit import interpreted_if_small
from analyzer.limits import flag, positive_seconds
from analyzer.solver.constraints import ConstraintSystem, build_constraints

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

__all__ = ["Explanation", "explain", "SMALLEST_ROUNDS"]

SMALLEST_ROUNDS = 20
"""Hitting-set rounds spent proving an explanation the smallest before settling for minimal."""


@dataclass(frozen=True, slots=True)
class Explanation:
    """The clues that force one cell.

    Attributes
    ----------
    board : Board
    cell : Cell
        The cell explained.
    is_mine : bool
        True if the clues force a mine there, false if they force it safe.
    clues : tuple of Cell
        The revealed numbers of the explanation, row-major. Together (with the
        mine total when :attr:`uses_total`) they leave the cell no other
        content; drop any one of them and they no longer do.
    uses_total : bool
        Whether the mine total is part of the explanation (the clues alone do
        not force the cell).
    is_smallest : bool
        Whether no explanation of the same kind (with the mine total, or
        without it) has fewer members (proven); false when the search for a
        smaller one ran out of rounds. The total is used only when the clues
        alone do not force the cell.
    """

    board: Board = field(repr=False)
    cell: Cell
    is_mine: bool
    clues: tuple[Cell, ...]
    uses_total: bool
    is_smallest: bool

    @property
    def size(self) -> int:
        """Members of the explanation: its clues, and the mine total if used."""
        return len(self.clues) + self.uses_total

    def describe(self) -> str:
        """One sentence: the claim and what forces it.

        >>> print(explain("2x1x1\\nH1\\n", (0, 0)).describe())
        (0, 0) is a mine: forced by the clue 1 at (0, 1)
        """
        claim = "a mine" if self.is_mine else "safe"
        parts = []
        if self.clues:
            numbers = ", ".join(f"{self.board[c]} at {c!r}" for c in self.clues)
            parts.append(f"the clue{'s' if len(self.clues) > 1 else ''} {numbers}")
        if self.uses_total:
            parts.append(f"the mine total ({self.board.mines})")
        return f"{self.cell!r} is {claim}: forced by {' and '.join(parts)}"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "cell": list(self.cell),
            "claim": "mine" if self.is_mine else "safe",
            "clues": [{"cell": list(c), "number": self.board[c]} for c in self.clues],
            "uses_total": self.uses_total,
            "size": self.size,
            "is_smallest": self.is_smallest,
        }

    def __str__(self) -> str:
        from analyzer.render import explanation_text

        return explanation_text(self)

    def _repr_html_(self) -> str:
        from analyzer.render import explanation_html

        return explanation_html(self)


def explain(
    board: Board | str,
    cell: Cell,
    *,
    trust_flags: bool = True,
    is_mine: bool | None = None,
    smallest: bool = True,
    time_limit: float | None = None,
) -> Explanation:
    """A minimal set of clues (and the mine total if needed) that forces a certain cell.

    Parameters
    ----------
    board : Board or str
    cell : (row, col)
        An unknown cell that is certainly safe or certainly a mine.
    trust_flags : bool
        Flags are known mines (and may serve in the explanation through the
        numbers they lower); if false they are unknown cells.
    is_mine : bool, optional
        The claim to explain, when already known (from an
        :class:`~analyzer.solver.analysis.Analysis`); found by feasibility otherwise.
    smallest : bool
        Spend up to :data:`SMALLEST_ROUNDS` more rounds proving the explanation
        the smallest, or finding a smaller one.
    time_limit : float, optional
        Seconds; past it :class:`~analyzer.errors.SolverTimeoutError` is raised.

    Returns
    -------
    Explanation
        The cell, its claim, the clues that force it, whether the mine total is
        needed, and whether the set is proven the smallest.

    Raises
    ------
    InvalidCellError
        If the cell is revealed, a trusted flag, or not certain.
    InconsistentBoardError
        If no layout satisfies the board.

    Examples
    --------
    >>> e = explain("4x2x2\\nHHHH\\n1221\\n", (0, 0))
    >>> e.is_mine, e.clues, e.uses_total
    (False, ((1, 0), (1, 2), (1, 3)), False)
    >>> explain("3x1x1\\nHH1\\n", (0, 0)).describe()
    '(0, 0) is safe: forced by the clue 1 at (0, 2) and the mine total (1)'
    """
    board = Board.coerce(board, "explain")
    trust_flags = flag(trust_flags, "trust_flags")
    smallest = flag(smallest, "smallest")
    if is_mine is not None:
        is_mine = flag(is_mine, "is_mine")
    positive_seconds(time_limit)
    cell = _unknown_cell(board, cell, trust_flags)
    deadline = None if time_limit is None else time.monotonic() + time_limit
    with interpreted_if_small(len(board.cells)):  # a small board's explanation needs no numba
        system = build_constraints(board, trust_flags=trust_flags)
    sizes, target = _sizes(system), _group_of(system, board.index(*cell))
    layers = _clue_layers(system, target)  # clues ever farther from the cell, without the mine total
    if is_mine is None:
        is_mine = _claim(system, sizes, target, layers, cell, deadline)
    local, ids, radius = _first_core(system, sizes, target, layers, cell, is_mine, deadline)
    proven = len(ids) <= 1
    if smallest and not proven:
        if _TOTAL not in ids and len(ids) - 1 > radius:  # a smaller one lies within len - 1 steps
            nearer = _within(layers, len(ids) - 1)
            local = _Model(system, sizes, target, nearer, with_total=False, negate=is_mine)
        ids, proven = _smallest(local, ids, deadline)
    return Explanation(
        board=board,
        cell=cell,
        is_mine=is_mine,
        clues=tuple(sorted(system.clues[c].cell for c in ids if c != _TOTAL)),
        uses_total=_TOTAL in ids,
        is_smallest=proven,
    )


def _unknown_cell(board: Board, cell: Cell, trust_flags: bool) -> Cell:
    """``cell`` as a tuple, refused where it is revealed or a trusted flag (``IndexError`` outside)."""
    row, col = cell
    value = board[row, col]  # IndexError outside the board
    cell = (row, col)
    if value >= 0:
        raise InvalidCellError(f"cell {cell!r} is revealed (shows {value}): there is nothing to explain")
    if value == FLAG and trust_flags:
        raise InvalidCellError(f"cell {cell!r} is flagged, taken as a mine: there is nothing to explain")
    return cell


def _smallest(local: _Model, ids: list[int], deadline: float | None) -> tuple[list[int], bool]:
    """The smallest core of ``local`` CP-SAT finds from ``ids`` in :data:`SMALLEST_ROUNDS` rounds,
    and whether it is proven the smallest."""
    from analyzer.models.cpsat import smallest_core

    position = {c: e for e, c in enumerate(local.ids)}
    best, proven = smallest_core(
        local.model,
        local.lits,
        local.holds,
        known=[position[c] for c in ids],
        rounds=SMALLEST_ROUNDS,
        deadline=deadline,
    )
    return [local.ids[e] for e in best], proven


def _claim(
    system: ConstraintSystem,
    sizes: list[int],
    target: int,
    layers: list[tuple[int, ...]],
    cell: Cell,
    deadline: float | None,
) -> bool:
    """Whether ``cell`` (group ``target``) is certainly a mine.

    The clues near the cell settle most certain cells: proving that a small model has
    no layout is quick where proving it of the whole board (hundreds of groups) may
    take CP-SAT many seconds.
    """
    nearby = _claim_nearby(system, sizes, target, layers, deadline)
    return _claim_of_the_whole_board(system, sizes, target, cell, deadline) if nearby is None else nearby


def _claim_of_the_whole_board(
    system: ConstraintSystem, sizes: list[int], target: int, cell: Cell, deadline: float | None
) -> bool:
    """Whether ``cell`` (group ``target``) is certainly a mine, from the whole board and its mine
    total; raises where it is not certain, or where no layout satisfies the board."""
    from analyzer.models.cpsat import minimal_core

    everything = tuple(range(len(system.clues)))
    whole = _Model(system, sizes, target, everything, with_total=True)
    can_be_mine = whole.feasible_with(mine=True, deadline=deadline)
    can_be_safe = whole.feasible_with(mine=False, deadline=deadline)
    if can_be_mine and can_be_safe:
        raise InvalidCellError(f"cell {cell!r} is not certain: some layouts put a mine there, some do not")
    if not (can_be_mine or can_be_safe):
        conflict = [whole.ids[e] for e in minimal_core(whole.model, whole.lits, deadline=deadline) or ()]
        clues = tuple(system.clues[c].cell for c in conflict if c != _TOTAL)
        raise InconsistentBoardError(
            f"no mine layout satisfies the board (clues {', '.join(map(repr, clues)) or 'none'}"
            f"{' and the mine total' if _TOTAL in conflict else ''} are in conflict)",
            clues=clues,
        )
    return can_be_mine


def _first_core(
    system: ConstraintSystem,
    sizes: list[int],
    target: int,
    layers: list[tuple[int, ...]],
    cell: Cell,
    is_mine: bool,
    deadline: float | None,
) -> tuple[_Model, list[int], int]:
    """The first explanation found: a minimal core of the clues within ever more steps of the cell,
    else of all of them with the mine total. Returns its model, its clues (ids of the model's
    :data:`_TOTAL` or clue numbers) and the steps searched."""
    from analyzer.models.cpsat import minimal_core

    radius = 0
    found: tuple[int, ...] | None = None
    local = None
    while found is None and radius < len(layers):
        radius += 1
        local = _Model(system, sizes, target, _within(layers, radius), with_total=False, negate=is_mine)
        core = minimal_core(local.model, local.lits, deadline=deadline)
        if core is not None:
            found = core
    if found is None or local is None:
        # The clues alone allow the other content: the mine total is needed.
        everything = tuple(range(len(system.clues)))
        local = _Model(system, sizes, target, everything, with_total=True, negate=is_mine)
        found = minimal_core(local.model, local.lits, first=[len(local.ids) - 1], deadline=deadline)
        if found is None:
            claim = "a mine" if is_mine else "safe"
            raise InvalidCellError(f"cell {cell!r} is not certainly {claim}: some layout says otherwise")
    return local, [local.ids[e] for e in found], radius


_TOTAL = -1
"""The mine total, among the clue indices of a model."""

NEARBY_RADIUS = 4
"""Steps of clues around a cell within which :func:`explain` first looks for what the cell holds."""


def _claim_nearby(
    system: ConstraintSystem,
    sizes: list[int],
    target: int,
    layers: list[tuple[int, ...]],
    deadline: float | None,
) -> bool | None:
    """Whether the clues within :data:`NEARBY_RADIUS` steps force a mine (True) or safety (False).

    None when they force neither (or contradict each other: the whole board's check names the
    conflict).
    """
    for radius in range(1, min(len(layers), NEARBY_RADIUS) + 1):
        local = _Model(system, sizes, target, _within(layers, radius), with_total=False)
        can_be_mine = local.feasible_with(mine=True, deadline=deadline)
        can_be_safe = local.feasible_with(mine=False, deadline=deadline)
        if can_be_mine != can_be_safe:
            return can_be_mine
        if not can_be_mine:
            return None
    return None


class _Model:
    """A CP-SAT model of some clues (and the mine total), each switched on by a literal.

    ``ids[e]`` is the clue (index into ``system.clues``) of literal ``e``, or
    ``_TOTAL``; ``negate`` adds the cell's other content as a hard constraint
    (``True``: the cell is safe, ``False``: it holds a mine).
    """

    def __init__(
        self,
        system: ConstraintSystem,
        sizes: list[int],
        target: int,
        clues: tuple[int, ...],
        *,
        with_total: bool,
        negate: bool | None = None,
    ) -> None:
        from ortools.sat.python import cp_model

        self.model = model = cp_model.CpModel()
        members = _members(system)
        used = {target} | {g for c in clues for g in members[c]}
        if with_total:
            used = set(range(len(sizes)))
        self.xs = xs = {g: model.new_int_var(0, sizes[g], f"x{g}") for g in sorted(used)}
        self.ids = list(clues) + ([_TOTAL] if with_total else [])
        self.equations = [(members[c], system.clues[c].needed) for c in clues]
        if with_total:
            self.equations.append((tuple(sorted(used)), system.mines_left))
        self.lits = [model.new_bool_var(f"eq{e}") for e in range(len(self.ids))]
        for lit, (groups, rhs) in zip(self.lits, self.equations, strict=True):
            model.add(sum(xs[g] for g in groups) == rhs).only_enforce_if(lit)
        self.target = xs[target]
        self.size = sizes[target]
        if negate is not None:
            model.add(self.target <= self.size - 1 if negate else self.target >= 1)

    def feasible_with(self, *, mine: bool, deadline: float | None) -> bool:
        """Whether every equation holds with a mine on the cell (``mine``) or without."""
        from analyzer.models.cpsat import is_feasible

        trial = self.model.clone()
        trial.add(self.target >= 1 if mine else self.target <= self.size - 1)
        return is_feasible(trial, self.lits, deadline=deadline)

    def holds(self, solver: cp_model.CpSolver) -> list[bool]:
        """Which equations the solver's solution satisfies."""
        values = {g: solver.value(x) for g, x in self.xs.items()}
        return [sum(values[g] for g in groups) == rhs for groups, rhs in self.equations]


def _members(system: ConstraintSystem) -> list[tuple[int, ...]]:
    """The groups of each clue."""
    members: list[list[int]] = [[] for _ in system.clues]
    for g, group in enumerate(system.groups):
        for c in group.clues:
            members[c].append(g)
    return [tuple(m) for m in members]


def _clue_layers(system: ConstraintSystem, target: int) -> list[tuple[int, ...]]:
    """Clues by their distance from the cell's group: those on it, those sharing a group with them, ...

    Most explanations are a few clues around the cell, and a small model is quick. A
    minimal explanation is connected to the cell, so one of k clues lies within k steps of it.
    """
    if target >= len(system.groups):
        return []  # the background: no clue touches it
    members = _members(system)
    seen = set(system.groups[target].clues)
    layers = [tuple(sorted(seen))]
    while True:
        nxt = {c2 for c in layers[-1] for g in members[c] for c2 in system.groups[g].clues if c2 not in seen}
        if not nxt:
            return layers
        seen |= nxt
        layers.append(tuple(sorted(nxt)))


def _within(layers: list[tuple[int, ...]], radius: int) -> tuple[int, ...]:
    return tuple(sorted(c for layer in layers[:radius] for c in layer))


def _sizes(system: ConstraintSystem) -> list[int]:
    """Group sizes, then the background's (as one more group) if there is one."""
    sizes = [g.size for g in system.groups]
    if system.background:
        sizes.append(len(system.background))
    return sizes


def _group_of(system: ConstraintSystem, index: int) -> int:
    for g, group in enumerate(system.groups):
        if index in group.cells:
            return g
    return len(system.groups)  # the background
