"""A picture opened in the interactive board's session: read as the position, its unsure cells marked.

The reader (analyzer.pictures.read_picture) is replaced here by one that returns a known reading,
so these tests check the session's plumbing only; the real reader's tests are its own.
"""

from __future__ import annotations

import base64
from typing import Any

import pytest

from analyzer import Board
from analyzer.errors import PictureError
from analyzer.interactive.session import Session

PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 32
BOARD = "3x2x1\nH1H\n111\n"


class _Reading:
    def __init__(self) -> None:
        self.board = Board.from_text(BOARD)
        self.unsure = ((0, 2),)
        self.skin = "xp"
        self.grid = (0.0, 0.0, 16.0, 16.0, 2, 3)
        self.total_source = "preset"
        self.finished = False
        self.notes = ("mine total 1: a note",)

    def describe(self) -> str:
        return "read a 3x2 board"


@pytest.fixture
def reader(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    import sys
    import types

    calls: list[Any] = []

    def read_picture(source: Any, *, mines: int | None = None, skin: str | None = None) -> _Reading:
        calls.append(source)
        return _Reading()

    import analyzer.pictures.load  # noqa: F401  # the format test stays the package's own (a module of the stand-in)

    module = types.ModuleType("analyzer.pictures")
    module.read_picture = read_picture  # type: ignore[attr-defined]
    module.__path__ = []  # type: ignore[attr-defined]  # a package: its loaded submodules stay importable
    monkeypatch.setitem(sys.modules, "analyzer.pictures", module)
    return calls


def test_picture_bytes_become_the_position_with_the_unsure_cells_marked_until_set(reader: list[Any]) -> None:
    session = Session("2x1x0\n00\n")
    session.act({"type": "picture", "name": "shot.png", "data": base64.b64encode(PNG).decode()})
    assert session.note == "" and reader == [PNG]
    assert session.mode == "edit" and session.board == Board.from_text(BOARD)
    view = session.view()
    assert view["marks"]["unsure"] == [2] and view["picture"]["skin"] == "xp"
    assert view["picture"]["unsure_left"] == 1
    session.act({"type": "key", "cell": [0, 2], "key": "f"})
    assert "unsure" not in session.view()["marks"]
    session.act({"type": "undo"})
    assert session.view()["marks"]["unsure"] == [2]


def test_open_detects_a_picture_by_its_magic_number(reader: list[Any]) -> None:
    session = Session("2x1x0\n00\n")
    session.act({"type": "open", "name": "board.txt", "data": base64.b64encode(PNG).decode()})
    assert session.board == Board.from_text(BOARD) and reader == [PNG]


def test_bytes_that_are_no_picture_and_a_picture_too_large_are_one_line_notes(reader: list[Any]) -> None:
    session = Session("2x1x0\n00\n")
    session.act({"type": "picture", "name": "x.png", "data": base64.b64encode(b"not a picture").decode()})
    assert session.note == "'x.png' is not a picture (PNG, JPEG, GIF, BMP or WebP)"
    with pytest.raises(PictureError, match="at most 20 MiB"):
        session.open_picture(PNG + b"\0" * (20 * 2**20), name="big.png")
    assert reader == [] and session.board == Board.from_text("2x1x0\n00\n")
