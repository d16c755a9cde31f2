"""A screenshot pasted (Ctrl+V) and one dropped onto ``analyzer web``'s page become the board shown.

In headless Chromium, on one page, real screenshots (tests/pictures/real/): the picture's bytes go
to ``POST /api/picture``, the reader (analyzer.pictures) reads them, and the page shows the board
read with the probabilities :func:`analyzer.solve` gives its hand-typed transcription, beside a
thumbnail of the picture and the text of what was read; a cell read unsurely (under JSMinesweeper's
hint) is outlined until the person sets it.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser import page
from test_interactive_browser import assert_probabilities_match, idle, rect, shown

from analyzer.interactive.session import Session
from analyzer.interactive.web import WebServer
from tests.pictured import DESKTOP, UNSURE, transcription

pytest.importorskip("PIL")

COPY = """async (bytes) => {
    const blob = new Blob([new Uint8Array(bytes)], {type: 'image/png'});
    await navigator.clipboard.write([new ClipboardItem({'image/png': blob})]);
}"""
DROP = """([name, bytes]) => {
    const data = new DataTransfer();
    data.items.add(new File([new Uint8Array(bytes)], name, {type: 'image/jpeg'}));
    const target = document.querySelector('.mz-canvas');
    for (const type of ['dragover', 'drop']) {
        target.dispatchEvent(new DragEvent(type, {dataTransfer: data, bubbles: true, cancelable: true}));
    }
}"""
READ = """(id) => {
    const view = document.querySelector('.mz-root').mz.view();
    const thumb = document.querySelector('.mz-picture-thumb');
    return view.picture !== null && view.picture.id === id && !thumb.hidden && thumb.complete
        && thumb.naturalWidth > 0;
}"""


def _read(tab: Any, number: int) -> None:
    """Wait until the page shows the ``number``-th picture read, its thumbnail loaded, and is idle."""
    tab.wait_for_function(READ, arg=number, timeout=120_000)
    idle(tab)


def test_a_screenshot_pasted_and_one_dropped_become_the_board_with_the_solvers_probabilities() -> None:
    session = Session("3x1x1\nH1H\n")
    with WebServer(session, port=0) as server, page(1300, 900) as tab:
        tab.context.grant_permissions(["clipboard-read", "clipboard-write"])
        tab.goto(server.url)
        idle(tab)

        # Ctrl+V over the board of a screenshot of a whole desktop (Windows XP's Minesweeper in it)
        board = transcription(DESKTOP)
        tab.evaluate(COPY, list(DESKTOP.read_bytes()))
        tab.focus(".mz-root")
        tab.keyboard.press("Control+v")
        _read(tab, 1)
        assert session.board == board and session.picture is not None and session.picture.unsure == ()
        assert_probabilities_match(tab, board, sample=5)
        assert tab.text_content(".mz-picture-read") == session.picture.describe()
        summary = tab.text_content(".mz-picture-summary")
        assert summary.startswith("read from image.png: a 30x16 board of xp, 99 mines"), summary
        assert not any("unsure" in cell["marks"] for cell in shown(tab).values())

        # JSMinesweeper's JPEG, its hint over cell (12, 28), dropped onto the board
        board = transcription(UNSURE)
        tab.evaluate(DROP, ["hint.jpg", list(UNSURE.read_bytes())])
        _read(tab, 2)
        assert (
            session.board == board and session.picture is not None and session.picture.unsure == ((12, 28),)
        )
        assert [cell for cell, info in shown(tab).items() if "unsure" in info["marks"]] == [(12, 28)]
        assert tab.text_content(".mz-picture-read").splitlines()[13][27:30] == "H?H"
        assert_probabilities_match(tab, board, sample=5)

        # the person sets the unsure cell (h over it: hidden): its outline goes
        box = rect(tab, (12, 28))
        tab.mouse.move(box["cx"], box["cy"])
        tab.keyboard.press("h")
        tab.wait_for_function("() => !(document.querySelector('.mz-root').mz.view().marks.unsure)")
        idle(tab)
        assert session.unsure == () and session.board == board
        assert "0 of 1 unsure cells still to check" in tab.text_content(".mz-picture-summary")
