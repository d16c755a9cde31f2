"""Pictures the reader refuses, each with one line saying what it found, in bounded time and
memory: not an image, truncated, a decompression bomb, too small, animated, no board, two
boards, a skin it does not know, and a board whose clues have no layout."""

from __future__ import annotations

import io
import struct
import time
import tracemalloc
import zlib
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("PIL")
from PIL import Image  # noqa: E402

from analyzer.errors import PictureError  # noqa: E402
from analyzer.pictures import read_picture  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
XP = ROOT / "analyzer" / "pictures" / "skins" / "xp"
REAL = ROOT / "tests" / "pictures" / "real"


def _png_bytes(array: np.ndarray) -> bytes:
    out = io.BytesIO()
    Image.fromarray(array).save(out, format="PNG")
    return out.getvalue()


def _tile(kind: str) -> np.ndarray:
    return np.asarray(Image.open(XP / f"{kind}.png").convert("RGB"))


def _board_picture(rows: list[str], margin: int = 12) -> np.ndarray:
    """An xp board drawn from the skin's tiles: ``H`` hidden, ``F`` flag, digits shown."""
    names = {"H": "hidden", "F": "flag"}
    tiles = [[_tile(names.get(ch, ch)) for ch in row] for row in rows]
    board = np.concatenate([np.concatenate(row, axis=1) for row in tiles], axis=0)
    return np.pad(board, ((margin, margin), (margin, margin), (0, 0)), constant_values=192)


def _refused(source: object, match: str, **options: object) -> str:
    start = time.process_time()
    with pytest.raises(PictureError, match=match) as caught:
        read_picture(source, **options)  # type: ignore[arg-type]
    assert time.process_time() - start < 5
    message = str(caught.value)
    assert "\n" not in message
    return message


def test_not_an_image(tmp_path: Path) -> None:
    text = tmp_path / "board.png"
    text.write_text("30x16x99\nHHHH\n")
    _refused(text, "not an image: .* is not a PNG")
    _refused(b"GIF89a but not really", "not an image: the bytes cannot be decoded")
    _refused(3.5, "not an image: a float")
    _refused(tmp_path / "missing.png", "cannot read")


def test_a_truncated_png() -> None:
    data = (REAL / "xp" / "desktop_expert_early.png").read_bytes()
    _refused(data[: len(data) // 2], "truncated or corrupt")


def test_a_decompression_bomb_is_refused_unread() -> None:
    """A PNG whose header claims 30000x30000 pixels (900 million): refused from its header, in
    well under a second and a few megabytes."""
    header = struct.pack(">IIBBBBB", 30000, 30000, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + header
    ihdr = struct.pack(">I", len(header)) + chunk + struct.pack(">I", zlib.crc32(chunk))
    row = b"\x00" + b"\x00" * 3 * 30000
    body = zlib.compress(row * 50, 9)  # a start of the pixels; the rest never read
    chunk = b"IDAT" + body
    idat = struct.pack(">I", len(body)) + chunk + struct.pack(">I", zlib.crc32(chunk))
    bomb = b"\x89PNG\r\n\x1a\n" + ihdr + idat
    tracemalloc.start()
    try:
        _refused(bomb, r"a 30000x30000 picture is too large to read \(900,000,000 pixels")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 20_000_000


def test_a_picture_too_small_for_a_board() -> None:
    _refused(_png_bytes(np.zeros((1, 1, 3), np.uint8)), "no board found: the picture is only 1x1 pixels")
    _refused(np.zeros((1, 1, 3), np.uint8), "only 1x1")


def test_an_animated_gif() -> None:
    frames = [Image.fromarray(np.full((40, 40, 3), v, np.uint8)) for v in (0, 128, 255)]
    out = io.BytesIO()
    frames[0].save(out, format="GIF", save_all=True, append_images=frames[1:])
    _refused(out.getvalue(), "an animated picture of 3 frames")


def test_a_blurry_photo_or_a_picture_with_no_board() -> None:
    rng = np.random.default_rng(1)
    noise = rng.integers(0, 256, (300, 400, 3), dtype=np.uint8)
    _refused(noise, "no board found")
    y, x = np.mgrid[0:300, 0:400]
    gradient = np.stack([x * 255 // 400, y * 255 // 300, (x + y) * 255 // 700], axis=2).astype(np.uint8)
    _refused(gradient, "no board found")
    # a board in the middle of a blurry photo: its edges smeared past reading
    board = Image.fromarray(_board_picture(["H" * 9] * 9))
    blurred = board.resize((board.width // 4, board.height // 4), Image.Resampling.BILINEAR).resize(
        board.size
    )
    _refused(np.asarray(blurred), "no board found|match no tile")


def test_two_boards() -> None:
    one = _board_picture(["H" * 9] * 9)
    two = np.concatenate([one, np.full((one.shape[0], 60, 3), 192, np.uint8), one], axis=1)
    _refused(two, "two boards: a 9x9 grid at .* and a 9x9 grid at .*; crop the picture to one")
    assert read_picture(one).board.width == 9  # one of them alone is read


def test_a_skin_it_does_not_know() -> None:
    one = _board_picture(["H" * 16] * 16)
    strange = one[:, :, ::-1].copy()  # blue where xp is red, and its grey hidden cells tinted
    strange[..., 2] = 255 - strange[..., 2]
    _refused(strange, r"a 16x16 grid, \d+ cells match no tile I know: a skin I do not know\?")


def test_clues_with_no_layout_are_refused_naming_them() -> None:
    rows = ["1000H", "00000", "00000", "00000", "0000H"]  # a 1 with no hidden cell around it
    message = _refused(_board_picture(rows), "no mine layout fits it: clues in conflict", mines=1)
    assert "(0, 0)" in message and "least sure cells" in message


def test_a_skin_named_is_the_only_one_tried() -> None:
    picture = REAL / "xp" / "winmine_expert_alepar.png"
    assert read_picture(picture, skin="xp").skin == "xp"
    _refused(picture, r"unknown skin 'winmine'; known: .*xp", skin="winmine")
    _refused(picture, "match no tile I know", skin="google")
