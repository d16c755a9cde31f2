"""From a :class:`~analyzer.board.Board` to linear equations over groups of cells.

Each revealed number with unknown neighbours becomes an equation: the number of
mines among its unknown neighbours equals the number minus its flagged
neighbours. The global mine count is one more equation, over every unknown cell;
it is handled by the combination step (:mod:`analyzer.combination`), which sums
over the components and the background.

Unknown cells that appear in exactly the same equations are interchangeable, so
they merge into one *group*: an integer variable ``0..size`` standing for the
number of mines among them, with ``C(size, k)`` layouts for each value ``k``.
Unknown cells in no equation form the *background*.
"""

from __future__ import annotations

from dataclasses import dataclass

from analyzer.board import FLAG, HIDDEN, Board, Cell
from analyzer.errors import InconsistentBoardError

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


def build_constraints(board: Board, *, trust_flags: bool = True) -> ConstraintSystem:
    """Turn a board into clue equations over groups of cells.

    Parameters
    ----------
    board : Board
    trust_flags : bool
        If true, flags are known mines; if false, flagged cells are unknown like
        hidden ones (a player's flags can be wrong).

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
    cells = board.cells
    unknown_values = (HIDDEN,) if trust_flags else (HIDDEN, FLAG)
    is_unknown = [v in unknown_values for v in cells]
    unknown = tuple(i for i, u in enumerate(is_unknown) if u)
    known_mines = 0 if not trust_flags else cells.count(FLAG)
    table = board.neighbour_table
    width = board.width

    clues: list[Clue] = []
    for i, value in enumerate(cells):
        if value < 0:
            continue
        around = table[i]
        unknown_around = tuple(j for j in around if is_unknown[j])
        flags_around = 0 if not trust_flags else sum(1 for j in around if cells[j] == FLAG)
        needed = value - flags_around
        cell = divmod(i, width)
        if not unknown_around:
            if needed != 0:
                raise InconsistentBoardError(
                    f"clue {value} at {cell!r} has {flags_around} flagged and no hidden neighbours",
                    clues=(cell,),
                )
            continue
        clues.append(Clue(cell, needed, unknown_around))

    membership: dict[int, list[int]] = {}
    for k, clue in enumerate(clues):
        for j in clue.cells:
            membership.setdefault(j, []).append(k)
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
