"""``pseq``: the PSEQ strategy of Tu, Li, Cheng et al. (2017), as MineSweeperProb plays it.

Certainly safe cells are revealed first (the single-number rules, then the
exact global probabilities). To guess, the unknown cells (not certainly mines)
go through four filters in turn, each keeping the cells whose score is within a
relative 1e-8 of the best:

``P``  the lowest mine probability ``p``;
``S``  the highest ``(1 - p) * P(the number the cell shows proves another cell safe)``;
``E``  the highest ``(1 - p) * E[cells that number proves safe]``;
``Q``  the highest entropy of the number the cell shows;

and the survivors are drawn among uniformly (``rng.integers(survivors)``,
which :func:`~analyzer.exact_win_rate` can enumerate). The scores come from the
compiled engine (:mod:`analyzer.play.fast`): a cell's outlook is read from the
position's counts (each solution of the components around the cell spread over
its neighbourhood, weighed by the rest of the board), or, where that does not
apply, computed by solving the position once for every number it could show;
the tests check both against the exact engine. On a board with nothing
revealed the first survivor in row-major order is taken (a corner).

Not included: MineSweeperProb's ``-D16`` / ``-D256`` end-game search.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from analyzer.board.board import FLAG, HIDDEN, Board
from analyzer.errors import InconsistentBoardError, SolverTimeoutError
from analyzer.play.fast import neighbours_of
from analyzer.play.fast.probabilities import DEFAULT_MAX_NODES, SAFE, _closure, probabilities
from analyzer.play.fast.pseq import pseq_candidates
from analyzer.play.players.base import Action, Player, reveal_action

__all__ = ["PseqPlayer", "pseq_move"]


def pseq_move(board: Board, draw: int | None) -> tuple[list[int], list[int]]:
    """``(certainly safe cells, guess candidates)`` of ``board`` under PSEQ.

    When certainly safe cells exist the candidates are empty. ``draw`` is not
    used here; it is the caller's to pick among several candidates.
    """
    n = board.width * board.height
    state = np.array(board.cells, dtype=np.int8)
    state[state == FLAG] = HIDDEN  # PSEQ never flags; a flag on its board is someone else's guess
    nbr = neighbours_of(board.topology, board.width, board.height)
    known = state.copy()
    if not _closure(known, nbr):
        raise InconsistentBoardError("no mine layout is consistent with this board", clues=())
    safe = [i for i in range(n) if known[i] == SAFE]
    if safe:
        return safe, []
    prob = np.empty(n)
    status = probabilities(known, nbr, board.mines, prob, DEFAULT_MAX_NODES, np.zeros(1))
    if status == 0:
        raise InconsistentBoardError("no mine layout is consistent with this board", clues=())
    if status < 0:
        raise SolverTimeoutError("the position is too hard for the compiled engine")
    safe = [i for i in range(n) if state[i] == HIDDEN and known[i] == HIDDEN and prob[i] == 0.0]
    if safe:
        return safe, []
    kept, out = pseq_candidates(state, known, nbr, board.mines, prob, DEFAULT_MAX_NODES)
    if kept < 0:
        raise SolverTimeoutError("the position is too hard for the compiled engine")
    return [], out[:kept].tolist()


class PseqPlayer(Player):
    """PSEQ (see the module docstring).

    >>> board = Board.from_text("3x3x1\\nHHH\\nH1H\\nHHH\\n")
    >>> PseqPlayer().choose(board, np.random.default_rng(0)).is_guess
    True
    """

    name: ClassVar[str] = "pseq"

    def __init__(self) -> None:
        self.__post_init__()

    def __repr__(self) -> str:
        return "PseqPlayer()"

    def _think(self, board: Board, rng: np.random.Generator) -> list[Action]:
        safe, candidates = pseq_move(board, None)
        if safe:
            return [reveal_action(board, i, is_guess=False) for i in safe]
        if len(candidates) == 1 or all(v == HIDDEN for v in board.cells):
            cell = candidates[0]
        else:
            cell = candidates[int(rng.integers(len(candidates)))]
        return [reveal_action(board, cell, is_guess=True)]
