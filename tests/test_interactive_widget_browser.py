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

from analyzer import Board
from analyzer.interactive.session import CODES, Session
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
def hosted(
    source: str = BOARD, data: dict[str, Any] | None = None, scheme: str = "light", host: str = HOST
) -> Iterator[Any]:
    """A page (``host``) with the board of ``source`` (or ``data``: view, codes, probabilities) on
    the test's model, drawn, the system's colour scheme ``scheme``."""
    if data is None:
        session = Session(source)
        codes, probabilities = session.arrays()
        data = {"view": session.view(), "codes": codes.tolist(), "probabilities": probabilities.tolist()}
    document = host.replace("CSS", static_text("board.css")).replace(
        '<script type="module">',
        f'<script type="application/json" id="data">{json.dumps(data, allow_nan=True)}</script>'
        '<script type="module">',
    )
    document = document.replace(
        "NaN", "null"
    )  # the probabilities' NaN: JSON has none (null is NaN in a Float32Array)
    with page(1000, 900) as tab:
        tab.emulate_media(color_scheme=scheme)
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


# ---- light and dark: every text at least 4.5:1, every mark at least 3:1, measured from the pixels
HIDDEN, FLAG, GUESS, SAFE, MINE = (CODES[name] for name in ("hidden", "flag", "guess", "safe", "mine"))
WRONG_FLAG = CODES["wrong_flag"]
# The backgrounds a mark may sit on (code, probability): a 20 % cell, a 50 % cell, the scale's ends
# (certainly safe, certainly a mine, and the guesses just inside them), a hidden cell without
# analysis, a revealed 0 and a revealed 3.
GROUNDS = {
    "20 %": (GUESS, 0.2),
    "50 %": (GUESS, 0.5),
    "safe ✓": (SAFE, 0.0),
    "mine ✱": (MINE, 1.0),
    "hidden": (HIDDEN, None),
    "revealed 0": (0, None),
    "revealed 3": (3, None),
    "<1 %": (GUESS, 0.004),
    ">99 %": (GUESS, 0.996),
}
MARK_ROWS = ["best", "why_cell", "dead", "fifty", "clicked", "why_clues", "conflict", "unsure"]


def _sampler() -> dict[str, Any]:
    """A 9-wide board: row 0 the numbers 1-8 and a flag, row 1 each ground unmarked, then a row
    a mark, on every ground, and last a wrong flag (a lost game's) among hidden cells."""
    width, height = len(GROUNDS), 2 + len(MARK_ROWS) + 1  # the last row: a wrong flag, hidden cells
    session = Session(Board(width, height, 10, (-1,) * (width * height)))
    view = session.view()
    codes = [*range(1, 9), FLAG]
    probabilities: list[float | None] = [None] * 9
    for _ in range(height - 2):
        for code, p in GROUNDS.values():
            codes.append(code)
            probabilities.append(p)
    codes += [WRONG_FLAG] + [HIDDEN] * (width - 1)
    probabilities += [None] * width
    marks = {name: [(2 + k) * width + c for c in range(width)] for k, name in enumerate(MARK_ROWS)}
    view.update(
        marks=marks,
        best=None,
        best_text="(3, 4), 20.0 % mine",
        note="a note: the click was refused",
        error={"message": "an error: clue 1 at (5, 8) has 2 flagged neighbours", "clues": []},
        why={"text": "why: the clues 1 and 2 force (0, 4) safe", "cell": [0, 0], "clues": []},
        flag_text="flag (0, 0) is not a certain mine",
        marks_text="2 dead cells, a forced 50/50",
    )
    return {"view": view, "codes": codes, "probabilities": probabilities}


# Per cell: its background (a pixel inside the marks' rings, clear of the text), the colour of the
# ring (the pixel of its band on the left edge that contrasts most with the background) and of the
# text (the pixel of the middle that contrasts most); the canvas's labels likewise on their strip.
READ = """() => {
    const root = document.querySelector('.mz-root');
    const canvas = root.querySelector('canvas.mz-canvas');
    const ctx = canvas.getContext('2d');
    const box = canvas.getBoundingClientRect();
    const view = root.mz.view();
    const pixel = (x, y) => {
        const d = ctx.getImageData(Math.round(x), Math.round(y), 1, 1).data;
        return '#' + [d[0], d[1], d[2]].map(v => v.toString(16).padStart(2, '0')).join('');
    };
    const area = (x0, y0, x1, y1) => {
        const out = [];
        for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) out.push(pixel(x, y));
        return out;
    };
    const cells = [];
    for (let r = 0; r < view.height; r++) {
        for (let c = 0; c < view.width; c++) {
            const rect = root.mz.rect(r, c);
            const x = rect.x - box.left, y = rect.y - box.top, z = rect.width;
            cells.push({
                r, c,
                // unmarked rows: the top edge's middle (clear of flags and crosses); marked: in the rings
                background: r < 2 || r === view.height - 1 ? pixel(x + z / 2, y + 3) : pixel(x + 12, y + 12),
                cross: area(x + 24, y + 24, x + 32, y + 30), // a wrong flag's cross, not the flag
                ring: area(x + 1, y + 10, x + 4, y + z - 10),
                middle: area(x + 10, y + 14, x + z - 10, y + z - 12),
            });
        }
    }
    const strip = {background: pixel(2, 2), labels: area(30, 2, box.width - 2, 14)};
    return {cells, strip};
}"""

# Every element of the widget with text of its own: its colour and the background it is drawn on.
TEXTS = """() => {
    const root = document.querySelector('.mz-root');
    const out = [];
    const opaque = (node) => {
        for (; node; node = node.parentElement) {
            const colour = getComputedStyle(node).backgroundColor;
            if (colour && !colour.endsWith(', 0)') && colour !== 'transparent') return colour;
        }
        return 'rgb(255, 255, 255)';
    };
    for (const node of root.querySelectorAll('*')) {
        const own = [...node.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
        if (!own || node.closest('[hidden]') || node.closest('.mz-live') || node.disabled) continue;
        if (node.tagName === 'OPTION' || node.tagName === 'SCRIPT') continue;
        const style = getComputedStyle(node);
        if (style.visibility === 'hidden' || style.display === 'none') continue;
        out.push([node.className || node.tagName.toLowerCase(), node.textContent.trim().slice(0, 30),
                  style.color, opaque(node)]);
    }
    return out;
}"""


def _hex(colour: str) -> str:
    if colour.startswith("#"):
        return colour
    values = [int(float(v)) for v in colour[colour.index("(") + 1 : colour.index(")")].split(",")[:3]]
    return "#" + "".join(f"{v:02x}" for v in values)


def _luminance(colour: str) -> float:
    channels = [int(_hex(colour)[k : k + 2], 16) / 255 for k in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def ratio(a: str, b: str) -> float:
    """WCAG 2's contrast ratio of two colours."""
    x, y = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (x + 0.05) / (y + 0.05)


def _most(colours: list[str], against: str) -> tuple[str, float]:
    best = max(colours, key=lambda colour: ratio(colour, against))
    return best, ratio(best, against)


def contrast_table(tab: Any) -> list[tuple[str, str, str, float, float]]:
    """(what, drawn, on, ratio, the least allowed) for every text and mark the widget draws."""
    read = tab.evaluate(READ)
    rows: list[tuple[str, str, str, float, float]] = []
    cells = {(cell["r"], cell["c"]): cell for cell in read["cells"]}
    names = list(GROUNDS)
    for c in range(8):  # the numbers 1-8 on revealed cells
        cell = cells[0, c]
        ink, value = _most(cell["middle"], cell["background"])
        rows.append((f"number {c + 1} on a revealed cell", ink, cell["background"], value, 4.5))
    flag = cells[0, 8]
    ink, value = _most(flag["middle"], flag["background"])
    rows.append(("flag on a hidden cell", ink, flag["background"], value, 3.0))
    wrong = cells[max(cells)[0], 0]
    ink, value = _most(wrong["cross"], wrong["background"])
    rows.append(("a wrong flag's cross on a hidden cell", ink, wrong["background"], value, 3.0))
    for c, name in enumerate(names):  # the text on each ground, unmarked
        cell = cells[1, c]
        if name in ("hidden", "revealed 0"):
            continue
        ink, value = _most(cell["middle"], cell["background"])
        rows.append((f"text on {name}", ink, cell["background"], value, 4.5))
    hidden, revealed = cells[1, names.index("hidden")], cells[1, names.index("revealed 0")]
    rows.append(
        (
            "hidden (no analysis) vs revealed",
            hidden["background"],
            revealed["background"],
            ratio(hidden["background"], revealed["background"]),
            3.0,
        )
    )
    for k, mark in enumerate(MARK_ROWS):
        for c, name in enumerate(names):
            cell = cells[2 + k, c]
            ink, value = _most(cell["ring"], cell["background"])
            rows.append((f"{mark} mark on {name}", ink, cell["background"], value, 3.0))
            if name not in ("hidden", "revealed 0"):
                text, value = _most(cell["middle"], cell["background"])
                rows.append((f"text under the {mark} mark on {name}", text, cell["background"], value, 4.5))
    ink, value = _most(read["strip"]["labels"], read["strip"]["background"])
    rows.append(("row and column labels", ink, read["strip"]["background"], value, 4.5))
    for cls, text, colour, background in tab.evaluate(TEXTS):
        rows.append(
            (
                f"{cls.split()[0] if cls else '?'}: {text}",
                _hex(colour),
                _hex(background),
                ratio(colour, background),
                4.5,
            )
        )
    return rows


def print_table(theme: str, rows: list[tuple[str, str, str, float, float]]) -> None:
    """The texts one to a line; the marks as a grid, a mark a row, a ground a column (the least ratio
    of the mark's ring and of the text under it)."""
    print(f"\n## {theme}\n")
    print(f"{'text or mark':58} {'drawn':8} {'on':8} {'ratio':>6} {'least':>5}")
    for what, ink, on, value, least in rows:
        if " mark on " not in what:
            print(f"{what[:58]:58} {ink:8} {on:8} {value:6.2f} {least:5.1f}")
    print(
        f"\nmarks (ring vs cell, least 3; text under the mark, least 4.5):\n{'':10}"
        + "".join(f"{g:>13}" for g in GROUNDS)
    )
    ratios = {what: value for what, _, _, value, _ in rows}
    for mark in MARK_ROWS:
        line = f"{mark:10}"
        for ground in GROUNDS:
            text = ratios.get(f"text under the {mark} mark on {ground}")
            line += f"{ratios[f'{mark} mark on {ground}']:>6.2f}/" + (f"{text:<6.2f}" if text else "-     ")
        print(line)
    marks = [value for what, _, _, value, least in rows if least == 3.0 and " mark on " in what]
    texts = [value for what, _, _, value, least in rows if least == 4.5]
    print(
        f"\nleast: a mark {min(marks):.2f}, a text {min(texts):.2f}, hidden vs revealed "
        f"{ratios['hidden (no analysis) vs revealed']:.2f}"
    )


THEMES = {  # name: the system's scheme, the JupyterLab theme on <body> (None: a page, no JupyterLab)
    "light page": ("light", None),
    "dark page (prefers-color-scheme: dark)": ("dark", None),
    "JupyterLab Dark": ("light", "false"),
    "JupyterLab Light on a dark system": ("dark", "true"),
}


# The status lines the fake model's view cannot show (the page's own note, a silent kernel, the
# chance to win, the long exact value): shown with a text, to measure their colours too.
SHOW_ALL_LINES = """() => {
    for (const name of ['mz-note', 'mz-gone', 'mz-win-text', 'mz-exact', 'mz-exact-value', 'mz-hover']) {
        const line = document.querySelector('.mz-root .' + name);
        line.hidden = false;
        if (!line.textContent.trim()) line.textContent = name + ': a line of text';
    }
}"""
ZOOM_40 = "() => { const mz = document.querySelector('.mz-root').mz; while (mz.zoom() < 40) mz.setZoom(1); }"
PAINTED = """() => {
    const root = document.querySelector('.mz-root');
    return root.dataset.painted === root.dataset.version && root.mz.zoom() === 40;
}"""


def test_every_text_and_mark_contrasts_in_light_and_dark_themes() -> None:
    tables: dict[str, list[tuple[str, str, str, float, float]]] = {}
    themes: dict[str, str | None] = {}  # the theme the widget took
    for theme, (scheme, lab) in THEMES.items():
        with hosted(data=_sampler(), scheme=scheme) as tab:
            if lab is not None:
                tab.evaluate(f"() => document.body.setAttribute('data-jp-theme-light', '{lab}')")
            # The page around the widget as the host draws it: JupyterLab Dark's cells (#111111),
            # the analyzer page's dark body (index.html), else white.
            around = (
                "#111111"
                if lab == "false"
                else "#121212"
                if (scheme == "dark" and lab is None)
                else "#ffffff"
            )
            tab.evaluate(f"() => {{ document.body.style.background = '{around}'; }}")
            tab.evaluate(ZOOM_40)
            tab.wait_for_function(PAINTED)
            tab.evaluate(SHOW_ALL_LINES)
            tables[theme] = contrast_table(tab)
            themes[theme] = tab.evaluate("() => document.querySelector('.mz-root').dataset.theme")
    for theme, rows in tables.items():
        print_table(theme, rows)
    failures = [
        (theme, what, ink, on, round(value, 2))
        for theme, rows in tables.items()
        for what, ink, on, value, least in rows
        if value < least
    ]
    assert not failures, failures
    # JupyterLab's theme first, else the system's; the dark themes are dark (the labels' strip).
    assert themes == {
        theme: "dark" if "Dark" in theme or "dark page" in theme else "light" for theme in THEMES
    }
    for theme in ("dark page (prefers-color-scheme: dark)", "JupyterLab Dark"):
        assert (
            _luminance(next(on for what, _, on, *_ in tables[theme] if what == "row and column labels"))
            < 0.05
        ), theme


# ---- the widget's border: keys over any part stop there; the focus goes back on the way out
COUNT_KEYS = """() => {
    window.outside = [];
    document.addEventListener('keydown', (event) => window.outside.push(event.key));
    document.addEventListener('contextmenu', () => window.outside.push('menu'));
}"""


def test_keys_over_any_part_stay_in_the_widget_and_the_focus_leaves_with_the_pointer() -> None:
    with hosted() as tab:
        tab.evaluate(COUNT_KEYS)
        for selector in (".mz-toolbar .mz-label", ".mz-caption", ".mz-legend", "canvas.mz-canvas"):
            box = tab.locator(f".mz-root {selector}").bounding_box()
            tab.mouse.move(box["x"] + 5, box["y"] + box["height"] / 2)
            assert tab.evaluate("() => document.activeElement.classList.contains('mz-root')"), selector
            tab.keyboard.press("m")
            tab.mouse.click(box["x"] + 5, box["y"] + box["height"] / 2, button="right")
            assert tab.evaluate("() => window.outside") == [], selector
            tab.mouse.move(900, 850)  # off the widget: the focus goes back to the page
            assert tab.evaluate("() => document.activeElement === document.body"), selector
            tab.keyboard.press("m")
            assert tab.evaluate("() => window.outside") == ["m"], selector
            tab.evaluate("() => { window.outside = []; }")
        # A field being typed in keeps the focus when the pointer leaves.
        tab.click(".mz-mines")
        tab.mouse.move(900, 850)
        assert tab.evaluate("() => document.activeElement.classList.contains('mz-mines')")


# ---- what a widget hangs outside its own elements comes off when anywidget removes the view
COUNTED = """
window.held = {};
const count = (owner, add, remove, name) => {
    const adding = owner[add], removing = owner[remove];
    const step = (by) => {  // the board's own calls (Playwright's injected script adds some too)
        if (new Error().stack.includes("/board.js")) window.held[name] = (window.held[name] || 0) + by;
    };
    owner[add] = function (...args) { step(1); return adding.apply(this, args); };
    owner[remove] = function (...args) { step(-1); return removing.apply(this, args); };
};
count(window, "addEventListener", "removeEventListener", "window listeners");
count(MediaQueryList.prototype, "addEventListener", "removeEventListener", "colour scheme listeners");
count(MutationObserver.prototype, "observe", "disconnect", "mutation observers");
count(ResizeObserver.prototype, "observe", "disconnect", "resize observers");
window.cleanup = board.render("""


def test_the_clean_up_anywidget_calls_takes_off_what_the_board_hung_on_the_page() -> None:
    with hosted(host=HOST.replace("board.render(", COUNTED)) as tab:
        held = tab.evaluate("() => ({...window.held})")
        # A re-run cell's board would otherwise leave these behind on the notebook's page.
        assert all(held.get(name) == 1 for name in ("window listeners", "mutation observers")), held
        assert tab.evaluate("() => typeof window.cleanup") == "function"
        tab.evaluate("() => window.cleanup()")
        left = tab.evaluate("() => window.held")
        assert all(number == 0 for number in left.values()), left
