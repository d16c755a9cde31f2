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

from analyzer.board.board import FLAG, HIDDEN, Board, Cell
from analyzer.board.topology import neighbour_array
from analyzer.errors import InconsistentBoardError
from analyzer.limits import Deadline

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
    is_unknown = values == HIDDEN if trust_flags else values < 0
    is_flag = values == FLAG if trust_flags else np.zeros(len(cells), dtype=bool)
    # Per cell, its unknown and (trusted) flagged neighbours, counted at once.
    around = neighbour_array(board.topology, width, board.height)
    unknown_around = np.append(is_unknown, False)[around].sum(axis=1)
    flags_around = np.append(is_flag, False)[around].sum(axis=1)
    revealed = values >= 0
    stuck = np.flatnonzero(revealed & (unknown_around == 0) & (values != flags_around))
    if stuck.size:
        i = int(stuck[0])
        cell = divmod(i, width)
        raise InconsistentBoardError(
            f"clue {cells[i]} at {cell!r} has {int(flags_around[i])} flagged and no hidden neighbours",
            clues=(cell,),
        )
    unknown = tuple(np.flatnonzero(is_unknown).tolist())
    known_mines = int(is_flag.sum())

    clues: list[Clue] = []
    table = board.neighbour_table
    until.check("building the constraints")
    unknown_list = is_unknown.tolist()
    for k, i in enumerate(np.flatnonzero(revealed & (unknown_around > 0)).tolist()):
        if k & 4095 == 4095:
            until.check("building the constraints")
        needed = cells[i] - int(flags_around[i])
        cell = divmod(i, width)
        unknown_around_i = tuple([j for j in table[i] if unknown_list[j]])
        clues.append(Clue(cell, needed, unknown_around_i))

    membership: dict[int, list[int]] = {}
    for k, clue in enumerate(clues):
        for j in clue.cells:
            membership.setdefault(j, []).append(k)
    until.check("building the constraints")
    by_signature: dict[tuple[int, ...], list[int]] = {}
    background = []
    for j in unknown:
        signature = tuple(membership.get(j, ()))
        if signature:
            by_signature.setdefault(signature, []).append(j)
        else:
            background.append(j)
    groups = tuple(Group(tuple(members), signature) for signature, members in by_signature.items())
    return ConstraintSystem(
        board=board,
        unknown=unknown,
        mines_left=board.mines - known_mines,
        clues=tuple(clues),
        groups=groups,
        background=tuple(background),
    )
