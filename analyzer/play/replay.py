"""Replay a fixed layout with a player, move by move, with each move's exact mine probability."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from analyzer.board.board import Cell
from analyzer.errors import SimulationError
from analyzer.play.game import Game
from analyzer.play.players import Action, Player, make_player
from analyzer.solver import solve

__all__ = ["ReplayMove", "replay"]


@dataclass(frozen=True, slots=True)
class ReplayMove:
    """One move of a replay.

    Attributes
    ----------
    number : int
        1 for the first move.
    action : Action
        What the player did (a reveal or a flag).
    probability : Fraction
        The exact probability that the cell held a mine, given the board the
        player saw (``analyzer.solve``); for the first click of a fresh layout,
        the mines over the cells.
    status : str
        The game's status after the move: ``playing``, ``won`` or ``lost``.
    revealed : int
        Cells the move revealed (a zero opens its neighbours too).
    """

    number: int
    action: Action
    probability: Fraction
    status: str
    revealed: int


def replay(
    game: Game, player: Player | str, *, seed: int = 0, first_cell: Cell | None = None
) -> Iterator[ReplayMove]:
    """Play ``game`` to its end with ``player``, yielding every move as it is made.

    ``first_cell`` is revealed first when given; otherwise the player chooses.
    The player's randomness comes from ``numpy.random.default_rng(seed)``.

    >>> game = Game.from_layout_text("*..\\n...\\n..*")
    >>> moves = list(replay(game, "probabilistic", first_cell=(0, 2)))
    >>> [(m.action.cell, str(m.probability), m.status) for m in moves][:2]
    [((0, 2), '2/9', 'playing'), ((2, 0), '0', 'won')]
    >>> moves[-1].status
    'won'
    """
    chosen = make_player(player)
    chosen.reset()
    rng = np.random.default_rng(seed)
    limit = 2 * game.width * game.height
    number = 0
    while not game.is_finished:
        if number >= limit:
            raise SimulationError(f"{chosen!r} made {limit} moves without finishing the game")
        board = game.board
        if number == 0 and first_cell is not None:
            action = Action("reveal", first_cell[0], first_cell[1], is_guess=True)
        else:
            action = chosen.choose(board, rng)
        probability = solve(board).probability(action.row, action.col)
        if action.kind == "flag":
            result = game.flag(action.row, action.col)
        else:
            result = game.reveal(action.row, action.col)
        number += 1
        yield ReplayMove(number, action, probability, result.status, len(result.revealed))
