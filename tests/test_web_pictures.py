"""``POST /api/picture``: a screenshot's raw bytes become the board, within the server's bounds and checks.

The page sends a picture pasted or dropped onto the board here (tests/test_interactive_pictures_browser.py
does it in Chromium); these check the endpoint itself: its answer, 413 past the size bound before a
byte is read, 415 for bytes that are no picture, and the token and Origin checks every endpoint has.
"""

from __future__ import annotations

import http.client
import io
import json
from collections.abc import Iterator
from typing import Any

import pytest

from analyzer import Board
from analyzer.interactive.screenshot import MAX_PICTURE_BYTES
from analyzer.interactive.session import Session
from analyzer.interactive.web import TOKEN_HEADER, WebServer
from tests.pictured import BOARD, DESKTOP, screenshot, transcription

pytest.importorskip("PIL")

START = "3x1x1\nH1H\n"


@pytest.fixture
def server() -> Iterator[WebServer]:
    with WebServer(Session(START), port=0) as running:
        yield running


def post(
    server: WebServer,
    body: bytes,
    *,
    query: str = "",
    headers: dict[str, str] | None = None,
    length: int | None = None,
    token: bool = True,
) -> tuple[int, Any]:
    """One raw POST to /api/picture (``length``: the Content-Length claimed, the body not sent)."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    sent = {
        "Host": f"127.0.0.1:{server.port}",
        "Content-Type": "image/png",
        "Content-Length": str(len(body) if length is None else length),
    }
    if token:
        sent[TOKEN_HEADER] = server.token
    sent.update(headers or {})
    try:
        connection.putrequest("POST", f"/api/picture{query}", skip_host=True, skip_accept_encoding=True)
        for name, value in sent.items():
            connection.putheader(name, value)
        connection.endheaders(body if length is None else None)
        response = connection.getresponse()
        raw = response.read()
    finally:
        connection.close()
    lines = [json.loads(line) for line in raw.decode().splitlines() if line.strip()]
    return response.status, lines[0] if lines else None


def test_a_screenshot_posted_becomes_the_board_with_what_was_read(server: WebServer) -> None:
    status, answer = post(server, screenshot(), query="?name=shot.png&skin=jsminesweeper&since=0")
    assert status == 200
    view = answer["view"]
    assert view["note"] == "" and view["mode"] == "edit" and (view["width"], view["height"]) == (9, 9)
    assert server.session.board == Board.from_text(BOARD)
    picture = view["picture"]
    assert picture["name"] == "shot.png" and picture["skin"] == "jsminesweeper" and picture["unsure"] == 0
    assert picture["text"] == server.session.picture.describe()  # type: ignore[union-attr]
    # the thumbnail query gives the board's part of the picture as a PNG
    thumbnail = server.session.act({"type": "thumbnail"})
    assert thumbnail is not None and thumbnail["id"] == picture["id"]
    import base64

    from PIL import Image

    image = Image.open(io.BytesIO(base64.b64decode(thumbnail["data"])))
    assert image.format == "PNG" and image.size == (thumbnail["width"], thumbnail["height"])


def test_a_real_desktop_screenshot_posted_becomes_its_transcription(server: WebServer) -> None:
    status, answer = post(server, DESKTOP.read_bytes(), query="?name=desktop.png")
    assert status == 200 and answer["view"]["note"] == "" and answer["view"]["picture"]["skin"] == "xp"
    assert server.session.board == transcription(DESKTOP)


def test_the_mine_total_given_with_the_picture_is_the_boards(server: WebServer) -> None:
    status, answer = post(server, screenshot(), query="?skin=jsminesweeper&mines=12")
    assert status == 200 and answer["view"]["mines"] == 12
    assert answer["view"]["picture"]["total_source"] == "option"


def test_a_picture_past_the_bound_is_413_before_it_is_read(server: WebServer) -> None:
    status, answer = post(server, b"", length=MAX_PICTURE_BYTES + 1)
    assert status == 413 and "a picture is at most 20 MiB" in answer["error"]
    assert server.session.board == Board.from_text(START)


@pytest.mark.parametrize(
    ("body", "kind"),
    [
        (b"9x9x10\nHHH", "application/octet-stream"),
        (b"9x9x10\nHHH", "text/plain"),
        (b"{}", "application/json"),
    ],
)
def test_bytes_that_are_no_picture_are_415(server: WebServer, body: bytes, kind: str) -> None:
    status, answer = post(server, body, headers={"Content-Type": kind})
    assert status == 415 and "\n" not in answer["error"]
    assert server.session.board == Board.from_text(START)


def test_no_token_or_a_foreign_origin_is_refused_and_changes_nothing(server: WebServer) -> None:
    shot = screenshot()
    assert post(server, shot, token=False)[0] == 403
    status, answer = post(server, shot, headers={"Origin": "http://evil.example"})
    assert status == 403 and answer["error"].startswith("refused: Origin")
    assert server.session.board == Board.from_text(START)


def test_a_picture_with_no_board_is_a_one_line_note_and_changes_nothing(server: WebServer) -> None:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (300, 200), (200, 200, 200)).save(out, format="PNG")
    status, answer = post(server, out.getvalue(), query="?name=plain.png")
    assert status == 200 and answer["view"]["note"] and "\n" not in answer["view"]["note"]
    assert answer["view"]["picture"] is None and server.session.board == Board.from_text(START)
