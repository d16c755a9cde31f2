"""Certain cells by feasibility alone, for boards whose layouts are too many to count.

:func:`analyzer.solve` counts every component; on a large board of overlapping
clues that can take longer than anyone waits. Which cells are certain needs no
count: a group of cells is certainly empty when no layout puts a mine in it,
certainly full when no layout leaves room in it, and CP-SAT answers such
questions (:func:`analyzer.models.cpsat.settled_groups`) with one solve a round.
The exact deductions of :mod:`analyzer.solver.deduction` run first.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from analyzer.board.board import Board, Cell
from analyzer.errors import InconsistentBoardError
from analyzer.jit import interpreted_if_small
from analyzer.limits import flag, positive_seconds
from analyzer.solver.conflict import whole_problem
from analyzer.solver.constraints import ConstraintSystem, build_constraints
from analyzer.solver.decomposition import ComponentProblem, components
from analyzer.solver.deduction import Deduced, deduce

__all__ = ["CertainCells", "ComponentRange", "certain_cells"]


@dataclass(frozen=True, slots=True)
class ComponentRange:
    """One component of the clues left after deductions, and the mines it can hold.

    ``mine_range`` is the fewest and the most mines its cells hold in any layout
    of the whole board (every clue and the mine total).
    """

    cells: tuple[Cell, ...]
    clues: tuple[Cell, ...]
    mine_range: tuple[int, int]


@dataclass(frozen=True, slots=True)
class CertainCells:
    """The cells every layout of a board agrees on.

    Attributes
    ----------
    board : Board
    safe : tuple of Cell
        Unknown cells no layout puts a mine in, row-major.
    mines : tuple of Cell
        Unknown cells every layout puts a mine in (trusted flags not repeated), row-major.
    components : tuple of ComponentRange
        The components left to count, each with its feasible range of mines.
    """

    board: Board
    safe: tuple[Cell, ...]
    mines: tuple[Cell, ...]
    components: tuple[ComponentRange, ...]


def certain_cells(
    board: Board | str, *, trust_flags: bool = True, time_limit: float | None = None
) -> CertainCells:
    """Every certainly safe and certain-mine cell, and each component's range of mines, without counting.

    The same cells as :attr:`Analysis.safe <analyzer.solver.analysis.Analysis.safe>`
    and :attr:`~analyzer.solver.analysis.Analysis.mines` of :func:`analyzer.solve`,
    on boards where counting is out of reach.

    Parameters
    ----------
    board : Board, str or os.PathLike
        The position, its ``.mine`` text, or the path of a ``.mine`` file.
    trust_flags : bool
        Flags are known mines; if false they are unknown cells.
    time_limit : float, optional
        Seconds; past it :class:`~analyzer.errors.SolverTimeoutError` is raised.

    Returns
    -------
    CertainCells
        The certainly safe cells, the certain mines, and each component's range of mines.

    Raises
    ------
    InconsistentBoardError
        If no layout satisfies the board.
    SolverTimeoutError
        Past ``time_limit`` seconds.

    Examples
    --------
    >>> found = certain_cells("4x2x2\\nHHHH\\n1221\\n")
    >>> found.safe, found.mines
    (((0, 0), (0, 3)), ((0, 1), (0, 2)))
    >>> certain_cells("3x1x1\\nH1H\\n").components[0].mine_range
    (1, 1)
    """
    board = Board.coerce(board, "certain_cells")
    trust_flags = flag(trust_flags, "trust_flags")
    positive_seconds(time_limit)
    deadline = None if time_limit is None else time.monotonic() + time_limit
    with interpreted_if_small(len(board.cells)):  # a small board needs no numba
        original = build_constraints(board, trust_flags=trust_flags)
        deduced = deduce(original)
    found = None if deduced is None else _settled(board, deduced, deadline)
    if found is None:
        raise _no_layout(board, original, deadline)
    return found


def _settled(board: Board, deduced: Deduced, deadline: float | None) -> CertainCells | None:
    """The cells deductions and CP-SAT settle, and each component's range; ``None`` without a layout."""
    from analyzer.models.cpsat import settled_groups, sum_range

    width = board.width
    safe: set[int] = set()
    mines: set[int] = set()
    system = deduced.system
    for group, value in deduced.fixed:
        (mines if value else safe).update(group.cells)
    # Deductions leave mines_left as it was: the total over the groups left is lower.
    problem = whole_problem(system, sum(value for _, value in deduced.fixed))
    if problem.sizes:
        settled = settled_groups(problem, deadline=deadline)
    else:  # deductions settled every cell
        settled = ((), ()) if problem.equations[-1][1] == 0 else None
    if settled is None:
        return None
    empty, full = settled
    cells_of = [g.cells for g in system.groups] + ([system.background] if system.background else [])
    for g, group_cells in enumerate(cells_of):
        if empty[g]:
            safe.update(group_cells)
        elif full[g]:
            mines.update(group_cells)
    ranges = tuple(
        ComponentRange(
            cells=tuple(sorted(divmod(i, width) for g in comp.groups for i in system.groups[g].cells)),
            clues=tuple(sorted(system.clues[c].cell for c in comp.clues)),
            mine_range=sum_range(problem, comp.groups, deadline=deadline),
        )
        for comp in components(system)
    )
    return CertainCells(
        board=board,
        safe=tuple(divmod(i, width) for i in sorted(safe)),
        mines=tuple(divmod(i, width) for i in sorted(mines)),
        components=ranges,
    )


def _no_layout(board: Board, original: ConstraintSystem, deadline: float | None) -> InconsistentBoardError:
    """The error of a board with no layout: the clues in conflict with the mine total, as given."""
    from analyzer.models.cpsat import minimal_conflict

    whole = whole_problem(original)
    conflict = minimal_conflict(
        ComponentProblem(whole.sizes, whole.equations[:-1]), extra=whole.equations[-1:], deadline=deadline
    )
    clue_cells = tuple(original.clues[c].cell for c in conflict)
    named = ", ".join(f"{board[c]} at {c!r}" for c in clue_cells)
    return InconsistentBoardError(
        f"no mine layout satisfies the board: the clues {named} and the mine total are in conflict"
        if clue_cells
        else "no mine layout satisfies the board: the mine total cannot be met",
        clues=clue_cells,
    )
