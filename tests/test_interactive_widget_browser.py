"""The widget's front end (``static/board.js``) on a model of the test's own, in headless Chromium:
what it does when its host (a Jupyter kernel) acknowledges each action, and when it stays silent as
the kernel of a board drawn before a restart does.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from browser import page
from test_interactive_browser import rect

from analyzer.interactive.session import Session
from analyzer.interactive.web import static_text

BOARD = "5x4x4\nHHHHH\nH211H\nH1H1H\nHHHHH\n"
ORIGIN = "http://widget.test"

# A model as anywidget gives board.js one (get, on, send), the view of a session in it; it answers
# each action with the kernel's acknowledgement ({ack: true}) when window.acks is on.
HOST = """<!doctype html><meta charset="utf-8"><div id="host"></div>
<script type="module">
import board from "/board.js";
const data = JSON.parse(document.getElementById("data").textContent);
const listeners = {};
const values = {
    view: data.view,
    codes: new Uint8Array(data.codes),
    probabilities: new Float32Array(data.probabilities.map((p) => (p === null ? NaN : p))),
    busy: false, acknowledges: true,
};
window.sent = [];
window.acks = true;
const model = {
    get: (name) => values[name],
    on: (event, callback) => (listeners[event] = listeners[event] || []).push(callback),
    send(message) {
        window.sent.push(message);
        if (window.acks) setTimeout(() => (listeners["msg:custom"] || []).forEach((f) => f({ack: true})), 20);
    },
};
board.render({model, el: document.getElementById("host")});
</script>
<style>CSS</style>
"""


@contextmanager
def hosted(source: str = BOARD) -> Iterator[Any]:
    """A page with the board of ``source`` on the test's model, drawn."""
    session = Session(source)
    codes, probabilities = session.arrays()
    data = {"view": session.view(), "codes": codes.tolist(), "probabilities": probabilities.tolist()}
    document = HOST.replace("CSS", static_text("board.css")).replace(
        '<script type="module">',
        f'<script type="application/json" id="data">{json.dumps(data, allow_nan=True)}</script>'
        '<script type="module">',
    )
    document = document.replace(
        "NaN", "null"
    )  # the probabilities' NaN: JSON has none (null is NaN in a Float32Array)
    with page(1000, 700) as tab:
        tab.route(f"{ORIGIN}/", lambda route: route.fulfill(body=document, content_type="text/html"))
        tab.route(
            f"{ORIGIN}/board.js",
            lambda route: route.fulfill(body=static_text("board.js"), content_type="text/javascript"),
        )
        tab.goto(f"{ORIGIN}/")
        tab.wait_for_function(
            "() => document.querySelector('.mz-root') && document.querySelector('.mz-root').dataset.painted"
        )
        yield tab


GONE = """() => {
    const line = document.querySelector('.mz-gone');
    return line && !line.hidden ? line.textContent : null;
}"""


def test_a_board_whose_kernel_does_not_answer_says_so_and_one_that_answers_does_not() -> None:
    with hosted() as tab:
        box = rect(tab, (0, 0))
        tab.mouse.click(box["cx"], box["cy"], button="right")
        tab.wait_for_timeout(4600)  # past the 4 s the front end waits for the acknowledgement
        assert tab.evaluate(GONE) is None
        assert tab.evaluate("() => window.sent.filter((m) => m.type === 'cell').length") == 1
        tab.evaluate("() => { window.acks = false; }")  # the kernel is gone: nothing comes back
        tab.mouse.click(box["cx"], box["cy"], button="right")
        tab.wait_for_function(GONE, timeout=6_000)
        assert "has not answered" in tab.evaluate(GONE) and "re-run its cell" in tab.evaluate(GONE)
