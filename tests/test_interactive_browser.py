"""The interactive board as a person uses it: ``analyzer web``'s page in headless Chromium.

The page runs the widget's own front end (``static/board.js``), so these tests
cover what Jupyter shows too; ``test_widget_in_jupyterlab`` loads the widget itself.
Every figure the page shows is checked against the library on the same position.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from browser import page

from analyzer import Board, Game, InconsistentBoardError, solve
from analyzer.interactive.session import Session
from analyzer.interactive.web import WebServer
from analyzer.replays import analyse_replay, example_path, read_replay

_CELLS = """cells => cells.map(c => ({
    cell: c.dataset.cell, kind: c.dataset.kind, p: c.dataset.p ?? null, text: c.textContent,
    title: c.title, classes: [...c.classList],
    overflow: c.scrollWidth > c.clientWidth + 1 || c.scrollHeight > c.clientHeight + 1,
}))"""


@contextmanager
def opened(source: object, **options: Any) -> Iterator[tuple[Any, Session]]:
    """A page of ``analyzer web`` for ``source``, loaded and idle, and the session behind it."""
    session = Session(source, **options)
    with WebServer(session, port=0) as server, page(1300, 900) as tab:
        tab.goto(server.url)
        idle(tab)
        yield tab, session


def idle(tab: Any) -> None:
    """Wait until the page has an answer and is not working on another."""
    tab.wait_for_selector(".mz-cell")
    tab.wait_for_function("!document.querySelector('.mz-root').classList.contains('mz-working')")
    tab.wait_for_function("!document.querySelector('.mz-best').textContent.includes('scoring')")


def shown(tab: Any) -> dict[tuple[int, int], dict[str, Any]]:
    cells = tab.eval_on_selector_all(".mz-cell", _CELLS)
    return {tuple(map(int, c["cell"].split(","))): c for c in cells}


def click(tab: Any, cell: tuple[int, int], button: str = "left") -> None:
    tab.click(f'.mz-cell[data-cell="{cell[0]},{cell[1]}"]', button=button)
    idle(tab)


def assert_probabilities_match(tab: Any, board: Board) -> None:
    """Each hidden cell's fraction on the page is the exact one :func:`analyzer.solve` gives."""
    analysis = solve(board)
    cells = shown(tab)
    assert len(cells) == board.width * board.height
    for index, p in enumerate(analysis.cell_probabilities):
        cell = divmod(index, board.width)
        if p is None or board.cells[index] == -2:
            assert cells[cell]["p"] is None, cell
            continue
        assert Fraction(cells[cell]["p"]) == p, cell
        if p == 0:
            assert cells[cell]["kind"] == "safe"
        elif p == 1:
            assert cells[cell]["kind"] == "mine"
        else:
            assert cells[cell]["kind"] == "guess"
            assert "P(mine) = " in cells[cell]["title"]
    assert not [c for c, v in cells.items() if v["overflow"]]


def best_cell(tab: Any) -> tuple[int, int]:
    outlined = [c for c, v in shown(tab).items() if "mz-best-cell" in v["classes"]]
    assert len(outlined) == 1
    return outlined[0]


def test_edit_mode_shows_the_exact_probabilities_and_follows_each_edit() -> None:
    board = Board.from_text("5x4x4\nHHHHH\nH211H\nH1H1H\nHHHHH\n")
    with opened(board) as (tab, session):
        assert_probabilities_match(tab, board)
        assert best_cell(tab) == solve(board).best_moves(1)[0].cell
        # A right click flags a cell: the page shows the new position's probabilities.
        click(tab, (0, 0), "right")
        flagged = board.replace({(0, 0): -2})
        assert session.board == flagged
        assert_probabilities_match(tab, flagged)
        # A digit typed over a hidden cell makes it that number.
        tab.hover('.mz-cell[data-cell="3,2"]')
        tab.keyboard.press("1")
        idle(tab)
        typed = flagged.replace({(3, 2): 1})
        assert session.board == typed
        assert_probabilities_match(tab, typed)
        assert best_cell(tab) == solve(typed).best_moves(1)[0].cell
        # The mine total is a field.
        tab.fill(".mz-mines", "5")
        tab.press(".mz-mines", "Enter")
        idle(tab)
        assert session.board == typed.replace(mines=5)
        assert_probabilities_match(tab, typed.replace(mines=5))


def test_an_impossible_edit_names_the_clues_in_conflict() -> None:
    with opened("4x2x2\nHHHH\n1H1H\n") as (tab, _):
        tab.hover('.mz-cell[data-cell="0,1"]')
        tab.keyboard.press("0")  # a 0 beside the 1s' only other hidden cells
        idle(tab)
        message = tab.text_content(".mz-error")
        cells = shown(tab)
    with pytest.raises(InconsistentBoardError) as expected:
        solve(Board.from_text("4x2x2\nH0HH\n1H1H\n"))
    assert message == str(expected.value)
    conflict = sorted(c for c, v in cells.items() if "mz-conflict" in v["classes"])
    assert conflict == sorted(expected.value.clues)
    assert conflict  # the clues are named on the board, not only in words
    assert all(v["p"] is None for v in cells.values())  # no probabilities for an impossible board


def test_why_highlights_the_clues_that_force_a_certain_cell() -> None:
    board = Board.from_text("6x3x3\nHHHHHH\n12H21H\nHHHHHH\n")
    analysis = solve(board)
    cell = analysis.safe[0]
    explanation = analysis.explain(*cell)
    with opened(board) as (tab, _):
        tab.click(".mz-why-toggle")
        click(tab, cell)
        cells = shown(tab)
        text = tab.text_content(".mz-why")
        assert tab.get_attribute(".mz-why-toggle", "aria-pressed") == "false"
    assert text == explanation.describe()
    highlighted = sorted(c for c, v in cells.items() if "mz-why-clue" in v["classes"])
    assert highlighted == sorted(explanation.clues)
    assert [c for c, v in cells.items() if "mz-why-cell" in v["classes"]] == [cell]


def test_play_mode_reveals_flags_chords_and_shows_the_layout_when_lost(tmp_path: Path) -> None:
    game = Game.new(9, 9, 10, seed=5)
    with opened(game) as (tab, session):
        click(tab, (4, 4))
        assert game.board.revealed_cells()
        assert_probabilities_match(tab, game.board)
        assert best_cell(tab) == solve(game.board).best_moves(1)[0].cell
        # Flag a certain mine with a right click, then play the best move with the button.
        mine = solve(game.board).mines[0] if solve(game.board).mines else None
        if mine is not None:
            click(tab, mine, "right")
            assert game.board.is_flagged(*mine)
            assert_probabilities_match(tab, game.board)
        before = game.revealed_count
        expected = solve(game.board).best_moves(1)[0].cell
        tab.click(".mz-play-best")
        idle(tab)
        assert game.revealed_count > before or game.status == "lost"
        assert game.board.is_revealed(*expected) or game.fatal_cell == expected
        # Click a mine on purpose: the page shows every mine and the one that was hit.
        if game.status == "playing":
            target = next(iter(sorted(game.mines - set(game.board.flagged_cells()))))
            click(tab, target)
        assert game.status == "lost"
        cells = shown(tab)
        tab.screenshot(path=str(tmp_path / "lost.png"))
    assert [c for c, v in cells.items() if v["kind"] == "fatal"] == [game.fatal_cell]
    shown_mines = {c for c, v in cells.items() if v["kind"] in ("fatal", "layout-mine")}
    assert shown_mines == set(game.mines)
    assert session.view()["game"]["status"] == "lost"


def test_play_mode_new_game_from_a_seed_is_the_library_game() -> None:
    with opened(None) as (tab, session):
        tab.select_option(".mz-preset", "16,16,40")
        tab.fill(".mz-seed", "12")
        tab.click(".mz-play-controls button:text('new game')")
        idle(tab)
        click(tab, (8, 8))
        expected = Game.new(16, 16, 40, seed=12)
        expected.reveal(8, 8)
        assert session.board == expected.board
        assert_probabilities_match(tab, expected.board)


def test_replay_mode_steps_through_a_recorded_game_with_the_exact_odds() -> None:
    path = example_path("beginner_8x8_10.avf")
    analysed = analyse_replay(read_replay(path))
    with opened(path) as (tab, session):
        assert tab.text_content(".mz-replay-text").startswith(f"click 1 of {len(analysed.clicks)}:")
        guess = analysed.guesses[0]
        for _ in range(guess.number - 1):
            tab.click(".mz-next")
            idle(tab)
        text = tab.text_content(".mz-replay-text")
        cells = shown(tab)
        board = session.board
        # The position before the guess, its probabilities, and the click outlined.
        assert_probabilities_match(tab, board)
        assert Fraction(cells[guess.cell]["p"]) == guess.mine_probability
        assert "mz-clicked" in cells[guess.cell]["classes"]
        assert guess.describe().strip() in text
        # The last step is the end of the game, with its luck.
        tab.fill(".mz-slider", str(session.steps - 1))
        tab.dispatch_event(".mz-slider", "change")
        idle(tab)
        end = tab.text_content(".mz-replay-text")
    assert end.startswith(f"end: {analysed.result}")
    assert str(analysed.luck) in end


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_widget_in_jupyterlab(tmp_path: Path) -> None:
    """The anywidget in a real JupyterLab: it draws, and a right click goes to the kernel and back."""
    board_text = "5x4x4\nHHHHH\nH211H\nH1H1H\nHHHHH\n"
    notebook = {
        "cells": [
            {
                "cell_type": "code",
                "execution_count": None,
                "metadata": {},
                "outputs": [],
                "source": f"import analyzer\nw = analyzer.widget({board_text!r})\nw",
            }
        ],
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    (tmp_path / "board.ipynb").write_text(json.dumps(notebook))
    port = _free_port()
    lab = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "jupyterlab",
            "--no-browser",
            f"--port={port}",
            "--ip=127.0.0.1",
            "--allow-root",
            "--IdentityProvider.token=",
            "--ServerApp.disable_check_xsrf=True",
            "--expose-app-in-browser",
            f"--ServerApp.root_dir={tmp_path}",
            "--LabApp.news_url=None",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=tmp_path,
        env=os.environ
        | {  # JupyterLab's settings and workspaces in the test's folder, not the user's
            "JUPYTER_CONFIG_DIR": str(tmp_path / "config"),
            "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime"),
            "JUPYTERLAB_SETTINGS_DIR": str(tmp_path / "settings"),
            "JUPYTERLAB_WORKSPACES_DIR": str(tmp_path / "workspaces"),
        },
    )
    try:
        url = f"http://127.0.0.1:{port}/lab/tree/board.ipynb"
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/status", timeout=2).close()
                break
            except OSError:
                if time.monotonic() > deadline or lab.poll() is not None:
                    pytest.fail("JupyterLab did not start")
                time.sleep(0.3)
        with page(1300, 900) as tab:
            tab.set_default_timeout(90_000)
            tab.goto(url)
            # The notebook open and its kernel started, then run it as Run > Run All Cells does.
            tab.wait_for_function(
                """() => {
                    const panel = window.jupyterapp && window.jupyterapp.shell.currentWidget;
                    const kernel = panel && panel.sessionContext && panel.sessionContext.session
                        && panel.sessionContext.session.kernel;
                    return kernel && kernel.connectionStatus === "connected" && kernel.status === "idle";
                }"""
            )
            tab.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
            idle(tab)
            board = Board.from_text(board_text)
            assert_probabilities_match(tab, board)
            assert best_cell(tab) == solve(board).best_moves(1)[0].cell
            click(tab, (0, 0), "right")
            tab.wait_for_selector('.mz-cell[data-cell="0,0"][data-kind="flag"]')
            idle(tab)
            assert_probabilities_match(tab, board.replace({(0, 0): -2}))
    finally:
        lab.terminate()
        try:
            lab.wait(10)
        except subprocess.TimeoutExpired:
            lab.kill()


def test_a_slow_solve_shows_working_and_keeps_the_last_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    solve_module = importlib.import_module("analyzer.solver.solve")  # the module, not the function
    board = Board.from_text("5x4x4\nHHHHH\nH211H\nH1H1H\nHHHHH\n")
    with opened(board) as (tab, _):
        before = shown(tab)
        real = solve_module.solve

        def slow(*args: Any, **kwargs: Any) -> Any:
            time.sleep(1.5)
            return real(*args, **kwargs)

        monkeypatch.setattr(solve_module, "solve", slow)
        tab.click('.mz-cell[data-cell="0,0"]', button="right")
        tab.wait_for_selector(".mz-root.mz-working")
        assert tab.is_visible(".mz-busy")
        during = shown(tab)
        assert {c: v["p"] for c, v in during.items()} == {c: v["p"] for c, v in before.items()}
        idle(tab)
        assert_probabilities_match(tab, board.replace({(0, 0): -2}))
        assert not tab.is_visible(".mz-busy")
