"""Screenshots for the front doors' tests: real ones of tests/pictures/real/ that the reader reads
(:data:`DESKTOP`, :data:`BEGINNER`, :data:`UNSURE`, with :func:`transcription`), and a JSMinesweeper
board drawn with the tiles of the reader's own ``jsminesweeper`` skin (:func:`screenshot`), with
a tooltip over a cell where a test wants one. Whether the reader reads every real picture right
is the reader's tests' business (tests/test_pictures.py).
"""

from __future__ import annotations

import io
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from analyzer import Board

BOARD = """9x9x10
H101HHHHH
H201HHHHH
H101111HH
H100001HH
H110001HH
HH10011HH
HH2101HHH
HHH10112H
HHH10001H
"""
"""The position the picture shows (the jsminesweeper preset's 10 mines for 9x9: no counter drawn)."""

_TILES = {"H": "hidden", "F": "flag"}


def screenshot(
    text: str = BOARD,
    *,
    margin: int = 40,
    background: tuple[int, int, int] = (200, 200, 200),
    covered: tuple[int, int] | None = None,
) -> bytes:
    """The PNG bytes of ``text``'s board drawn with the skin's tiles on a plain page around it.

    ``covered``: a cell under a small tooltip (a pale box with a black border over part of
    it), which the reader reports unsure.
    """
    from PIL import Image, ImageDraw

    folder = resources.files("analyzer.pictures") / "skins" / "jsminesweeper"
    tiles: dict[str, Image.Image] = {}
    rows = text.strip().splitlines()[1:]
    for char in {c for row in rows for c in row}:
        with (folder / f"{_TILES.get(char, char)}.png").open("rb") as handle:
            tiles[char] = Image.open(handle).convert("RGB")
    width, height = tiles[rows[0][0]].size
    image = Image.new("RGB", (len(rows[0]) * width + 2 * margin, len(rows) * height + 3 * margin), background)
    for r, row in enumerate(rows):
        for c, char in enumerate(row):
            image.paste(tiles[char], (margin + c * width, 2 * margin + r * height))
    if covered is not None:
        x, y = margin + covered[1] * width, 2 * margin + covered[0] * height
        box = (x + width // 6, y + height // 6, x + width * 5 // 6, y + height * 7 // 12)
        ImageDraw.Draw(image).rectangle(box, fill=(255, 255, 225), outline=(0, 0, 0))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


REAL = Path(__file__).resolve().parent / "pictures" / "real"
"""Real screenshots of clients, each with its transcription beside it (``<name>.mine``; see its README)."""

DESKTOP = REAL / "xp" / "desktop_expert_midgame.png"
"""A whole 1366x768 Windows desktop, Windows XP's Minesweeper at its top left: an expert game in progress."""
BEGINNER = REAL / "online" / "beginner.png"
"""minesweeper.online's picture of a beginner game (9x9): small enough to print in the docs."""
UNSURE = REAL / "jsminesweeper" / "solver_bfda.jpg"
"""JSMinesweeper's JPEG of an expert game near its end, a hint over cell (12, 28), read unsurely."""


def transcription(picture: Path) -> Board:
    """The board a real picture shows, as typed in by hand beside it."""
    from analyzer import Board

    return Board.from_text(picture.with_suffix(".mine").read_text(encoding="utf-8"))
