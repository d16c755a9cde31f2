"""Playing Minesweeper: the mutable :class:`Game` and its first-click rules.

A :class:`Game` holds a layout of mines and what the player has done; its
:attr:`Game.board` is the :class:`~analyzer.Board` the player sees, the same value
the solver takes. Values around it are immutable: :class:`FirstClickRule`,
:class:`ActionResult` (what one action did) and :class:`MoveCounts`.

First-click rules
-----------------
A random game places its mines when the first cell is revealed, uniformly over
the cells the rule leaves allowed (with :func:`analyzer.play.placement.place_mines`):

``"none"``
    No protection: the first click may hit a mine.
``"safe"``
    The first clicked cell is mine-free (``safe_zone:0``).
``"opening"``
    The first clicked cell is a zero, so it opens an area: it and its neighbours
    are mine-free (``safe_zone:1``).
``"safe_zone:R"``
    Every cell within Chebyshev distance ``R`` of the first click is mine-free.
``"no_guess"``, ``"no_guess:RULE"``
    One of the rules above (``opening`` when none is named), and the layout can
    be won from the first click by deduction alone
    (:func:`analyzer.play.solvable.is_solvable`). Layouts are drawn under the
    rule underneath until one is solvable (rejection), so every solvable
    layout is equally likely; past :data:`NO_GUESS_ATTEMPTS` draws the game
    raises :class:`~analyzer.errors.GameError`.

Layout formats
--------------
Layout text
    Rows of ``*`` (a mine) and ``.`` (a safe cell).
MBF (Minesweeper Board Format)
    A byte width, a byte height, the mine count as 2 bytes big-endian, then an
    ``(x, y)`` byte pair (column, row) per mine.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from analyzer.board.board import FLAG, HIDDEN, Board
from analyzer.board.topology import Topology, chebyshev_ball, check_topology, neighbour_table
from analyzer.errors import BoardParseError, GameError
from analyzer.limits import whole, whole_or_none
from analyzer.play.placement import PLACEMENT_METHODS, Cell, Layout, place_mines
from analyzer.play.solvable import is_solvable

__all__ = ["Game", "FirstClickRule", "ActionResult", "MoveCounts", "STATUSES", "MAX_CELLS"]

NO_GUESS_ATTEMPTS = 10_000
"""Layouts the ``no_guess`` rule draws before it gives up (a :class:`GameError`)."""

STATUSES = ("playing", "won", "lost")
"""The values of :attr:`Game.status`."""

_MBF_HEADER = 4


MAX_CELLS = 25_000_000
"""The most cells a :class:`Game` holds (5000x5000): its view and layout take some
bytes a cell in Python lists, so larger boards are refused up front rather than
failing for memory half-way through."""


# ------------------------------------------------------------------ values
@dataclass(frozen=True, slots=True)
class FirstClickRule:
    """Which cells around the first click a random game keeps mine-free.

    Parameters
    ----------
    radius : int or None
        Every cell within Chebyshev distance ``radius`` of the first click (under
        the board's topology) is mine-free; ``None`` protects nothing. ``0`` is
        ``"safe"``, ``1`` is ``"opening"``.

    Examples
    --------
    >>> FirstClickRule.parse("opening")
    FirstClickRule(radius=1)
    >>> FirstClickRule.parse("safe_zone:1") == FirstClickRule.opening()
    True
    >>> [str(FirstClickRule.parse(s)) for s in ("none", "safe", "safe_zone:0", "safe_zone:2")]
    ['none', 'safe', 'safe', 'safe_zone:2']
    >>> FirstClickRule.parse("no_guess"), str(FirstClickRule.parse("no_guess:safe"))
    (FirstClickRule(radius=1, no_guess=True), 'no_guess:safe')
    >>> FirstClickRule.parse("zone:2")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    analyzer.errors.GameError: unknown first-click rule 'zone:2'; expected none, safe, ...
    """

    radius: int | None = 0
    no_guess: bool = False

    def __post_init__(self) -> None:
        radius = self.radius
        if radius is not None and ((whole := whole_or_none(radius)) is None or whole < 0):
            raise GameError(f"safe-zone radius must be None or an integer >= 0, got {radius!r}")

    @classmethod
    def none(cls) -> FirstClickRule:
        """No protection."""
        return cls(None)

    @classmethod
    def safe(cls) -> FirstClickRule:
        """The first clicked cell is mine-free."""
        return cls(0)

    @classmethod
    def opening(cls) -> FirstClickRule:
        """The first clicked cell is a zero (``safe_zone(1)``)."""
        return cls(1)

    @classmethod
    def safe_zone(cls, radius: int) -> FirstClickRule:
        """Cells within Chebyshev distance ``radius`` of the first click are mine-free."""
        return cls(radius)

    @classmethod
    def parse(cls, spec: str | FirstClickRule) -> FirstClickRule:
        """A rule from its name: ``"none"``, ``"safe"``, ``"opening"`` or ``"safe_zone:R"``."""
        if isinstance(spec, FirstClickRule):
            return spec
        if isinstance(spec, str):
            name = spec.strip().lower()
            if name == "no_guess" or name.startswith("no_guess:"):
                base = cls.parse(name.partition(":")[2] or "opening")
                if not base.no_guess:
                    return cls(base.radius, no_guess=True)
            named = {"none": None, "safe": 0, "opening": 1}
            if name in named:
                return cls(named[name])
            prefix, _, radius = name.partition(":")
            radius = radius.strip()
            if prefix == "safe_zone" and radius.isascii() and radius.isdigit():
                return cls(int(radius))
        raise GameError(
            f"unknown first-click rule {spec!r}; expected none, safe, opening or safe_zone:R"
            " (each may follow no_guess:)"
        )

    @property
    def name(self) -> str:
        """The canonical name, which :meth:`parse` reads back."""
        base = {None: "none", 0: "safe", 1: "opening"}.get(self.radius, f"safe_zone:{self.radius}")
        if self.no_guess:
            return "no_guess" if base == "opening" else f"no_guess:{base}"
        return base

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        guess = ", no_guess=True" if self.no_guess else ""
        return f"FirstClickRule(radius={self.radius!r}{guess})"

    def protected_cells(
        self, topology: Topology, width: int, height: int, row: int, col: int
    ) -> tuple[int, ...]:
        """Flat indices of the cells kept mine-free when ``(row, col)`` is clicked first.

        >>> FirstClickRule.opening().protected_cells("square", 3, 3, 0, 0)
        (0, 1, 3, 4)
        >>> FirstClickRule.none().protected_cells("square", 3, 3, 0, 0)
        ()
        """
        if self.radius is None:
            return ()
        # A radius past the board's size covers the whole board: no need to walk further.
        return chebyshev_ball(topology, width, height, row, col, min(self.radius, max(width, height)))


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


# -------------------------------------------------------------------- game
class Game:
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
        if rng is not None:
            if seed is not None:
                raise GameError("give seed= or rng=, not both")
            if not isinstance(rng, np.random.Generator):
                raise GameError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
            self._rng: np.random.Generator | None = rng
        else:
            if seed is not None and not isinstance(seed, np.random.SeedSequence):
                whole(seed, "seed", minimum=0, error=GameError)
            self._rng = np.random.default_rng(seed)
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

    def _set_layout(self, layout: Layout) -> None:
        is_mine = bytearray(self.width * self.height)
        for row, col in layout:
            is_mine[row * self.width + col] = 1
        self._layout = layout
        self._is_mine = is_mine

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
        seen: set[Cell] = set()
        for cell in cells:
            try:
                row, col = (whole_or_none(x) for x in cell)
            except (TypeError, ValueError):
                raise GameError(f"mine {cell!r} is not a (row, col) pair") from None
            if row is None or col is None or not (0 <= row < game.height and 0 <= col < game.width):
                raise GameError(f"mine {cell!r} is outside the {game.width}x{game.height} board")
            if (row, col) in seen:
                raise GameError(f"mine {cell!r} is given twice")
            seen.add((row, col))
        game._set_layout(frozenset(seen))
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
        if not isinstance(text, str):
            raise GameError(f"expected text, got {type(text).__name__}")
        rows = [(n + 1, line.strip()) for n, line in enumerate(text.replace("\r\n", "\n").split("\n"))]
        rows = [(n, line) for n, line in rows if line]
        if not rows:
            raise GameError("empty layout text")
        width = len(rows[0][1])
        mines = []
        for r, (lineno, line) in enumerate(rows):
            for c, ch in enumerate(line):
                if ch == "*":
                    mines.append((r, c))
                elif ch != ".":
                    where = f"line {lineno}, column {c + 1}"
                    raise GameError(f"{where}: unknown character {ch!r} in {line!r}; expected '*' or '.'")
            if len(line) != width:
                raise GameError(f"line {lineno}: row {line!r} has {len(line)} cells, expected {width}")
        return cls.from_layout(width, len(rows), mines, topology=topology)

    def to_layout_text(self) -> str:
        """The layout as rows of ``*`` and ``.``, each ending in a newline.

        Raises
        ------
        GameError
            Before the first click of a random game (no mines yet).
        """
        is_mine = self._placed()
        w = self.width
        return "".join(
            "".join("*" if is_mine[r * w + c] else "." for c in range(w)) + "\n" for r in range(self.height)
        )

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
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise GameError(f"bad MBF: expected bytes, got {type(data).__name__}")
        data = bytes(data)
        if len(data) < _MBF_HEADER:
            raise GameError(f"bad MBF: expected a 4-byte header, got {len(data)} bytes {data!r}")
        width, height = data[0], data[1]
        count = int.from_bytes(data[2:4], "big")
        if width < 1 or height < 1:
            raise GameError(f"bad MBF: board must be at least 1x1, got {width}x{height}")
        expected = _MBF_HEADER + 2 * count
        if len(data) != expected:
            raise GameError(
                f"bad MBF: header promises {count} mines ({expected} bytes), got {len(data)} bytes"
            )
        if count > width * height:
            raise GameError(f"bad MBF: {count} mines do not fit on a {width}x{height} board")
        mines: list[Cell] = []
        seen: set[Cell] = set()
        for number in range(count):
            x, y = data[_MBF_HEADER + 2 * number], data[_MBF_HEADER + 2 * number + 1]
            if x >= width or y >= height:
                raise GameError(
                    f"bad MBF: mine {number} at (x={x}, y={y}) is outside the {width}x{height} board"
                )
            if (y, x) in seen:
                raise GameError(f"bad MBF: mine {number} at (x={x}, y={y}) repeats an earlier one")
            seen.add((y, x))
            mines.append((y, x))
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
        if self.width > 255 or self.height > 255 or self.mine_count > 0xFFFF:
            raise GameError(
                f"a {self.width}x{self.height} board with {self.mine_count} mines does not fit MBF "
                "(at most 255x255 and 65535 mines)"
            )
        assert self._layout is not None
        body = bytes(v for row, col in sorted(self._layout) for v in (col, row))
        return bytes([self.width, self.height]) + self.mine_count.to_bytes(2, "big") + body

    # ------------------------------------------------------------ state
    @property
    def fatal_cell(self) -> Cell | None:
        """The mine that lost the game (``None`` while it is not lost)."""
        return self._fatal

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
        self._view[index] = FLAG
        self._flags += 1
        self._counts["flags"] += 1
        self._board = None
        return ActionResult("flag", (row, col), (), self._status)

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
        self._view[index] = HIDDEN
        self._flags -= 1
        self._counts["unflags"] += 1
        self._board = None
        return ActionResult("unflag", (row, col), (), self._status)

    def toggle_flag(self, row: int, col: int) -> ActionResult:
        """Flag a hidden cell, or unflag a flagged one.

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

    def _place_mines(self, first: int) -> None:
        row, col = self._cell(first)
        zone = self._rule.protected_cells(self.topology, self.width, self.height, row, col)
        w = self.width
        for _ in range(NO_GUESS_ATTEMPTS if self._rule.no_guess else 1):
            layout = place_mines(
                self.width,
                self.height,
                self.mine_count,
                method=self._method,
                exclude=[divmod(j, w) for j in zone],
                rng=self._rng,
            )
            # no_guess: rejection, so uniform over the layouts solvable from this click.
            if not self._rule.no_guess or is_solvable(
                layout, (row, col), width=self.width, height=self.height, topology=self.topology
            ):
                break
        else:
            raise GameError(
                f"no layout solvable without guessing from {(row, col)!r} in {NO_GUESS_ATTEMPTS} draws"
                f" ({self.width}x{self.height}, {self.mine_count} mines): too dense for no_guess"
            )
        self._set_layout(layout)

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
