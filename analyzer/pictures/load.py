"""A picture from a path, bytes, a Pillow image or a numpy array, as an RGB ``uint8`` array.

Pillow is imported here, on first use. Every check that bounds time and memory happens
before the pixels are decoded: the header's size against :data:`MAX_PIXELS`.
"""

from __future__ import annotations

import contextlib
import io
import os
from pathlib import Path
from typing import Any

import numpy as np

from analyzer.errors import PictureError

__all__ = ["load_picture", "is_image_file", "image_format", "MAX_PIXELS", "MAX_BYTES", "IMAGE_MAGIC"]

MAX_PIXELS = 40_000_000
"""The most pixels a picture may have (an 8K screen has 33 million); larger is refused unread."""
MAX_BYTES = 200 * 1024 * 1024
"""The largest image file read."""
MIN_SIDE = 16
"""A picture narrower or lower than this holds no board of 5x5 cells of 3 px."""

IMAGE_MAGIC = (
    (b"\x89PNG\r\n\x1a\n", "png"),
    (b"\xff\xd8\xff", "jpeg"),
    (b"GIF87a", "gif"),
    (b"GIF89a", "gif"),
    (b"BM", "bmp"),  # Windows bitmap
    (b"II*\x00", "tiff"),
    (b"MM\x00*", "tiff"),
)
"""The first bytes of each format read, and its name (WebP, ``RIFF....WEBP``, is :func:`image_format`'s)."""
_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".bmp", ".webp", ".tif", ".tiff")


def is_image_file(path: str | os.PathLike[str]) -> bool:
    """Whether a file is a picture: by its first bytes, else (unreadable) by its suffix.

    >>> is_image_file("board.mine")
    False
    """
    try:
        with open(path, "rb") as f:
            head = f.read(16)
    except OSError:
        return str(path).lower().endswith(_SUFFIXES)
    return image_format(head) is not None


def image_format(head: bytes) -> str | None:
    """The picture format ``head`` starts with (``png``, ``jpeg``, ``gif``, ``bmp``, ``webp``, ``tiff``).

    >>> image_format(b"\\x89PNG\\r\\n\\x1a\\n...."), image_format(b"RIFF\\0\\0\\0\\0WEBPVP8 ")
    ('png', 'webp')
    >>> image_format(b"RIFF\\0\\0\\0\\0WAVEfmt ") is None, image_format(b"9x9x10\\nHHH") is None
    (True, True)
    """
    head = bytes(head[:16])
    if head.startswith(b"RIFF"):
        return "webp" if head[8:12] == b"WEBP" else None
    return next((name for magic, name in IMAGE_MAGIC if head.startswith(magic)), None)


def load_picture(source: Any) -> tuple[np.ndarray, tuple[str, ...]]:
    """The picture as an ``H x W x 3`` ``uint8`` array, and notes on how it was read.

    Raises :class:`~analyzer.errors.PictureError` with one line for anything that is not a
    readable picture of a sensible size.
    """
    notes: list[str] = []
    if isinstance(source, np.ndarray):
        return _from_array(source), ()
    image = _open(source, notes)
    return _from_pillow(image, notes), tuple(notes)


def _from_array(array: np.ndarray) -> np.ndarray:
    if array.ndim == 2:
        array = np.repeat(array[:, :, None], 3, axis=2)
    if array.ndim != 3 or array.shape[2] not in (3, 4):
        raise PictureError(f"not an image: an array of shape {array.shape} (want H x W x 3 or 4)")
    if array.dtype != np.uint8:
        if array.dtype.kind == "f" and array.size and float(np.nanmax(array)) <= 1.0:
            array = array * 255.0
        if array.dtype.kind not in "uif":
            raise PictureError(f"not an image: an array of {array.dtype}")
        array = np.clip(np.nan_to_num(array), 0, 255).astype(np.uint8)
    _check_size(array.shape[1], array.shape[0])
    return np.ascontiguousarray(array[:, :, :3])


def _check_size(width: int, height: int) -> None:
    if width * height > MAX_PIXELS:
        raise PictureError(
            f"a {width}x{height} picture is too large to read ({width * height:,} pixels; at most"
            f" {MAX_PIXELS:,})"
        )
    if width < MIN_SIDE or height < MIN_SIDE:
        raise PictureError(f"no board found: the picture is only {width}x{height} pixels")


def _open(source: Any, notes: list[str]) -> Any:
    try:
        from PIL import Image
    except ImportError as error:  # pragma: no cover - the images extra is missing
        raise PictureError(
            "reading pictures needs Pillow: pip install 'minesweeper-analyzer[images]'"
        ) from error
    if isinstance(source, Image.Image):
        return source
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        name = "the bytes"
    elif isinstance(source, (str, os.PathLike)):
        path = Path(source)
        name = repr(str(source))
        try:
            size = path.stat().st_size
            if size > MAX_BYTES:
                raise PictureError(f"{name} is too large to read ({size:,} bytes)")
            data = path.read_bytes()
        except PictureError:
            raise
        except OSError as error:
            raise PictureError(f"cannot read {name}: {error.strerror or error}") from None
    else:
        raise PictureError(
            f"not an image: a {type(source).__name__} (give a path, bytes, a Pillow image or an array)"
        )
    if image_format(data) is None:
        raise PictureError(f"not an image: {name} is not a PNG, JPEG, GIF, BMP, WebP or TIFF picture")
    bound = Image.MAX_IMAGE_PIXELS
    Image.MAX_IMAGE_PIXELS = None  # opening reads the header only; the size is checked below, ours
    try:
        image = Image.open(io.BytesIO(data))
    except Exception as error:  # noqa: BLE001 - Pillow raises many kinds; each is one line
        raise PictureError(f"not an image: {name} cannot be decoded ({_first_line(error)})") from None
    finally:
        Image.MAX_IMAGE_PIXELS = bound
    _check_size(*image.size)
    frames = getattr(image, "n_frames", 1)
    if frames > 1:
        raise PictureError(
            f"an animated picture of {frames} frames: save the frame that shows the board as a still picture"
        )
    return image


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__


def _from_pillow(image: Any, notes: list[str]) -> np.ndarray:
    from PIL import Image

    _check_size(*image.size)
    with contextlib.suppress(EOFError, AttributeError):
        image.seek(0)
    try:
        old = Image.MAX_IMAGE_PIXELS
        Image.MAX_IMAGE_PIXELS = MAX_PIXELS
        try:
            image.load()
        finally:
            Image.MAX_IMAGE_PIXELS = old
        if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info):
            rgba = image.convert("RGBA")
            background = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
            rgb = Image.alpha_composite(background, rgba).convert("RGB")
        else:
            rgb = image.convert("RGB")
    except PictureError:
        raise
    except Exception as error:  # noqa: BLE001 - a truncated or corrupt file
        raise PictureError(
            f"not an image: the picture is truncated or corrupt ({_first_line(error)})"
        ) from None
    return np.asarray(rgb, dtype=np.uint8).copy()
