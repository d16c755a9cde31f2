"""Reading what a command is given: a board's text, a picture of a game, an MBF layout or layout text."""

from __future__ import annotations

import argparse
import io
import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from analyzer.board.board import Board
from analyzer.cli.common import _check_inside, _CliError, _progress, _UsageError

if TYPE_CHECKING:
    from analyzer.play.game import Game


MAX_INPUT_BYTES = 256 * 1024 * 1024
"""The most a board file may hold when its size cannot be known from a header (minesweepr format)."""
_HEADER_BYTES = 256


_REPLAY_SUFFIXES = ("avf", "rmv", "evf", "mvf")
"""The file name endings of recorded games (:mod:`analyzer.replays`), named here without importing it."""


def _unreadable(path: str, error: OSError) -> _CliError:
    """The error of a file that cannot be opened or read: ``cannot read 'PATH': REASON``."""
    return _CliError(f"cannot read {path!r}: {error.strerror or error}")


def _read(path: str, *, header: bool = True) -> str:
    """The text of ``path`` (``-``: standard input), read no further than the board can need.

    With ``header``, the first line must be a ``WxHxM`` header within 256 bytes,
    and the rest may hold at most ``H`` rows of ``W`` cells with their line ends
    (and some trailing blank space): anything longer is refused, not read.
    """
    _refuse_replay(path)
    try:
        if path == "-":
            stdin = getattr(sys.stdin, "buffer", None)
            if stdin is None:  # replaced by a text stream (tests, embedding)
                stdin = io.BytesIO(sys.stdin.read(MAX_INPUT_BYTES + 1).encode("utf-8"))
            return _capped(stdin, "standard input", header)
        with open(path, "rb") as handle:
            return _capped(handle, repr(path), header)
    except OSError as error:
        raise _unreadable(path, error) from None


def _refuse_replay(path: str) -> None:
    """A recorded game given where a board is read: say so, and name the command that reads it."""
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix in _REPLAY_SUFFIXES:
        raise _CliError(
            f"{path!r} is a recorded game ({suffix.upper()} replay), not a board:"
            f" analyse it with 'analyzer replay {path}'"
        )


def _capped(handle: BinaryIO, name: str, header: bool) -> str:
    limit = MAX_INPUT_BYTES
    first = b""
    if header:
        first = handle.readline(_HEADER_BYTES)
        if first and not first.endswith(b"\n") and len(first) >= _HEADER_BYTES:
            raise _CliError(
                f"cannot read {name}: no 'WIDTHxHEIGHTxMINES' header line in its first {_HEADER_BYTES} bytes"
            )
        match = re.fullmatch(  # a byte-order mark may come first; a topology's name may follow
            rb"(?:\xef\xbb\xbf)?\s*([0-9]{1,9})\s*[xX]\s*([0-9]{1,9})\s*[xX]\s*([0-9]{1,9})(?:\s+[A-Za-z]+)?\s*",
            first,
        )
        if match is None and first.removeprefix(b"\xef\xbb\xbf").lstrip().startswith(b"{"):
            pass  # a JSON graph board: read up to MAX_INPUT_BYTES
        elif match is None:
            # Not a header: the parser names what is wrong with it; the rest is not read.
            limit = 0
        else:
            width, height = int(match.group(1)), int(match.group(2))
            limit = height * (width + 2) + 4096
    data = handle.read(limit + 1)
    if len(data) > limit and limit > 0:
        what = "the header's board" if header and limit != MAX_INPUT_BYTES else "a board"
        raise _CliError(f"cannot read {name}: more than {limit} bytes, more than {what} can need")
    try:
        return (first + data).decode("utf-8")
    except UnicodeDecodeError:
        raise _CliError(f"cannot read {name}: not a text file") from None


def _layout_position(path: str, cells: list[tuple[int, int]]) -> Board:
    """The board a player sees on an MBF layout after revealing ``cells`` (flood fill included)."""
    if path == "-":
        raise _UsageError("--format mbf reads a file, not standard input")
    game = _load_layout(path, "mbf")
    for row, col in cells:
        _check_inside((row, col), game.width, game.height, f"--reveal {row},{col}")
        if game.is_mine(row, col):
            raise _CliError(f"--reveal {row},{col} is a mine in this layout: the game would be lost")
        game.reveal(row, col)
    return game.board


def _picture_board(args: argparse.Namespace) -> Board | None:
    """The board of a picture given as FILE (known by its first bytes), its reading printed first.

    ``None`` when FILE is no picture (then ``--skin`` is refused: it names a picture's client).
    The reading (:meth:`~analyzer.pictures.PictureReading.describe`: the board read, unsure
    cells ``?``, where the mine total came from) goes to standard output before the analysis,
    for a person to check it; with ``--json``, to standard error, so that the output stays JSON.
    """
    path: str = args.file
    piped = _stdin_picture() if path == "-" else None  # xclip -o -t image/png | analyzer solve -
    source: str | bytes = path if piped is None else piped
    if piped is None and (path == "-" or not _is_picture_file(path)):
        if args.skin is not None:
            what = "standard input" if path == "-" else repr(path)
            raise _UsageError(f"--skin applies to pictures only: {what} is none")
        return None
    from analyzer.pictures import read_picture

    _check_skin(args.skin)
    if getattr(args, "format", None) is not None:  # solve's
        what = "standard input" if path == "-" else repr(path)
        raise _UsageError(f"--format {args.format} reads a board file, and {what} is a picture")
    with _progress("reading the picture"):
        reading = read_picture(source, mines=args.mines, skin=args.skin)
    out = sys.stderr if args.json else sys.stdout
    print(reading.describe(), file=out)
    print(file=out, flush=True)
    return reading.board


def _check_skin(skin: str | None) -> None:
    """``--skin NAME``: the name of a client whose pictures are known (a usage error otherwise)."""
    from analyzer.pictures import skin_names

    if skin is not None and skin not in skin_names():
        raise _UsageError(f"--skin {skin!r}: known skins are {', '.join(skin_names())}")


def _stdin_picture() -> bytes | None:
    """Standard input's bytes when they are a picture (its first bytes looked at, not consumed).

    ``None`` when they are not (a board's text follows, read as before) or cannot be looked at
    without reading them (a text stream put in place of standard input). At most the reader's
    bound (:data:`analyzer.pictures.load.MAX_BYTES`) is read: more is refused unread.
    """
    from analyzer.pictures.load import MAX_BYTES, image_format

    stdin = getattr(sys.stdin, "buffer", None)
    peek = getattr(stdin, "peek", None)
    if stdin is None or peek is None:
        return None
    try:
        head = bytes(peek(16)[:16])
    except (OSError, ValueError):
        return None
    if image_format(head) is None:
        return None  # as analyzer.pictures.is_image_file knows a picture's file
    data = stdin.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise _CliError(f"cannot read standard input: a picture of more than {MAX_BYTES // 2**20} MiB")
    return bytes(data)


def _load_layout(path: str, kind: str, topology: str = "square") -> Game:
    """A game on the layout of an MBF file (``kind`` ``mbf``) or of layout text (``text``) on ``topology``."""
    from analyzer.play.game import Game

    try:
        with open(path, "rb") as handle:
            data = handle.read(1 << 20)
    except OSError as error:
        raise _unreadable(path, error) from None
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix in _REPLAY_SUFFIXES:
        raise _CliError(
            f"{path!r} is a recorded game ({suffix.upper()}), not a layout: `analyzer replay {path}` analyses"
            f" it, `analyzer web {path}` steps through it (--layout takes an .mbf file or layout text)"
        )
    if kind == "auto":
        kind = "mbf" if suffix == "mbf" else "text"
    if kind == "mbf":
        if topology != "square":
            raise _CliError(f"an MBF layout is a square board; --topology {topology} reads layout text")
        return Game.from_mbf(data)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise _CliError(
            f"cannot read {path!r} as layout text ('*' a mine, '.' a safe cell):"
            " if it is an MBF layout, give --format mbf"
        ) from None
    return Game.from_layout_text(text, topology=topology)


def _is_picture_file(path: str) -> bool:
    """Whether the file at ``path`` is a picture, by its first bytes (``analyzer.pictures.is_image_file``)."""
    from analyzer.pictures import is_image_file

    return os.path.isfile(path) and is_image_file(path)
