"""The state behind the interactive board: one position, its analysis, and the actions that change it.

A :class:`Session` is what the Jupyter widget (:mod:`analyzer.interactive.widget`)
and the local page (:mod:`analyzer.interactive.web`) share: the front end sends
an action (a dict, see :meth:`Session.act`) and draws the dict :meth:`Session.view`
returns. Nothing here knows about Jupyter or HTTP, so the tests drive it directly.

Three modes:

``edit``
    A position typed by clicking: a left click cycles a cell hidden, number,
    flag; a digit typed over a cell sets its number (``h`` hidden, ``f`` flag);
    the mine total is a field.
``play``
    A :class:`~analyzer.play.game.Game`: a left click reveals (on a number, chords),
    a right click flags.
``replay``
    A recorded game (:func:`~analyzer.replays.read.read_replay`), one step per
    click that opened cells, each with its exact odds.

Every mode shows each hidden cell's exact mine probability, the certain cells and
the best move (:meth:`Analysis.best_moves <analyzer.solver.analysis.Analysis.best_moves>`);
"why" on a certain cell names the clues that force it
(:meth:`Analysis.explain <analyzer.solver.analysis.Analysis.explain>`). A solve
past the time limit falls back to CP-SAT's certain cells.
"""

from __future__ import annotations

import os
import threading
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from analyzer.board.board import FLAG, HIDDEN, Board, Cell
from analyzer.errors import (
    AnalyzerError,
    BoardParseError,
    GameError,
    InconsistentBoardError,
    OptionError,
    SolverTimeoutError,
)
from analyzer.limits import fraction_text, plural
from analyzer.names import PRESETS
from analyzer.render import NUMBER_COLOURS, exact_or_rounded, percent_text, probability_colour, text_colour

if TYPE_CHECKING:
    from analyzer.play.game import Game
    from analyzer.replays.analyse import ReplayAnalysis
    from analyzer.replays.read import Replay
    from analyzer.solver.analysis import Analysis
    from analyzer.solver.moves import Move

__all__ = ["Session", "MODES", "DEFAULT_TIME_LIMIT", "MAX_CELLS", "MAX_SIDE", "MAX_UPLOAD_BYTES"]

MODES = ("edit", "play", "replay")
DEFAULT_TIME_LIMIT = 10.0
"""Seconds the exact solve of one position may take before CP-SAT's certain cells are shown instead."""

CERTAIN_SECONDS = 5.0
"""Seconds CP-SAT may take for the certain cells once the exact count has run out of time (at least)."""

MAX_SIDE = 10_000
"""The most rows or columns a board made or opened through an action may have."""

MAX_CELLS = 1_000_000
"""The most cells such a board may have (1000x1000; the exact solve of one mid-game takes seconds)."""

MAX_UPLOAD_BYTES = 20 * 1024 * 1024
"""The largest file the page may send (a replay's own cap; a 1000x1000 ``.mine`` is 1 MB)."""

_HIDDEN_LOOK = ("#bbb", "#000")
_REVEALED_BACKGROUND = "#ddd"


class Session:
    """One interactive board: a position in one of three modes, analysed on demand.

    Parameters
    ----------
    source : Board, Game, Replay, ReplayAnalysis, str, or None
        What to open: a position (edit mode), a game (play mode), a recorded game
        (replay mode), the text or path of a ``.mine`` board, the path of an
        ``.mbf`` layout (play mode) or of a replay file. ``None`` starts a new
        beginner game.
    time_limit : float
        Seconds the exact solve may take (then the certain cells come from CP-SAT).
    seed : int, optional
        Seed of the first new game when ``source`` is ``None`` (later games count up from it).

    Examples
    --------
    >>> session = Session("3x1x1\\nH1H\\n")
    >>> session.mode, session.analysis.probability(0, 0)
    ('edit', Fraction(1, 2))
    >>> session.act({"type": "key", "cell": [0, 0], "key": "f"})
    >>> session.analysis.probability(0, 2)
    Fraction(0, 1)
    """

    def __init__(self, source: object = None, *, time_limit: float = DEFAULT_TIME_LIMIT, seed: int = 0):
        if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)) or not time_limit > 0:
            raise OptionError(f"time_limit must be a positive number of seconds, got {time_limit!r}")
        self.time_limit = float(time_limit)
        self.lock = threading.RLock()
        self.mode = "edit"
        self.note = ""
        self._cells: list[int] = []
        self._width = self._height = self._mines = 0
        self._topology = "square"
        self._game: Game | None = None
        self._seed = seed
        self._replay: ReplayAnalysis | None = None
        self._replay_boards: list[Board] = []
        self._step = 0
        self._why: dict[str, Any] | None = None
        self._fresh = False
        self._analysis: Analysis | None = None
        self._certain: tuple[frozenset[Cell], frozenset[Cell]] | None = None
        self._error: dict[str, Any] | None = None
        self._best: Move | None = None
        self._best_scored = False
        self.load(source)

    # ------------------------------------------------------------ sources
    def load(self, source: object) -> None:
        """Open a board, game or replay (see the class), replacing what was shown."""
        from analyzer.play.game import Game

        with self.lock:
            if source is None:
                self.new_game(*PRESETS["beginner"])
                return
            if isinstance(source, Game):
                self._game = source
                self._set_mode("play")
                return
            kind = type(source).__name__
            if kind in ("Replay", "ReplayAnalysis"):
                self._open_replay(source)
                return
            if isinstance(source, os.PathLike):
                source = os.fspath(source)
            if isinstance(source, str) and _looks_like_replay(source):
                from analyzer.replays.read import read_replay

                self._open_replay(read_replay(source))
                return
            if isinstance(source, str) and "\n" not in source and source.lower().endswith(".mbf"):
                self._game = Game.from_mbf(_read_bytes(source))
                self._set_mode("play")
                return
            board = Board.coerce(source, "the interactive board")
            self.set_board(board)

    def set_board(self, board: Board) -> None:
        """Show ``board`` in edit mode."""
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
    ) -> None:
        """Start a new game in play mode (a seed gives the same layout every time)."""
        from analyzer.play.game import Game

        if isinstance(width, int) and isinstance(height, int):
            check_size(width, height)
        with self.lock:
            if seed is None:
                seed = self._seed
                self._seed += 1
            self._game = Game.new(width, height, mines, seed=seed, first_click=first_click)
            self._game_seed = seed
            self._set_mode("play")

    def _open_replay(self, source: Any) -> None:
        from analyzer.replays.analyse import ReplayAnalysis, analyse_replay

        analysed = source if isinstance(source, ReplayAnalysis) else analyse_replay(source)
        replay = analysed.replay
        opening = [a for a in replay.actions if a.kind not in ("flag", "unflag")]
        boards = []
        for action, _ in zip(opening, analysed.clicks, strict=False):
            rows = action.before or ("H" * replay.width,) * replay.height
            boards.append(Board.from_grid(rows, replay.mines))
        self._replay = analysed
        self._replay_boards = boards
        self._step = 0
        self._set_mode("replay")

    # ------------------------------------------------------------ values
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
        return self._game

    @property
    def replay(self) -> ReplayAnalysis | None:
        return self._replay

    @property
    def step(self) -> int:
        return self._step

    @property
    def analysis(self) -> Analysis | None:
        """The exact analysis of :attr:`board`; ``None`` when it has none (an error, a finished game)."""
        with self.lock:
            self._refresh()
            return self._analysis

    @property
    def error(self) -> dict[str, Any] | None:
        """Why there are no probabilities: ``{"message", "clues"}`` (the clues in conflict, if any)."""
        with self.lock:
            self._refresh()
            return self._error

    def best_move(self) -> Move | None:
        """The first of :meth:`Analysis.best_moves`, or ``None`` with no analysis or no move."""
        with self.lock:
            self._refresh()
            if not self._best_scored:
                moves = self._analysis.best_moves(1) if self._analysis is not None else ()
                self._best = moves[0] if moves else None
                self._best_scored = True
            return self._best

    # ------------------------------------------------------------ actions
    def act(self, action: dict[str, Any]) -> None:
        """Apply one action from the front end; a refused action leaves a :attr:`note` and changes nothing.

        Actions (``type`` and its fields):

        - ``cell`` ``{cell: [r, c], button: "left" | "right"}``: edit: left cycles
          hidden, number, flag; right toggles a flag. Play: left reveals (chords
          on a number), right toggles a flag. Replay: left steps to that cell's
          click, if it has one.
        - ``key`` ``{cell, key}``: edit: ``0``-``8`` a number, ``h``/space/Backspace
          hidden, ``f`` a flag.
        - ``mines`` ``{mines}``: edit: the mine total.
        - ``resize`` ``{width, height, mines}``: edit: a new all-hidden board.
        - ``new_game`` ``{width, height, mines, seed?, first_click?}``.
        - ``play_best``: play: reveal the best move.
        - ``mode`` ``{mode}``: edit takes the position shown; play starts a game of its size.
        - ``step`` ``{step}``: replay: show the position before that click
          (the last step is the end of the game).
        - ``why`` ``{cell}``: the clues that force a certain cell.
        """
        with self.lock:
            self.note = ""
            try:
                self._act(action)
            except (AnalyzerError, ValueError, TypeError, KeyError, IndexError) as error:
                self.note = _message(error)

    def _act(self, action: dict[str, Any]) -> None:
        if not isinstance(action, dict):
            raise OptionError(f"an action is a dict with a 'type', got {action!r}")
        kind = action.get("type")
        if kind == "cell":
            self._click(_cell(action), action.get("button", "left"))
        elif kind == "key":
            self._key(_cell(action), str(action.get("key", "")))
        elif kind == "mines":
            self._need("edit")
            self._mines = _integer(action.get("mines"), "mines")
            self._changed()
        elif kind == "resize":
            self._need("edit")
            width, height = _integer(action.get("width"), "width"), _integer(action.get("height"), "height")
            check_size(width, height)
            mines = _integer(action.get("mines"), "mines")
            if mines > width * height:
                raise OptionError(f"{mines} mines do not fit on a {width}x{height} board")
            self.set_board(Board(width, height, mines, (HIDDEN,) * (width * height), self._topology))
        elif kind == "new_game":
            seed = action.get("seed")
            self.new_game(
                _integer(action.get("width"), "width"),
                _integer(action.get("height"), "height"),
                _integer(action.get("mines"), "mines"),
                seed=None if seed in (None, "") else _integer(seed, "seed"),
                first_click=str(action.get("first_click") or "safe"),
            )
        elif kind == "play_best":
            self._need("play")
            move = self.best_move()
            if move is None:
                raise GameError("no move to play: the game is over or has no analysis")
            self._play(move.cell, "left")
        elif kind == "mode":
            self._switch(str(action.get("mode")))
        elif kind == "step":
            self._need("replay")
            steps = self.steps
            self._step = min(max(_integer(action.get("step"), "step", negative=True), 0), steps - 1)
            self._changed()
        elif kind == "why":
            self._explain(_cell(action))
        else:
            raise OptionError(f"unknown action {kind!r}")

    def _need(self, mode: str) -> None:
        if self.mode != mode:
            raise OptionError(f"that action needs {mode} mode (this is {self.mode} mode)")

    def _click(self, cell: Cell, button: str) -> None:
        if button not in ("left", "right"):
            raise OptionError(f"button must be 'left' or 'right', got {button!r}")
        if self.mode == "edit":
            index = self._index(cell)
            value = self._cells[index]
            if button == "right":
                self._cells[index] = HIDDEN if value == FLAG else FLAG
            elif value == HIDDEN:
                self._cells[index] = self._flags_around(cell)
            elif value >= 0:
                self._cells[index] = FLAG
            else:
                self._cells[index] = HIDDEN
            self._changed()
        elif self.mode == "play":
            self._play(cell, button)
        else:
            assert self._replay is not None
            for number, click in enumerate(self._replay.clicks):
                if click.cell == cell:
                    self._step = number
                    self._changed()
                    return
            raise OptionError(f"no click of this game was on {cell!r}")

    def _key(self, cell: Cell, key: str) -> None:
        self._need("edit")
        index = self._index(cell)
        if key in "012345678" and len(key) == 1:
            self._cells[index] = int(key)
        elif key.lower() in ("h", " ", "backspace", "delete"):
            self._cells[index] = HIDDEN
        elif key.lower() == "f":
            self._cells[index] = FLAG
        else:
            raise OptionError(f"key {key!r} sets nothing: 0-8 a number, h a hidden cell, f a flag")
        self._changed()

    def _play(self, cell: Cell, button: str) -> None:
        game = self._game
        assert game is not None
        if game.is_finished:
            raise GameError(f"the game is {game.status}: start a new one")
        if button == "right":
            game.toggle_flag(*cell)
        elif game.board[cell] >= 0:
            game.chord(*cell)
        else:
            game.reveal(*cell)
        self._changed()

    def _switch(self, mode: str) -> None:
        if mode not in MODES:
            raise OptionError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
        if mode == self.mode:
            return
        if mode == "edit":
            self.set_board(self.board)
        elif mode == "play":
            board = self.board
            self.new_game(board.width, board.height, board.mines)
        else:
            if self._replay is None:
                raise OptionError("no replay is open: load one with a replay file")
            self._set_mode("replay")

    def _explain(self, cell: Cell) -> None:
        self._refresh()
        analysis = self._analysis
        if analysis is None:
            raise OptionError("there is no analysis to explain (see the message above the board)")
        explanation = analysis.explain(*cell, time_limit=self.time_limit)
        self._why = explanation.to_dict() | {"text": explanation.describe()}

    # ------------------------------------------------------------ the view
    @property
    def steps(self) -> int:
        """Replay steps: one before each click that opened cells, and the end of the game."""
        return len(self._replay_boards) + 1 if self._replay is not None else 0

    def view(self, *, best: bool = True) -> dict[str, Any]:
        """Everything the front end draws, as JSON-ready values.

        ``cells`` is row-major, each ``[text, kind, background, colour, title, p]``:
        ``kind`` one of ``number``, ``hidden``, ``flag``, ``safe``, ``mine``,
        ``guess``, ``layout-mine`` and ``fatal``; ``p`` the exact mine probability
        as ``"a/b"`` (``None`` where there is none). ``best`` false leaves the best
        move out (``best_pending`` true) so that the probabilities show before it is scored.
        """
        with self.lock:
            self._refresh()
            try:
                board = self.board
            except BoardParseError as error:
                return self._broken_view(str(error))
            analysis = self._analysis
            scored = self._best_scored
            move = self.best_move() if (best or scored) and analysis is not None else None
            probabilities = analysis.cell_probabilities if analysis is not None else None
            safe, mines = self._certain or (frozenset(), frozenset())
            shown_mines = self._shown_mines()
            fatal = self._game.fatal_cell if self.mode == "play" and self._game is not None else None
            if self.mode == "replay" and self._step >= len(self._replay_boards):
                fatal = self._replay.died_at.cell if self._replay and self._replay.died_at else None
            cells = []
            width = board.width
            trust = True
            for index, value in enumerate(self._shown_cells(board)):
                cell = divmod(index, width)
                if cell in shown_mines:
                    if cell == fatal:
                        cells.append(["✹", "fatal", "#c00", "#fff", "the mine that was hit", None])
                    else:
                        cells.append(["✹", "layout-mine", "#bbb", "#000", "mine", None])
                    continue
                if value >= 0:
                    cells.append(
                        [
                            "" if value == 0 else str(value),
                            "number",
                            _REVEALED_BACKGROUND,
                            NUMBER_COLOURS[value],
                            f"revealed {value}",
                            None,
                        ]
                    )
                    continue
                if value == FLAG and trust:
                    cells.append(["⚑", "flag", "#bbb", "#c00", "flag", None])
                    continue
                p = probabilities[index] if probabilities is not None else None
                if p is None:
                    if cell in safe:
                        cells.append(["✓", "safe", "#fde725", "#000", "certainly safe (CP-SAT)", "0/1"])
                    elif cell in mines:
                        cells.append(["✱", "mine", "#440154", "#fff", "certainly a mine (CP-SAT)", "1/1"])
                    else:
                        cells.append(["", "hidden", *_HIDDEN_LOOK, "hidden", None])
                    continue
                background = probability_colour(float(p))
                if p == 0:
                    text, kind, title = "✓", "safe", "certainly safe"
                elif p == 1:
                    text, kind, title = "✱", "mine", "certainly a mine"
                else:
                    text, kind, title = percent_text(p), "guess", f"P(mine) = {exact_or_rounded(p)}"
                cells.append([text, kind, background, text_colour(background), title, _fraction(p)])
            return {
                "mode": self.mode,
                "modes": [m for m in MODES if m != "replay" or self._replay is not None],
                "width": board.width,
                "height": board.height,
                "mines": board.mines,
                "cells": cells,
                "caption": self._caption(board, analysis),
                "error": self._error,
                "note": self.note,
                "best": list(move.cell) if move is not None else None,
                "best_text": move.describe() if move is not None else "",
                "best_pending": not (best or scored) and analysis is not None,
                "why": self._why,
                "game": self._game_view(),
                "replay": self._replay_view(),
                "time_limit": self.time_limit,
                "presets": {name: list(size) for name, size in PRESETS.items()},
            }

    def _broken_view(self, message: str) -> dict[str, Any]:
        cells = [
            [
                "" if v == 0 else str(v),
                "number",
                _REVEALED_BACKGROUND,
                NUMBER_COLOURS[v],
                f"revealed {v}",
                None,
            ]
            if v >= 0
            else (
                ["⚑", "flag", "#bbb", "#c00", "flag", None]
                if v == FLAG
                else ["", "hidden", *_HIDDEN_LOOK, "hidden", None]
            )
            for v in self._cells
        ]
        return {
            "mode": self.mode,
            "modes": [m for m in MODES if m != "replay" or self._replay is not None],
            "width": self._width,
            "height": self._height,
            "mines": self._mines,
            "cells": cells,
            "caption": f"{self._width}x{self._height}, {plural(self._mines, 'mine')}",
            "error": {"message": message, "clues": []},
            "note": self.note,
            "best": None,
            "best_text": "",
            "best_pending": False,
            "why": None,
            "game": None,
            "replay": None,
            "time_limit": self.time_limit,
            "presets": {name: list(size) for name, size in PRESETS.items()},
        }

    def _shown_cells(self, board: Board) -> tuple[int, ...]:
        if self.mode == "replay" and self._replay is not None and self._step >= len(self._replay_boards):
            # The end of the game: a won game shows every safe cell and flags its mines.
            replay = self._replay.replay
            if self._replay.result == "won":
                return tuple(
                    FLAG if divmod(i, replay.width) in replay.layout else _around(replay, i)
                    for i in range(replay.width * replay.height)
                )
        return board.cells

    def _shown_mines(self) -> frozenset[Cell]:
        if self.mode == "play" and self._game is not None and self._game.status == "lost":
            return frozenset(self._game.mines or ())
        if (
            self.mode == "replay"
            and self._replay is not None
            and self._step >= len(self._replay_boards)
            and self._replay.result != "won"
        ):
            return self._replay.replay.layout
        return frozenset()

    def _caption(self, board: Board, analysis: Analysis | None) -> str:
        text = f"{board.width}x{board.height}, {plural(board.mines, 'mine')}"
        if self.mode == "play" and self._game is not None:
            text += f"; game {self._game.status}"
        if analysis is not None:
            text += f"; {analysis.total_text} layout{'' if analysis.total == 1 else 's'}"
        return text

    def _game_view(self) -> dict[str, Any] | None:
        game = self._game
        if game is None:
            return None
        return {
            "status": game.status,
            "width": game.width,
            "height": game.height,
            "mines": game.mine_count,
            "seed": getattr(self, "_game_seed", None),
            "first_click": game.first_click.name,
            "safe_left": game.safe_cells_left,
        }

    def _replay_view(self) -> dict[str, Any] | None:
        analysed = self._replay
        if analysed is None:
            return None
        replay = analysed.replay
        clicks = analysed.clicks
        step = self._step
        if step < len(self._replay_boards):
            click = clicks[step]
            text = f"click {click.number} of {len(clicks)}: " + click.describe().strip()
            current = click.to_dict()
        else:
            luck = analysed.luck
            text = (
                f"end: {analysed.result}, {plural(len(analysed.guesses), 'guess')}"
                f" ({len(analysed.needless_guesses)} needless), luck {fraction_text(luck)}"
                f" = {100 * float(luck):.2f}%"
            )
            current = None
        return {
            "step": step,
            "steps": self.steps,
            "text": text,
            "click": current,
            "file": replay.path,
            "format": replay.format,
            "guess_steps": [k for k, c in enumerate(clicks) if c.is_guess],
        }

    # ------------------------------------------------------------ analysis
    def _set_mode(self, mode: str) -> None:
        self.mode = mode
        self._changed()

    def _changed(self) -> None:
        self._fresh = False
        self._why = None
        self._best = None
        self._best_scored = False

    def _refresh(self) -> None:
        """Solve the position shown, once per change."""
        if self._fresh:
            return
        from analyzer.solver.solve import solve

        self._fresh = True
        self._analysis = None
        self._certain = None
        self._error = None
        if self.mode == "play" and self._game is not None and self._game.is_finished:
            return
        if self.mode == "replay" and self._step >= len(self._replay_boards):
            return
        try:
            board = self.board
        except BoardParseError as error:
            self._error = {"message": str(error), "clues": []}
            return
        try:
            self._analysis = solve(board, time_limit=self.time_limit)
        except InconsistentBoardError as error:
            self._error = {"message": str(error), "clues": [list(c) for c in error.clues]}
        except SolverTimeoutError:
            self._fall_back(board)
        except AnalyzerError as error:
            self._error = {"message": _message(error), "clues": []}

    def _fall_back(self, board: Board) -> None:
        """Past the time limit: the certain cells by CP-SAT feasibility, without counting."""
        from analyzer.solver.certain import certain_cells

        limit = f"the exact count took longer than {self.time_limit:g} s"
        try:
            found = certain_cells(board, time_limit=max(self.time_limit, CERTAIN_SECONDS))
        except (SolverTimeoutError, AnalyzerError) as error:
            self._error = {
                "message": f"{limit}, and so did the certain cells ({_message(error)})",
                "clues": [],
            }
            return
        self._certain = (frozenset(found.safe), frozenset(found.mines))
        self._error = {
            "message": f"{limit}: showing the certain cells (CP-SAT) without probabilities",
            "clues": [],
        }

    # ------------------------------------------------------------ helpers
    def _index(self, cell: Cell) -> int:
        row, col = cell
        if not (0 <= row < self._height and 0 <= col < self._width):
            raise OptionError(f"cell {cell!r} is off the {self._width}x{self._height} board")
        return row * self._width + col

    def _flags_around(self, cell: Cell) -> int:
        from analyzer.board.topology import neighbour_table

        table = neighbour_table(self._topology, self._width, self._height)
        return sum(self._cells[n] == FLAG for n in table[self._index(cell)])


def check_size(width: int, height: int) -> None:
    """Refuse a board larger than :data:`MAX_SIDE` a side or :data:`MAX_CELLS` cells, before it is made.

    >>> check_size(1000, 1000)
    >>> check_size(100_000, 100_000)
    Traceback (most recent call last):
    ...
    analyzer.errors.OptionError: boards here have at most 1,000,000 cells and 10,000 a side, got 100000x100000
    """
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE and width * height <= MAX_CELLS):
        raise OptionError(
            f"boards here have at most {MAX_CELLS:,} cells and {MAX_SIDE:,} a side, got {width}x{height}"
        )


def _around(replay: Replay, index: int) -> int:
    row, col = divmod(index, replay.width)
    return sum(
        (r, c) in replay.layout
        for r in range(row - 1, row + 2)
        for c in range(col - 1, col + 2)
        if (r, c) != (row, col)
    )


def _read_bytes(path: str) -> bytes:
    try:
        with open(path, "rb") as handle:
            return handle.read(1 << 20)
    except OSError as error:
        raise GameError(f"cannot read {path!r}: {error.strerror or error}") from None


def _looks_like_replay(text: str) -> bool:
    return "\n" not in text and text.lower().rsplit(".", 1)[-1] in ("avf", "rmv", "evf", "mvf")


def _cell(action: dict[str, Any]) -> Cell:
    cell = action.get("cell")
    if not isinstance(cell, (list, tuple)) or len(cell) != 2:
        raise OptionError(f"a cell is [row, column], got {cell!r}")
    return (_integer(cell[0], "row", negative=True), _integer(cell[1], "column", negative=True))


def _integer(value: object, name: str, *, negative: bool = False) -> int:
    """A whole number from the front end, where a form field sends digits as text."""
    from analyzer.limits import whole

    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        value = int(value)
    return whole(value, name, minimum=None if negative else 0)


def _message(error: BaseException) -> str:
    if isinstance(error, KeyError) and error.args:  # str() of a KeyError is the key's repr
        return f"missing {error.args[0]!r}"
    return str(error) or type(error).__name__


def _fraction(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"
