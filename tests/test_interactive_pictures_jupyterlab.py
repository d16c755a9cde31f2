"""A screenshot dropped onto the widget in a real JupyterLab becomes its board: the bytes go to the
kernel as the message's buffer, the reader reads them there, the widget shows the board with the
probabilities the solver gives its transcription, the picture's thumbnail, and the cell read
unsurely (under JSMinesweeper's hint, in a real picture of tests/pictures/real/) outlined."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from test_interactive_browser import assert_probabilities_match, idle, shown
from test_interactive_jupyterlab import Lab, run_all_cells

from tests.pictured import UNSURE, transcription

pytest.importorskip("PIL")

DROP = """([name, bytes]) => {
    const data = new DataTransfer();
    data.items.add(new File([new Uint8Array(bytes)], name, {type: 'image/jpeg'}));
    const target = document.querySelector('.mz-canvas');
    for (const type of ['dragenter', 'dragover', 'drop']) {
        target.dispatchEvent(new DragEvent(type, {dataTransfer: data, bubbles: true, cancelable: true}));
    }
}"""
READ = """() => {
    const view = document.querySelector('.mz-root').mz.view();
    const thumb = document.querySelector('.mz-picture-thumb');
    return view.picture && view.picture.id === 1 && !thumb.hidden && thumb.complete && thumb.naturalWidth > 0;
}"""


def _notebook(path: Path) -> None:
    source = "import analyzer\nboard = analyzer.widget('3x1x1\\nH1H\\n')\nboard"
    cell = {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": source}
    kernel = {"name": "python3", "display_name": "Python 3", "language": "python"}
    notebook = {"cells": [cell], "metadata": {"kernelspec": kernel}, "nbformat": 4, "nbformat_minor": 5}
    path.write_text(json.dumps(notebook))


def test_a_screenshot_dropped_onto_the_widget_becomes_its_board(lab: Lab) -> None:
    _notebook(lab.folder / "picture.ipynb")
    with lab.notebook("picture.ipynb") as tab:
        run_all_cells(tab, widgets=1)
        idle(tab)
        tab.evaluate(DROP, ["hint.jpg", list(UNSURE.read_bytes())])
        tab.wait_for_function(READ, timeout=120_000)
        idle(tab)
        view: dict[str, Any] = tab.evaluate("() => document.querySelector('.mz-root').mz.view()")
        assert (view["width"], view["height"], view["mines"]) == (30, 16, 99)
        assert view["picture"]["name"] == "hint.jpg" and view["picture"]["unsure"] == 1
        assert_probabilities_match(tab, transcription(UNSURE), sample=5)
        assert [cell for cell, info in shown(tab).items() if "unsure" in info["marks"]] == [(12, 28)]
        assert tab.text_content(".mz-picture-read").splitlines()[13][27:30] == "H?H"
    assert not list(lab.folder.rglob("hint*.jpg"))  # not uploaded into the notebook's folder
