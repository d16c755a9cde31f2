"""The board in play mode as a person uses it, quickly: in headless Chromium (issue 55, second pass).

A message that appears above the board must not move a cell from under the pointer, and the
page's probabilities with the player's flags are the library's (flags are marks unless trusted).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from test_interactive_browser import click, exact, idle, opened, rect, shown

from analyzer import FLAG, HIDDEN, Game, solve

CANVAS_TOP = "() => document.querySelector('.mz-root .mz-canvas').getBoundingClientRect().top"


def test_quick_clicks_open_the_cells_aimed_at_while_messages_come_and_go() -> None:
    # Expert, seed 4: after (8, 15), ten certainly safe cells clicked 30 ms apart. The seventh,
    # (5, 16), was opened by the fifth's flood fill: the click is a chord, refused with a note.
    # The board must stay where it was aimed at: on the old layout the note pushed it down 17 px
    # and the click aimed at (9, 20) opened (8, 20), a mine.
    game = Game.new(30, 16, 99, seed=4)
    with opened(game) as (tab, session):
        click(tab, (8, 15))
        analysis = solve(session.board)
        cells = session.board.cells
        safe = [
            divmod(i, 30) for i, p in enumerate(analysis.cell_probabilities) if p == 0 and cells[i] == HIDDEN
        ]
        targets = safe[:10]
        assert targets[6] == (5, 16) and session.board.is_hidden(5, 16)  # opened by (4, 16)'s flood fill
        boxes = [rect(tab, cell) for cell in targets]  # all aimed at before the first click, as a person does
        tops = [tab.evaluate(CANVAS_TOP)]
        for box in boxes:
            tab.mouse.click(box["cx"], box["cy"])
            tab.wait_for_timeout(30)
            tops.append(tab.evaluate(CANVAS_TOP))
        tab.wait_for_timeout(100)
        idle(tab)
        tops.append(tab.evaluate(CANVAS_TOP))
    # The same clicks in the library, on the same cells: the page's game is that game.
    expected = Game.new(30, 16, 99, seed=4)
    expected.reveal(8, 15)
    for cell in targets:
        if expected.board.is_hidden(*cell):
            expected.reveal(*cell)
    print(f"canvas top after each click: {tops}")
    assert session.game is not None and session.game.status == "playing"
    assert all(session.game.board.is_revealed(*cell) for cell in targets)
    assert session.game.board.cells == expected.board.cells
    assert len(set(tops)) == 1, tops


def _assert_page_is_library(tab: Any, board: Any, *, trust: bool) -> None:
    """Each cell on the page is the library's analysis of ``board`` with the flags trusted or not."""
    analysis = solve(board, trust_flags=trust)
    cells = shown(tab)
    for index, p in enumerate(analysis.cell_probabilities):
        cell = divmod(index, board.width)
        value = board.cells[index]
        if value == FLAG:
            assert cells[cell]["kind"] == "flag" and cells[cell]["p"] is None, cell
            continue
        if value != HIDDEN:
            assert cells[cell]["p"] is None, cell
            continue
        assert p is not None
        assert cells[cell]["kind"] == {0: "safe", 1: "mine"}.get(p, "guess"), cell  # type: ignore[call-overload]
        assert abs(cells[cell]["p"] - float(p)) <= 1e-6 * float(p), cell


def test_a_wrong_flag_leaves_the_analysis_alone_unless_the_flags_are_trusted() -> None:
    game = Game.new(30, 16, 99, seed=4)
    with opened(game) as (tab, session):
        click(tab, (8, 15))
        click(tab, (0, 0), "right")  # not a mine
        assert session.board.is_flagged(0, 0) and (0, 0) not in game.mines
        _assert_page_is_library(tab, session.board, trust=False)
        assert Fraction(exact(tab, (0, 1))["p"]) == Fraction(2889, 13450)
        assert Fraction(exact(tab, (0, 0))["p"]) == Fraction(2889, 13450)  # the flag's own chance, on hover
        line = tab.text_content(".mz-flag-text") or ""
        assert line.startswith("flag at (0, 0) is not a certain mine: P = 2889/13450"), line
        assert tab.is_visible(".mz-flag-text")
        # "trust my flags": the flags are mines, the page follows.
        tab.click(".mz-trust-flags")
        idle(tab)
        assert session.trust_flags and tab.get_attribute(".mz-trust-flags", "aria-pressed") == "true"
        _assert_page_is_library(tab, session.board, trust=True)
        assert Fraction(exact(tab, (0, 1))["p"]) == Fraction(4256, 20009)
        assert not tab.is_visible(".mz-flag-text")
        tab.click(".mz-trust-flags")
        idle(tab)
        assert not session.trust_flags
        assert Fraction(exact(tab, (0, 1))["p"]) == Fraction(2889, 13450)
