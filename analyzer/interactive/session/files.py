"""What a session opens and saves: boards, games, replays and pictures; the files the page downloads.

:meth:`Session.load` opens what the library is given (a board, a game, a replay, a path, a
picture); the ``open``, ``picture`` and ``paste`` actions open what the page sends (a file's
bytes, never a path); ``save`` makes the file the page downloads (:attr:`Session.download`).
"""

from __future__ import annotations

import base64
import binascii
import os
import re
import tempfile
from typing import TYPE_CHECKING, Any

from analyzer.board.board import Board
from analyzer.board.topology import Graph, Topology
from analyzer.errors import BoardParseError, GameError, OptionError
from analyzer.interactive.screenshot import MAX_PICTURE_BYTES, is_picture_path, picture_format, read_opened
from analyzer.interactive.session.fields import read_cell, read_mines
from analyzer.interactive.session.protocol import MAX_UPLOAD_BYTES, PALETTE, REPLAY_FORMATS, check_size
from analyzer.interactive.session.view import View
from analyzer.limits import plural
from analyzer.names import PRESETS

if TYPE_CHECKING:
    from analyzer.pictures import PictureReading
    from analyzer.replays.read import Replay

__all__ = ["board_from_text"]

_STATIC_SVG_CELLS = 40_000  # the .svg of a hexagonal, cube or graph board (analyzer.render's picture)


class Files(View):
    """Opening and saving (see the module)."""

    # ------------------------------------------------------------ what the library is given
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

    def _open_replay(self, source: Any) -> None:
        """Show a replay (a :class:`~analyzer.replays.read.Replay`, analysed here, or its analysis)."""
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

    @property
    def download(self) -> dict[str, Any] | None:
        """The file the last ``save`` made: ``{"name", "mime", "data"}`` (base64), until the next action."""
        return self._download

    # ------------------------------------------------------------ the page's files
    def _open_upload(self, name: object, data: object, mines: int | None = None) -> None:
        """The ``open`` action: a file the person chose or dropped on the page, its bytes in base64."""
        from analyzer.play.game import Game

        if not isinstance(name, str) or not name.strip():
            raise OptionError(f"open needs the file's name, got {name!r}")
        if not isinstance(data, str):
            raise OptionError(f"open needs the file's bytes in base64, got {type(data).__name__}")
        raw = _decoded(data, name, MAX_UPLOAD_BYTES, "a file")
        if not raw:
            raise OptionError(f"{name!r} is empty")
        shown = _base_name(name)
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

    # ------------------------------------------------------------ saving
    def _save(self, kind: str) -> None:
        """The ``save`` action: the file :attr:`download` holds until the next action."""
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
        """Width, height and mines of what is shown, even of an edit that is not a board."""
        try:
            board = self.board
        except BoardParseError:
            return self._width, self._height, self._mines
        return board.width, board.height, board.mines

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

    def _open_picture_action(self, action: dict[str, Any]) -> None:
        """The ``picture`` action: ``{name?, data, mines?, skin?}``, ``data`` the bytes (or base64 text)."""
        name = action.get("name")
        if not isinstance(name, str) or not name.strip():
            name = "picture"
        name = _base_name(name)
        data = action.get("data")
        if isinstance(data, str):
            data = _decoded(data, name, MAX_PICTURE_BYTES, "a picture")
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise OptionError(f"picture needs the file's bytes, got {type(data).__name__}")
        skin = action.get("skin")
        self.open_picture(
            bytes(data),
            name=name,
            mines=read_mines(action),
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
                    touched.add(self._index(read_cell({"cell": cell})))
                except (OptionError, ValueError, TypeError):
                    continue
        self._unsure = self._unsure - touched

    def _thumbnail_answer(self) -> dict[str, Any]:
        """The ``thumbnail`` query: the board's part of the picture read."""
        if self._opened is None:
            raise OptionError("no picture is open: the position was not read from one")
        return self._opened.thumbnail_answer()


def _base_name(name: str) -> str:
    """The file's name without the folders the browser may send (either slash)."""
    return os.path.basename(name.replace("\\", "/"))


def _decoded(data: str, name: str, cap: int, what: str) -> bytes:
    """A file's bytes sent as base64 text, refused past ``cap`` bytes before any is decoded."""
    if len(data) > (cap + 2) // 3 * 4:
        raise OptionError(f"{name!r} is larger than {what} opened here ({cap // 2**20} MiB)")
    try:
        return base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        raise OptionError(f"the bytes of {name!r} are not base64") from None


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


def _topology_text(topology: Topology) -> str:
    return "a graph" if isinstance(topology, Graph) else f"a {topology} board"
