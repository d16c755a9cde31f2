"""The position a session shows and its history: the cells, the game or the replay's step; undo, redo.

``Position`` is the bottom layer of :class:`~analyzer.interactive.session.Session`: its
state (every attribute the layers above read is set in ``Position.__init__``), the changes
of what is shown (:meth:`Session.set_board`, :meth:`Session.new_game`, the edit of one cell),
the version that counts them, and the history that undo and redo walk (:class:`Snapshot`).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from analyzer.board.board import FLAG, HIDDEN, Board, Cell
from analyzer.board.topology import Topology
from analyzer.errors import OptionError
from analyzer.interactive.session.fields import read_cell, read_integer
from analyzer.interactive.session.protocol import check_size
from analyzer.limits import flag

if TYPE_CHECKING:
    import numpy as np

    from analyzer.interactive.screenshot import Opened
    from analyzer.play.game import Game
    from analyzer.replays.analyse import ReplayAnalysis
    from analyzer.solver.analysis import Analysis
    from analyzer.solver.moves import Move

__all__ = ["Budgets", "Snapshot"]


@dataclass(frozen=True)
class Budgets:
    """What the history and each search may spend: the session's constants, read at each use.

    :class:`~analyzer.interactive.session.Session` fills it from the constants of
    :mod:`analyzer.interactive.session` (``HISTORY_STEPS``, ``MARK_SECONDS``, ...), where each
    is described, so that a change of one there is seen by the next search.
    """

    history_steps: int
    history_cells: int
    certain_seconds: float
    flags_named: int
    mark_seconds: float
    mark_cells: int
    win_layouts: int
    win_nodes: int
    win_hidden: int
    win_depth: int
    candidate_cells: int
    candidate_rows: int
    candidate_margin: Fraction
    autoplay_seconds: float


class Position:
    """The position shown in one of the three modes, its version, and its history (see the module)."""

    def __init__(self, *, time_limit: float, seed: int, trust_flags: bool, adjust_numbers: bool):
        if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)) or not time_limit > 0:
            raise OptionError(f"time_limit must be a positive number of seconds, got {time_limit!r}")
        self.time_limit = float(time_limit)
        self.trust_flags = flag(trust_flags, "trust_flags")
        self.adjust_numbers = flag(adjust_numbers, "adjust_numbers")
        self.lock = threading.RLock()
        self.note = ""
        # What is shown: edit mode's cells, play mode's game, replay mode's step.
        self.mode = "edit"
        self._cells: list[int] = []
        self._width = self._height = self._mines = 0
        self._topology: Topology = "square"
        self._game: Game | None = None
        self._seed = seed
        self._game_seed: int | None = None
        self._replay: ReplayAnalysis | None = None
        self._replay_boards: list[Board] = []
        self._step = 0
        self._name = "board"
        self._opened: Opened | None = None  # the picture the position was read from
        self._unsure: frozenset[int] = frozenset()
        self._pictures = 0
        # Its version, and what is known of it (forgotten at each change, see _changed).
        self._version = 0
        self._fresh = False
        self._analysis: Analysis | None = None
        self._certain: tuple[frozenset[Cell], frozenset[Cell]] | None = None
        self._error: dict[str, Any] | None = None
        self._flag_text = ""
        self._best: Move | None = None
        self._best_scored = False
        self._why: dict[str, Any] | None = None
        self._found: dict[str, dict[str, Any]] = {}  # the searches' results (marks, win, candidates)
        self._made: dict[int, tuple[np.ndarray, np.ndarray]] = {}  # the arrays of the last versions
        self._timeline_made: tuple[ReplayAnalysis, dict[str, Any]] | None = None
        # The history, the file a save made, and the analyst's switches.
        self._undo: list[Snapshot] = []
        self._redo: list[Snapshot] = []
        self._download: dict[str, Any] | None = None
        self._downloads = 0
        self.show_marks = False
        self.show_win = False
        self.show_candidates = False

    def _budgets(self) -> Budgets:
        """What the history and the searches may spend (the session's constants: see :class:`Budgets`)."""
        raise NotImplementedError

    # ------------------------------------------------------------ what is shown
    @property
    def board(self) -> Board:
        """The position shown (raises :class:`BoardParseError` for an edit that is not a board)."""
        with self.lock:
            if self.mode == "play":
                assert self._game is not None
                return self._game.board
            if self.mode == "replay":
                return self._replay_boards[min(self._step, len(self._replay_boards) - 1)]
            return Board(self._width, self._height, self._mines, tuple(self._cells), self._topology)

    @property
    def game(self) -> Game | None:
        """The game of play mode (the last one started, while another mode is shown), else ``None``."""
        return self._game

    @property
    def replay(self) -> ReplayAnalysis | None:
        """The replay open (its analysis), else ``None``; :attr:`step` is the step of it shown."""
        return self._replay

    @property
    def steps(self) -> int:
        """Replay steps: one before each click that opened cells, and the end of the game."""
        return len(self._replay_boards) + 1 if self._replay is not None else 0

    @property
    def step(self) -> int:
        """The replay's step shown (0 to :attr:`steps` - 1)."""
        return self._step

    def set_board(self, board: Board) -> None:
        """Show ``board`` in edit mode, on any topology (the view's ``topology`` says how it is drawn)."""
        check_size(board.width, board.height)
        with self.lock:
            self._width, self._height, self._mines = board.width, board.height, board.mines
            self._cells = list(board.cells)
            self._topology = board.topology
            self._set_mode("edit")

    def new_game(
        self,
        width: int,
        height: int,
        mines: int,
        *,
        seed: int | None = None,
        first_click: str = "safe",
        topology: Topology = "square",
    ) -> None:
        """Start a new game in play mode (a seed gives the same layout every time) on ``topology``."""
        from analyzer.play.game import Game

        if isinstance(width, int) and isinstance(height, int):
            check_size(width, height)
        with self.lock:
            if seed is None:
                seed = self._seed
                self._seed += 1
            self._game = Game.new(width, height, mines, seed=seed, first_click=first_click, topology=topology)
            self._game_seed = seed
            self._set_mode("play")

    def _set_mode(self, mode: str) -> None:
        self.mode = mode
        self._opened, self._unsure = None, frozenset()  # a new source: no picture's reading is shown
        self._changed()

    def _changed(self) -> None:
        """The position changed: a new version, and nothing known of it yet."""
        self._version += 1
        self._fresh = False
        self._found = {}
        self._why = None
        self._best = None
        self._best_scored = False

    def _shown_topology(self) -> Topology:
        """The topology of what is shown: a new board or game keeps it unless the action names another."""
        if self.mode == "play" and self._game is not None:
            return self._game.topology
        if self.mode == "edit":
            return self._topology
        return "square"  # a replay

    def _need(self, mode: str) -> None:
        if self.mode != mode:
            raise OptionError(f"that action needs {mode} mode (this is {self.mode} mode)")

    def _trusts_flags(self) -> bool:
        """Whether the analysis takes the flags as mines: always in edit and replay, in play if told."""
        return self.mode != "play" or self.trust_flags

    # ------------------------------------------------------------ edit mode
    def _index(self, cell: Cell) -> int:
        row, col = cell
        if not (0 <= row < self._height and 0 <= col < self._width):
            raise OptionError(f"cell {cell!r} is off the {self._width}x{self._height} board")
        return row * self._width + col

    def _flags_around(self, cell: Cell) -> int:
        from analyzer.board.topology import neighbour_table

        table = neighbour_table(self._topology, self._width, self._height)
        return sum(self._cells[n] == FLAG for n in table[self._index(cell)])

    def _put(self, index: int, code: int) -> None:
        """Edit mode: cell ``index`` becomes ``code``; the numbers around follow a flag if told."""
        from analyzer.board.topology import neighbour_table

        old = self._cells[index]
        self._cells[index] = code
        if not self.adjust_numbers or (old == FLAG) == (code == FLAG):
            return
        step = 1 if code == FLAG else -1
        table = neighbour_table(self._topology, self._width, self._height)
        for j in table[index]:
            value = self._cells[j]
            if value >= 0:
                self._cells[j] = min(max(value + step, 0), len(table[j]))

    def _edit_click(self, cell: Cell, button: str) -> None:
        """Edit mode's click: left cycles hidden, number (the flags around), flag; right toggles a flag."""
        index = self._index(cell)
        value = self._cells[index]
        if button == "right":
            self._put(index, HIDDEN if value == FLAG else FLAG)
        elif value == HIDDEN:
            self._put(index, self._flags_around(cell))
        elif value >= 0:
            self._put(index, FLAG)
        else:
            self._put(index, HIDDEN)
        self._changed()

    def _edit_key(self, cell: Cell, key: str) -> None:
        """Edit mode's key: ``0``-``8`` a number, ``h``/space/Backspace hidden, ``f`` a flag."""
        self._need("edit")
        index = self._index(cell)
        if key in "012345678" and len(key) == 1:
            self._put(index, int(key))
        elif key.lower() in ("h", " ", "backspace", "delete"):
            self._put(index, HIDDEN)
        elif key.lower() == "f":
            self._put(index, FLAG)
        else:
            raise OptionError(f"key {key!r} sets nothing: 0-8 a number, h a hidden cell, f a flag")
        self._changed()

    def _paint(self, cells: object, value: object, like: object = None) -> None:
        """Edit mode's drag: many cells set at once, to a number, hidden, a flag, or the first one's value."""
        self._need("edit")
        if not isinstance(cells, (list, tuple)) or not cells:
            raise OptionError(f"paint takes a list of cells [row, column], got {cells!r}")
        if len(cells) > len(self._cells):
            raise OptionError(f"paint takes at most {len(self._cells):,} cells, got {len(cells):,}")
        if value == "like":  # a drag: the cells take the value the first one has now
            code = self._cells[self._index(read_cell({"cell": like}))]
        elif value == "hidden":
            code = HIDDEN
        elif value == "flag":
            code = FLAG
        else:
            code = read_integer(value, "value")
            if code > 8:
                raise OptionError(f"a number is 0-8, got {code}")
        indices = [self._index(read_cell({"cell": cell})) for cell in cells]  # every cell checked first
        for index in indices:
            self._put(index, code)
        self._changed()

    def _wheel(self, cell: Cell, delta: int) -> None:
        """Edit mode's wheel: a number up or down, from hidden up to the cells around, below 0 hidden."""
        from analyzer.board.topology import neighbour_table

        self._need("edit")
        index = self._index(cell)
        value = self._cells[index]
        around = len(neighbour_table(self._topology, self._width, self._height)[index])
        if delta == 0:
            return
        if value < 0:
            if delta < 0:
                raise OptionError(f"cell {cell!r} is not a number: scroll up to make it one")
            self._put(index, self._flags_around(cell))
        elif value + delta < 0:
            self._put(index, HIDDEN)
        else:
            self._put(index, min(value + delta, around))
        self._changed()

    # ------------------------------------------------------------ the history
    def _snapshot(self) -> Snapshot:
        game = self._game
        return Snapshot(
            self.mode,
            (self._width, self._height, self._mines, self._topology),
            tuple(self._cells),
            game.copy() if game is not None and self.mode == "play" else game,
            self._game_seed,
            (self._replay, self._replay_boards, self._step),
            self._name,
            (self._opened, self._unsure),
        )

    def _signature(self) -> tuple[Any, ...]:
        if self.mode == "play" and self._game is not None:
            return ("play", id(self._game), self._game.board.cells, self._game.status)
        if self.mode == "replay":
            return ("replay", id(self._replay), self._step)
        return ("edit", self._width, self._height, self._mines, self._topology, tuple(self._cells))

    def _remember(self, stack: list[Snapshot], snapshot: Snapshot) -> None:
        """Push ``snapshot``, then drop the oldest past the budget's steps or cells (one is always kept)."""
        budgets = self._budgets()
        stack.append(snapshot)
        while len(stack) > budgets.history_steps or (
            len(stack) > 1 and sum(s.size for s in stack) > budgets.history_cells
        ):
            del stack[0]

    def _travel(self, way: str) -> None:
        source, target = (self._undo, self._redo) if way == "undo" else (self._redo, self._undo)
        if not source:
            raise OptionError(f"nothing to {way}")
        self._remember(target, self._snapshot())
        snapshot = source.pop()
        self.mode = snapshot.mode
        self._width, self._height, self._mines, self._topology = snapshot.shape
        self._cells = list(snapshot.cells)
        self._game = snapshot.game
        if snapshot.game_seed is not None:
            self._game_seed = snapshot.game_seed
        self._replay, self._replay_boards, self._step = snapshot.replay
        self._name = snapshot.name
        self._opened, self._unsure = snapshot.picture
        self._changed()


@dataclass(frozen=True, slots=True)
class Snapshot:
    """One entry of the undo history: everything an action can change."""

    mode: str
    shape: tuple[int, int, int, Topology]
    cells: tuple[int, ...]
    game: Game | None
    game_seed: int | None
    replay: tuple[Any, list[Board], int]
    name: str
    picture: tuple[Any, frozenset[int]] = (None, frozenset())
    """The picture read (an :class:`~analyzer.interactive.screenshot.Opened`) and its unsure cells left."""

    @property
    def size(self) -> int:
        """Cells held (what the history's bound counts)."""
        game = self.game
        return len(self.cells) + (game.width * game.height if game is not None else 0)
