"""The interactive board in Jupyter: an anywidget (JupyterLab, Notebook 7, VS Code; nothing to install).

>>> from analyzer.interactive.jupyter import BoardWidget   # doctest: +SKIP
>>> w = BoardWidget("4x3x4\\nHHHH\\nFHHH\\n2H2H\\n")       # doctest: +SKIP
>>> w                                                     # doctest: +SKIP

The front end (``static/board.js``) sends each click as a small dict; the
widget applies it to its :class:`~analyzer.interactive.session.Session` in a
worker thread, so a long solve does not block the kernel: the board shows that
it is working and keeps the last answer until the new one arrives.

The view protocol is the session's (:mod:`analyzer.interactive.session`): the
small fields in the ``view`` traitlet, the per-cell arrays in the ``bytes``
traitlets ``codes`` (uint8) and ``probabilities`` (float32, little-endian),
synced as binary buffers and only when the position changed; the answer to a
query (``exact``, a picture's ``thumbnail``) comes back as a custom message ``{"answer": ...}``;
a screenshot pasted or dropped onto the board (``picture``) comes with its bytes as the
message's buffer; every
other action is acknowledged at once with ``{"ack": true}`` (a board whose kernel
was restarted gets no ack and says so). The best move follows the board as an
update of ``view``, unless more clicks are waiting.
"""

from __future__ import annotations

import queue
import threading
from typing import TYPE_CHECKING, Any, Unpack

import anywidget
import traitlets

from analyzer.interactive.frontend import static_text
from analyzer.interactive.session import Options, Session

if TYPE_CHECKING:
    from analyzer.board.board import Board
    from analyzer.play.game import Game
    from analyzer.replays.analyse import ReplayAnalysis
    from analyzer.solver.analysis import Analysis

__all__ = ["BoardWidget"]


class BoardWidget(anywidget.AnyWidget):
    """The interactive board: edit a position, play a game or step through a replay.

    Parameters
    ----------
    source : Board, Game, Replay, ReplayAnalysis, str or None
        As :class:`~analyzer.interactive.session.Session` takes it.
    time_limit : float
        Seconds the exact solve of a position may take.
    seed : int
        Seed of the first new game.
    trust_flags : bool
        Play mode: take the player's flags as mines (the toolbar's "trust my flags");
        by default they are marks, not facts (see :class:`~analyzer.interactive.session.Session`).
    adjust_numbers : bool
        Edit mode: the numbers around a flag placed or removed follow it (on by default).

    Attributes
    ----------
    board : Board
        The position shown; assign a :class:`Board` to edit it.
    analysis : Analysis or None
        Its exact analysis.
    game : Game or None
        The game in play mode; assign a :class:`Game` to play it.
    """

    _esm = static_text("board.js")
    _css = static_text("board.css")
    view = traitlets.Dict().tag(sync=True)
    codes = traitlets.Bytes(b"").tag(sync=True)
    probabilities = traitlets.Bytes(b"").tag(sync=True)
    busy = traitlets.Bool(False).tag(sync=True)
    # Each action is acknowledged at once ({"ack": True}): a view whose kernel is gone says so.
    acknowledges = traitlets.Bool(True).tag(sync=True)

    def __init__(self, source: object = None, **options: Unpack[Options]):
        super().__init__()
        self.session = Session(source, **options)
        self._actions: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self._worker: threading.Thread | None = None
        self._guard = threading.Lock()
        self._sent_version = -1
        self._published = threading.Lock()
        # The board at once; its best move scored in the worker, so the cell's output is not held up.
        self._publish(best=False)
        self._score_best()
        self.on_msg(self._receive)

    def __repr__(self) -> str:
        # The text a notebook stores beside the widget: what it shows, not where it is in memory.
        board = self.session.board
        return f"<BoardWidget: {self.session.mode}, {board.width}x{board.height} with {board.mines} mines>"

    # -------------------------------------------------------------- values
    @property
    def board(self) -> Board:
        return self.session.board

    @board.setter
    def board(self, board: Board) -> None:
        from analyzer.board.board import Board

        self.session.set_board(Board.coerce(board, "BoardWidget.board"))
        self._publish(best=False)
        self._score_best()

    @property
    def analysis(self) -> Analysis | None:
        return self.session.analysis

    @property
    def game(self) -> Game | None:
        return self.session.game if self.session.mode == "play" else None

    @game.setter
    def game(self, game: Game) -> None:
        self.session.load(game)
        self._publish(best=False)
        self._score_best()

    @property
    def replay(self) -> ReplayAnalysis | None:
        return self.session.replay

    def act(self, action: dict[str, Any]) -> dict[str, Any] | None:
        """Apply an action as a click would (see :meth:`Session.act`) and redraw; waits for the answer."""
        answer = self.session.act(action)
        self._publish()
        return answer

    def wait(self, timeout: float | None = None) -> None:
        """Block until the clicks sent from the page so far are answered."""
        with self._guard:
            worker = self._worker
        if worker is not None:
            worker.join(timeout)

    # -------------------------------------------------------------- plumbing
    def _publish(self, *, best: bool = True) -> None:
        """Send the view (and the arrays, when the position changed); then the best move if ``best``."""
        with self._published, self.session.lock:
            view = self.session.view(best=False)
            if view["version"] != self._sent_version:
                codes, probabilities = self.session.arrays()
                with self.hold_sync():
                    self.codes = codes.tobytes()
                    self.probabilities = probabilities.astype("<f4").tobytes()
                    self.view = view
                self._sent_version = view["version"]
            else:
                self.view = view
        if best and view.get("best_pending"):
            scored = self.session.best_view(view["version"])
            with self._published:
                if scored is not None and scored["version"] == self._sent_version:
                    self.view = scored

    def _score_best(self) -> None:
        """Score the best move in the worker (a ``None`` in the queue), unless it is known."""
        if self.view.get("best_pending"):
            self._receive(self, None, [])

    def _receive(self, _widget: object, content: object, buffers: object) -> None:
        if content is not None and not isinstance(content, dict):
            return
        kind = content.get("type") if content is not None else None
        if content is not None and kind not in ("exact", "thumbnail"):  # a query's answer is its own ack
            self.send({"ack": True})
        if content is not None and kind == "picture" and isinstance(buffers, (list, tuple)) and buffers:
            # a screenshot pasted or dropped: its bytes come as the message's first buffer
            content = dict(content, data=bytes(buffers[0]))
        with self._guard:
            self._actions.put(content)
            if self._worker is None:
                self._worker = threading.Thread(target=self._work, name="analyzer-widget", daemon=True)
                self.busy = True
                self._worker.start()

    def _work(self) -> None:
        while True:
            with self._guard:
                if self._actions.empty():
                    self._worker = None
                    self.busy = False
                    return
                action = self._actions.get_nowait()
            try:
                if action is not None:
                    answer = self.session.act(action)
                    if answer is not None:
                        self.send({"answer": answer})
                    self._publish(best=False)
                # The best move only when no other click waits: a newer position supersedes it.
                if self._actions.empty():
                    self._publish(best=True)
            except Exception as error:  # pragma: no cover - shown on the board, never lost in a thread
                self.view = dict(self.view, note=f"internal error: {type(error).__name__}: {error}")
