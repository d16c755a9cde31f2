"""``optimal``: perfect play, by the exact search of :mod:`analyzer.play.optimal`."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from analyzer.board.board import HIDDEN, Board
from analyzer.errors import AnalyzerError, PlayerError
from analyzer.play.game import FirstClickRule
from analyzer.play.optimal import HIDDEN_VIEW, MAX_LAYOUTS, OptimalSearch, optimal
from analyzer.play.players.base import Action, Player, reveal_action

__all__ = ["OptimalPlayer"]


@dataclass(eq=False)
class OptimalPlayer(Player):
    """Perfect play: every move maximises the exact probability of winning.

    On an empty board it reveals the best first cell for ``first_click`` (the
    first in row-major order of :attr:`~analyzer.play.optimal.OptimalResult.best_cells`);
    afterwards every certainly safe cell, else the guess whose exact win count
    (:meth:`~analyzer.play.optimal.OptimalSearch.guess_values`) is highest, the
    first in row-major order on ties. It never flags, and flags it is shown are
    read as hidden cells: flags never matter for winning. Ties are broken
    without the random generator: the player is deterministic.

    The search holds every layout of the board: boards with more than
    ``max_layouts`` layouts (``C(cells, mines)``) or 64 cells are refused with a
    :class:`~analyzer.errors.PlayerError`. The memo of one board size is kept
    between games (the player keeps one search a board).

    Parameters
    ----------
    first_click : str
        The rule the games are played under (it decides the best first cell;
        players see the board only).
    max_layouts : int
        The largest board (in layouts) the player accepts.

    Examples
    --------
    >>> board = Board.from_text("3x2x1\\nHHH\\nHHH\\n")
    >>> OptimalPlayer().choose(board, np.random.default_rng(0))
    Action(kind='reveal', row=0, col=0, is_guess=False)
    >>> big = Board.from_text("9x9x10\\n" + "HHHHHHHHH\\n" * 9)
    >>> OptimalPlayer().choose(big, np.random.default_rng(0))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    analyzer.errors.PlayerError: the optimal player searches boards of at most 1000000 layouts; 9x9 with ...
    """

    name: ClassVar[str] = "optimal"
    first_click: str = "safe"
    max_layouts: int = 1_000_000
    _searches: dict[tuple[int, int, int], OptimalSearch] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    _first_cells: dict[tuple[int, int, int], tuple[int, int]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        super().__post_init__()
        try:
            rule = FirstClickRule.parse(self.first_click)
        except AnalyzerError as error:
            raise PlayerError(str(error)) from None
        if rule.no_guess or (rule.radius is not None and rule.radius > 1):
            raise PlayerError(
                f"the optimal player plays first-click rules none, safe and opening, not {rule.name!r}"
            )
        self.first_click = rule.name
        limit = self.max_layouts
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LAYOUTS:
            raise PlayerError(f"max_layouts must be an integer in 1..{MAX_LAYOUTS}, got {limit!r}")

    def search(self, board: Board) -> OptimalSearch:
        """The search of ``board``'s size and mine count (built once, then reused)."""
        if board.topology != "square":
            raise PlayerError(f"the optimal player plays the square topology, not {board.topology!r}")
        key = (board.width, board.height, board.mines)
        found = self._searches.get(key)
        if found is None:
            count = math.comb(board.width * board.height, board.mines)
            if board.width * board.height > 64 or count > self.max_layouts:
                raise PlayerError(
                    f"the optimal player searches boards of at most {self.max_layouts} layouts; "
                    f"{board.width}x{board.height} with {board.mines} mines has {count}"
                )
            found = self._searches[key] = OptimalSearch(*key)
        return found

    def _think(self, board: Board, rng: np.random.Generator) -> list[Action]:
        search = self.search(board)
        cells = board.cells
        view = np.array([v if v >= 0 else HIDDEN_VIEW for v in cells], dtype=np.int8)
        if (view < 0).all():
            key = (board.width, board.height, board.mines)
            if key not in self._first_cells:
                result = optimal(*key, first_click=self.first_click, search=search)
                self._first_cells[key] = result.best_cells[0]
            row, col = self._first_cells[key]
            return [Action("reveal", row, col, is_guess=self.first_click == "none")]
        layouts = search.consistent(view.tolist())
        if len(layouts) == 0:
            raise PlayerError("no mine layout is consistent with the board")
        hidden = [i for i, v in enumerate(cells) if v < 0]
        union = int(np.bitwise_or.reduce(layouts))
        safe = [i for i in hidden if not (union >> i) & 1 and cells[i] == HIDDEN]
        if safe:
            return [reveal_action(board, i, is_guess=False) for i in safe]
        # A flagged cell is not played (unflagging is not an action); flags are ours to ignore.
        values = search.guess_values(view, layouts, [i for i in hidden if cells[i] == HIDDEN])
        best = max(values, key=lambda i: (values[i], -i))
        return [reveal_action(board, best, is_guess=True)]
