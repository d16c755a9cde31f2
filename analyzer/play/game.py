"""Playing Minesweeper: the mutable :class:`Game`.

A :class:`Game` holds a layout of mines and what the player has done; its
:attr:`Game.board` is the :class:`~analyzer.Board` the player sees, the same value
the solver takes. Values around it are immutable: :class:`FirstClickRule`,
:class:`ActionResult` (what one action did) and :class:`MoveCounts`.

The parts of a game each have a module: the first-click rules and the layout they
draw (:mod:`analyzer.play.first_click`), the moves and their flood fill
(:mod:`analyzer.play.moves`), the layout formats, text and MBF
(:mod:`analyzer.play.layouts`). This module builds a game and keeps its state.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from analyzer.board.board import HIDDEN, Board
from analyzer.board.topology import Topology, check_topology
from analyzer.errors import BoardParseError, GameError
from analyzer.limits import whole_or_none
from analyzer.play.allowed import generator
from analyzer.play.first_click import FirstClickRule, first_layout
from analyzer.play.layouts import (
    checked_layout,
    layout_from_mbf,
    layout_from_text,
    layout_to_mbf,
    layout_to_text,
)
from analyzer.play.moves import STATUSES, ActionResult, MoveCounts, _Moves
from analyzer.play.placement import PLACEMENT_METHODS, Cell, Layout

__all__ = ["Game", "FirstClickRule", "ActionResult", "MoveCounts", "STATUSES", "MAX_CELLS"]

NO_GUESS_ATTEMPTS = 10_000
"""Layouts the ``no_guess`` rule draws before it gives up (a :class:`GameError`)."""


MAX_CELLS = 25_000_000
"""The most cells a :class:`Game` holds (5000x5000): its view and layout take some
bytes a cell in Python lists, so larger boards are refused up front rather than
failing for memory half-way through."""


# -------------------------------------------------------------------- game
class Game(_Moves):
    """A game of Minesweeper: a layout of mines and what the player has done.

    ``Game(width, height, mines, ...)`` (or :meth:`Game.new`) starts a random game
    whose mines are placed when the first cell is revealed, uniformly over the
    cells ``first_click`` leaves allowed; :meth:`from_layout`,
    :meth:`from_layout_text` and :meth:`from_mbf` start from given mines (no
    first-click rule then applies).

    Parameters
    ----------
    width, height : int
        Size of the board (at least 1 each).
    mines : int
        Number of mines.
    first_click : str or FirstClickRule
        ``"none"``, ``"safe"`` (default), ``"opening"`` or ``"safe_zone:R"`` (see
        :class:`FirstClickRule`).
    method : str
        Placement method, a key of :data:`analyzer.play.placement.PLACEMENT_METHODS`.
    seed : int, optional
        Seed of the game's :func:`numpy.random.default_rng`; the same seed and the
        same actions give the same game.
    rng : numpy.random.Generator, optional
        A generator to draw from instead of ``seed``.
    topology : str
        How cells touch (see :mod:`analyzer.board.topology`).

    Raises
    ------
    GameError
        Bad sizes, an unknown rule or method, or more mines than the rule leaves
        room for wherever the first click falls.

    Examples
    --------
    >>> game = Game.new(9, 9, 10, first_click="opening", seed=1)
    >>> game.status, game.mines is None
    ('playing', True)
    >>> result = game.reveal(4, 4)
    >>> game.board[4, 4], len(game.mines), len(result.revealed) >= 9
    (0, 10, True)
    >>> game.board.mines, game.moves.total
    (10, 1)

    A fixed layout, played to a win:

    >>> game = Game.from_layout_text('''
    ...     *..
    ...     ...
    ... ''')
    >>> game.reveal(1, 2).revealed
    ((0, 1), (0, 2), (1, 1), (1, 2))
    >>> game.status, game.reveal(1, 0).status
    ('playing', 'won')
    >>> print(game.board)
    H10
    110
    """

    def __init__(
        self,
        width: int,
        height: int,
        mines: int,
        *,
        first_click: str | FirstClickRule = "safe",
        method: str = "sequential",
        seed: int | None = None,
        rng: np.random.Generator | None = None,
        topology: Topology = "square",
    ) -> None:
        self._start(width, height, mines, topology)
        self._rule = FirstClickRule.parse(first_click)
        if method not in PLACEMENT_METHODS:
            raise GameError(
                f"unknown placement method {method!r}; expected one of {', '.join(PLACEMENT_METHODS)}"
            )
        self._method = method
        self._rng = generator(seed, rng)
        # The largest zone is the one around the centre cell (clipped least by edges).
        zone = len(
            self._rule.protected_cells(topology, self.width, self.height, self.height // 2, self.width // 2)
        )
        room = self.width * self.height - zone
        if self.mine_count > room:
            raise GameError(
                f"first-click rule {self._rule.name!r} keeps up to {zone} cells mine-free: a "
                f"{self.width}x{self.height} board has room for at most {room} mines, got {self.mine_count}"
            )

    # ---------------------------------------------------------- construction
    def _start(self, width: object, height: object, mines: object, topology: Topology) -> None:
        w, h, k = whole_or_none(width), whole_or_none(height), whole_or_none(mines)
        if w is None or w < 1:
            raise GameError(f"width must be an integer >= 1, got {width!r}")
        if h is None or h < 1:
            raise GameError(f"height must be an integer >= 1, got {height!r}")
        if k is None or k < 0:
            raise GameError(f"mine count must be a non-negative integer, got {mines!r}")
        try:
            checked = check_topology(topology, w, h)
        except BoardParseError as error:
            raise GameError(str(error)) from None
        self.width = w
        self.height = h
        self.mine_count = k
        self.topology: Topology = checked
        cells = self.width * self.height
        if cells > MAX_CELLS:
            raise GameError(
                f"a {w}x{h} board has {cells} cells, more than a game holds "
                f"({MAX_CELLS}, analyzer.play.game.MAX_CELLS)"
            )
        if self.mine_count > cells:
            raise GameError(f"more mines ({self.mine_count}) than cells ({cells})")
        self._rule = FirstClickRule.none()
        self._method = "sequential"
        self._rng = None
        self._layout: Layout | None = None
        self._is_mine: bytearray | None = None
        self._view = [HIDDEN] * cells
        self._board: Board | None = None
        self._fatal: Cell | None = None
        self._revealed = 0
        self._flags = 0
        self._counts = {"reveals": 0, "chords": 0, "flags": 0, "unflags": 0}
        # With no safe cells there is nothing to reveal: the game is won at once.
        self._status = "won" if self.mine_count == cells else "playing"

    @classmethod
    def new(
        cls,
        width: int,
        height: int,
        mines: int,
        *,
        first_click: str | FirstClickRule = "safe",
        method: str = "sequential",
        seed: int | None = None,
        rng: np.random.Generator | None = None,
        topology: Topology = "square",
    ) -> Game:
        """A random game; the same as ``Game(width, height, mines, ...)``.

        >>> game = Game.new(16, 16, 40, first_click="safe_zone:2", seed=3)
        >>> game.first_click
        FirstClickRule(radius=2)
        """
        return cls(
            width,
            height,
            mines,
            first_click=first_click,
            method=method,
            seed=seed,
            rng=rng,
            topology=topology,
        )

    @classmethod
    def from_layout(
        cls, width: int, height: int, layout: Iterable[Cell], *, topology: Topology = "square"
    ) -> Game:
        """A game with the given mines, e.g. from :func:`analyzer.play.placement.place_mines`.

        Raises
        ------
        GameError
            Bad sizes, a mine outside the board, or the same mine twice.

        Examples
        --------
        >>> from analyzer.play.placement import place_mines
        >>> game = Game.from_layout(8, 8, place_mines(8, 8, 10, seed=0))
        >>> game.mine_count, game.status
        (10, 'playing')
        >>> Game.from_layout(2, 2, [(0, 0), (2, 0)])
        Traceback (most recent call last):
        ...
        analyzer.errors.GameError: mine (2, 0) is outside the 2x2 board
        """
        cells = list(layout)
        game = cls.__new__(cls)
        game._start(width, height, len(cells), topology)
        game._set_layout(checked_layout(cells, game.width, game.height))
        return game

    @classmethod
    def from_layout_text(cls, text: str, *, topology: Topology = "square") -> Game:
        """A game from rows of ``*`` (mine) and ``.`` (safe).

        Blank lines and blanks around rows are ignored.

        Raises
        ------
        GameError
            Naming the line and column of an unknown character or a ragged row.

        Examples
        --------
        >>> Game.from_layout_text("*.\\n..\\n").to_layout_text()
        '*.\\n..\\n'
        >>> Game.from_layout_text("*.\\n.x")
        Traceback (most recent call last):
        ...
        analyzer.errors.GameError: line 2, column 2: unknown character 'x' in '.x'; expected '*' or '.'
        """
        width, height, mines = layout_from_text(text)
        return cls.from_layout(width, height, mines, topology=topology)

    def to_layout_text(self) -> str:
        """The layout as rows of ``*`` and ``.``, each ending in a newline.

        Raises
        ------
        GameError
            Before the first click of a random game (no mines yet).
        """
        return layout_to_text(self._placed(), self.width, self.height)

    @classmethod
    def from_mbf(cls, data: bytes) -> Game:
        """A game from MBF bytes: width, height, 2-byte big-endian count, ``(x, y)`` per mine.

        Raises
        ------
        GameError
            Bytes that are not a well-formed MBF layout.

        Examples
        --------
        >>> game = Game.from_mbf(bytes([3, 2, 0, 2, 0, 0, 2, 1]))
        >>> print(game.to_layout_text(), end="")
        *..
        ..*
        >>> game.to_mbf() == bytes([3, 2, 0, 2, 0, 0, 2, 1])
        True
        >>> Game.from_mbf(bytes([3, 2, 0, 2, 0, 0]))
        Traceback (most recent call last):
        ...
        analyzer.errors.GameError: bad MBF: header promises 2 mines (8 bytes), got 6 bytes
        """
        width, height, mines = layout_from_mbf(data)
        return cls.from_layout(width, height, mines)

    def to_mbf(self) -> bytes:
        """The layout as MBF bytes, mines in row-major order.

        A random game without first-click protection (``first_click="none"``)
        places its mines here if no cell was clicked yet (the layout it would have
        placed at the first click: it does not depend on the cell).

        Raises
        ------
        GameError
            Before the first click of a random game whose rule protects the first
            cell (its layout depends on that cell), or a board too big for MBF (more
            than 255 columns or rows, or 65535 mines).

        >>> data = Game.new(9, 9, 10, first_click="none", seed=1).to_mbf()
        >>> Game.from_mbf(data).mine_count
        10
        """
        if self._is_mine is None and self._rule.name == "none":
            self._place_mines(0)
        if self._is_mine is None:
            raise GameError(
                f"the mines are not placed before the first click: a {self._rule.name!r} game places them"
                " then (they depend on its cell); reveal a cell first, or use first_click='none'"
            )
        assert self._layout is not None
        return layout_to_mbf(self.width, self.height, self._layout)

    # ------------------------------------------------------------ state
    def _repr_html_(self) -> str:
        from analyzer.render import game_html

        return game_html(self)

    @property
    def status(self) -> str:
        """``"playing"``, ``"won"`` (every safe cell revealed) or ``"lost"`` (a mine revealed)."""
        return self._status

    @property
    def is_finished(self) -> bool:
        return self._status != "playing"

    @property
    def mines(self) -> Layout | None:
        """The layout of mines; ``None`` before the first click of a random game."""
        return self._layout

    @property
    def first_click(self) -> FirstClickRule:
        """The first-click rule (``none`` for a game from a given layout)."""
        return self._rule

    @property
    def method(self) -> str:
        """The placement method of a random game."""
        return self._method

    @property
    def board(self) -> Board:
        """What the player sees, as a :class:`~analyzer.Board`: the input the solver takes.

        Revealed cells show their number, flagged cells :data:`~analyzer.FLAG`, the
        others (mines included, also after a loss) :data:`~analyzer.HIDDEN`; the mine
        total is every mine. Built once per change and cached between moves.
        """
        if self._board is None:
            self._board = Board(self.width, self.height, self.mine_count, tuple(self._view), self.topology)
        return self._board

    def is_mine(self, row: int, col: int) -> bool:
        """Whether ``(row, col)`` holds a mine (an error before the mines are placed)."""
        return bool(self._placed()[self._index(row, col)])

    # ---------------------------------------------------------- internals
    def _place_mines(self, first: int) -> None:
        layout = first_layout(
            self._rule,
            self.width,
            self.height,
            self.mine_count,
            self._cell(first),
            method=self._method,
            rng=self._rng,
            topology=self.topology,
            attempts=NO_GUESS_ATTEMPTS,
        )
        self._set_layout(layout)

    def copy(self) -> Game:
        """An independent copy: the same layout, cells shown, status and random state (undo keeps these).

        >>> game = Game.from_layout_text("*..\\n...\\n")
        >>> before = game.copy()
        >>> game.reveal(1, 2).status, before.status, before.board.cells.count(-1)
        ('playing', 'playing', 6)
        """
        import copy

        clone = copy.copy(self)
        clone._view = list(self._view)
        clone._counts = dict(self._counts)
        if self._rng is not None:
            clone._rng = copy.deepcopy(self._rng)
        return clone

    # ------------------------------------------------------------- dunder
    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_board"] = None  # rebuilt on demand; keeps pickles small
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    def __repr__(self) -> str:
        return (
            f"<Game {self.width}x{self.height}{self._topology_text}, {self.mine_count} mines, "
            f"{self._status}, "
            f"first_click={self._rule.name!r}, {self.moves.total} moves>"
        )

    @property
    def _topology_text(self) -> str:
        if self.topology == "square":
            return ""
        return f" {self.topology}" if isinstance(self.topology, str) else " graph"

    def __str__(self) -> str:
        return str(self.board)
