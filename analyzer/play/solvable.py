"""Whether a layout can be won from its first click by deduction alone.

A layout is *solvable* from a first cell when, after that cell is revealed
(with the usual flood fill around zeros), repeatedly revealing every cell that
is certainly safe (:func:`analyzer.solver.certain.certain_cells`: every clue
and the mine total, by CP-SAT feasibility) reveals every safe cell: the game is
won without a guess. This is what the ``no_guess`` first-click rule of
:class:`analyzer.play.game.FirstClickRule` asks of the layouts it places.
"""

from __future__ import annotations

from collections.abc import Iterable

from analyzer.board.board import HIDDEN, Board
from analyzer.board.topology import Topology, neighbour_table
from analyzer.errors import GameError
from analyzer.play.placement import Cell
from analyzer.solver.certain import certain_cells

__all__ = ["is_solvable"]


def is_solvable(
    layout: Iterable[Cell],
    first_cell: Cell,
    *,
    width: int,
    height: int,
    topology: Topology = "square",
) -> bool:
    """Whether the game on ``layout`` is won from ``first_cell`` by deduction alone.

    Parameters
    ----------
    layout : iterable of (row, col)
        The mines.
    first_cell : (row, col)
        The first cell revealed; ``False`` if it holds a mine.
    width, height : int
    topology : str

    Examples
    --------
    >>> is_solvable({(0, 0)}, (0, 2), width=3, height=1)   # 0 opens (0, 1) = 1; the total does the rest
    True
    >>> is_solvable({(0, 0)}, (1, 1), width=2, height=2)   # a 1 with three hidden neighbours
    False
    """
    mines = frozenset(layout)
    row, col = first_cell
    if not (0 <= row < height and 0 <= col < width):
        raise GameError(f"first cell {first_cell!r} is outside the {width}x{height} board")
    if any(not (0 <= r < height and 0 <= c < width) for r, c in mines):
        raise GameError(f"a mine of the layout is outside the {width}x{height} board")
    if first_cell in mines:
        return False
    table = neighbour_table(topology, width, height)
    is_mine = [False] * (width * height)
    for r, c in mines:
        is_mine[r * width + c] = True
    numbers = [sum(is_mine[j] for j in table[i]) for i in range(width * height)]
    view = [HIDDEN] * (width * height)
    hidden_safe = width * height - len(mines)

    def reveal(starts: Iterable[int]) -> int:
        stack = list(starts)
        opened = 0
        while stack:
            i = stack.pop()
            if view[i] != HIDDEN:
                continue
            view[i] = numbers[i]
            opened += 1
            if numbers[i] == 0:
                stack.extend(j for j in table[i] if view[j] == HIDDEN)
        return opened

    hidden_safe -= reveal([row * width + col])
    while hidden_safe:
        board = Board(width, height, len(mines), tuple(view), topology)
        safe = certain_cells(board).safe
        if not safe:
            return False
        hidden_safe -= reveal(r * width + c for r, c in safe)
    return True
