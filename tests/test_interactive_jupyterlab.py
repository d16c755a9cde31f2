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
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
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
def jupyter(app: str, folder: Path) -> Iterator[str]:
    """A JupyterLab (or Notebook 7) server on a free port for ``folder``; yields the notebook's URL."""
    pytest.importorskip(app, reason=f"this test needs {app} (pip install {app})")
    pytest.importorskip("anywidget", reason="the widget needs anywidget (pip install -e '.[widget]')")
    port = _free_port()
    token = secrets.token_hex(16)
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
        yield f"http://127.0.0.1:{port}/{APPS[app]}?token={token}"
    finally:
        lab.terminate()
        try:
            lab.wait(10)
        except subprocess.TimeoutExpired:
            lab.kill()


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
    app: str, tmp_path: Path
) -> None:
    """Both widgets draw the library's answer; keys and right clicks over them leave the notebook alone."""
    _notebook(tmp_path / "board.ipynb")
    with jupyter(app, tmp_path) as url, page(1300, 1000) as tab:
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
