"""``probabilistic``: certainly safe cells, else the lowest exact mine probability, in a fixed tie order."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from analyzer.board.board import HIDDEN, Board
from analyzer.play.players.base import Action, Player, reveal_action
from analyzer.solver.analysis import Analysis
from analyzer.solver.solve import solve

__all__ = ["guess_order", "certain_reveals", "ProbabilisticPlayer"]


def guess_order(board: Board, analysis: Analysis) -> list[int]:
    """Hidden, unflagged cells (flat indices) in the order a guess prefers them.

    Sorted by exact mine probability, then by the number of unrevealed (hidden
    or flagged) neighbours, fewest first, then row-major: the tie-break of the
    ``probabilistic`` player.

    >>> from analyzer.solver.solve import solve
    >>> board = Board.from_text("3x3x2\\nHHH\\nHHH\\nHHH\\n")
    >>> guess_order(board, solve(board))[:5]
    [0, 2, 6, 8, 1]
    """
    cells = board.cells
    table = board.neighbour_table
    probabilities = analysis.cell_probabilities
    keyed = []
    for i, v in enumerate(cells):
        if v == HIDDEN:
            p = probabilities[i]
            assert p is not None
            keyed.append((p, sum(1 for j in table[i] if cells[j] < 0), i))
    keyed.sort()
    return [i for _, _, i in keyed]


def certain_reveals(board: Board, analysis: Analysis) -> list[Action]:
    cells = board.cells
    return [
        reveal_action(board, i, is_guess=False)
        for i, p in enumerate(analysis.cell_probabilities)
        if cells[i] == HIDDEN and p is not None and p.numerator == 0
    ]


@dataclass(eq=False)
class ProbabilisticPlayer(Player):
    """Certainly safe cells, else the lowest exact mine probability (see :func:`guess_order`).

    >>> import numpy as np
    >>> board = Board.from_text("4x1x1\\nH1HH\\n")
    >>> ProbabilisticPlayer().choose(board, np.random.default_rng(0))
    Action(kind='reveal', row=0, col=3, is_guess=False)
    """

    name: ClassVar[str] = "probabilistic"

    def _think(self, board: Board, rng: np.random.Generator) -> list[Action]:
        analysis = solve(board)
        certain = certain_reveals(board, analysis)
        if certain:
            return certain
        return [reveal_action(board, guess_order(board, analysis)[0], is_guess=True)]
