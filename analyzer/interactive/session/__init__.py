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

Where things are
----------------
:class:`Session` is built in layers, one module each, each using the ones before it:

- :mod:`~analyzer.interactive.session.position`: the position shown (the cells, the game or
  the replay's step), its version, the edits of edit mode, and the history undo and redo walk;
- :mod:`~analyzer.interactive.session.searches`: the exact solve and each search on the
  position (the best move, the marks, the chance to win, the candidates, auto-play), each within
  its budget (the constants below);
- :mod:`~analyzer.interactive.session.frame` and :mod:`~analyzer.interactive.session.view`:
  the view protocol (the small fields; the per-cell arrays, whole or what changed);
- :mod:`~analyzer.interactive.session.files`: what is opened, pasted and saved, pictures too;
- :mod:`~analyzer.interactive.session.actions`: :data:`~analyzer.interactive.session.actions.ACTIONS`,
  the one table from an action's ``type`` to its handler.

:mod:`~analyzer.interactive.session.protocol` holds the protocol's constants and
:mod:`~analyzer.interactive.session.fields` reads an action's fields.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TypedDict

from analyzer.interactive.session.actions import Actions

# The names of the session's protocol and tools, defined in the modules above (the front ends and
# the tests import them from here).
from analyzer.interactive.session.files import board_from_text as board_from_text
from analyzer.interactive.session.frame import share_text as share_text
from analyzer.interactive.session.position import Budgets
from analyzer.interactive.session.protocol import CODES as CODES
from analyzer.interactive.session.protocol import KINDS as KINDS
from analyzer.interactive.session.protocol import MAX_CELLS as MAX_CELLS
from analyzer.interactive.session.protocol import MAX_LENGTH as MAX_LENGTH
from analyzer.interactive.session.protocol import MAX_SIDE as MAX_SIDE
from analyzer.interactive.session.protocol import MAX_UPLOAD_BYTES as MAX_UPLOAD_BYTES
from analyzer.interactive.session.protocol import MODES as MODES
from analyzer.interactive.session.protocol import PALETTE as PALETTE
from analyzer.interactive.session.protocol import PROTOCOL as PROTOCOL
from analyzer.interactive.session.protocol import REPLAY_FORMATS as REPLAY_FORMATS
from analyzer.interactive.session.protocol import check_size as check_size
from analyzer.interactive.session.protocol import decode as decode
from analyzer.interactive.session.protocol import encode as encode
from analyzer.interactive.session.searches import dead_cells as dead_cells

__all__ = [
    "Session",
    "Options",
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

# ------------------------------------------------------------ the budgets
# Each search's budget, read at each use (Session._budgets): setting one here (a test does) is
# seen by the next search.

DEFAULT_TIME_LIMIT = 10.0
"""Seconds the exact solve of one position may take before CP-SAT's certain cells are shown instead."""

CERTAIN_SECONDS = 5.0
"""Seconds CP-SAT may take for the certain cells once the exact count has run out of time (at least)."""

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


class Options(TypedDict, total=False):
    """The keyword options of :class:`Session`, which the widget passes on (each described there)."""

    time_limit: float
    seed: int
    trust_flags: bool
    adjust_numbers: bool


class Session(Actions):
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
        super().__init__(
            time_limit=time_limit, seed=seed, trust_flags=trust_flags, adjust_numbers=adjust_numbers
        )
        self.load(source)

    def _budgets(self) -> Budgets:
        """The budgets above, as they are now."""
        return Budgets(
            history_steps=HISTORY_STEPS,
            history_cells=HISTORY_CELLS,
            certain_seconds=CERTAIN_SECONDS,
            flags_named=FLAGS_NAMED,
            mark_seconds=MARK_SECONDS,
            mark_cells=MARK_CELLS,
            win_layouts=WIN_LAYOUTS,
            win_nodes=WIN_NODES,
            win_hidden=WIN_HIDDEN,
            win_depth=WIN_DEPTH,
            candidate_cells=CANDIDATE_CELLS,
            candidate_rows=CANDIDATE_ROWS,
            candidate_margin=CANDIDATE_MARGIN,
            autoplay_seconds=AUTOPLAY_SECONDS,
        )
