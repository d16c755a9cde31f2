"""A game's moves: reveal (with the flood fill around a zero), chord, flag and unflag.

:class:`~analyzer.play.game.Game` makes them; its state (the view, the layout, the
counts) is set up there. The values a move returns are here: :class:`ActionResult`
(what one action did) and :class:`MoveCounts`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from analyzer.board.board import FLAG, HIDDEN, Board
from analyzer.board.topology import Topology, neighbour_table
from analyzer.errors import GameError
from analyzer.limits import whole_or_none
from analyzer.play.allowed import Layout
from analyzer.play.first_click import FirstClickRule
from analyzer.play.placement import Cell

__all__ = ["ActionResult", "MoveCounts", "STATUSES"]

STATUSES = ("playing", "won", "lost")
"""The values of :attr:`Game.status`."""


@dataclass(frozen=True, slots=True)
class ActionResult:
    """What one action did.

    Attributes
    ----------
    action : str
        ``"reveal"``, ``"chord"``, ``"flag"`` or ``"unflag"``.
    cell : (row, col)
        The cell acted on.
    revealed : tuple of (row, col)
        Safe cells this action revealed, in row-major order.
    status : str
        The game's status after the action (one of :data:`STATUSES`).
    mine : (row, col) or None
        The mine revealed, when the action lost the game.
    noop : bool
        True when the action changed nothing because the cell was already in the
        state asked for (revealing an open cell, flagging a flagged one, unflagging
        a hidden one); such actions are not counted in :attr:`Game.moves`.
    """

    action: str
    cell: Cell
    revealed: tuple[Cell, ...] = ()
    status: str = "playing"
    mine: Cell | None = None
    noop: bool = False


@dataclass(frozen=True, slots=True)
class MoveCounts:
    """How many actions of each kind a game has taken (failed actions do not count)."""

    reveals: int = 0
    chords: int = 0
    flags: int = 0
    unflags: int = 0

    @property
    def total(self) -> int:
        return self.reveals + self.chords + self.flags + self.unflags


class _Moves:
    """The moves of a :class:`~analyzer.play.game.Game`, and the flood fill behind them.

    A private base: ``Game`` sets up every attribute below (``Game._start``).
    """

    width: int
    height: int
    mine_count: int
    topology: Topology
    _rule: FirstClickRule
    _method: str
    _rng: np.random.Generator | None
    _layout: Layout | None
    _is_mine: bytearray | None
    _view: list[int]
    _board: Board | None
    _fatal: Cell | None
    _revealed: int
    _flags: int
    _counts: dict[str, int]
    _status: str

    # ------------------------------------------------ what the moves did
    @property
    def fatal_cell(self) -> Cell | None:
        """The mine that lost the game (``None`` while it is not lost)."""
        return self._fatal

    @property
    def moves(self) -> MoveCounts:
        """How many actions of each kind have been taken."""
        return MoveCounts(**self._counts)

    @property
    def revealed_count(self) -> int:
        """Number of safe cells revealed."""
        return self._revealed

    @property
    def flag_count(self) -> int:
        """Number of cells flagged."""
        return self._flags

    @property
    def safe_cells_left(self) -> int:
        """Safe cells still to reveal to win."""
        return self.width * self.height - self.mine_count - self._revealed

    # ---------------------------------------------------------- actions
    def reveal(self, row: int, col: int) -> ActionResult:
        """Reveal a hidden cell; a zero opens its neighbours too (an iterative flood fill).

        On a random game's first reveal the mines are placed first, by the
        first-click rule.

        Revealing a cell that is already open (by the player or a flood fill)
        changes nothing: the result has ``noop=True`` and reveals nothing, so a
        script may reveal every cell of ``analysis.safe`` in any order.

        Raises
        ------
        GameError
            A finished game, a cell outside the board, or a flagged cell.

        Examples
        --------
        >>> from analyzer.play.game import Game
        >>> game = Game.from_layout_text("*..\\n...\\n..*")
        >>> game.reveal(0, 1)  # doctest: +NORMALIZE_WHITESPACE
        ActionResult(action='reveal', cell=(0, 1), revealed=((0, 1),), status='playing',
                     mine=None, noop=False)
        >>> game.reveal(0, 1).noop
        True
        >>> game.reveal(0, 0).status
        'lost'
        >>> game.reveal(1, 1)
        Traceback (most recent call last):
        ...
        analyzer.errors.GameError: the game is over (lost)
        """
        self._check_playing()
        index = self._index(row, col)
        value = self._view[index]
        if value == FLAG:
            raise GameError(f"cell {(row, col)!r} is flagged; unflag it before revealing it")
        if value != HIDDEN:
            return ActionResult("reveal", (row, col), (), self._status, noop=True)
        if self._is_mine is None:
            self._place_mines(index)
        assert self._is_mine is not None
        self._counts["reveals"] += 1
        self._board = None
        if self._is_mine[index]:
            self._status = "lost"
            self._fatal = (row, col)
            return ActionResult("reveal", (row, col), (), self._status, (row, col))
        revealed = self._flood((index,))
        return ActionResult("reveal", (row, col), self._cells(revealed), self._finish_if_won())

    def chord(self, row: int, col: int) -> ActionResult:
        """Reveal every hidden, unflagged neighbour of a number with as many flags around it.

        A wrongly placed flag makes the chord reveal a mine and lose the game.

        Raises
        ------
        GameError
            A finished game, a cell outside the board or not a revealed number, or
            a number whose flagged neighbours do not match it.

        Examples
        --------
        >>> from analyzer.play.game import Game
        >>> game = Game.from_layout_text("*..\\n...\\n...")
        >>> _ = game.reveal(1, 1), game.flag(0, 0)
        >>> game.chord(1, 1).revealed
        ((0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2))
        >>> game.status
        'won'
        """
        self._check_playing()
        index = self._index(row, col)
        value = self._view[index]
        if value < 0:
            raise GameError(f"cell {(row, col)!r} is not revealed; chord a revealed number")
        neighbours = self._table[index]
        view = self._view
        flags = sum(1 for j in neighbours if view[j] == FLAG)
        if flags != value:
            raise GameError(f"cell {(row, col)!r} shows {value} but has {flags} flagged neighbours")
        assert self._is_mine is not None
        targets = [j for j in neighbours if view[j] == HIDDEN]
        self._counts["chords"] += 1
        self._board = None
        mines = [j for j in targets if self._is_mine[j]]
        revealed = self._flood([j for j in targets if not self._is_mine[j]])
        if mines:
            self._status = "lost"
            self._fatal = self._cell(mines[0])
            return ActionResult(
                "chord", (row, col), self._cells(revealed), self._status, self._cell(mines[0])
            )
        return ActionResult("chord", (row, col), self._cells(revealed), self._finish_if_won())

    def flag(self, row: int, col: int) -> ActionResult:
        """Flag a hidden cell as a mine.

        Raises
        ------
        GameError
            A finished game, a cell outside the board or revealed, or every mine
            already flagged (the board could not show more flags). Flagging a
            flagged cell changes nothing (``noop=True`` in the result).
        """
        self._check_playing()
        index = self._index(row, col)
        value = self._view[index]
        if value == FLAG:
            return ActionResult("flag", (row, col), (), self._status, noop=True)
        if value != HIDDEN:
            raise GameError(f"cell {(row, col)!r} is revealed and cannot be flagged")
        if self._flags >= self.mine_count:
            raise GameError(f"no flags left: {self._flags} flags for {self.mine_count} mines")
        return self._mark("flag", (row, col), index, FLAG)

    def unflag(self, row: int, col: int) -> ActionResult:
        """Remove a flag.

        Raises
        ------
        GameError
            A finished game, a cell outside the board or revealed. Unflagging a
            hidden cell that has no flag changes nothing (``noop=True``).
        """
        self._check_playing()
        index = self._index(row, col)
        if self._view[index] == HIDDEN:
            return ActionResult("unflag", (row, col), (), self._status, noop=True)
        if self._view[index] != FLAG:
            raise GameError(f"cell {(row, col)!r} is revealed, not flagged")
        return self._mark("unflag", (row, col), index, HIDDEN)

    def _mark(self, action: str, cell: Cell, index: int, shown: int) -> ActionResult:
        """Show ``shown`` (a flag, or hidden again) on the cell ``index``, a counted move."""
        self._view[index] = shown
        self._flags += 1 if shown == FLAG else -1
        self._counts[action + "s"] += 1
        self._board = None
        return ActionResult(action, cell, (), self._status)

    def toggle_flag(self, row: int, col: int) -> ActionResult:
        """Flag a hidden cell, or unflag a flagged one.

        >>> from analyzer.play.game import Game
        >>> game = Game.new(3, 3, 1, seed=0)
        >>> game.toggle_flag(0, 0).action, game.toggle_flag(0, 0).action
        ('flag', 'unflag')
        """
        self._check_playing()
        if self._view[self._index(row, col)] == FLAG:
            return self.unflag(row, col)
        return self.flag(row, col)

    # ---------------------------------------------------------- internals
    @property
    def _table(self) -> tuple[tuple[int, ...], ...]:
        return neighbour_table(self.topology, self.width, self.height)

    def _index(self, row: object, col: object) -> int:
        r, c = whole_or_none(row), whole_or_none(col)
        if r is None or c is None or not (0 <= r < self.height and 0 <= c < self.width):
            raise GameError(f"cell {(row, col)!r} is outside the {self.width}x{self.height} board")
        return r * self.width + c

    def _cell(self, index: int) -> Cell:
        return divmod(index, self.width)

    def _cells(self, indices: list[int]) -> tuple[Cell, ...]:
        w = self.width
        return tuple(divmod(i, w) for i in sorted(indices))

    def _check_playing(self) -> None:
        if self._status != "playing":
            raise GameError(f"the game is over ({self._status})")

    def _placed(self) -> bytearray:
        if self._is_mine is None:
            raise GameError("the mines are not placed before the first click")
        return self._is_mine

    def _place_mines(self, first: int) -> None:  # pragma: no cover - Game places them
        raise NotImplementedError

    def _set_layout(self, layout: Layout) -> None:
        is_mine = bytearray(self.width * self.height)
        for row, col in layout:
            is_mine[row * self.width + col] = 1
        self._layout = layout
        self._is_mine = is_mine

    def _flood(self, starts: Iterable[int]) -> list[int]:
        """Reveal the safe hidden cells ``starts``, and around every zero, with a stack.

        Flagged cells are left alone. Returns the flat indices newly revealed.
        """
        table = self._table
        is_mine = self._is_mine
        assert is_mine is not None
        view = self._view
        stack = list(starts)
        revealed = []
        while stack:
            index = stack.pop()
            if view[index] != HIDDEN:
                continue
            neighbours = table[index]
            number = 0
            for j in neighbours:
                number += is_mine[j]
            view[index] = number
            revealed.append(index)
            if number == 0:
                stack.extend(j for j in neighbours if view[j] == HIDDEN)
        self._revealed += len(revealed)
        return revealed

    def _finish_if_won(self) -> str:
        if self._revealed == self.width * self.height - self.mine_count:
            self._status = "won"
        return self._status
