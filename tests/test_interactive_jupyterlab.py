"""The board's widget in a real JupyterLab and Notebook 7 (Playwright + Debian's chromium): it draws,
it answers, and it is safe inside someone's notebook.

JupyterLab's command mode acts on single keys (``m`` makes the cell Markdown, ``a``/``b`` insert
cells, ``d d`` deletes one, ``x`` cuts it) and its right click opens a menu: over the board, none of
them may reach the notebook. JupyterLab runs from this interpreter on a free port, with a token, its
settings in the test's folder; the kernel imports this checkout's ``analyzer``. Skipped with the
reason when JupyterLab (or Notebook 7), anywidget, chromium or Playwright is missing. Notebook 7
(the same checks, its own shortcuts) is marked slow: the JupyterLab run is the quick one.
"""

from __future__ import annotations

import json
import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest
from browser import page
from test_interactive_browser import assert_probabilities_match, best_cell, click, idle, rect

from analyzer import Board, Game, solve

ROOT = Path(__file__).resolve().parents[1]
BOARD = "5x4x4\nHHHHH\nH211H\nH1H1H\nHHHHH\n"

CELLS = """() => {
    const panel = window.jupyterapp.shell.currentWidget;
    return panel.content.model.sharedModel.cells.map(c => [c.cell_type, c.source]);
}"""
MENUS = "() => document.querySelectorAll('.lm-Menu, .p-Menu').length"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


APPS = {  # module to run, the notebook's address
    "jupyterlab": "lab/tree/board.ipynb",
    "notebook": "notebooks/board.ipynb",
}


@contextmanager
def jupyter(app: str, folder: Path, notebook: str = "board.ipynb") -> Iterator[str]:
    """A JupyterLab (or Notebook 7) server on a free port for ``folder``; yields the notebook's URL."""
    pytest.importorskip(app, reason=f"this test needs {app} (pip install {app})")
    pytest.importorskip("anywidget", reason="the widget needs anywidget (pip install -e '.[widget]')")
    port = _free_port()
    token = secrets.token_hex(16)
    # No autosave: a test that checks that Ctrl+S over a widget saves nothing sees only its own keys.
    settings = folder / "settings" / "@jupyterlab" / "docmanager-extension"
    settings.mkdir(parents=True, exist_ok=True)
    (settings / "plugin.jupyterlab-settings").write_text('{"autosave": false}')
    lab = subprocess.Popen(
        [
            sys.executable,
            "-m",
            app,
            "--no-browser",
            f"--port={port}",
            "--ip=127.0.0.1",
            "--allow-root",
            f"--IdentityProvider.token={token}",
            "--expose-app-in-browser",
            f"--ServerApp.root_dir={folder}",
            "--LabApp.news_url=None",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=folder,
        env=os.environ
        | {  # JupyterLab's settings and workspaces in the test's folder; the kernel imports this checkout
            "JUPYTER_CONFIG_DIR": str(folder / "config"),
            "JUPYTER_RUNTIME_DIR": str(folder / "runtime"),
            "JUPYTERLAB_SETTINGS_DIR": str(folder / "settings"),
            "JUPYTERLAB_WORKSPACES_DIR": str(folder / "workspaces"),
            "PYTHONPATH": os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]),
        },
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/status?token={token}", timeout=2).close()
                break
            except OSError:
                if time.monotonic() > deadline or lab.poll() is not None:
                    pytest.fail(f"{app} did not start")
                time.sleep(0.3)
        yield f"http://127.0.0.1:{port}/{APPS[app].replace('board.ipynb', notebook)}?token={token}"
    finally:
        lab.terminate()
        try:
            lab.wait(10)
        except subprocess.TimeoutExpired:
            lab.kill()


class Lab:
    """One JupyterLab server for the test process (a pytest-xdist worker), and one browser tab with
    JupyterLab loaded in it: starting the server and loading the app are the expensive parts of
    these tests, so they share them, each test with notebooks (and so kernels) of its own.

    :meth:`notebook` opens a test's notebook in the shared tab and, when the test ends, shuts its
    kernel down and closes it unsaved; a test that fails (or a notebook that does not close
    cleanly) takes the tab with it, and the next test loads a fresh one.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._server: Any = None
        self._url = ""
        self._tab: Any = None
        self._page: ExitStack | None = None
        self.loads = 0
        """How many times the shared tab was loaded (once, unless a test failed)."""

    def _address(self, path: str) -> str:
        """The address of ``path`` in the lab (``lab/...``), with its token; the server started once."""
        if self._server is None:
            self._server = jupyter("jupyterlab", self.folder, "NOTEBOOK")
            self._url = self._server.__enter__()
        return self._url.replace("lab/tree/NOTEBOOK", path)

    @contextmanager
    def notebook(self, name: str) -> Iterator[Any]:
        """The shared tab with ``name`` (a notebook the test wrote in :attr:`folder`) open and current,
        its kernel started; at the end its kernel is shut down and it is closed without saving."""
        tab = self._shared_tab()
        try:
            tab.evaluate(OPEN, name)
            yield tab
        except BaseException:
            self._discard_tab()
            raise
        else:
            self._close_notebooks(tab)
        finally:
            self._shut_down_kernels()

    def _shared_tab(self) -> Any:
        if self._tab is not None:
            return self._tab
        self.loads += 1  # a workspace never used before, so that no tab reopens
        url = self._address(f"lab/workspaces/tab-{self.loads}")
        self._page = ExitStack()
        try:
            tab = self._page.enter_context(page(1300, 1000))
            tab.set_default_timeout(90_000)
            tab.goto(url)
            tab.wait_for_function("() => window.jupyterapp !== undefined")
            tab.evaluate("async () => { await window.jupyterapp.restored; }")
        except BaseException:
            self._discard_tab()
            raise
        self._tab = tab
        return tab

    def _close_notebooks(self, tab: Any) -> None:
        """Shut down every kernel, close every notebook unsaved, forget the test's permissions; a tab
        that is not back to the bare app (a dialog, a widget or a document left) is discarded."""
        try:
            left = tab.evaluate(CLOSE_ALL)
            tab.context.clear_permissions()
            tab.mouse.move(1, 1)
        except Exception as error:
            left = f"the tab did not close its notebooks: {error}"
        if left:
            self._discard_tab()

    def _shut_down_kernels(self) -> None:
        """Whatever a test left running on the server (a failed test's kernel), through its REST API
        (a kernel still starting refuses to go: asked again until it does)."""
        deadline = time.monotonic() + 60
        while left := [
            (kind, each["id"]) for kind in ("sessions", "kernels") for each in self._api("GET", kind)
        ]:
            if time.monotonic() > deadline:
                pytest.fail(f"kernels left running on the shared JupyterLab: {left}")
            for kind, key in left:
                try:
                    self._api("DELETE", f"{kind}/{key}")
                except urllib.error.HTTPError:  # gone with its session meanwhile, or still starting
                    time.sleep(0.2)

    def _api(self, method: str, path: str) -> Any:
        base, token = self._url.split("/lab/", 1)[0], self._url.rsplit("token=", 1)[1]
        request = urllib.request.Request(f"{base}/api/{path}?token={token}", method=method)
        with urllib.request.urlopen(request, timeout=10) as answer:
            body = answer.read()
        return json.loads(body) if body else None

    def _discard_tab(self) -> None:
        self._tab = None
        if self._page is not None:
            page, self._page = self._page, None
            page.close()

    def close(self) -> None:
        self._discard_tab()
        if self._server is not None:
            self._server.__exit__(None, None, None)
            self._server = None


OPEN = """async (path) => {
    const app = window.jupyterapp;
    if (document.body.dataset.jpThemeName !== 'JupyterLab Light') {  // a test that changed it failed
        await app.commands.execute('apputils:change-theme', {theme: 'JupyterLab Light'});
    }
    const panel = await app.commands.execute('docmanager:open', {path});
    await panel.context.ready;
    await panel.context.sessionContext.ready;  // its kernel known to the server, to shut down at the end
    app.shell.activateById(panel.id);
}"""
"""Open a notebook in the loaded JupyterLab, as a double click in its file browser does."""

CLOSE_ALL = """async () => {
    const app = window.jupyterapp;
    for (const widget of [...app.shell.widgets('main')]) {
        if (!widget.context) continue;  // the launcher
        if (widget.sessionContext) await widget.sessionContext.shutdown();
        widget.context.model.dirty = false;  // closed unsaved, without asking
        widget.close();
    }
    const deadline = Date.now() + 10000;
    const left = () => [...app.shell.widgets('main')].filter(w => w.context).length
        + document.querySelectorAll('.jp-Dialog, .lm-Menu, .mz-root').length;
    while (left() && Date.now() < deadline) await new Promise(done => setTimeout(done, 50));
    return left();
}"""
"""Shut down each open notebook's kernel and close it unsaved; what is left open (0: nothing)."""


def _notebook(path: Path) -> None:
    def code(source: str) -> dict[str, Any]:
        return {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": source}

    notebook = {
        "cells": [
            code(f"import analyzer\nedit = analyzer.widget({BOARD!r}, adjust_numbers=False)\nedit"),
            code("from analyzer import Game\nplay = analyzer.widget(Game.new(9, 9, 10, seed=3))\nplay"),
            {"cell_type": "markdown", "metadata": {}, "source": "the end"},
        ],
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path.write_text(json.dumps(notebook))


# A left mouse press on a cell, then in the same task whether the board shows "working".
PRESS_AND_READ_WORKING = """([which, r, c]) => {
    const root = document.querySelectorAll('.mz-root')[which];
    const box = root.mz.rect(r, c);
    root.querySelector('canvas.mz-canvas').dispatchEvent(
        new MouseEvent('mousedown', {clientX: box.cx, clientY: box.cy, button: 0, bubbles: true}));
    return root.classList.contains('mz-working');
}"""


def run_all_cells(tab: Any, widgets: int) -> None:
    """Wait for the notebook's kernel, run every cell as Run > Run All Cells does, wait for the widgets."""
    tab.wait_for_function(
        """() => {
            const panel = window.jupyterapp && window.jupyterapp.shell.currentWidget;
            const kernel = panel && panel.sessionContext && panel.sessionContext.session
                && panel.sessionContext.session.kernel;
            return kernel && kernel.connectionStatus === "connected" && kernel.status === "idle";
        }"""
    )
    tab.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
    tab.wait_for_function(f"() => document.querySelectorAll('.mz-root').length === {widgets}")


@pytest.mark.parametrize("app", ["jupyterlab", pytest.param("notebook", marks=pytest.mark.slow)])
def test_widgets_draw_answer_and_keep_keys_and_right_clicks_from_the_notebook(
    app: str, tmp_path: Path, lab: Lab
) -> None:
    """Both widgets draw the library's answer; keys and right clicks over them leave the notebook alone."""
    with ExitStack() as stack:
        if app == "jupyterlab":  # the process's JupyterLab and its tab; Notebook 7 a server of its own
            _notebook(lab.folder / "widgets.ipynb")
            tab = stack.enter_context(lab.notebook("widgets.ipynb"))
        else:
            _notebook(tmp_path / "board.ipynb")
            url = stack.enter_context(jupyter(app, tmp_path))
            tab = stack.enter_context(page(1300, 1000))
            tab.set_default_timeout(90_000)
            tab.goto(url)
        run_all_cells(tab, widgets=2)
        idle(tab, which=0)
        idle(tab, which=1)
        board = Board.from_text(BOARD)
        assert_probabilities_match(tab, board, which=0)
        assert best_cell(tab, which=0) == solve(board).best_moves(1)[0].cell
        # A right click flags a cell through the kernel and back.
        click(tab, (0, 0), "right", which=0)
        assert_probabilities_match(tab, board.replace({(0, 0): -2}), which=0)
        # A left click on the play widget reveals, as the library's game does; the board says
        # "working" from the click itself, since the kernel's busy flag is a round trip later.
        assert tab.evaluate(PRESS_AND_READ_WORKING, [1, 4, 4])
        idle(tab, which=1)
        game = Game.new(9, 9, 10, seed=3)
        game.reveal(4, 4)
        assert_probabilities_match(tab, game.board, sample=10, which=1)

        tab.evaluate("() => window.jupyterapp.commands.execute('notebook:enter-command-mode')")
        before = tab.evaluate(CELLS)
        assert [kind for kind, _ in before] == ["code", "code", "markdown"]
        for which in (0, 1):
            box = rect(tab, (3, 4), which)
            tab.mouse.move(box["cx"], box["cy"])
            for key in ("m", "a", "b", "d", "d", "x", "Escape"):
                tab.keyboard.press(key)
            tab.mouse.click(box["cx"], box["cy"], button="right")
            tab.wait_for_timeout(300)
            assert tab.evaluate(MENUS) == 0, f"a context menu opened over widget {which}"
            assert tab.evaluate(CELLS) == before, f"a key over widget {which} changed the notebook"
            idle(tab, which=which)
        assert tab.evaluate("() => document.querySelectorAll('.mz-root').length") == 2
        # The check can fail: the same keys with the notebook focused do change it.
        tab.keyboard.press("Escape")
        tab.mouse.click(5, 500)  # off the boards, on the notebook's margin
        tab.evaluate("() => window.jupyterapp.commands.execute('notebook:enter-command-mode')")
        tab.evaluate("() => window.jupyterapp.shell.currentWidget.content.node.focus()")
        tab.keyboard.press("b")
        tab.wait_for_function(f"() => ({CELLS})().length === {len(before) + 1}", timeout=10_000)


# ---- every key and right click over any part of a widget stays in it; outside, they work at once
KEYS: list[tuple[str, ...]] = [
    *[(key,) for key in "myrabxcv"],
    ("d", "d"),
    ("z",),
    ("Shift+Enter",),
    ("Control+Enter",),
    ("Alt+Enter",),
    ("Enter",),
    ("Escape",),
    ("Space",),
    ("ArrowUp",),
    ("ArrowDown",),
    ("j",),
    ("k",),
    *[(digit,) for digit in "123456"],
    ("Shift+M",),
    ("i", "i"),
    ("0", "0"),
    ("Control+s",),
    ("Shift+J",),
    ("Shift+K",),
    ("Shift+V",),
    ("Shift+L",),
    ("Shift+ArrowDown",),
]
"""JupyterLab's command-mode keys and chords (35): each changes, runs, moves, deletes, saves or
selects cells, or interrupts or restarts the kernel, when it reaches the notebook."""

NOTEBOOK_STATE = """() => {
    const panel = window.jupyterapp.shell.currentWidget;
    const notebook = panel.content;
    return {
        cells: notebook.model.sharedModel.cells.map(
            c => [c.cell_type, c.source, c.execution_count === undefined ? null : c.execution_count]),
        active: notebook.activeCellIndex,
        mode: notebook.mode,
        menus: document.querySelectorAll('.lm-Menu, .p-Menu').length,
        dialogs: document.querySelectorAll('.jp-Dialog').length,
        boards: [...document.querySelectorAll('.mz-root')].map(root => root.dataset.seen || 'new'),
    };
}"""

PART_BOX = """(selector) => {
    const node = document.querySelector('.mz-root ' + selector);
    node.scrollIntoView({block: 'nearest'});
    const box = node.getBoundingClientRect();
    return {x: box.left + Math.min(12, box.width / 2), y: box.top + box.height / 2};
}"""
PARTS = {  # the widget's parts, by what a person would point at
    "toolbar": ".mz-toolbar .mz-label",
    "tools": ".mz-analyst .mz-sep",
    "caption": ".mz-caption",
    "status and notes": ".mz-hover",
    "board": "canvas.mz-canvas",
    "slider input": ".mz-slider",
    "legend": ".mz-legend",
}


def _replay_notebook(path: Path) -> None:
    def code(source: str) -> dict[str, Any]:
        return {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": source}

    source = (
        "import analyzer\nfrom analyzer.replays import analyse_replay, example_path, read_replay\n"
        "replay = analyzer.widget(analyse_replay(read_replay(example_path('beginner_8x8_10.avf'))))\nreplay"
    )
    notebook = {
        "cells": [
            code("1 + 1"),
            {"cell_type": "markdown", "metadata": {}, "source": "a replay"},
            code(source),
            {"cell_type": "markdown", "metadata": {}, "source": "the end"},
        ],
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path.write_text(json.dumps(notebook))


def _press(tab: Any, keys: list[tuple[str, ...]]) -> None:
    for chord in keys:
        for key in chord:
            tab.keyboard.press(key)


@pytest.mark.needs("ms_toollib")
def test_keys_and_right_clicks_over_any_part_of_the_widget_stay_in_it_and_work_outside_at_once(
    lab: Lab,
) -> None:
    """35 command-mode keys and chords and a right click over each part of a replay widget change,
    run, move, delete and save no cell; with the pointer just outside, the notebook's keys work
    again at once, without a click."""
    name = "keys.ipynb"
    _replay_notebook(lab.folder / name)
    with lab.notebook(name) as tab:
        run_all_cells(tab, widgets=1)
        idle(tab)
        tab.evaluate("() => document.querySelector('.mz-root').dataset.seen = 'the same board'")
        # Command mode, the first cell active and focused, as a click on its prompt leaves it.
        tab.locator(".jp-Cell").first.locator(".jp-InputPrompt").click()
        tab.keyboard.press("Escape")
        saved = (lab.folder / name).stat().st_mtime_ns
        for part, selector in PARTS.items():
            before = tab.evaluate(NOTEBOOK_STATE)
            assert before["mode"] == "command" and before["boards"] == ["the same board"]
            at = tab.evaluate(PART_BOX, selector)
            tab.mouse.move(at["x"], at["y"])
            _press(tab, KEYS)
            tab.mouse.click(at["x"], at["y"], button="right")
            tab.wait_for_timeout(500)  # a cell run, a dialog or a menu would show by now
            after = tab.evaluate(NOTEBOOK_STATE)
            assert after == before, f"a key or right click over the widget's {part} reached the notebook"
            assert (lab.folder / name).stat().st_mtime_ns == saved, (
                f"Ctrl+S over the {part} saved the notebook"
            )
            idle(tab)
            # Just outside the widget (the output's prompt beside it): the notebook's keys at once.
            root = tab.evaluate(
                "() => { const b = document.querySelector('.mz-root').getBoundingClientRect();"
                " return {x: b.left - 25, y: b.top + 30}; }"
            )
            tab.mouse.move(root["x"], root["y"])
            count = len(before["cells"])
            tab.keyboard.press("b")
            tab.wait_for_function(f"() => ({NOTEBOOK_STATE})().cells.length === {count + 1}", timeout=3_000)
            _press(tab, [("d", "d")])
            tab.wait_for_function(f"() => ({NOTEBOOK_STATE})().cells.length === {count}", timeout=3_000)
        assert tab.evaluate(GONE) is None  # every action above was acknowledged: nothing to say
        # JupyterLab's Dark theme: the widget follows it at once (and back to Light for the next tests).
        for theme, name in (("JupyterLab Dark", "dark"), ("JupyterLab Light", "light")):
            tab.evaluate(
                f"() => window.jupyterapp.commands.execute('apputils:change-theme', {{theme: '{theme}'}})"
            )
            tab.wait_for_function(f"() => document.querySelector('.mz-root').dataset.theme === '{name}'")
            background = tab.evaluate(
                "() => getComputedStyle(document.querySelector('.mz-root')).backgroundColor"
            )
            assert background == ("rgb(30, 30, 30)" if name == "dark" else "rgb(255, 255, 255)"), theme


GONE = """() => {
    const line = document.querySelector('.mz-gone');
    return line && !line.hidden ? line.textContent : null;
}"""


def test_a_board_drawn_before_a_kernel_restart_says_its_kernel_is_gone(lab: Lab) -> None:
    """After a restart the old view stays on the page; a click on it says to re-run the cell."""
    name = "restart.ipynb"
    _notebook(lab.folder / name)
    with lab.notebook(name) as tab:
        run_all_cells(tab, widgets=2)
        idle(tab)
        click(tab, (0, 0), "right")  # answered: nothing to say
        assert tab.evaluate(GONE) is None
        tab.evaluate(
            "async () => { await window.jupyterapp.shell.currentWidget.sessionContext.restartKernel(); }"
        )
        box = rect(tab, (0, 1))
        tab.mouse.click(box["cx"], box["cy"])
        tab.wait_for_function(GONE, timeout=8_000)
        assert "re-run its cell" in tab.evaluate(GONE)


@pytest.mark.slow  # a check of the tests' own hand-over, not of the widget: a second load of the app
def test_a_test_that_fails_in_the_shared_tab_leaves_the_next_one_a_fresh_tab(lab: Lab) -> None:
    """The tab the JupyterLab tests share: a test that ends cleanly hands it on as it is; one that
    fails with a dialog open and the Dark theme on takes it away (the next test loads a fresh one,
    in the Light theme), and no kernel of either is left running on the server."""
    (lab.folder / "shared.txt").write_text("a document with no kernel\n")
    _notebook(lab.folder / "failing.ipynb")
    with lab.notebook("shared.txt") as tab:
        first, loads = tab, lab.loads
    with pytest.raises(RuntimeError, match="on purpose"), lab.notebook("failing.ipynb") as tab:
        assert tab is first and lab.loads == loads  # the same tab, not loaded again
        tab.evaluate(
            "() => window.jupyterapp.commands.execute('apputils:change-theme', {theme: 'JupyterLab Dark'})"
        )
        tab.wait_for_function("() => document.body.dataset.jpThemeName === 'JupyterLab Dark'")
        tab.evaluate("() => { window.jupyterapp.commands.execute('help:about'); }")
        tab.wait_for_selector(".jp-Dialog")
        raise RuntimeError("on purpose, with a dialog open, the Dark theme on and a kernel running")
    assert lab._api("GET", "kernels") == []
    with lab.notebook("shared.txt") as tab:
        assert tab is not first and lab.loads == loads + 1
        assert tab.evaluate("() => document.querySelectorAll('.jp-Dialog').length") == 0
        assert tab.evaluate("() => document.body.dataset.jpThemeName") == "JupyterLab Light"
        assert tab.evaluate("() => window.jupyterapp.shell.currentWidget.context.path") == "shared.txt"
