"""The Jupyter widget's pictures without a browser: a screenshot as its source, and the bytes of one
pasted or dropped arriving as the message's buffer (tests/test_interactive_pictures_jupyterlab.py
does it in a real JupyterLab)."""

from __future__ import annotations

import pytest

from tests.pictured import BEGINNER, UNSURE, transcription

pytest.importorskip("PIL")
pytest.importorskip("anywidget")


def test_a_screenshot_path_is_the_widgets_board() -> None:
    import analyzer

    board = analyzer.widget(str(UNSURE))
    assert board.board == transcription(UNSURE) and board.session.unsure == ((12, 28),)
    assert board.view["marks"]["unsure"] == [12 * 30 + 28] and board.view["picture"]["name"] == UNSURE.name


def test_a_pictures_bytes_come_as_the_messages_buffer_and_its_thumbnail_is_a_query() -> None:
    from analyzer.interactive.jupyter import BoardWidget

    widget = BoardWidget("3x1x1\nH1H\n")
    sent: list[object] = []
    widget.send = sent.append  # type: ignore[method-assign]
    widget._receive(widget, {"type": "picture", "name": "shot.png"}, [memoryview(BEGINNER.read_bytes())])
    widget.wait(60)
    assert widget.board == transcription(BEGINNER) and widget.session.note == ""
    assert widget.view["picture"]["name"] == "shot.png" and {"ack": True} in sent
    sent.clear()
    widget._receive(widget, {"type": "thumbnail"}, [])
    widget.wait(60)
    (answer,) = [m["answer"] for m in sent if isinstance(m, dict) and "answer" in m]  # type: ignore[index]
    assert answer["type"] == "thumbnail" and answer["id"] == widget.view["picture"]["id"]
    assert {"ack": True} not in sent  # a query's answer is its acknowledgement
