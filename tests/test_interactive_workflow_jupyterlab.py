"""The analyst's tools in the widget inside a real JupyterLab: they work through the kernel and stop at
the widget's border (a paste is not JupyterLab's paste of cells, a dropped file is not uploaded, Ctrl+Z
is the board's undo).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from test_interactive_browser import assert_probabilities_match, idle
from test_interactive_jupyterlab import CELLS, Lab, run_all_cells

from analyzer import Board

BOARD = "5x4x4\nHHHHH\nH211H\nH1H1H\nHHHHH\n"
CHAIN = "6x3x4\nHH1HHF\n11113F\n000011\n"
OTHER = "3x2x1\nHHH\n111\n"

DROP = """([name, text]) => {
    const data = new DataTransfer();
    data.items.add(new File([text], name));
    const target = document.querySelector('.mz-canvas');
    for (const type of ['dragenter', 'dragover', 'drop']) {
        target.dispatchEvent(new DragEvent(type, {dataTransfer: data, bubbles: true, cancelable: true}));
    }
}"""
WIDTH = "() => document.querySelector('.mz-root').mz.view().width"


def _notebook(path: Path) -> None:
    notebook = {
        "cells": [
            {
                "cell_type": "code",
                "execution_count": None,
                "metadata": {},
                "outputs": [],
                "source": f"import analyzer\nedit = analyzer.widget({BOARD!r})\nedit",
            },
            {"cell_type": "markdown", "metadata": {}, "source": "the end"},
        ],
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path.write_text(json.dumps(notebook))


def _settle(tab: Any) -> None:
    tab.wait_for_timeout(400)
    idle(tab)


def test_paste_drop_undo_and_save_in_the_widget_leave_the_notebook_alone(lab: Lab) -> None:
    name = "workflow.ipynb"
    tmp_path = lab.folder
    _notebook(tmp_path / name)
    with lab.notebook(name) as tab:
        tab.context.grant_permissions(["clipboard-read", "clipboard-write"])
        run_all_cells(tab, widgets=1)
        idle(tab)
        tab.evaluate("() => window.jupyterapp.commands.execute('notebook:enter-command-mode')")
        before = tab.evaluate(CELLS)
        files = sorted(p.name for p in tmp_path.iterdir())

        # Ctrl+V over the board pastes a board into the widget, not cells into the notebook.
        tab.evaluate(f"() => navigator.clipboard.writeText({CHAIN!r})")
        box = tab.evaluate("() => document.querySelector('.mz-canvas').getBoundingClientRect().toJSON()")
        tab.mouse.move(box["x"] + 60, box["y"] + 40)
        tab.focus(".mz-root")
        tab.keyboard.press("Control+v")
        _settle(tab)
        assert tab.evaluate(WIDTH) == 6
        assert_probabilities_match(tab, Board.from_text(CHAIN))
        # A file dropped on the board opens in it, and is not uploaded into the notebook's folder.
        tab.evaluate(DROP, ["other.mine", OTHER])
        _settle(tab)
        assert tab.evaluate(WIDTH) == 3
        assert_probabilities_match(tab, Board.from_text(OTHER))
        # Ctrl+Z over the board is the board's undo (not the notebook's).
        tab.focus(".mz-root")
        tab.keyboard.press("Control+z")
        _settle(tab)
        assert tab.evaluate(WIDTH) == 6
        # Saving goes through the kernel and back as a download.
        with tab.expect_download() as download:
            tab.select_option(".mz-save", "mine")
        assert Path(download.value.path()).read_text() == CHAIN
        tab.wait_for_timeout(500)
        assert tab.evaluate(CELLS) == before
        assert sorted(p.name for p in tmp_path.iterdir() if p.name != ".ipynb_checkpoints") == [
            f for f in files if f != ".ipynb_checkpoints"
        ]
