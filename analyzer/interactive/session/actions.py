"""The actions: one table (:data:`ACTIONS`) from an action's ``type`` to the handler that does it.

:meth:`Session.act` is the front ends' single entry point (its text lists every action and its
fields): it clears the last action's note, records the position for undo when the action is
one undo takes back, calls the handler, and turns a refusal into the view's ``note``. Each
handler reads its fields (:mod:`~analyzer.interactive.session.fields`) and calls the layer
below that does the work: the position (an edit), the searches (auto-play), the files.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from analyzer.board.board import FLAG, HIDDEN, Board, Cell
from analyzer.errors import AnalyzerError, GameError, OptionError
from analyzer.interactive.session.fields import (
    message,
    read_cell,
    read_integer,
    read_mines,
    read_size,
    short,
)
from analyzer.interactive.session.files import Files, board_from_text
from analyzer.interactive.session.protocol import MODES
from analyzer.limits import exact_text, flag, fraction_text, percent
from analyzer.render import exact_or_rounded

__all__ = ["ACTIONS", "UNDOABLE", "Handler"]


class Actions(Files):
    """The actions of the front ends, each a small handler named in :data:`ACTIONS`."""

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
            kind = action.get("type") if isinstance(action, dict) else None
            recorded = isinstance(kind, str) and kind in UNDOABLE  # a list as the type is refused below
            before = self._snapshot() if recorded else None
            signature = self._signature() if recorded else None
            answer = None
            try:
                answer = self._act(action)
                self._settle_unsure(action)
            except (AnalyzerError, ValueError, TypeError, KeyError, IndexError) as error:
                self.note = message(error)
            if before is not None and self._signature() != signature:
                self._remember(self._undo, before)
                self._redo.clear()
            return answer

    def respond(self, action: dict[str, Any] | None = None, *, since: int | None = None) -> dict[str, Any]:
        """Apply ``action`` (if any) and answer as the protocol says: ``{"view", "cells", "answer"}``.

        The view leaves the best move out when it is still to score (``best_pending``):
        :meth:`best_view` gives it.

        >>> from analyzer.interactive.session import Session
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

    def _act(self, action: dict[str, Any]) -> dict[str, Any] | None:
        if not isinstance(action, dict):
            raise OptionError(f"an action is a dict with a 'type', got {short(action)}")
        kind = action.get("type")
        handler = ACTIONS.get(kind) if isinstance(kind, str) else None
        if handler is None:
            raise OptionError(f"unknown action {short(kind)}")
        return handler(self, action)

    # ------------------------------------------------------------ the handlers, one a type
    def _on_cell(self, action: dict[str, Any]) -> None:
        button = action.get("button", "left")
        cell = read_cell(action)
        if button not in ("left", "right"):
            raise OptionError(f"button must be 'left' or 'right', got {button!r}")
        if self.mode == "edit":
            self._edit_click(cell, button)
        elif self.mode == "play":
            self._play(cell, button)
        else:
            self._step_to_click(cell)

    def _on_key(self, action: dict[str, Any]) -> None:
        self._edit_key(read_cell(action), str(action.get("key", "")))

    def _on_mines(self, action: dict[str, Any]) -> None:
        self._need("edit")
        self._mines = read_integer(action.get("mines"), "mines")
        self._changed()

    def _on_resize(self, action: dict[str, Any]) -> None:
        self._need("edit")
        width, height, mines, topology = read_size(action)
        topology = self._shown_topology() if topology is None else topology
        self.set_board(Board(width, height, mines, (HIDDEN,) * (width * height), topology))

    def _on_new_game(self, action: dict[str, Any]) -> None:
        seed = action.get("seed")
        width, height, mines, topology = read_size(action)
        self.new_game(
            width,
            height,
            mines,
            seed=None if seed in (None, "") else read_integer(seed, "seed"),
            first_click=str(action.get("first_click") or "safe"),
            topology=self._shown_topology() if topology is None else topology,
        )

    def _on_play_best(self, action: dict[str, Any]) -> None:
        self._need("play")
        move = self.best_move()
        if move is None:
            raise GameError("no move to play: the game is over or has no analysis")
        assert self._game is not None
        if self._game.board[move.cell] == FLAG:  # a flag of the player's, not trusted
            self._game.toggle_flag(*move.cell)
        self._play(move.cell, "left")

    def _on_mode(self, action: dict[str, Any]) -> None:
        """Edit takes the position shown; play starts a game of its size; replay shows the replay open."""
        mode = str(action.get("mode"))
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

    def _on_step(self, action: dict[str, Any]) -> None:
        self._need("replay")
        steps = self.steps
        self._step = min(max(read_integer(action.get("step"), "step", negative=True), 0), steps - 1)
        self._changed()

    def _on_why(self, action: dict[str, Any]) -> None:
        cell = read_cell(action)
        self._why = None  # a refused why? leaves no outline of an earlier one
        self._refresh()
        analysis = self._analysis
        if analysis is None:
            raise OptionError("there is no analysis to explain (see the message above the board)")
        explanation = analysis.explain(*cell, time_limit=self.time_limit)
        self._why = explanation.to_dict() | {"text": explanation.describe()}

    def _on_open(self, action: dict[str, Any]) -> None:
        mines = read_mines(action)
        self._open_upload(action.get("name"), action.get("data"), mines)

    def _on_picture(self, action: dict[str, Any]) -> None:
        self._open_picture_action(action)

    def _on_paste(self, action: dict[str, Any]) -> None:
        text = action.get("text")
        if not isinstance(text, str):
            raise OptionError(f"paste takes text, got {type(text).__name__}")
        self.set_board(board_from_text(text, read_mines(action)))
        self._name = "pasted"

    def _on_save(self, action: dict[str, Any]) -> None:
        self._save(str(action.get("format", "mine")))

    def _on_undo(self, action: dict[str, Any]) -> None:
        self._travel("undo")

    def _on_redo(self, action: dict[str, Any]) -> None:
        self._travel("redo")

    def _on_paint(self, action: dict[str, Any]) -> None:
        self._paint(action.get("cells"), action.get("value"), action.get("like"))

    def _on_wheel(self, action: dict[str, Any]) -> None:
        self._wheel(read_cell(action), read_integer(action.get("delta"), "delta", negative=True))

    def _on_autoplay(self, action: dict[str, Any]) -> None:
        self._autoplay(str(action.get("until", "guess")))

    def _on_trust_flags(self, action: dict[str, Any]) -> None:
        on = flag(action.get("on", True), "trust_flags")
        if on != self.trust_flags:
            self.trust_flags = on
            self._changed()

    def _on_guess(self, action: dict[str, Any]) -> None:
        self._next_guess(read_integer(action.get("direction", 1), "direction", negative=True))

    def _on_marks(self, action: dict[str, Any]) -> None:
        self.show_marks = bool(action.get("on", True))

    def _on_win(self, action: dict[str, Any]) -> None:
        self.show_win = bool(action.get("on", True))

    def _on_candidates(self, action: dict[str, Any]) -> None:
        self.show_candidates = flag(action.get("on", True), "candidates")

    def _on_adjust_numbers(self, action: dict[str, Any]) -> None:
        self.adjust_numbers = flag(action.get("on", True), "adjust_numbers")

    def _on_thumbnail(self, action: dict[str, Any]) -> dict[str, Any]:
        return self._thumbnail_answer()

    def _on_exact(self, action: dict[str, Any]) -> dict[str, Any]:
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
        cell = read_cell(action)
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
        answer["p"] = fraction_text(p)
        answer["text"] = f"P(mine) = {exact_or_rounded(p)} ≈ {percent(p)}"
        return answer

    # ------------------------------------------------------------ play and replay
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

    def _step_to_click(self, cell: Cell) -> None:
        """Replay mode's click: the step of the click on ``cell``, if the game had one."""
        assert self._replay is not None
        for number, click in enumerate(self._replay.clicks):
            if click.cell == cell:
                self._step = number
                self._changed()
                return
        raise OptionError(f"no click of this game was on {cell!r}")

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


Handler = Callable[[Actions, dict[str, Any]], dict[str, Any] | None]
"""What an action does: ``handler(session, action)``, its answer (a query's) or ``None``."""

ACTIONS: dict[str, Handler] = {
    # Edit, play and replay (Actions.act lists each one's fields).
    "cell": Actions._on_cell,
    "key": Actions._on_key,
    "mines": Actions._on_mines,
    "resize": Actions._on_resize,
    "new_game": Actions._on_new_game,
    "play_best": Actions._on_play_best,
    "mode": Actions._on_mode,
    "step": Actions._on_step,
    "why": Actions._on_why,
    # The analyst's workflow.
    "open": Actions._on_open,
    "picture": Actions._on_picture,
    "paste": Actions._on_paste,
    "save": Actions._on_save,
    "undo": Actions._on_undo,
    "redo": Actions._on_redo,
    "paint": Actions._on_paint,
    "wheel": Actions._on_wheel,
    "autoplay": Actions._on_autoplay,
    "marks": Actions._on_marks,
    "win": Actions._on_win,
    "trust_flags": Actions._on_trust_flags,
    "guess": Actions._on_guess,
    "candidates": Actions._on_candidates,
    "adjust_numbers": Actions._on_adjust_numbers,
    # Queries: they answer and change nothing.
    "exact": Actions._on_exact,
    "thumbnail": Actions._on_thumbnail,
}
"""Each action's ``type`` and the handler that does it: the one place to add an action."""

UNDOABLE = frozenset(
    {"cell", "key", "mines", "resize", "new_game", "play_best", "mode"}
    | {"open", "picture", "paste", "paint", "wheel", "autoplay"}
)
"""The actions undo takes back (stepping through a replay is not one: it changes no position)."""
