"""From a :class:`~analyzer.board.board.Board` to linear equations over groups of cells.

Each revealed number with unknown neighbours becomes an equation: the number of
mines among its unknown neighbours equals the number minus its flagged
neighbours. The global mine count is one more equation, over every unknown cell;
it is handled by the combination step (:mod:`analyzer.solver.combination`), which sums
over the components and the background.

Unknown cells that appear in exactly the same equations are interchangeable, so
they merge into one *group*: an integer variable ``0..size`` standing for the
number of mines among them, with ``C(size, k)`` layouts for each value ``k``.
Unknown cells in no equation form the *background*.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analyzer.board.board import HIDDEN, Board, Cell
from analyzer.board.topology import neighbour_array
from analyzer.errors import InconsistentBoardError
from analyzer.limits import Deadline
from analyzer.solver.kernels.constraints import constraint_arrays

__all__ = ["Clue", "Group", "ConstraintSystem", "build_constraints"]


@dataclass(frozen=True, slots=True)
class Clue:
    """One revealed number as an equation over unknown cells.

    ``needed`` is the number of mines among ``cells`` (flat indices).
    """

    cell: Cell
    needed: int
    cells: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Group:
    """Unknown cells (flat indices) that appear in exactly the same clues."""

    cells: tuple[int, ...]
    clues: tuple[int, ...]

    @property
    def size(self) -> int:
        return len(self.cells)


@dataclass(frozen=True, slots=True)
class ConstraintSystem:
    """The equations of a board.

    Attributes
    ----------
    board : Board
    unknown : tuple of int
        Flat indices of the cells whose content is unknown (hidden cells, and
        flags too when they are not trusted).
    mines_left : int
        Mines among the unknown cells: the right-hand side of the global equation.
    clues : tuple of Clue
        Equations, one per revealed number that touches an unknown cell.
    groups : tuple of Group
        Unknown cells merged by the set of clues they appear in.
    background : tuple of int
        Unknown cells in no clue.
    """

    board: Board
    unknown: tuple[int, ...]
    mines_left: int
    clues: tuple[Clue, ...]
    groups: tuple[Group, ...]
    background: tuple[int, ...]


def build_constraints(
    board: Board, *, trust_flags: bool = True, deadline: Deadline | float | None = None
) -> ConstraintSystem:
    """Turn a board into clue equations over groups of cells.

    Parameters
    ----------
    board : Board
    trust_flags : bool
        If true, flags are known mines; if false, flagged cells are unknown like
        hidden ones (a player's flags can be wrong).
    deadline : Deadline or float, optional
        Checked before the work that grows with the board and every few
        thousand clues (:class:`~analyzer.errors.SolverTimeoutError` past it).

    Raises
    ------
    InconsistentBoardError
        If a number has no unknown neighbour left and its flags do not match it.

    Examples
    --------
    >>> system = build_constraints(Board.from_text("3x2x2\\nHHH\\n1F1\\n"))
    >>> [(c.cell, c.needed, c.cells) for c in system.clues]
    [((1, 0), 0, (0, 1)), ((1, 2), 0, (1, 2))]
    >>> system.mines_left, system.background
    (1, ())
    >>> [(g.cells, g.clues) for g in system.groups]
    [((0,), (0,)), ((1,), (0, 1)), ((2,), (1,))]
    """
    until = Deadline.of(deadline)
    until.check("building the constraints")
    cells = board.cells
    width = board.width
    values = np.array(cells, dtype=np.int8)
    around = neighbour_array(board.topology, width, board.height)
    (
        stuck,
        stuck_flags,
        known_mines,
        clue_pos,
        clue_need,
        clue_off,
        clue_cells,
        group_off,
        group_cells,
        sig_off,
        sig_clues,
        background,
    ) = constraint_arrays(values, around, trust_flags)
    if stuck >= 0:
        cell = divmod(stuck, width)
        raise InconsistentBoardError(
            f"clue {cells[stuck]} at {cell!r} has {stuck_flags} flagged and no hidden neighbours",
            clues=(cell,),
        )
    until.check("building the constraints")
    # The arrays become the stage's objects: lists first (one conversion each), then slices.
    clues = _clues(clue_pos, clue_need, clue_off, clue_cells, width, until)
    until.check("building the constraints")
    groups = _groups(group_off, group_cells, sig_off, sig_clues)
    is_unknown = values == HIDDEN if trust_flags else values < 0
    unknown = tuple(np.flatnonzero(is_unknown).tolist())
    return ConstraintSystem(
        board=board,
        unknown=unknown,
        mines_left=board.mines - known_mines,
        clues=clues,
        groups=groups,
        background=tuple(background.tolist()),
    )


def _clues(
    clue_pos: np.ndarray,
    clue_need: np.ndarray,
    clue_off: np.ndarray,
    clue_cells: np.ndarray,
    width: int,
    until: Deadline,
) -> tuple[Clue, ...]:
    """The clues of :func:`~analyzer.solver.kernels.constraints.constraint_arrays`' arrays."""
    offsets, members = clue_off.tolist(), clue_cells.tolist()
    clues: list[Clue] = []
    for k, (i, needed) in enumerate(zip(clue_pos.tolist(), clue_need.tolist(), strict=True)):
        if k & 4095 == 4095:
            until.check("building the constraints")
        clues.append(Clue(divmod(i, width), needed, tuple(members[offsets[k] : offsets[k + 1]])))
    return tuple(clues)


def _groups(
    group_off: np.ndarray, group_cells: np.ndarray, sig_off: np.ndarray, sig_clues: np.ndarray
) -> tuple[Group, ...]:
    """The groups of :func:`~analyzer.solver.kernels.constraints.constraint_arrays`' arrays."""
    offsets, members = group_off.tolist(), group_cells.tolist()
    sig_offsets, signatures = sig_off.tolist(), sig_clues.tolist()
    return tuple(
        [
            Group(
                tuple(members[offsets[g] : offsets[g + 1]]),
                tuple(signatures[sig_offsets[g] : sig_offsets[g + 1]]),
            )
            for g in range(len(offsets) - 1)
        ]
    )
