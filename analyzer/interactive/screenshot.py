"""A picture opened in the interactive board: a screenshot read as its position (no UI).

The board's front ends (the page, the widget) send a picture's bytes; the
:class:`~analyzer.interactive.session.Session` reads it with the one reader,
:func:`analyzer.pictures.read_picture`, and keeps what it read: the unsure cells
(marked on the board until the person sets them), the skin, the notes, where the
mine total came from, and a small copy of the board's part of the picture (the
``thumbnail`` query), so that a person can check what was read. This module holds
the pieces that know about pictures: which bytes are one (by their magic number),
the size bound checked before anything is decoded, the thumbnail and the view's
``picture`` field.
"""

from __future__ import annotations

import base64
import io
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from analyzer.errors import PictureError

if TYPE_CHECKING:
    from analyzer.pictures import PictureReading

__all__ = [
    "MAX_PICTURE_BYTES",
    "PICTURE_SUFFIXES",
    "THUMBNAIL_SIDE",
    "Opened",
    "picture_format",
    "is_picture_path",
    "read_opened",
]

MAX_PICTURE_BYTES = 20 * 1024 * 1024
"""The largest picture the board opens (20 MiB), checked before a byte of it is decoded."""

PICTURE_SUFFIXES = ("png", "jpg", "jpeg", "gif", "bmp", "webp")
"""The file names a path is taken as a picture by (the bytes' magic number decides for uploads)."""

THUMBNAIL_SIDE = 480
"""The longest side of the copy of the picture shown beside the board, in pixels."""


def picture_format(raw: bytes) -> str | None:
    """The picture format ``raw`` starts with (``png``, ``jpeg``, ``gif``, ``bmp``, ``webp``, ``tiff``).

    The reader's own test (:func:`analyzer.pictures.load.image_format`), so that the page, the
    widget and the command line take the same pictures.

    >>> picture_format(b"\\x89PNG\\r\\n\\x1a\\n...."), picture_format(b"RIFF\\0\\0\\0\\0WEBPVP8 ")
    ('png', 'webp')
    >>> picture_format(b"9x9x10\\nHHH") is None
    True
    """
    from analyzer.pictures.load import image_format

    return image_format(raw)


def is_picture_path(source: object) -> bool:
    """Whether ``source`` is a path (one line of text or a path object) to a picture, by its suffix."""
    if isinstance(source, os.PathLike):
        source = os.fspath(source)
    if not isinstance(source, str) or "\n" in source:
        return False
    return source.lower().rsplit(".", 1)[-1] in PICTURE_SUFFIXES


@dataclass(frozen=True)
class Opened:
    """A picture read for the board: the reading, the name it came under, and its thumbnail."""

    reading: PictureReading
    name: str
    number: int
    thumbnail: bytes | None
    """A PNG of the board's part of the picture, at most :data:`THUMBNAIL_SIDE` a side (or ``None``)."""
    size: tuple[int, int]
    """The thumbnail's width and height."""

    def view(self, unsure_left: int) -> dict[str, Any]:
        """The view's ``picture`` field: what was read, for a person to check (the session's module text)."""
        reading = self.reading
        left, top, width, height, rows, columns = reading.grid
        board = reading.board
        unsure = len(reading.unsure)
        summary = (
            f"read from {self.name}: a {columns}x{rows} board of {reading.skin},"
            f" {board.mines} mines (total from {_SOURCES.get(reading.total_source, reading.total_source)})"
        )
        if unsure:
            summary += f"; {unsure_left} of {unsure} unsure cells still to check (outlined)"
        else:
            summary += "; every cell read surely"
        return {
            "id": self.number,
            "name": self.name,
            "skin": reading.skin,
            "mines": board.mines,
            "total_source": reading.total_source,
            "finished": reading.finished,
            "notes": list(reading.notes),
            "unsure": unsure,
            "unsure_left": unsure_left,
            "grid": [left, top, width, height, rows, columns],
            "summary": summary,
            "text": reading.describe(),
            "thumbnail": self.thumbnail is not None,
        }

    def thumbnail_answer(self) -> dict[str, Any]:
        """The answer to the ``thumbnail`` query: the PNG in base64, its size and the picture's number."""
        if self.thumbnail is None:
            raise PictureError(f"no thumbnail of {self.name!r} could be made")
        width, height = self.size
        return {
            "type": "thumbnail",
            "id": self.number,
            "mime": "image/png",
            "data": base64.b64encode(self.thumbnail).decode("ascii"),
            "width": width,
            "height": height,
        }


_SOURCES = {
    "counter": "the mine counter and the flags",
    "shown mines": "the mines the finished game shows",
    "option": "the mines given",
    "preset": "the client's preset for this size: check it",
}


def read_opened(
    source: Any, *, name: str, number: int, mines: int | None = None, skin: str | None = None
) -> Opened:
    """Read ``source`` (a path, bytes, a Pillow image, a numpy array) as a board, with its thumbnail.

    Bytes and files are refused past :data:`MAX_PICTURE_BYTES` before they are decoded;
    every failure is a :class:`~analyzer.errors.PictureError` of one line.
    """
    from analyzer.pictures import read_picture

    if isinstance(source, os.PathLike):
        source = os.fspath(source)
    if isinstance(source, str):
        try:
            length = os.path.getsize(source)
        except OSError as error:
            raise PictureError(f"cannot read {source!r}: {error.strerror or error}") from None
        _check_size(length, name)
        try:
            with open(source, "rb") as handle:
                source = handle.read(MAX_PICTURE_BYTES + 1)
        except OSError as error:
            raise PictureError(f"cannot read {name!r}: {error.strerror or error}") from None
    if isinstance(source, (bytes, bytearray, memoryview)):
        source = bytes(source)
        _check_size(len(source), name)
        if not source:
            raise PictureError(f"{name!r} is empty")
        if picture_format(source) is None:
            raise PictureError(f"{name!r} is not a picture (PNG, JPEG, GIF, BMP or WebP)")
    try:
        reading = read_picture(source, mines=mines, skin=skin)
    except PictureError:
        raise
    except (OSError, MemoryError, ValueError, TypeError, IndexError) as error:  # Pillow's, past the reader
        raise PictureError(f"cannot read {name!r} as a picture: {_first_line(error)}") from None
    thumbnail, shape = _thumbnail(source, reading.grid)
    return Opened(reading, name, number, thumbnail, shape)


def _check_size(size: int, name: str) -> None:
    if size > MAX_PICTURE_BYTES:
        raise PictureError(
            f"{name!r} is {size / 2**20:.1f} MiB: a picture opened here is at most"
            f" {MAX_PICTURE_BYTES // 2**20} MiB"
        )


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__


def _thumbnail(source: Any, grid: tuple[float, ...]) -> tuple[bytes | None, tuple[int, int]]:
    """The board's part of the picture (its grid, a cell's margin), as PNG, :data:`THUMBNAIL_SIDE` a side."""
    try:
        from PIL import Image

        image: Image.Image
        if isinstance(source, bytes):
            image = Image.open(io.BytesIO(source))
        elif isinstance(source, Image.Image):
            image = source
        else:
            import numpy as np

            image = Image.fromarray(np.asarray(source))
        image = image.convert("RGB")
        left, top, width, height, rows, columns = grid
        box = (
            max(0, int(left - width)),
            max(0, int(top - height)),
            min(image.width, int(left + (columns + 1) * width + 1)),
            min(image.height, int(top + (rows + 1) * height + 1)),
        )
        if box[2] > box[0] and box[3] > box[1]:
            image = image.crop(box)
        image.thumbnail((THUMBNAIL_SIDE, THUMBNAIL_SIDE))
        out = io.BytesIO()
        image.save(out, format="PNG", optimize=False)
        return out.getvalue(), (image.width, image.height)
    except Exception:  # the reading stands; only its picture beside the board is missing
        return None, (0, 0)
