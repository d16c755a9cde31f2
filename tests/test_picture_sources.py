"""The real screenshots in tests/pictures/real: every picture has its transcription, its
measurements and its source, and every transcription is a board that can happen.

A picture is ``<client>/<name>.<png|jpg|gif|bmp|webp>`` with ``<name>.mine`` (the position,
JSMinesweeper's format) and ``<name>.json`` (grid box in pixels, counter, total, end of game,
unsure cells) beside it, and a row in ``SOURCES``. See tests/pictures/real/README.md.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from analyzer import Board, count_layouts

REAL = Path(__file__).parent / "pictures" / "real"
IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".gif", ".bmp", ".webp"}
CELL_CODES = set("012345678HF") | {"M", "X", "W", "?"}
FINISHED = {None, "won", "lost"}


def pictures() -> list[Path]:
    return sorted(p for p in REAL.glob("*/*") if p.suffix.lower() in IMAGE_SUFFIXES)


def sources() -> dict[str, dict[str, str]]:
    with open(REAL / "SOURCES", newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    return {row["file"]: row for row in rows}


PICTURES = pictures()


def suffixes_of(head: bytes) -> set[str]:
    """The file suffixes that name the image format whose bytes start with ``head``."""
    if head.startswith(b"\x89PNG"):
        return {".png"}
    if head.startswith(b"\xff\xd8\xff"):
        return {".jpg", ".jpeg"}
    if head.startswith(b"GIF8"):
        return {".gif"}
    if head.startswith(b"BM"):
        return {".bmp"}
    if head[8:12] == b"WEBP":
        return {".webp"}
    return set()


def test_there_are_real_pictures_of_several_clients():
    assert len(PICTURES) >= 10
    assert len({p.parent.name for p in PICTURES}) >= 2


def test_sources_lists_exactly_the_pictures():
    listed = sources()
    on_disk = {p.relative_to(REAL).as_posix() for p in PICTURES}
    assert set(listed) == on_disk
    for name, row in listed.items():
        assert row["repository"].count("/") == 1, name
        assert len(row["commit"]) == 40 and int(row["commit"], 16) >= 0, name
        assert row["path"] and row["licence"] and row["notes"], name
        assert row["client"] == name.split("/")[0], name


def test_every_file_in_the_folder_belongs_to_a_picture():
    stems = {p.with_suffix("") for p in PICTURES}
    for path in REAL.glob("*/*"):
        assert path.with_suffix("") in stems, f"{path} has no picture beside it"


@pytest.mark.parametrize("picture", PICTURES, ids=lambda p: p.relative_to(REAL).as_posix())
def test_picture_is_transcribed_and_consistent(picture):
    with open(picture, "rb") as handle:
        head = handle.read(12)
    assert picture.suffix.lower() in suffixes_of(head), "the suffix does not name the format of the bytes"
    assert picture.stat().st_size < 1_100_000

    board = Board.from_text(picture.with_suffix(".mine").read_text(encoding="utf-8"))
    meta = json.loads(picture.with_suffix(".json").read_text(encoding="utf-8"))
    assert meta["client"] == picture.parent.name
    grid = meta["grid"]
    assert (grid["rows"], grid["columns"]) == (board.height, board.width)
    assert grid["cell_width"] > 0 and grid["cell_height"] > 0
    assert grid["left"] >= 0 and grid["top"] >= 0
    assert meta["finished"] in FINISHED
    if meta["mines"] is not None:
        assert meta["mines"] == board.mines

    text_rows = picture.with_suffix(".mine").read_text(encoding="utf-8").split()[1:]
    if meta.get("cells") is not None:
        cells = meta["cells"]
        assert len(cells) == board.height and all(len(row) == board.width for row in cells)
        for r, row in enumerate(cells):
            for c, code in enumerate(row):
                assert code in CELL_CODES, (r, c, code)
                if code in "012345678":
                    assert text_rows[r][c] == code, (r, c)
    for r, c in meta["unsure"]:
        assert 0 <= r < board.height and 0 <= c < board.width

    layouts = count_layouts(board)
    assert layouts > 0, "the transcription's clues have no layout"
    if "layouts" in meta:  # the count of solutions the client itself shows in the picture
        assert layouts == meta["layouts"]
    if meta["finished"] == "won":
        assert layouts == 1
    if meta.get("all_mines_shown"):
        # The end of the game shows every mine: flagged, shown (M) or hit (X); a crossed
        # flag (W) has none. Those mines must be the one layout the numbers allow.
        assert meta["finished"] in ("won", "lost")
        shown = meta.get("cells") or text_rows
        rows = [
            "".join("F" if code in "MXF" else "H" if code in "W?" else code for code in row) for row in shown
        ]
        ended = Board.from_text(f"{board.width}x{board.height}x{board.mines}\n" + "\n".join(rows))
        assert count_layouts(ended) == 1
        assert sum(row.count("F") for row in rows) == board.mines
