"""A brute-force oracle for mine probabilities, written from the rules alone.

The solver is checked against this module, so it shares nothing with it but
:class:`analyzer.board.board.Board` (parsing and neighbourhoods). It tries every set of
``mines_left`` unknown cells (:func:`itertools.combinations`) and keeps those in
which every revealed number equals its flagged neighbours plus the mines among
its unknown neighbours. That is exponential on purpose: it is meant to be
obviously right, and is usable up to about 22 unknown cells.

A layout is held as a bit mask over the unknown cells (bit ``k`` set: the
``k``-th unknown cell, row-major, holds a mine), and each revealed number as
the mask of its unknown neighbours and the mines it still needs: a layout
satisfies the number when the two masks share exactly that many bits.

With ``trust_flags=False`` flagged cells are unknown cells like hidden ones (a
player's flags can be wrong), and the mine total is over all of them.

Examples
--------
>>> oracle = brute_force("3x1x1\\nH1H\\n")
>>> oracle.total, oracle.probability(0, 0), oracle.probabilities
(2, Fraction(1, 2), ((Fraction(1, 2), None, Fraction(1, 2)),))
>>> brute_force("3x1x2\\nH1H\\n").total
0
>>> is_consistent(Board.from_text("3x1x2\\nH1H\\n"), with_total=False)
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

from analyzer.board.board import FLAG, HIDDEN, Board

__all__ = [
    "MAX_UNKNOWN",
    "BruteForce",
    "brute_force",
    "is_consistent",
    "component_layouts",
    "layouts_by_mines",
]

MAX_UNKNOWN = 22
"""Refuse boards with more unknown cells than this (``C(22, 11)`` is 705,432 layouts)."""

Cell = tuple[int, int]


def _as_board(board: Board | str) -> Board:
    return Board.from_text(board) if isinstance(board, str) else board


def _unknown_cells(board: Board, trust_flags: bool) -> list[Cell]:
    """Cells whose content is unknown: hidden ones, and flagged ones unless trusted."""
    wanted = (HIDDEN,) if trust_flags else (HIDDEN, FLAG)
    return [(r, c) for r in range(board.height) for c in range(board.width) if board[r, c] in wanted]


def _mines_left(board: Board, trust_flags: bool) -> int:
    """Mines among the unknown cells."""
    return board.mines - (len(board.flagged_cells()) if trust_flags else 0)


def _checks(
    board: Board, unknown: list[Cell], trust_flags: bool, clues: Iterable[Cell] | None
) -> list[tuple[int, int]]:
    """Each revealed number as ``(mask of its unknown neighbours, mines they must hold)``."""
    position = {cell: k for k, cell in enumerate(unknown)}
    chosen = board.revealed_cells() if clues is None else tuple(clues)
    checks = []
    for cell in chosen:
        number = board[cell]
        if number < 0:
            raise ValueError(f"{cell!r} is not a revealed number")
        mask = 0
        flagged = 0
        for neighbour in board.neighbours(*cell):
            if neighbour in position:
                mask |= 1 << position[neighbour]
            elif trust_flags and board[neighbour] == FLAG:
                flagged += 1
        checks.append((mask, number - flagged))
    return checks


def _satisfies(layout: int, checks: list[tuple[int, int]]) -> bool:
    return all((layout & mask).bit_count() == needed for mask, needed in checks)


@dataclass(frozen=True)
class BruteForce:
    """Every layout of a board, counted.

    Attributes
    ----------
    board : Board
    trust_flags : bool
    total : int
        Layouts of the unknown cells consistent with every number and the mine total.
    mine_layouts : tuple of (int or None)
        Row-major, per cell: the layouts with a mine there (``total`` for a
        trusted flag, ``None`` for a revealed number).
    constrained_mines : dict of int to int
        Layouts by their number of mines among the constrained unknown cells
        (those next to a revealed number); only counts above zero.
    background_size : int
        Unknown cells next to no revealed number.
    mines_left : int
        Mines among the unknown cells.
    """

    board: Board
    trust_flags: bool
    total: int
    mine_layouts: tuple[int | None, ...]
    constrained_mines: dict[int, int]
    background_size: int
    mines_left: int

    def probability(self, row: int, col: int) -> Fraction | None:
        """Mine probability of a cell; ``None`` for a revealed number."""
        if self.total == 0:
            raise ValueError("no layout satisfies the board: probabilities are undefined")
        count = self.mine_layouts[self.board.index(row, col)]
        return None if count is None else Fraction(count, self.total)

    @property
    def probabilities(self) -> tuple[tuple[Fraction | None, ...], ...]:
        return tuple(
            tuple(self.probability(r, c) for c in range(self.board.width)) for r in range(self.board.height)
        )

    def _unknown_where(self, count: int) -> tuple[Cell, ...]:
        return tuple(
            cell
            for cell in _unknown_cells(self.board, self.trust_flags)
            if self.mine_layouts[self.board.index(*cell)] == count
        )

    @property
    def safe(self) -> tuple[Cell, ...]:
        """Unknown cells free of mines in every layout, row-major."""
        return self._unknown_where(0) if self.total else ()

    @property
    def mines(self) -> tuple[Cell, ...]:
        """Unknown cells holding a mine in every layout, row-major."""
        return self._unknown_where(self.total) if self.total else ()

    @property
    def mine_count_distribution(self) -> dict[int, Fraction]:
        return {m: Fraction(n, self.total) for m, n in sorted(self.constrained_mines.items())}

    def to_dict(self) -> dict[str, object]:
        """The JSON shape of ``tests/golden/answers.json`` (and of ``Analysis.to_dict``)."""
        return {
            "width": self.board.width,
            "height": self.board.height,
            "mines": self.board.mines,
            "total": str(self.total),
            "probabilities": [
                [None if p is None else f"{p.numerator}/{p.denominator}" for p in row]
                for row in self.probabilities
            ],
        }


def brute_force(
    board: Board | str, *, trust_flags: bool = True, max_unknown: int = MAX_UNKNOWN
) -> BruteForce:
    """Count every layout of a board by trying every set of ``mines_left`` unknown cells.

    Parameters
    ----------
    board : Board or str
    trust_flags : bool
        If false, flagged cells are unknown cells like hidden ones.
    max_unknown : int
        Refuse (``ValueError``) boards with more unknown cells than this.

    Examples
    --------
    >>> oracle = brute_force("4x3x4\\nHHHH\\nFHHH\\n2H2H\\n")
    >>> oracle.total, oracle.probability(2, 1), oracle.probability(1, 0)
    (24, Fraction(1, 2), Fraction(1, 1))
    >>> brute_force("4x3x4\\nHHHH\\nFHHH\\n2H2H\\n", trust_flags=False).total
    30
    """
    board = _as_board(board)
    unknown = _unknown_cells(board, trust_flags)
    if len(unknown) > max_unknown:
        raise ValueError(f"{len(unknown)} unknown cells is too many to brute force (max {max_unknown})")
    mines_left = _mines_left(board, trust_flags)
    checks = _checks(board, unknown, trust_flags, None)
    constrained = 0
    for mask, _needed in checks:
        constrained |= mask

    total = 0
    per_cell = [0] * len(unknown)
    by_constrained: Counter[int] = Counter()
    for mined in combinations(range(len(unknown)), mines_left):
        layout = sum(1 << k for k in mined)
        if not _satisfies(layout, checks):
            continue
        total += 1
        for k in mined:
            per_cell[k] += 1
        by_constrained[(layout & constrained).bit_count()] += 1

    mine_layouts: list[int | None] = [None] * (board.width * board.height)
    for cell in board.flagged_cells():
        mine_layouts[board.index(*cell)] = total
    for k, cell in enumerate(unknown):
        mine_layouts[board.index(*cell)] = per_cell[k]
    return BruteForce(
        board=board,
        trust_flags=trust_flags,
        total=total,
        mine_layouts=tuple(mine_layouts),
        constrained_mines=dict(sorted(by_constrained.items())),
        background_size=len(unknown) - constrained.bit_count(),
        mines_left=mines_left,
    )


def _near_cells(board: Board, unknown: list[Cell], clues: Iterable[Cell]) -> list[Cell]:
    """The unknown cells next to any of ``clues``, row-major."""
    near = {n for cell in clues for n in board.neighbours(*cell)}
    return [cell for cell in unknown if cell in near]


def is_consistent(
    board: Board | str,
    *,
    clues: Iterable[Cell] | None = None,
    with_total: bool = True,
    trust_flags: bool = True,
) -> bool:
    """Whether some layout satisfies the chosen numbers (all by default), and the mine total if asked.

    Only the unknown cells next to the chosen numbers are enumerated (every
    subset of them); the other unknown cells are free, so the mine total can be
    met when the mines it has left fit among them.

    >>> board = Board.from_text("3x1x1\\n1H0\\n")
    >>> is_consistent(board), is_consistent(board, clues=[(0, 0)]), is_consistent(board, clues=[])
    (False, True, True)
    """
    board = _as_board(board)
    clues = board.revealed_cells() if clues is None else tuple(clues)
    unknown = _unknown_cells(board, trust_flags)
    near = _near_cells(board, unknown, clues)
    checks = _checks(board, near, trust_flags, clues)
    mines_left = _mines_left(board, trust_flags)
    free = len(unknown) - len(near)
    for layout in range(1 << len(near)):
        if _satisfies(layout, checks) and (not with_total or 0 <= mines_left - layout.bit_count() <= free):
            return True
    return False


def component_layouts(
    board: Board | str, cells: Iterable[Cell], clues: Iterable[Cell], *, trust_flags: bool = True
) -> list[frozenset[Cell]]:
    """Every layout of ``cells`` alone that satisfies ``clues`` alone, as the set of its mined cells.

    Every unknown neighbour of ``clues`` must be among ``cells`` (a component of
    the board, say); the mine total is ignored.

    >>> component_layouts("3x1x1\\nH1H\\n", [(0, 0), (0, 2)], [(0, 1)])
    [frozenset({(0, 0)}), frozenset({(0, 2)})]
    """
    board = _as_board(board)
    cells = list(cells)
    clues = list(clues)
    unknown = _unknown_cells(board, trust_flags)
    if not set(_near_cells(board, unknown, clues)) <= set(cells):
        raise ValueError("every unknown neighbour of the clues must be among the cells")
    checks = _checks(board, cells, trust_flags, clues)
    return [
        frozenset(cell for k, cell in enumerate(cells) if layout >> k & 1)
        for layout in range(1 << len(cells))
        if _satisfies(layout, checks)
    ]


def layouts_by_mines(
    board: Board | str, cells: Iterable[Cell], clues: Iterable[Cell], *, trust_flags: bool = True
) -> list[int]:
    """How many of the :func:`component_layouts` have ``m`` mines, for ``m`` from 0 to ``len(cells)``.

    >>> layouts_by_mines("3x1x1\\nH1H\\n", [(0, 0), (0, 2)], [(0, 1)])
    [0, 2, 0]
    """
    cells = list(cells)
    counts = [0] * (len(cells) + 1)
    for layout in component_layouts(board, cells, clues, trust_flags=trust_flags):
        counts[len(layout)] += 1
    return counts
