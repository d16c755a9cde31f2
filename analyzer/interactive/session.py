"""The state behind the interactive board: one position, its analysis, and the actions that change it.

A :class:`Session` is what the Jupyter widget (:mod:`analyzer.interactive.jupyter`)
and the local page (:mod:`analyzer.interactive.web`) share: the front end sends
an action (a dict, see :meth:`Session.act`, the single entry point) and draws what
:meth:`Session.respond` answers. Nothing here knows about Jupyter or HTTP, so the
tests drive it directly.

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

The view protocol
-----------------
Big boards, small messages: nothing is sent per cell as text. An answer
(:meth:`Session.respond`) is a dict of three parts, each JSON-ready:

``view`` (:meth:`Session.view`): the small fields, sent whole every time
    ``protocol`` (:data:`PROTOCOL`), ``version`` (the position's version: it counts
    up with every change of the cells, and only then), ``mode``, ``modes``,
    ``width``, ``height``, ``mines``, ``flags``, ``mines_left`` (mines minus flags),
    ``topology`` (how the cells are laid out: ``{"name"}``, a name of
    :data:`~analyzer.board.topology.TOPOLOGIES` or ``"graph"``; a graph adds ``centres``,
    ``edges`` and ``names``), ``caption`` (short text), ``counts``
    (``{"layouts": short text, "layouts_digits": n}``;
    the exact numbers on demand, below), ``error`` (``{"message", "clues": [[r, c], ...]}``
    or ``None``), ``note`` (why the last action was refused, else ``""``; a query, ``exact``,
    leaves the note it finds),
    ``trust_flags`` (whether the analysis takes the flags as mines: always in edit
    and replay mode, in play mode only when ``Session.trust_flags`` is on),
    ``flag_text`` (play mode, flags not trusted: the flags that are not certain
    mines, in one line, else ``""``), ``best``
    (``[r, c]`` or ``None``), ``best_text``, ``best_pending`` (true while the best
    move is still being scored: it follows, see below), ``why`` (the explanation
    of the cell asked about, or ``None``), ``marks`` (below), ``game``, ``replay``,
    ``time_limit``, ``presets``, ``max_cells`` and ``palette`` (below).
``cells`` (:meth:`Session.cells`): the per-cell arrays, typed, zlib-compressed and
    base64-encoded (``encode``; a browser inflates them with
    ``DecompressionStream("deflate")``): ``{"version", "full", "size", "index",
    "codes", "p"}``. ``codes`` is a little-endian ``Uint8Array`` of state codes (:data:`CODES`), ``p`` a
    ``Float32Array`` of mine probabilities (NaN where there is none: revealed
    cells, flags, a board without analysis), ``index`` an ``Int32Array`` of the
    cells they are for. ``full`` true: every cell, row-major, and ``index`` is
    empty. ``full`` false: only the cells that changed since the version the
    client said it holds (``since``), possibly none (a refused action, a query).
    A client that holds no version, or one the session no longer remembers, gets
    the full arrays (so does one when most cells changed: a clue moves every
    background cell's probability, and the repeats compress).
    The widget syncs the full arrays instead, uncompressed, as the ``bytes``
    traitlets ``codes`` and ``probabilities`` (binary buffers, no base64).

``answer``: the reply to a query action (``exact``), else ``None``.

State codes (:data:`CODES`, names in :data:`KINDS`): ``0``-``8`` a revealed
number; ``9`` hidden (no probability known); ``10`` a flag; ``11`` a guess
(0 < p < 1, the value in ``p``); ``12`` certainly safe, ``13`` certainly a mine
(exact: p is 0 or 1 as a fraction, not a rounded float); ``14`` safe and
``15`` a mine by CP-SAT (past the time limit, no probability); ``16`` a mine of
a lost game's layout; ``17`` the mine that was hit; ``18`` a wrong flag (a flag
on a safe cell of a lost game).

``marks`` name cells by row-major index: ``{"best": [i], "clicked": [i]`` (the
replay's click), ``"conflict": [...]`` (clues of an impossible board),
``"why_clues": [...]``, ``"why_cell": [i]}``, and with the analyst's marks on
(the ``marks`` action) ``"dead"`` (dead cells) and ``"fifty"`` (cells of forced
50/50s, :meth:`Session.marks`). New marks are new keys of lists
of indices (the front end draws the ones it knows).

``palette`` holds the colours the front end draws with (the contrast of each
number on its background is checked in the tests): ``numbers`` (ink of 0-8),
``revealed``, ``hidden``, ``viridis`` (the stops of
:func:`~analyzer.render.probability_colour`; the background of probability p is
viridis at ``1 - sqrt(p)``), ``kinds`` (:data:`KINDS`).

The analyst's tools (the actions ``open``, ``paste``, ``save``, ``undo``, ``redo``,
``paint``, ``wheel``, ``autoplay``, ``marks``, ``win``, ``trust_flags``, ``guess``,
``candidates``, ``adjust_numbers`` of :meth:`Session.act`)
read ``history`` (``{"undo": n, "redo": n}``), ``download`` (the file a ``save``
made: ``{"id", "name", "mime", "data"}``, base64, until the next action), ``shown``
(``{"marks", "win", "trust_flags", "candidates", "adjust_numbers"}``, each a bool),
``marks_text`` (what the dead-cell and 50/50
search found, or ``None``), ``win`` (:meth:`Session.win_chance`, or ``None``; its
``line`` is the winning line as a tree and ``line_text`` the same as indented text),
``candidates`` (:meth:`Session.candidates`, or ``None``),
``timeline`` (a replay's clicks: ``{"risk": [float], "guess": [bool], "exact":
[text]}``, or ``None``) and ``name`` (the name files are saved under).

Actions that ask rather than change (``answer`` carries the reply, ``version``
does not move):

- ``{"type": "exact", "cell": [r, c]}``: ``{"type": "exact", "cell", "version",
  "p": "a/b" or None, "text"}``, the cell's exact mine probability (what hover shows).
- ``{"type": "exact", "of": "layouts" | "luck"}``: ``{"type": "exact", "of", "text"}``,
  the long exact text of a big number; ``"of": "position"``: the ``.mine`` text of the
  position shown (the page's shared link; a game's hidden layout is not in it).

One round trip per action: the answer to an action carries the new view and,
when the best move is already scored, the best move. When it is not
(``best_pending``), the transport sends a second message for the same version
(:meth:`Session.best_view`); the web server streams it as a second JSON line of
the same response, the widget as an update of ``view``. A best move scored for a
version that a later action replaced is dropped.
"""

from __future__ import annotations

import base64
import binascii
import functools
import math
import os
import re
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from analyzer.board.board import FLAG, HIDDEN, Board, Cell
from analyzer.board.topology import Graph, Topology, topology_name
from analyzer.errors import (
    AnalyzerError,
    BoardParseError,
    GameError,
    InconsistentBoardError,
    OptionError,
    SolverTimeoutError,
)
from analyzer.interactive.screenshot import (
    MAX_PICTURE_BYTES,
    Opened,
    is_picture_path,
    picture_format,
    read_opened,
)
from analyzer.limits import digit_count, exact_text, flag, fraction_text, percent, plural
from analyzer.names import PRESETS
from analyzer.render import exact_or_rounded, percent_text, probability_colour

if TYPE_CHECKING:
    import numpy as np

    from analyzer.pictures import PictureReading
    from analyzer.play.game import Game
    from analyzer.replays.analyse import ReplayAnalysis
    from analyzer.replays.read import Replay
    from analyzer.solver.analysis import Analysis
    from analyzer.solver.moves import Move

__all__ = [
    "Session",
    "MODES",
    "DEFAULT_TIME_LIMIT",
    "PROTOCOL",
    "CODES",
    "KINDS",
    "PALETTE",
    "MAX_CELLS",
    "MAX_SIDE",
    "MAX_LENGTH",
    "MAX_UPLOAD_BYTES",
    "WIN_NODES",
    "WIN_LAYOUTS",
    "MARK_CELLS",
    "MARK_SECONDS",
    "HISTORY_STEPS",
    "CANDIDATE_CELLS",
    "CANDIDATE_ROWS",
    "CANDIDATE_MARGIN",
    "WIN_DEPTH",
]

MODES = ("edit", "play", "replay")
DEFAULT_TIME_LIMIT = 10.0
"""Seconds the exact solve of one position may take before CP-SAT's certain cells are shown instead."""

CERTAIN_SECONDS = 5.0
"""Seconds CP-SAT may take for the certain cells once the exact count has run out of time (at least)."""


_STATIC_SVG_CELLS = 40_000  # the .svg of a hexagonal, cube or graph board (analyzer.render's picture)

PROTOCOL = 2
"""The version of the view protocol (the module text): 2 is the compact one (typed arrays, deltas)."""

CODES = {
    **{str(n): n for n in range(9)},
    "hidden": 9,
    "flag": 10,
    "guess": 11,
    "safe": 12,
    "mine": 13,
    "safe_cpsat": 14,
    "mine_cpsat": 15,
    "layout_mine": 16,
    "fatal": 17,
    "wrong_flag": 18,
}
"""Each per-cell state code (the ``codes`` array), by name."""

KINDS = ("number",) * 9 + (
    "hidden",
    "flag",
    "guess",
    "safe",
    "mine",
    "safe",
    "mine",
    "layout-mine",
    "fatal",
    "wrong-flag",
)
"""The kind of cell each code is, as the front end and the tests name it (the index is the code)."""

MAX_SIDE = 1000
MAX_CELLS = MAX_SIDE * MAX_SIDE
"""The most cells a board, game or replay shown in the page may have, refused before it is made.

The largest size the page is measured to handle (``docs/guide/interactive.md``: a
1000x1000 board loads in half a second, a click answers within a second); a
2000x2000 game took 17.9 s and 2.3 GB to load and 65-71 s a click.
"""

MAX_LENGTH = 20_000
"""The most rows or columns such a board may have (a board is drawn, and scrolled, in one piece)."""

PALETTE = {
    # Ink of the revealed numbers 0-8 on the revealed background: each at least 4.5:1 (WCAG AA),
    # the classic hues darkened where they were not (tests/test_interactive.py computes the ratios).
    "numbers": [
        "#6b6b6b",
        "#0000ff",
        "#006400",
        "#c00000",
        "#00007b",
        "#7b0000",
        "#006464",
        "#000000",
        "#505050",
    ],
    # Revealed and hidden cells at least 3:1 apart, so a hidden cell with no figure on it is told
    # from a revealed 0 without its colour's hue (tests/test_interactive_widget_browser.py).
    "revealed": "#eeeeee",
    "hidden": "#808080",
    "grid": "#b0b0b0",
    "flag": "#c00000",
    "mine": "#000000",
    "fatal": "#d00000",
    # The stops of probability_colour: viridis at 0, 1/8, ..., 1 (the colour of p = (1 - k/8)**2).
    "viridis": [probability_colour((1 - k / 8) ** 2) for k in range(9)],
    "kinds": list(KINDS),
}
"""The colours the front end draws with (sent in every view, so the page and the tests agree)."""

_REMEMBERED_VERSIONS = 4

MAX_UPLOAD_BYTES = 20 * 1024 * 1024
"""The largest file the page may send (a replay's own cap; a 1000x1000 ``.mine`` is 1 MB)."""

HISTORY_STEPS = 200
"""Undo keeps at most this many positions or games ..."""

HISTORY_CELLS = 10_000_000
"""... and at most this many cells in all (20 steps of a 1000x1000 board)."""

MARK_SECONDS = 1.5
"""Seconds the search for dead cells may take on one position."""

MARK_CELLS = 5_000
"""Forced 50/50s are looked for on boards of at most this many cells (the library's search
counts layouts for each candidate pattern: 0.2 s on expert, 6 s on 100x100)."""

WIN_LAYOUTS = 2_000
"""The exact chance to win is searched when at most this many mine layouts remain ..."""

WIN_NODES = 20_000
"""... and given up past this many positions of the search ..."""

WIN_HIDDEN = 300
"""... and tried when at most this many hidden cells are not certain mines."""

CANDIDATE_CELLS = 10_000
"""The ranked candidate guesses are looked for on boards of at most this many cells."""

CANDIDATE_ROWS = 5
"""The ranked candidate guesses shown (of the expert player's candidates, best first)."""

CANDIDATE_MARGIN = Fraction(1, 10)
"""The candidate table looks this far above the safest cell (the expert player itself 1/50)."""

WIN_DEPTH = 3
"""Moves of the end game's winning line shown: the first, the replies to it, theirs."""

AUTOPLAY_SECONDS = 30.0
"""Seconds one auto-play may run before it stops and says so."""

FLAGS_NAMED = 4
"""How many of the player's doubtful flags ``flag_text`` names (then "and n more")."""

REPLAY_FORMATS = ("avf", "rmv", "evf", "mvf")

_RECORDED = frozenset(
    {
        "cell",
        "key",
        "mines",
        "resize",
        "new_game",
        "play_best",
        "mode",
        "open",
        "picture",
        "paste",
        "paint",
        "wheel",
        "autoplay",
    }
)
"""The actions undo can take back (stepping through a replay is not one: it changes no position)."""


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
    trust_flags : bool
        Play mode: take the player's flags as mines (JSMinesweeper's "flags are
        mines"). By default they are the player's marks, not facts: the analysis
        shown, auto-play and the win chance all solve without them, and a flag that
        is not a certain mine is said in :meth:`view`'s ``flag_text``. Edit mode
        (the flags are the position's facts) and replays always take them as mines.
    adjust_numbers : bool
        Edit mode: a flag placed (removed) adds one to (takes one from) each revealed
        number around it, so the numbers follow the mines, as JSMinesweeper's analysis
        mode does (on by default; the ``adjust_numbers`` action turns it off).

    Examples
    --------
    >>> session = Session("3x1x1\\nH1H\\n", adjust_numbers=False)
    >>> session.mode, session.analysis.probability(0, 0)
    ('edit', Fraction(1, 2))
    >>> session.act({"type": "key", "cell": [0, 0], "key": "f"})  # a flag; the 1 stays a 1
    >>> session.analysis.probability(0, 2)
    Fraction(0, 1)
    """

    def __init__(
        self,
        source: object = None,
        *,
        time_limit: float = DEFAULT_TIME_LIMIT,
        seed: int = 0,
        trust_flags: bool = False,
        adjust_numbers: bool = True,
    ):
        if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)) or not time_limit > 0:
            raise OptionError(f"time_limit must be a positive number of seconds, got {time_limit!r}")
        self.time_limit = float(time_limit)
        self.trust_flags = flag(trust_flags, "trust_flags")
        self.adjust_numbers = flag(adjust_numbers, "adjust_numbers")
        self.show_candidates = False
        self._candidates: dict[str, Any] | None = None
        self._flag_text = ""
        self.lock = threading.RLock()
        self.mode = "edit"
        self.note = ""
        self._cells: list[int] = []
        self._width = self._height = self._mines = 0
        self._topology: Topology = "square"
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
        self._undo: list[_Snapshot] = []
        self._redo: list[_Snapshot] = []
        self._name = "board"
        self._download: dict[str, Any] | None = None
        self._downloads = 0
        self.show_marks = False
        self.show_win = False
        self._marks: dict[str, Any] | None = None
        self._win: dict[str, Any] | None = None
        self._version = 0
        self._made: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self._opened: Opened | None = None
        self._unsure: frozenset[int] = frozenset()
        self._pictures = 0
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
                check_size(source.width, source.height)
                self._game = source
                self._set_mode("play")
                return
            kind = type(source).__name__
            if kind in ("Replay", "ReplayAnalysis"):
                self._open_replay(source)
                return
            if isinstance(source, os.PathLike):
                source = os.fspath(source)
            if _is_picture_source(source):
                self.open_picture(source)
                return
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

    def _open_replay(self, source: Any) -> None:
        from analyzer.replays.analyse import ReplayAnalysis, analyse_replay

        recorded = source.replay if isinstance(source, ReplayAnalysis) else source
        check_size(recorded.width, recorded.height)
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
        """The first of :meth:`Analysis.best_moves`, or ``None`` with no analysis or no move.

        Before the first click of a game whose rule keeps it safe, no cell is a risk:
        the move is a corner under ``safe`` (the fewest neighbours, so the likeliest
        0) and the middle under ``opening`` and wider zones (every cell opens), unscored.
        """
        with self.lock:
            self._refresh()
            if not self._best_scored:
                first = self._first_click()
                analysis = self._analysis
                self._best = first or (_scored_move(analysis) if analysis is not None else None)
                self._best_scored = True
            return self._best

    def _first_click(self) -> Move | None:
        from analyzer.solver.moves import Move

        game = self._game
        if self.mode != "play" or game is None or game.revealed_count or game.first_click.radius is None:
            return None
        cell = (0, 0) if game.first_click.radius == 0 else (game.height // 2, game.width // 2)
        return Move(cell, Fraction(0), None, None)

    # ------------------------------------------------------------ actions
    def act(self, action: dict[str, Any]) -> dict[str, Any] | None:
        """Apply one action from the front end; a refused action leaves a :attr:`note` and changes nothing.

        The single entry point of the front ends. Returns the answer of a query
        action (``exact``), ``None`` for the others and for a refused one.

        Actions (``type`` and its fields):

        - ``cell`` ``{cell: [r, c], button: "left" | "right"}``: edit: left cycles
          hidden, number, flag; right toggles a flag. Play: left reveals (chords
          on a number), right toggles a flag. Replay: left steps to that cell's
          click, if it has one.
        - ``key`` ``{cell, key}``: edit: ``0``-``8`` a number, ``h``/space/Backspace
          hidden, ``f`` a flag.
        - ``mines`` ``{mines}``: edit: the mine total.
        - ``resize`` ``{width, height, mines}`` or ``{size}``: edit: a new all-hidden board.
        - ``new_game`` ``{width, height, mines, seed?, first_click?}`` or ``{size, ...}``.
          Both keep the topology shown unless ``topology`` names another or ``size`` does
          (``"9x9x10 hex"``, ``"expert torus"``).
        - ``play_best``: play: reveal the best move.
        - ``mode`` ``{mode}``: edit takes the position shown; play starts a game of its size.
        - ``step`` ``{step}``: replay: show the position before that click
          (the last step is the end of the game).
        - ``why`` ``{cell}``: the clues that force a certain cell.

        The analyst's workflow:

        - ``open`` ``{name, data, mines?}``: a file the person chose or dropped on the
          page, its bytes in base64 (at most :data:`MAX_UPLOAD_BYTES`): a replay (``.avf``,
          ``.rmv``, ``.evf``, ``.mvf``), an ``.mbf`` layout (play mode), or a board's
          text (edit mode; ``mines`` as for ``paste``). The name only picks the
          format; nothing is read from a path.
        - ``paste`` ``{text, mines?}``: a board as text: ``.mine`` (with its
          ``WxHxM`` header), or rows of ``.mine`` or minesweepr characters with the
          mine total in ``mines``.
        - ``save`` ``{format}``: ``mine`` (the position's ``.mine`` text),
          ``minesweepr``, ``mbf`` (the layout of a game or replay) or ``svg`` (a
          picture of the whole board, :func:`~analyzer.interactive.picture.board_svg`); the file is
          :attr:`download` and the view's ``download`` until the next action.
        - ``undo``, ``redo``: the position or game before (after) the last action
          that changed it (at most :data:`HISTORY_STEPS` of them).
        - ``paint`` ``{cells, value, like?}``: edit: set many cells at once (a drag):
          ``value`` a number 0-8, ``"hidden"``, ``"flag"``, or ``"like"``: the value
          the cell ``like`` has (the drag's first cell, after its click).
        - ``wheel`` ``{cell, delta}``: edit: a number up (``delta`` > 0) or down, from
          hidden up to the cells around it, below 0 hidden again.
        - ``autoplay`` ``{until}``: play: reveal every certainly safe cell, again
          and again, then stop at the next guess (``until="guess"``) or play the best
          move and go on until the game ends (``"end"``).
        - ``marks`` ``{on}``: show dead cells and forced 50/50s (:meth:`marks`).
        - ``win`` ``{on}``: show the exact chance to win with best play (:meth:`win_chance`).
        - ``trust_flags`` ``{on}``: play mode's flags are mines (see the class) or,
          off, the player's marks.
        - ``guess`` ``{direction}``: replay: step to the next (1) or previous (-1) guess.
        - ``candidates`` ``{on}``: show the ranked candidate guesses (:meth:`candidates`).
        - ``adjust_numbers`` ``{on}``: edit: the numbers around a flag follow it (see the class).
        - ``exact`` ``{cell}`` or ``{of: "layouts" | "luck"}``: asks, changes nothing
          (see the module text).
        """
        with self.lock:
            if not (isinstance(action, dict) and action.get("type") == "exact"):
                # A query (the hover's exact fraction) replaces nothing: the note of the last
                # action stays until the next action, as does the file a save made.
                self.note = ""
                self._download = None
            recorded = isinstance(action, dict) and action.get("type") in _RECORDED
            before = self._snapshot() if recorded else None
            signature = self._signature() if recorded else None
            answer = None
            try:
                answer = self._act(action)
                self._settle_unsure(action)
            except (AnalyzerError, ValueError, TypeError, KeyError, IndexError) as error:
                self.note = _message(error)
            if before is not None and self._signature() != signature:
                self._remember(self._undo, before)
                self._redo.clear()
            return answer

    def _act(self, action: dict[str, Any]) -> dict[str, Any] | None:
        if not isinstance(action, dict):
            raise OptionError(f"an action is a dict with a 'type', got {_short(action)}")
        kind = action.get("type")
        if kind == "exact":
            return self._query(action)
        if kind == "thumbnail":
            return self._thumbnail_answer()
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
            width, height, mines, topology = _size(action)
            topology = self._shown_topology() if topology is None else topology
            self.set_board(Board(width, height, mines, (HIDDEN,) * (width * height), topology))
        elif kind == "new_game":
            seed = action.get("seed")
            width, height, mines, topology = _size(action)
            self.new_game(
                width,
                height,
                mines,
                seed=None if seed in (None, "") else _integer(seed, "seed"),
                first_click=str(action.get("first_click") or "safe"),
                topology=self._shown_topology() if topology is None else topology,
            )
        elif kind == "play_best":
            self._need("play")
            move = self.best_move()
            if move is None:
                raise GameError("no move to play: the game is over or has no analysis")
            assert self._game is not None
            if self._game.board[move.cell] == FLAG:  # a flag of the player's, not trusted
                self._game.toggle_flag(*move.cell)
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
        elif kind == "open":
            total = action.get("mines")
            self._open_upload(
                action.get("name"),
                action.get("data"),
                None if total in (None, "") else _integer(total, "mines"),
            )
        elif kind == "picture":
            self._open_picture_action(action)
        elif kind == "paste":
            text = action.get("text")
            if not isinstance(text, str):
                raise OptionError(f"paste takes text, got {type(text).__name__}")
            total = action.get("mines")
            self.set_board(board_from_text(text, None if total in (None, "") else _integer(total, "mines")))
            self._name = "pasted"
        elif kind == "save":
            self._save(str(action.get("format", "mine")))
        elif kind in ("undo", "redo"):
            self._travel(kind)
        elif kind == "paint":
            self._paint(action.get("cells"), action.get("value"), action.get("like"))
        elif kind == "wheel":
            self._wheel(_cell(action), _integer(action.get("delta"), "delta", negative=True))
        elif kind == "autoplay":
            self._autoplay(str(action.get("until", "guess")))
        elif kind == "marks":
            self.show_marks = bool(action.get("on", True))
        elif kind == "win":
            self.show_win = bool(action.get("on", True))
        elif kind == "trust_flags":
            on = flag(action.get("on", True), "trust_flags")
            if on != self.trust_flags:
                self.trust_flags = on
                self._changed()
        elif kind == "guess":
            self._next_guess(_integer(action.get("direction", 1), "direction", negative=True))
        elif kind == "candidates":
            self.show_candidates = flag(action.get("on", True), "candidates")
        elif kind == "adjust_numbers":
            self.adjust_numbers = flag(action.get("on", True), "adjust_numbers")
        else:
            raise OptionError(f"unknown action {_short(kind)}")
        return None

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

    def _click(self, cell: Cell, button: str) -> None:
        if button not in ("left", "right"):
            raise OptionError(f"button must be 'left' or 'right', got {button!r}")
        if self.mode == "edit":
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
            self._put(index, int(key))
        elif key.lower() in ("h", " ", "backspace", "delete"):
            self._put(index, HIDDEN)
        elif key.lower() == "f":
            self._put(index, FLAG)
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
            self.new_game(board.width, board.height, board.mines, topology=board.topology)
        else:
            if self._replay is None:
                raise OptionError("no replay is open: load one with a replay file")
            self._set_mode("replay")

    def _explain(self, cell: Cell) -> None:
        self._why = None  # a refused why? leaves no outline of an earlier one
        self._refresh()
        analysis = self._analysis
        if analysis is None:
            raise OptionError("there is no analysis to explain (see the message above the board)")
        explanation = analysis.explain(*cell, time_limit=self.time_limit)
        self._why = explanation.to_dict() | {"text": explanation.describe()}

    # ------------------------------------------------------------ the analyst's workflow
    @property
    def download(self) -> dict[str, Any] | None:
        """The file the last ``save`` made: ``{"name", "mime", "data"}`` (base64), until the next action."""
        return self._download

    def _open_upload(self, name: object, data: object, mines: int | None = None) -> None:
        from analyzer.play.game import Game

        if not isinstance(name, str) or not name.strip():
            raise OptionError(f"open needs the file's name, got {name!r}")
        if not isinstance(data, str):
            raise OptionError(f"open needs the file's bytes in base64, got {type(data).__name__}")
        if len(data) > (MAX_UPLOAD_BYTES + 2) // 3 * 4:
            raise OptionError(f"{name!r} is larger than a file opened here ({MAX_UPLOAD_BYTES // 2**20} MiB)")
        try:
            raw = base64.b64decode(data, validate=True)
        except (binascii.Error, ValueError):
            raise OptionError(f"the bytes of {name!r} are not base64") from None
        if not raw:
            raise OptionError(f"{name!r} is empty")
        shown = os.path.basename(name.replace("\\", "/"))
        suffix = shown.lower().rsplit(".", 1)[-1] if "." in shown else ""
        if picture_format(raw) is not None:
            self.open_picture(raw, name=shown, mines=mines)
            return
        if suffix in REPLAY_FORMATS:
            self._open_replay(_replay_from_bytes(raw, suffix, shown))
        elif suffix == "mbf":
            if len(raw) >= 2:
                check_size(raw[0], raw[1])
            self._game = Game.from_mbf(raw)
            self._set_mode("play")
        else:
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise OptionError(
                    f"{shown!r} is not text: open a .mine or minesweepr board, an .mbf layout"
                    f" or a replay ({', '.join('.' + f for f in REPLAY_FORMATS)})"
                ) from None
            self.set_board(board_from_text(text, mines))
        self._name = shown.rsplit(".", 1)[0] or "board"

    def _save(self, kind: str) -> None:
        from analyzer.play.game import Game

        if kind == "mine":
            data, mime = self.board.to_text().encode(), "text/plain"
        elif kind == "minesweepr":
            data, mime = self.board.to_minesweepr().encode(), "text/plain"
        elif kind == "svg" and (
            self._shown_topology() in ("hex", "cube") or isinstance(self._shown_topology(), Graph)
        ):
            data, mime = self._static_svg().encode(), "image/svg+xml"
        elif kind == "svg":
            from analyzer.interactive.picture import MAX_SVG_CELLS, board_svg

            board = self._frame_size()
            if board[0] * board[1] > MAX_SVG_CELLS:
                raise OptionError(
                    f"an SVG of {board[0] * board[1]:,} cells is too large (at most {MAX_SVG_CELLS:,}):"
                    " save a .png of the view instead"
                )
            codes, p = self.arrays()
            marks = self.view(best=False)["marks"]
            title = f"{self._name}: {board[0]}x{board[1]}, {plural(board[2], 'mine')}"
            data = board_svg(codes, p, board[0], board[1], PALETTE, marks=marks, title=title).encode()
            mime = "image/svg+xml"
        elif kind == "mbf":
            if self._shown_topology() != "square":
                raise OptionError(
                    "an .mbf file holds a square board's layout, not one on"
                    f" {_topology_text(self._shown_topology())}: save the .mine position instead"
                )
            if self.mode == "play" and self._game is not None:
                data = self._game.to_mbf()
            elif self.mode == "replay" and self._replay is not None:
                replay = self._replay.replay
                data = Game.from_layout(replay.width, replay.height, sorted(replay.layout)).to_mbf()
            else:
                raise OptionError(
                    "an .mbf file holds a mine layout: a game or a replay has one, a position not"
                )
            mime = "application/octet-stream"
        else:
            raise OptionError(f"save as 'mine', 'minesweepr', 'mbf' or 'svg', got {kind!r}")
        extension = "txt" if kind == "minesweepr" else kind
        if kind == "mine" and isinstance(self._shown_topology(), Graph):
            extension = "json"  # a graph's board is JSON (Board.to_text)
        self._downloads += 1
        self._download = {
            "id": self._downloads,
            "name": f"{self._name}.{extension}",
            "mime": mime,
            "data": base64.b64encode(data).decode("ascii"),
        }

    def _static_svg(self) -> str:
        """The picture :mod:`analyzer.render` draws of the position (hexagons, the cube's net, a graph)."""
        from analyzer.render import analysis_html, board_svg

        board = self.board
        if board.width * board.height > _STATIC_SVG_CELLS:
            raise OptionError(
                f"an SVG of {board.width * board.height:,} cells is too large"
                f" (at most {_STATIC_SVG_CELLS:,}): save a .png of the view instead"
            )
        self._refresh()
        analysis = self._analysis
        if analysis is not None:
            move = self.best_move()
            picture = analysis_html(analysis, best=move.cell if move is not None else None)
        else:
            picture = board_svg(board)
        # The figure's <svg> element alone is the file (its caption is the figure's, not the picture's).
        return picture[picture.index("<svg") : picture.index("</svg>") + len("</svg>")] + "\n"

    def _frame_size(self) -> tuple[int, int, int]:
        try:
            board = self.board
        except BoardParseError:
            return self._width, self._height, self._mines
        return board.width, board.height, board.mines

    def _snapshot(self) -> _Snapshot:
        game = self._game
        return _Snapshot(
            self.mode,
            (self._width, self._height, self._mines, self._topology),
            tuple(self._cells),
            game.copy() if game is not None and self.mode == "play" else game,
            getattr(self, "_game_seed", None),
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

    def _remember(self, stack: list[_Snapshot], snapshot: _Snapshot) -> None:
        stack.append(snapshot)
        while len(stack) > HISTORY_STEPS or (len(stack) > 1 and sum(s.size for s in stack) > HISTORY_CELLS):
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

    def _paint(self, cells: object, value: object, like: object = None) -> None:
        self._need("edit")
        if not isinstance(cells, (list, tuple)) or not cells:
            raise OptionError(f"paint takes a list of cells [row, column], got {cells!r}")
        if len(cells) > len(self._cells):
            raise OptionError(f"paint takes at most {len(self._cells):,} cells, got {len(cells):,}")
        if value == "like":  # a drag: the cells take the value the first one has now
            code = self._cells[self._index(_cell({"cell": like}))]
        elif value == "hidden":
            code = HIDDEN
        elif value == "flag":
            code = FLAG
        else:
            code = _integer(value, "value")
            if code > 8:
                raise OptionError(f"a number is 0-8, got {code}")
        indices = [self._index(_cell({"cell": cell})) for cell in cells]  # every cell checked first
        for index in indices:
            self._put(index, code)
        self._changed()

    def _wheel(self, cell: Cell, delta: int) -> None:
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

    def _autoplay(self, until: str) -> None:
        if until not in ("guess", "end"):
            raise OptionError(f"auto-play goes until 'guess' or 'end', got {until!r}")
        self._need("play")
        game = self._game
        assert game is not None
        if game.is_finished:
            raise GameError(f"the game is {game.status}: start a new one")
        stop = time.monotonic() + AUTOPLAY_SECONDS
        safe_clicks = guesses = 0
        while not game.is_finished:
            if time.monotonic() > stop:
                self.note = f"auto-play stopped after {AUTOPLAY_SECONDS:g} s"
                break
            board = game.board
            self._refresh()  # the analysis shown: flags as mines only under trust_flags
            analysis = self._analysis
            if analysis is None:
                self.note = "auto-play stopped: " + (self._error or {}).get("message", "no analysis")
                break
            shown = board.cells
            width = game.width
            certain = [i for i, p in enumerate(analysis.cell_probabilities) if p == 0 and shown[i] == HIDDEN]
            if certain:
                for index in certain:
                    if game.is_finished:
                        break
                    if game.board.cells[index] != HIDDEN:
                        continue  # opened by an earlier one's flood fill (or flagged: left alone)
                    game.reveal(*divmod(index, width))
                    safe_clicks += 1
                self._changed()
                continue
            move = self.best_move()
            if until == "guess":
                best = f"; best guess {move.describe()}" if move is not None else ""
                self.note = f"auto-play stopped at a guess{best}"
                break
            if move is None:
                self.note = "auto-play stopped: no move to play"
                break
            if game.board[move.cell] == FLAG:
                game.toggle_flag(*move.cell)  # the best guess is under a flag of the player's
            game.reveal(*move.cell)
            guesses += 1
            self._changed()
        clicks = f"{plural(safe_clicks, 'safe click')}, {plural(guesses, 'guess')}"
        if game.is_finished:
            self.note = f"auto-play: game {game.status} after {clicks}"
        else:
            self.note = f"{self.note} (after {clicks})"

    def _next_guess(self, direction: int) -> None:
        self._need("replay")
        assert self._replay is not None
        guesses = [k for k, click in enumerate(self._replay.clicks) if click.is_guess]
        if direction >= 0:
            later = [k for k in guesses if k > self._step]
            if not later:
                where = "this click" if self._step < len(self._replay_boards) else "the end"
                raise OptionError(
                    f"no guess after {where}: "
                    + ("the rest of the game was certain" if guesses else "the game had none")
                )
            self._step = later[0]
        else:
            earlier = [k for k in guesses if k < self._step]
            if not earlier:
                raise OptionError("no guess before this click")
            self._step = earlier[-1]
        self._changed()

    def marks(self) -> dict[str, Any]:
        """Dead cells and forced 50/50s of the position shown, as flat indices.

        A *dead* cell is a hidden cell in doubt that can show one number only:
        revealing it tells nothing (JSMinesweeper's dead cells; the ``expert``
        player's ``dead="wait"``). The 50/50 cells are
        :func:`~analyzer.play.forced.pseudo_fifty_fifties` with chains: cells that
        are mines only where a forced 50/50 holds them, formed or still to form.
        Returns ``{"dead", "fifty", "text"}``; the dead cells are looked for for at
        most :data:`MARK_SECONDS`, the 50/50s on boards of at most :data:`MARK_CELLS`
        cells (``text`` says when either search stopped short).

        >>> session = Session("2x3x1\\nHH\\n11\\n00\\n")
        >>> session.marks()["fifty"], session.marks()["dead"]
        ([0, 1], [0, 1])
        """
        with self.lock:
            self._refresh()
            if self._marks is None:
                self._marks = self._find_marks()
            return self._marks

    def _find_marks(self) -> dict[str, Any]:
        from analyzer.play.forced import pseudo_fifty_fifties

        analysis = self._analysis
        if analysis is None:
            return {"dead": [], "fifty": [], "text": "no marks without an analysis"}
        board = analysis.board
        cells = board.width * board.height
        fifty = pseudo_fifty_fifties(board, analysis, chains=True) if cells <= MARK_CELLS else []
        dead, looked, doubt = dead_cells(board, analysis, deadline=time.monotonic() + MARK_SECONDS)
        text = f"{plural(len(dead), 'dead cell')}, {plural(len(fifty), 'cell')} in forced 50/50s"
        if cells > MARK_CELLS:
            text += f" (50/50s are looked for on boards of at most {MARK_CELLS:,} cells)"
        if looked < doubt:
            text += f" (dead cells looked for in {looked:,} of {doubt:,} cells in {MARK_SECONDS:g} s)"
        return {"dead": dead, "fifty": fifty, "text": text}

    def win_chance(self) -> dict[str, Any]:
        """The exact chance to win from the position shown with best play, when the end game is small.

        The end game's exact search (:func:`~analyzer.play.players.endgame.endgame_search`)
        over every remaining layout (equally likely), when at most :data:`WIN_LAYOUTS`
        remain and the search ends within :data:`WIN_NODES` positions; else ``p`` is
        ``None`` and ``text`` says why. The flags are taken as the analysis shown
        takes them: in play mode not as facts unless :attr:`trust_flags`; in edit
        mode as facts. ``cell`` is the first move of best play; ``line`` the winning
        line (:func:`~analyzer.play.players.endgame.endgame_line`, :data:`WIN_DEPTH`
        moves deep: ``{"cell", "p", "replies": [{"shown": [[r, c, n], ...], "chance",
        "line"}]}``, chances as exact text, ``p`` the chance to win from there) and
        ``line_text`` the same as indented text; ``None`` and ``""`` when one layout is left.

        >>> Session("3x1x1\\nHHH\\n").win_chance()["p"]
        '2/3'
        """
        with self.lock:
            self._refresh()
            if self._win is None:
                self._win = self._find_win()
            return self._win

    def _find_win(self) -> dict[str, Any]:
        from analyzer.play.players.endgame import endgame_layouts, endgame_line

        none: dict[str, Any] = {"p": None, "percent": None, "cell": None, "line": None, "line_text": ""}
        too_many = none | {"text": f"more than {WIN_LAYOUTS:,} layouts remain: too many for the exact search"}
        if self.mode == "play" and self._game is not None:
            if self._game.is_finished:
                return none | {"text": f"the game is {self._game.status}"}
            board = self._game.board
            if all(v < 0 for v in board.cells):
                return none | {
                    "text": "before the first click the first-click rule decides: reveal a cell first"
                }
            if self._analysis is None:
                return none | {
                    "text": "no chance to win: " + (self._error or {}).get("message", "no analysis")
                }
            analysis = self._analysis
            if not analysis.trust_flags:
                # The player's flags are marks, not facts: the layouts are counted without them.
                board = board.replace(
                    {divmod(i, board.width): HIDDEN for i, v in enumerate(board.cells) if v == FLAG}
                )
        else:
            if self._analysis is None:
                return none | {"text": "no chance to win without an exact analysis"}
            analysis = self._analysis
            board = analysis.board
        if analysis.total > WIN_LAYOUTS:  # the count is exact: no need to look for them
            return too_many
        # Certain mines are mines in every layout: flagged, the search neither branches on them nor
        # reveals them (it never would), and the chance is the same.
        probabilities = analysis.cell_probabilities
        board = board.replace(
            {
                divmod(i, board.width): FLAG
                for i, v in enumerate(board.cells)
                if v == HIDDEN and probabilities[i] == 1
            }
        )
        hidden = board.cells.count(HIDDEN)
        if hidden > WIN_HIDDEN:
            limit = f"the exact search takes at most {WIN_HIDDEN:,}"
            return none | {"text": f"{plural(hidden, 'hidden cell')} besides the certain mines: {limit}"}
        layouts = endgame_layouts(board, limit=WIN_LAYOUTS)
        if layouts is None:
            return too_many
        if not layouts:
            return none | {"text": "no layout fits the position"}
        found = endgame_line(board, layouts, max_nodes=WIN_NODES, depth=WIN_DEPTH)
        if found is None:
            return none | {"text": f"the exact search passed {WIN_NODES:,} positions: too large"}
        cell, wins = found["cell"], found["wins"]
        if len(layouts) == 1:  # every hidden cell is known: reveal the safe ones
            wins = 1
            safe = [i for i, v in enumerate(board.cells) if v == HIDDEN and i not in layouts[0]]
            cell_value = list(divmod(safe[0], board.width)) if safe else None
        else:
            cell_value = list(divmod(cell, board.width))
        p = Fraction(wins, len(layouts))
        text = (
            f"chance to win with best play: {percent_text(p) if 0 < p < 1 else int(p) * 100}%"
            f" ({exact_or_rounded(p)}, over {plural(len(layouts), 'layout')})"
        )
        line = _line_view(board.width, found) if len(layouts) > 1 else None
        return {
            "p": _fraction(p),
            "percent": float(p) * 100,
            "cell": cell_value,
            "text": text,
            "line": line,
            "line_text": _line_text(line) if line is not None else "",
        }

    def _workflow_view(self) -> dict[str, Any]:
        """What the analyst's tools draw, merged into :meth:`view`."""
        return {
            "history": {"undo": len(self._undo), "redo": len(self._redo)},
            "download": self._download,
            "shown": {
                "marks": self.show_marks,
                "win": self.show_win,
                "trust_flags": self.trust_flags,
                "candidates": self.show_candidates,
                "adjust_numbers": self.adjust_numbers,
            },
            "candidates": self.candidates() if self.show_candidates else None,
            "marks_text": self.marks()["text"] if self.show_marks else None,
            "win": self.win_chance() if self.show_win else None,
            "timeline": self._timeline(),
            "name": self._name,
        }

    def _timeline(self) -> dict[str, Any] | None:
        """Each click of the replay: its risk (mine probability, a float) and whether it was a guess."""
        if self._replay is None or self.mode != "replay":
            return None
        made = getattr(self, "_timeline_made", None)
        if made is None or made[0] is not self._replay:  # once a replay: the same list at every step
            clicks = self._replay.clicks
            line = {
                "risk": [float(click.mine_probability) for click in clicks],
                "guess": [bool(click.is_guess) for click in clicks],
                "exact": [exact_or_rounded(click.mine_probability) for click in clicks],
            }
            made = self._timeline_made = (self._replay, line)
        return made[1]

    # ------------------------------------------------------------ the analyst's tools: candidates, line
    def candidates(self) -> dict[str, Any]:
        """The ranked candidate guesses of the position shown, as JSMinesweeper lists them.

        The ``expert`` player's candidates with their exact figures
        (:func:`~analyzer.play.players.expert.ranked_guesses`: ``safety``, ``progress``
        the chance the guess is safe and the number it shows proves another cell
        safe, ``secondary`` the chance it and the next click are both safe), best
        first by the player's score (safety + progress), so the first is the
        player's guess; then, ranked the same way, the cells the same player would
        weigh with a margin of :data:`CANDIDATE_MARGIN` instead of its own; at most
        :data:`CANDIDATE_ROWS` in all. Returns ``{"rows", "text"}``; each row is
        ``{"cell", "expert", "safety", "progress", "secondary"}`` (``expert``: one of
        the player's own candidates; exact fractions as text) and the same as floats
        under ``"percent"``. No rows when a cell is certainly safe (no
        guess is needed), without an exact analysis, or on boards of more than
        :data:`CANDIDATE_CELLS` cells (``text`` says which).

        >>> rows = Session("3x3x2\\nHHH\\nH2H\\nHHH\\n").candidates()["rows"]
        >>> rows[0]["cell"], rows[0]["safety"], rows[0]["progress"], rows[0]["secondary"]
        ([0, 0], '3/4', '11/28', '19/28')
        """
        with self.lock:
            self._refresh()
            if self._candidates is None:
                self._candidates = self._find_candidates()
            return self._candidates

    def _find_candidates(self) -> dict[str, Any]:
        from analyzer.play.players.expert import ExpertPlayer, ranked_guesses

        analysis = self._analysis
        if analysis is None:
            return {"rows": [], "text": "no candidate guesses without an exact analysis"}
        if self._first_click() is not None:
            return {"rows": [], "text": "the first click is safe under this game's rule: no guess to rank"}
        board = analysis.board
        cells = board.width * board.height
        if cells > CANDIDATE_CELLS:
            return {
                "rows": [],
                "text": f"candidate guesses are ranked on boards of at most {CANDIDATE_CELLS:,} cells",
            }
        safe = analysis.safe
        if safe:
            return {"rows": [], "text": f"{plural(len(safe), 'certainly safe cell')}: no guess needed"}
        if HIDDEN not in board.cells:
            return {"rows": [], "text": "no hidden cell to guess"}
        expert = ExpertPlayer()
        ranked = ranked_guesses(board, analysis, player=ExpertPlayer(margin=CANDIDATE_MARGIN))
        lowest = 1 - max(g.safety for g in ranked)  # the safest cell leads the guess order
        # The expert's own candidates (within its margin: a prefix of the wider guess order) first.
        within = [g for g in ranked if 1 - g.safety <= lowest + expert.margin]
        ranked = (within + [g for g in ranked if 1 - g.safety > lowest + expert.margin])[:CANDIDATE_ROWS]
        rows = [
            {
                "cell": list(g.cell),
                "expert": 1 - g.safety <= lowest + expert.margin,
                "safety": _fraction(g.safety),
                "progress": _fraction(g.progress),
                "secondary": _fraction(g.secondary),
                "percent": {
                    "safety": float(g.safety) * 100,
                    "progress": float(g.progress) * 100,
                    "secondary": float(g.secondary) * 100,
                },
            }
            for g in ranked
        ]
        text = (
            f"{plural(len(rows), 'candidate guess')}: the expert player's first (within"
            f" {float(expert.margin) * 100:g} percentage points of the safest), then the rest within"
            f" {float(CANDIDATE_MARGIN) * 100:g}, each by safety + progress"
        )
        return {"rows": rows, "text": text}

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

    # ------------------------------------------------------------ the view
    @property
    def steps(self) -> int:
        """Replay steps: one before each click that opened cells, and the end of the game."""
        return len(self._replay_boards) + 1 if self._replay is not None else 0

    def view(self, *, best: bool = True) -> dict[str, Any]:
        """The small fields of the view (see the module text): everything but the per-cell arrays.

        ``best`` false leaves the best move out (``best_pending`` true) so that the
        board shows before it is scored; once scored for this version it is kept.
        """
        with self.lock:
            self._refresh()
            try:
                board = self.board
            except BoardParseError as error:
                return self._frame(None, str(error), best=None)
            analysis = self._analysis
            move = self.best_move() if (best or self._best_scored) and analysis is not None else None
            view = self._frame(board, None, best=move)
            view["best_pending"] = analysis is not None and not self._best_scored
            return view

    def _frame(self, board: Board | None, broken: str | None, *, best: Move | None) -> dict[str, Any]:
        width, height, mines = (
            (board.width, board.height, board.mines)
            if board is not None
            else (self._width, self._height, self._mines)
        )
        cells = board.cells if board is not None else tuple(self._cells)
        flags = cells.count(FLAG)
        analysis = self._analysis if board is not None else None
        marks: dict[str, list[int]] = {}
        error: dict[str, Any] | None = self._error if broken is None else {"message": broken, "clues": []}
        if error and error.get("clues"):
            marks["conflict"] = [r * width + c for r, c in error["clues"]]
        if best is not None:
            marks["best"] = [best.cell[0] * width + best.cell[1]]
        if self._why is not None:
            marks["why_cell"] = [self._why["cell"][0] * width + self._why["cell"][1]]
            marks["why_clues"] = [c["cell"][0] * width + c["cell"][1] for c in self._why.get("clues", ())]
        if self.show_marks and board is not None:
            found = self.marks()  # the analyst's marks: dead cells, forced 50/50s
            marks["dead"], marks["fifty"] = found["dead"], found["fifty"]
        self._picture_marks(marks, width, height)
        replay = self._replay_view() if self.mode == "replay" else None
        if replay is not None and replay["click"] is not None:
            row, col = replay["click"]["cell"]
            marks["clicked"] = [row * width + col]
        return (
            {
                "protocol": PROTOCOL,
                "version": self._version,
                "mode": self.mode,
                "modes": [m for m in MODES if m != "replay" or self._replay is not None],
                "width": width,
                "height": height,
                "mines": mines,
                "flags": flags,
                "mines_left": mines - flags,
                "topology": self._topology_view(board),
                "caption": self._caption(width, height, mines, analysis),
                "counts": self._counts(analysis),
                "error": error,
                "note": self.note,
                "trust_flags": self._trusts_flags(),
                "flag_text": self._flag_text if board is not None else "",
                "best": list(best.cell) if best is not None else None,
                "best_text": self._best_text(best) if best is not None else "",
                "best_pending": False,
                "why": self._why,
                "marks": marks,
                "game": self._game_view() if self.mode == "play" else None,
                "replay": replay,
                "time_limit": self.time_limit,
                "presets": {name: list(size) for name, size in PRESETS.items()},
                "max_cells": MAX_CELLS,
                "palette": PALETTE,
            }
            | self._workflow_view()
            | {"picture": self._picture_view()}
        )

    def _best_text(self, move: Move) -> str:
        game = self._game
        if self.mode == "play" and game is not None and game.revealed_count == 0:
            rule = game.first_click
            if rule.radius is not None:
                if rule.radius == 0:
                    return (
                        f"{move.cell!r}: the first click is safe under this game's rule (safe);"
                        " a corner, with the fewest neighbours, opens an area most often"
                    )
                return f"{move.cell!r}: the first click opens an area (a 0) under this game's rule ({rule})"
        return move.describe()

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """The per-cell state codes (``uint8``) and mine probabilities (``float32``, NaN for none), row-major.

        Made once per version (see the module text for the codes).

        >>> codes, p = Session("3x1x1\\nH1H\\n").arrays()
        >>> codes.tolist(), p.tolist()[0]
        ([11, 1, 11], 0.5)
        """
        with self.lock:
            self._refresh()
            made = self._made.get(self._version)
            if made is None:
                made = self._made[self._version] = self._make_arrays()
                for old in sorted(self._made)[:-_REMEMBERED_VERSIONS]:
                    del self._made[old]
            return made

    def cells(self, since: int | None = None) -> dict[str, Any]:
        """The per-cell arrays as the protocol sends them: all of them, or what changed since ``since``.

        >>> session = Session("3x1x1\\nH1H\\n")
        >>> first = session.cells()
        >>> first["full"], first["size"], decode(first["codes"], "u1").tolist()
        (True, 3, [11, 1, 11])
        >>> session.act({"type": "cell", "cell": [0, 5]})  # refused: nothing changed, nothing sent
        >>> same = session.cells(since=first["version"])
        >>> session.note, same["full"], decode(same["codes"], "u1").tolist()
        ('cell (0, 5) is off the 3x1 board', False, [])
        """
        import numpy as np

        with self.lock:
            codes, p = self.arrays()
            version = self._version
            old = self._made.get(since) if since is not None else None
            if old is not None and since != version and len(old[0]) == len(codes):
                old_codes, old_p = old
                same_p = (old_p == p) | (np.isnan(old_p) & np.isnan(p))
                index = np.flatnonzero((old_codes != codes) | ~same_p).astype("<i4")
                if 3 * len(index) < len(codes):
                    return {
                        "version": version,
                        "full": False,
                        "size": len(codes),
                        "index": encode(index),
                        "codes": encode(codes[index]),
                        "p": encode(p[index]),
                    }
            elif since == version:
                empty = np.zeros(0, dtype="<i4")
                return {
                    "version": version,
                    "full": False,
                    "size": len(codes),
                    "index": encode(empty),
                    "codes": encode(empty.astype("u1")),
                    "p": encode(empty.astype("<f4")),
                }
            return {
                "version": version,
                "full": True,
                "size": len(codes),
                "index": "",
                "codes": encode(codes),
                "p": encode(p),
            }

    def respond(self, action: dict[str, Any] | None = None, *, since: int | None = None) -> dict[str, Any]:
        """Apply ``action`` (if any) and answer as the protocol says: ``{"view", "cells", "answer"}``.

        The view leaves the best move out when it is still to score (``best_pending``):
        :meth:`best_view` gives it.

        >>> session = Session("3x1x1\\nH1H\\n")
        >>> sorted(session.respond())
        ['answer', 'cells', 'view']
        >>> session.respond({"type": "exact", "cell": [0, 0]})["answer"]["p"]
        '1/2'
        """
        with self.lock:
            if action is None:
                self.note = ""  # a fresh look (a reload): no note of an earlier refusal
            answer = self.act(action) if action is not None else None
            return {"view": self.view(best=False), "cells": self.cells(since), "answer": answer}

    def best_view(self, version: int) -> dict[str, Any] | None:
        """The view of ``version`` with its best move scored, or ``None`` if a later change replaced it.

        The scoring runs without holding the session's lock, so that an action sent
        meanwhile is not kept waiting; its result is dropped if the position changed.
        """
        with self.lock:
            if version != self._version:
                return None
            self._refresh()
            analysis = self._analysis
            if analysis is None or self._best_scored:
                return self.view(best=False)
            first = self._first_click()

        def still_wanted(done: int, of: int) -> None:
            if version != self._version:  # a later action changed the position: stop scoring
                raise _Superseded

        try:
            move = first or _scored_move(analysis, still_wanted)
        except _Superseded:
            return None
        with self.lock:
            if version != self._version:
                return None
            if not self._best_scored:
                self._best = move
                self._best_scored = True
            return self.view(best=False)

    def _make_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        import numpy as np

        try:
            board = self.board
        except BoardParseError:
            board = None
        shown = self._shown_cells(board) if board is not None else tuple(self._cells)
        values = np.array(shown, dtype=np.int8)
        width = board.width if board is not None else self._width
        codes = np.where(values >= 0, values, np.where(values == FLAG, CODES["flag"], CODES["hidden"]))
        codes = codes.astype(np.uint8)
        p = np.full(len(values), np.nan, dtype=np.float32)
        analysis = self._analysis if board is not None else None
        hidden = values == HIDDEN
        if analysis is not None:
            floats = np.asarray(analysis.to_numpy(), dtype=np.float64).ravel()
            # A flag stays a flag (not trusted, it is the player's mark: its P is asked for on hover).
            p[hidden] = floats[hidden]
            codes[hidden] = CODES["guess"]
            # A correctly rounded float is 0 or 1 exactly when the fraction is, or is within
            # 2**-1075 of it: those few cells are settled by their exact fraction.
            for index in np.flatnonzero(hidden & ((floats == 0) | (floats == 1))).tolist():
                exact = analysis.probability(*divmod(index, width))
                if exact == 0:
                    codes[index] = CODES["safe"]
                elif exact == 1:
                    codes[index] = CODES["mine"]
        elif self._certain is not None:
            safe, mines = self._certain
            for cell in safe:
                codes[cell[0] * width + cell[1]] = CODES["safe_cpsat"]
            for cell in mines:
                codes[cell[0] * width + cell[1]] = CODES["mine_cpsat"]
        layout = self._shown_mines()
        if layout:
            fatal = self._fatal_cell()
            for row, col in layout:
                index = row * width + col
                if values[index] != FLAG:
                    codes[index] = CODES["fatal"] if (row, col) == fatal else CODES["layout_mine"]
            for index in np.flatnonzero(values == FLAG).tolist():
                if divmod(index, width) not in layout:
                    codes[index] = CODES["wrong_flag"]
        return codes, p

    def _fatal_cell(self) -> Cell | None:
        if self.mode == "play" and self._game is not None:
            return self._game.fatal_cell
        if self.mode == "replay" and self._replay is not None and self._replay.died_at is not None:
            return self._replay.died_at.cell
        return None

    def _query(self, action: dict[str, Any]) -> dict[str, Any]:
        """The answer to an ``exact`` action (see the module text)."""
        what = action.get("of")
        if what is not None:
            if what == "layouts":
                self._refresh()
                if self._analysis is None:
                    raise OptionError("there is no count of layouts (see the message above the board)")
                return {"type": "exact", "of": what, "text": exact_text(self._analysis.total)}
            if what == "luck":
                if self._replay is None:
                    raise OptionError("no replay is open: it is a replay's luck")
                return {"type": "exact", "of": what, "text": fraction_text(self._replay.luck)}
            if what == "position":  # the page's shared link (web.js): the position shown, never a layout
                return {"type": "exact", "of": what, "text": self.board.to_text()}
            raise OptionError(f"exact of what? 'layouts', 'luck' or 'position', got {what!r}")
        cell = _cell(action)
        board = self.board
        index = board.index(*cell) if 0 <= cell[0] < board.height and 0 <= cell[1] < board.width else None
        if index is None:
            raise OptionError(f"cell {cell!r} is off the {board.width}x{board.height} board")
        self._refresh()
        analysis = self._analysis
        answer: dict[str, Any] = {"type": "exact", "cell": list(cell), "version": self._version, "p": None}
        value = board.cells[index]
        if analysis is None or value >= 0 or (value == FLAG and analysis.trust_flags):
            answer["text"] = (
                f"revealed {value}" if value >= 0 else ("a flag" if value == FLAG else "no analysis")
            )
            return answer
        p = analysis.probability(*cell)
        answer["p"] = _fraction(p)
        answer["text"] = f"P(mine) = {exact_or_rounded(p)} ≈ {percent(p)}"
        return answer

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

    def _topology_view(self, board: Board | None) -> dict[str, Any]:
        """How the front end lays the cells out: ``{"name"}`` and, for a graph, its picture.

        ``name`` is a name of :data:`~analyzer.board.topology.TOPOLOGIES` or ``"graph"``;
        a graph adds ``centres`` (each cell's ``[x, y]`` in cell sizes, where
        :func:`analyzer.render.cell_centres` draws it), ``edges`` (``[i, j]``, ``i < j``)
        and ``names`` (each cell's). Hexagons and the cube's net are laid out by the front
        end as :func:`~analyzer.render.cell_centres` does.
        """
        topology = board.topology if board is not None else self._topology
        if not isinstance(topology, Graph):
            return {"name": topology}
        return {"name": "graph"} | _graph_picture(topology)

    def _caption(self, width: int, height: int, mines: int, analysis: Analysis | None) -> str:
        topology = self._shown_topology() if self.mode != "edit" else self._topology
        if isinstance(topology, Graph):
            size = f"graph of {len(topology)} cells"
        elif topology == "cube":
            size = f"cube of {width}x{width} faces"
        else:
            size = f"{width}x{height}" + ("" if topology == "square" else f" {topology}")
        text = f"{size}, {plural(mines, 'mine')}"
        if self.mode == "play" and self._game is not None:
            text += f"; game {self._game.status}"
        if analysis is not None:
            text += f"; {_count_text(analysis.total)} layout{'' if analysis.total == 1 else 's'}"
        return text

    def _counts(self, analysis: Analysis | None) -> dict[str, Any]:
        if analysis is None:
            return {}
        return {"layouts": _count_text(analysis.total), "layouts_digits": _digits(analysis.total)}

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
                f" ({len(analysed.needless_guesses)} needless), luck {share_text(luck)}"
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
        self._opened, self._unsure = None, frozenset()  # a new source: no picture's reading is shown
        self._changed()

    def _changed(self) -> None:
        self._version += 1
        self._fresh = False
        self._marks = None
        self._win = None
        self._candidates = None
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
        self._flag_text = ""
        if self.mode == "play" and self._game is not None and self._game.is_finished:
            return
        if self.mode == "replay" and self._step >= len(self._replay_boards):
            return
        try:
            board = self.board
        except BoardParseError as error:
            self._error = {"message": str(error), "clues": []}
            return
        trust = self._trusts_flags()
        try:
            self._analysis = solve(board, time_limit=self.time_limit, trust_flags=trust)
        except InconsistentBoardError as error:
            self._error = {"message": str(error), "clues": [list(c) for c in error.clues]}
        except SolverTimeoutError:
            self._fall_back(board)
        except AnalyzerError as error:
            self._error = {"message": _message(error), "clues": []}
        if not trust and FLAG in board.cells:
            self._flag_text = self._wrong_flags(board)

    def _trusts_flags(self) -> bool:
        """Whether the analysis takes the flags as mines: always in edit and replay, in play if told."""
        return self.mode != "play" or self.trust_flags

    def _wrong_flags(self, board: Board) -> str:
        """The player's flags that are not certain mines, in one line (``""``: every flag is one)."""
        from analyzer.solver.solve import solve

        analysis = self._analysis
        flags = [divmod(i, board.width) for i, v in enumerate(board.cells) if v == FLAG]
        if analysis is None:
            return ""
        doubt = [(cell, analysis.probability(*cell)) for cell in flags]
        doubt = sorted(((cell, p) for cell, p in doubt if p != 1), key=lambda found: found[1] != 0)
        if not doubt:
            return ""
        more = f" and {len(doubt) - FLAGS_NAMED} more" if len(doubt) > FLAGS_NAMED else ""
        if len(flags) >= 2 and (len(doubt) >= 2 or doubt[0][1] == 0):
            # Each may be a mine and all of them not: the solve with the flags as mines says.
            try:
                solve(board, time_limit=self.time_limit, trust_flags=True)
            except InconsistentBoardError as error:
                named = ", ".join(repr(cell) for cell, _ in doubt[:FLAGS_NAMED])
                return f"flags at {named}{more} cannot all be mines: {_message(error)}"
            except AnalyzerError:
                pass  # past the time limit: each flag's probability is still worth saying

        def said(p: Fraction) -> str:
            return "0 (certainly safe)" if p == 0 else f"{exact_or_rounded(p)} ≈ {percent(p)}"

        if len(doubt) == 1:
            ((cell, p),) = doubt
            return f"flag at {cell!r} is not a certain mine: P = {said(p)}"
        listed = "; ".join(f"{cell!r}: P = {said(p)}" for cell, p in doubt[:FLAGS_NAMED])
        return f"flags that are not certain mines: {listed}{more}"

    def _fall_back(self, board: Board) -> None:
        """Past the time limit: the certain cells by CP-SAT feasibility, without counting."""
        from analyzer.solver.certain import certain_cells

        limit = f"the exact count took longer than {self.time_limit:g} s"
        try:
            found = certain_cells(
                board, trust_flags=self._trusts_flags(), time_limit=max(self.time_limit, CERTAIN_SECONDS)
            )
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

    # ------------------------------------------------------------ pictures
    def open_picture(
        self,
        source: object,
        *,
        mines: int | None = None,
        skin: str | None = None,
        name: str | None = None,
    ) -> PictureReading:
        """Read a screenshot as the position, in edit mode, and keep the reading; returns it.

        ``source`` is what :func:`analyzer.pictures.read_picture` takes (a path, the file's
        bytes, a Pillow image, a numpy array); bytes and files past
        :data:`~analyzer.interactive.screenshot.MAX_PICTURE_BYTES` are refused before they
        are decoded. The cells read unsurely are marked (``marks["unsure"]``) until the
        person sets each; the view's ``picture`` says what was read (skin, notes, where the
        total came from) and the ``thumbnail`` query gives the board's part of the picture.
        Raises :class:`~analyzer.errors.PictureError` (one line) and changes nothing when
        the picture cannot be read.
        """
        if name is None:
            name = (
                os.path.basename(str(os.fspath(source)))
                if isinstance(source, (str, os.PathLike))
                else "picture"
            )
        with self.lock:
            opened = read_opened(source, name=name, number=self._pictures + 1, mines=mines, skin=skin)
            reading = opened.reading
            self.set_board(reading.board)
            self._pictures += 1
            width = reading.board.width
            self._opened = opened
            self._unsure = frozenset(r * width + c for r, c in reading.unsure)
            self._name = name.rsplit(".", 1)[0] or "picture"
            return reading

    @property
    def picture(self) -> PictureReading | None:
        """The reading of the picture the position was read from, while it is shown (else ``None``)."""
        return self._opened.reading if self._opened is not None else None

    @property
    def unsure(self) -> tuple[Cell, ...]:
        """The cells read unsurely that the person has not set yet (row-major)."""
        if self._opened is None:
            return ()
        width = self._opened.reading.board.width
        return tuple(divmod(i, width) for i in sorted(self._unsure))

    def _open_picture_action(self, action: dict[str, Any]) -> None:
        """The ``picture`` action: ``{name?, data, mines?, skin?}``, ``data`` the bytes (or base64 text)."""
        name = action.get("name")
        if not isinstance(name, str) or not name.strip():
            name = "picture"
        name = os.path.basename(name.replace("\\", "/"))
        data = action.get("data")
        if isinstance(data, str):
            if len(data) > (MAX_PICTURE_BYTES + 2) // 3 * 4:
                raise OptionError(
                    f"{name!r} is larger than a picture opened here ({MAX_PICTURE_BYTES // 2**20} MiB)"
                )
            try:
                data = base64.b64decode(data, validate=True)
            except (binascii.Error, ValueError):
                raise OptionError(f"the bytes of {name!r} are not base64") from None
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise OptionError(f"picture needs the file's bytes, got {type(data).__name__}")
        total = action.get("mines")
        skin = action.get("skin")
        self.open_picture(
            bytes(data),
            name=name,
            mines=None if total in (None, "") else _integer(total, "mines"),
            skin=skin if isinstance(skin, str) and skin else None,
        )

    def _settle_unsure(self, action: object) -> None:
        """The cells an edit set are no longer unsure (a click, a key, a drag, the wheel)."""
        if not self._unsure or self.mode != "edit" or not isinstance(action, dict):
            return
        kind = action.get("type")
        if kind in ("cell", "key", "wheel"):
            cells = [action.get("cell")]
        elif kind == "paint":
            cells = list(action.get("cells") or ()) + [action.get("like")]
        else:
            return
        touched = set()
        for cell in cells:
            if isinstance(cell, (list, tuple)) and len(cell) == 2:
                try:
                    touched.add(self._index(_cell({"cell": cell})))
                except (OptionError, ValueError, TypeError):
                    continue
        self._unsure = self._unsure - touched

    def _picture_marks(self, marks: dict[str, Any], width: int, height: int) -> None:
        """``marks["unsure"]``: the cells read unsurely and not set since (edit mode, the board read)."""
        opened = self._opened
        if opened is None or not self._unsure or self.mode != "edit":
            return
        board = opened.reading.board
        if (board.width, board.height) == (width, height):
            marks["unsure"] = sorted(self._unsure)

    def _picture_view(self) -> dict[str, Any] | None:
        if self._opened is None or self.mode != "edit":
            return None
        return self._opened.view(len(self._unsure))

    def _thumbnail_answer(self) -> dict[str, Any]:
        if self._opened is None:
            raise OptionError("no picture is open: the position was not read from one")
        return self._opened.thumbnail_answer()

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


@functools.lru_cache(maxsize=8)
def _graph_picture(graph: Graph) -> dict[str, Any]:
    """A graph's cells where :func:`analyzer.render.cell_centres` puts them (in cell sizes), edges, names."""
    from analyzer.render import cell_centres

    centres, size = cell_centres(Board(len(graph), 1, 0, (HIDDEN,) * len(graph), graph))
    return {
        "centres": [[round(x / size, 4), round(y / size, 4)] for x, y in centres],
        "edges": [[i, j] for i, around in enumerate(graph.neighbours) for j in around if i < j],
        "names": [graph.name_of(i) for i in range(len(graph))],
    }


def check_size(width: int, height: int) -> None:
    """Refuse a board of more than :data:`MAX_CELLS` cells or :data:`MAX_LENGTH` a side, before it is made.

    >>> check_size(1000, 1000)
    >>> check_size(100_000, 100_000)
    Traceback (most recent call last):
    ...
    analyzer.errors.OptionError: a board is 1 to 1,000,000 cells (e.g. 1000x1000), got 100000x100000
    >>> check_size(20_001, 1)
    Traceback (most recent call last):
    ...
    analyzer.errors.OptionError: a board is at most 20,000 cells a side, got 20001x1
    """
    if width < 1 or height < 1 or width * height > MAX_CELLS:
        raise OptionError(
            f"a board is 1 to {MAX_CELLS:,} cells (e.g. {MAX_SIDE}x{MAX_SIDE}), got {width}x{height}"
        )
    if width > MAX_LENGTH or height > MAX_LENGTH:
        raise OptionError(f"a board is at most {MAX_LENGTH:,} cells a side, got {width}x{height}")


@dataclass(frozen=True, slots=True)
class _Snapshot:
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


_TEXT_HEADER = re.compile(r"\s*([0-9]{1,9})\s*[xX]\s*([0-9]{1,9})\s*[xX]\s*([0-9]{1,9})(?:\s+[A-Za-z]+)?\s*")
_MINESWEEPR = frozenset(".x*012345678")


def board_from_text(text: str, mines: int | None = None) -> Board:
    """A board from text pasted or opened in the page: ``.mine``, or rows and the mine total.

    With a ``WxHxM`` header (and a topology's name after it, ``9x9x10 hex``) the
    text is ``.mine``; text that starts with ``{`` is a graph's board in JSON
    (:meth:`Board.from_json <analyzer.board.board.Board.from_json>`); without either,
    its rows are ``.mine`` characters or minesweepr's (``.`` zero, ``x`` hidden,
    ``*`` flag) and ``mines`` is the total. Blank lines and blanks around rows are
    ignored. The size is checked (:func:`check_size`) before anything is built.

    >>> board_from_text("  3x1x1\\n  H1H\\n").to_text()
    '3x1x1\\nH1H\\n'
    >>> board_from_text("3x2x1 hex\\nH1H\\n001\\n").topology
    'hex'
    >>> board_from_text("x1.\\nx1.\\n", 1).to_text()
    '3x2x1\\nH10\\nH10\\n'
    >>> board_from_text("H1H")
    Traceback (most recent call last):
    ...
    analyzer.errors.OptionError: text without a 'WxHxM' header needs the mine total (the mines field)
    """
    if not isinstance(text, str):
        raise BoardParseError(f"expected text, got {type(text).__name__}")
    lines = [
        line.strip()
        for line in text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    ]
    rows = [line for line in lines if line]
    if not rows:
        raise BoardParseError("no board in the text: it is empty")
    if rows[0].startswith("{"):
        board = Board.from_json("\n".join(rows))
        check_size(board.width, board.height)
        return board
    header = _TEXT_HEADER.fullmatch(rows[0])
    if header is not None:
        check_size(int(header[1]), int(header[2]))
        return Board.from_text("\n".join(rows) + "\n")
    check_size(max(len(row) for row in rows), len(rows))
    if mines is None:
        raise OptionError("text without a 'WxHxM' header needs the mine total (the mines field)")
    if all(set(row) <= _MINESWEEPR for row in rows):
        return Board.from_minesweepr("\n".join(rows), mines)
    return Board.from_grid(rows, mines)


def dead_cells(
    board: Board, analysis: Analysis, *, deadline: float | None = None
) -> tuple[list[int], int, int]:
    """The hidden cells in doubt that can show one number only (revealing one tells nothing).

    A cell's number, when it is safe, is its certain mines plus the mines among
    its neighbours in doubt; the cell is dead when only one such number fits a
    layout (exact, by :attr:`Analysis.layout_counter`, the way
    :meth:`Analysis.number_distribution` counts; it stops at the second number
    that fits). Returns the dead cells (flat indices, ascending), how many cells in
    doubt were looked at (all of them unless ``deadline``, a :func:`time.monotonic`
    instant, passed: the cells next to a revealed number first) and how many there are.

    >>> from analyzer import solve
    >>> board = Board.from_text("4x1x1\\nH1HH\\n")  # (0, 3) is safe: nothing around (0, 0) or (0, 2) in doubt
    >>> dead_cells(board, solve(board))
    ([0, 2], 2, 2)
    >>> board = Board.from_text("2x3x1\\nHH\\n11\\n00\\n")  # a 50/50: each would show 1
    >>> dead_cells(board, solve(board))
    ([0, 1], 2, 2)
    """
    probabilities = analysis.cell_probabilities
    cells = board.cells
    table = board.neighbour_table
    trust = analysis.trust_flags

    def is_mine(j: int) -> bool:
        return probabilities[j] == 1 or (cells[j] == FLAG and bool(trust))

    def in_doubt(j: int) -> bool:
        p = probabilities[j]
        return cells[j] < 0 and not is_mine(j) and p is not None and 0 < p < 1

    doubt = [i for i, v in enumerate(cells) if v == HIDDEN and in_doubt(i)]
    # The cells next to a number first: where dead cells are found, before the deadline.
    doubt.sort(key=lambda i: not any(cells[j] >= 0 for j in table[i]))
    dead: list[int] = []
    looked = 0
    counter = analysis.layout_counter
    for i in doubt:
        if deadline is not None and time.monotonic() > deadline:
            break
        looked += 1
        around = table[i]
        certain = sum(1 for j in around if is_mine(j))
        open_ = [j for j in around if in_doubt(j)]
        if not open_:
            dead.append(i)
            continue
        if counter is None:
            continue
        cell = divmod(i, board.width)
        fits = 0
        for k in range(certain, certain + len(open_) + 1):
            try:
                shown = board.replace({cell: k})
            except BoardParseError:  # the mines no longer fit in the hidden cells
                break
            if counter(shown):
                fits += 1
                if fits > 1:
                    break
        if fits == 1:
            dead.append(i)
    return sorted(dead), looked, len(doubt)


def _replay_from_bytes(raw: bytes, suffix: str, name: str) -> Replay:
    """A replay read from a file's bytes: written to a private temporary folder, read, and removed."""
    import dataclasses

    from analyzer.errors import ReplayError
    from analyzer.replays.read import read_replay

    with tempfile.TemporaryDirectory(prefix="analyzer-upload-") as folder:  # mode 0o700: this user's only
        path = os.path.join(folder, f"upload.{suffix}")
        with open(path, "wb") as handle:
            handle.write(raw)
        try:
            replay = read_replay(path)
        except ReplayError as error:
            raise ReplayError(str(error).replace(path, name)) from None
    check_size(replay.width, replay.height)
    return dataclasses.replace(replay, path=name)


class _Superseded(Exception):
    """The best move being scored is for a position a later action replaced."""


def _scored_move(analysis: Analysis, progress: Callable[[int, int], None] | None = None) -> Move | None:
    """``analysis.best_moves(1)[0]`` (or ``None``), with ``progress(done, of)`` after each cell scored.

    The same move: the certainly safe cell with the smallest explanation (the first
    in row-major order among ties), else the best guess. Certain cells are explained
    one at a time here, so that a later action can stop the scoring between two
    (a 1000x1000 board has hundreds of them; ``best_moves`` reports progress on guesses only).
    """
    from analyzer.solver.moves import Move

    safe = analysis.safe
    if safe:
        sized = []
        for done, cell in enumerate(safe, 1):
            sized.append((analysis.explain(*cell).size, cell))
            if progress is not None:
                progress(done, len(safe))
        size, cell = min(sized)
        return Move(cell, Fraction(0), size)
    moves = analysis.best_moves(1, on_progress=progress)
    return moves[0] if moves else None


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


def _is_picture_source(source: object) -> bool:
    """A picture to read: a path to one (by its suffix), its bytes (by their magic number), a Pillow image."""
    if isinstance(source, (bytes, bytearray)):
        return picture_format(bytes(source)) is not None
    if is_picture_path(source):
        return True
    return type(source).__module__.startswith("PIL.")


def _looks_like_replay(text: str) -> bool:
    return "\n" not in text and text.lower().rsplit(".", 1)[-1] in ("avf", "rmv", "evf", "mvf")


def _size(action: dict[str, Any]) -> tuple[int, int, int, Topology | None]:
    """The size of a new board or game and its topology (``None``: the one shown).

    ``size`` is a preset or ``WxHxM``, either followed by a topology's name as in a
    ``.mine`` header (``9x9x10 hex``, ``expert torus``), or ``width``, ``height``
    and ``mines``; a ``topology`` field names one too (``""`` or ``"graph"``: the one shown).
    """
    size = action.get("size")
    topology: Topology | None = None
    if size not in (None, ""):
        text = str(size).strip().lower()
        words = text.split()
        if len(words) == 2 and not words[1][0].isdigit():
            text, topology = words[0], _topology(words[1])
        if text in PRESETS:
            width, height, mines = PRESETS[text]
        else:
            parts = text.replace("×", "x").replace("/", "x").split("x")
            if len(parts) != 3 or not all(part.strip().isdigit() for part in parts):
                raise OptionError(
                    f"size {_short(size)}: expected {', '.join(PRESETS)} or WxHxM, e.g. 30x16x99,"
                    " then a topology if need be (30x16x99 hex)"
                )
            width, height, mines = (int(part) for part in parts)
    else:
        width = _integer(action.get("width"), "width")
        height = _integer(action.get("height"), "height")
        mines = _integer(action.get("mines"), "mines")
    if topology is None and action.get("topology") not in (None, "", "graph"):
        topology = _topology(action.get("topology"))
    check_size(width, height)
    if mines > width * height:
        raise OptionError(f"more mines ({mines}) than cells ({width * height})")
    return width, height, mines, topology


def _topology_text(topology: Topology) -> str:
    return "a graph" if isinstance(topology, Graph) else f"a {topology} board"


def _topology(name: object) -> Topology:
    """A topology named by the front end (a graph is given as a file, never named)."""
    try:
        return topology_name(name)
    except BoardParseError as error:
        raise OptionError(str(error)) from None


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _count_text(n: int) -> str:
    """A count short: exact up to 7 digits, else three figures in scientific notation.

    From the leading 60 bits, in microseconds: a board's layout count has up to
    hundreds of thousands of digits, and its exact text is asked for on demand.

    >>> _count_text(1234567), _count_text(10**12 + 1), _count_text(3 * 10**190921 + 10**190000)
    ('1234567', '1.00e12', '3.00e190921')
    """
    if n < 10**7:
        return str(n)
    shift = max(n.bit_length() - 60, 0)
    exponent10 = math.log10(n >> shift) + shift * math.log10(2)
    exponent = math.floor(exponent10)
    mantissa = 10 ** (exponent10 - exponent)
    if round(mantissa, 2) >= 10:
        mantissa, exponent = mantissa / 10, exponent + 1
    return f"{mantissa:.2f}e{exponent}"


def _digits(n: int) -> int:
    """About the number of decimal digits of a positive ``n`` (exact but at a power of ten's edge)."""
    shift = max(n.bit_length() - 60, 0)
    return math.floor(math.log10(max(n >> shift, 1)) + shift * math.log10(2)) + 1


def share_text(p: Fraction) -> str:
    """A share (a probability, the luck of a game) short: percent with three figures, or scientific.

    >>> share_text(Fraction(20, 73)), share_text(Fraction(1, 3 * 10**9)), share_text(Fraction(1, 10**400))
    ('27.4%', '3.33e-10', '1.00e-400')
    >>> share_text(Fraction(0)), share_text(Fraction(1))
    ('0%', '100%')
    """
    if p == 0:
        return "0%"
    value = float(p)
    if value >= 1e-4:
        return f"{100 * value:.3g}%"
    if value >= 1e-300:
        return f"{value:.2e}"
    # Past what a float holds: the leading figures by integer division, exact.
    shift = digit_count(p.denominator) - digit_count(p.numerator) + 3
    lead = p.numerator * 10**shift // p.denominator
    return f"{lead / 10 ** (digit_count(lead) - 1):.2f}e-{shift - digit_count(lead) + 1}"


def encode(values: np.ndarray) -> str:
    """A numpy array's bytes, zlib-compressed (fast level 1), as base64 text: the protocol's typed arrays.

    A board's probabilities repeat (every background cell has the same), so a
    1000x1000 board's 4 MB of floats compress to a few kilobytes.
    """
    import base64
    import zlib

    return base64.b64encode(zlib.compress(values.tobytes(), 1)).decode("ascii")


def decode(text: str, dtype: str) -> np.ndarray:
    """The array :func:`encode` wrote, given its dtype (``"u1"``, ``"<f4"``, ``"<i4"``)."""
    import base64
    import zlib

    import numpy as np

    return np.frombuffer(zlib.decompress(base64.b64decode(text)), dtype=dtype)


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
    return fraction_text(p)  # exact at any size (str() of an int stops at 4,300 digits)


def _line_view(width: int, line: dict[str, Any]) -> dict[str, Any]:
    """:func:`~analyzer.play.players.endgame.endgame_line`'s tree, cells as ``[r, c]``, chances as text."""
    return {
        "cell": list(divmod(line["cell"], width)),
        "p": _fraction(Fraction(line["wins"], line["layouts"])),
        "replies": [
            {
                "shown": [[*divmod(i, width), n] for i, n in reply["shown"]],
                "chance": _fraction(Fraction(reply["layouts"], line["layouts"])),
                "line": None if reply["line"] is None else _line_view(width, reply["line"]),
            }
            for reply in line["replies"]
        ],
    }


def _line_text(line: dict[str, Any], depth: int = 0) -> str:
    """The winning line as indented text: a move, then what it can show and the reply to each."""
    pad = "  " * depth
    row, col = line["cell"]
    p = Fraction(line["p"])
    lost = 1 - sum((Fraction(reply["chance"]) for reply in line["replies"]), Fraction(0))
    mine = f" (a mine {exact_or_rounded(lost)} of the time)" if line["replies"] and lost else ""
    text = f"{pad}reveal ({row}, {col}){mine}: wins {'for sure' if p == 1 else exact_or_rounded(p)}\n"
    for reply in line["replies"]:
        opened = reply["shown"]
        first = opened[0]
        shows = f"({first[0]}, {first[1]}) shows {first[2]}"
        if len(opened) > 1:
            shows += f" and opens {plural(len(opened) - 1, 'more cell')}"
        chance = Fraction(reply["chance"])
        text += f"{pad}  if {shows} ({'always' if chance == 1 else exact_or_rounded(chance)}): "
        if reply["line"] is None:
            text += "every cell is known: won\n"
        else:
            text += "\n" + _line_text(reply["line"], depth + 2)
    return text
