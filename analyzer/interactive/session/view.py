"""The answer a front end draws: the frame and the per-cell arrays, whole or the cells that changed.

:meth:`Session.arrays` makes the state codes and the
probabilities once per version, :meth:`Session.cells` sends them (all, or what changed since the
version the client holds), and :meth:`Session.best_view` follows an answer (``respond``, see
:mod:`analyzer.interactive.session`) with the best move once scored.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from analyzer.board.board import FLAG, HIDDEN, Board, Cell
from analyzer.errors import BoardParseError
from analyzer.interactive.session.frame import Frame
from analyzer.interactive.session.protocol import CODES, encode
from analyzer.interactive.session.searches import Superseded, scored_move

if TYPE_CHECKING:
    import numpy as np

    from analyzer.replays.read import Replay

__all__: list[str] = []  # the layer View, documented as Session's

_REMEMBERED_VERSIONS = 4
"""The arrays of this many versions are kept, to send a client what changed since the one it holds."""


class View(Frame):
    """The per-cell arrays and the protocol's answers (see the module)."""

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """The per-cell state codes (``uint8``) and mine probabilities (``float32``, NaN for none), row-major.

        Made once per version (see the module text for the codes).

        >>> from analyzer.interactive.session import Session
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

        >>> from analyzer.interactive.session import Session, decode
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
                raise Superseded

        try:
            move = first or scored_move(analysis, still_wanted)
        except Superseded:
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


def _around(replay: Replay, index: int) -> int:
    row, col = divmod(index, replay.width)
    return sum(
        (r, c) in replay.layout
        for r in range(row - 1, row + 2)
        for c in range(col - 1, col + 2)
        if (r, c) != (row, col)
    )
