"""``random``: a uniformly random hidden, unflagged cell; every reveal is a guess."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from analyzer.board.board import Board
from analyzer.play.players.base import Action, Player, hidden_cells, require_consistent, reveal_action

__all__ = ["RandomPlayer"]


@dataclass(eq=False)
class RandomPlayer(Player):
    """A uniformly random hidden, unflagged cell; every reveal is a guess.

    >>> import numpy as np
    >>> board = Board.from_text("2x2x1\\nHH\\nH1\\n")
    >>> RandomPlayer().choose(board, np.random.default_rng(1)).kind
    'reveal'
    """

    name: ClassVar[str] = "random"

    def _think(self, board: Board, rng: np.random.Generator) -> list[Action]:
        require_consistent(board)
        hidden = hidden_cells(board)
        return [reveal_action(board, hidden[int(rng.integers(len(hidden)))], is_guess=True)]
