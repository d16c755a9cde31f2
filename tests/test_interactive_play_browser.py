"""The board in play mode as a person uses it, quickly: in headless Chromium (issue 55, second pass).

A message that appears above the board must not move a cell from under the pointer, and the
page's probabilities with the player's flags are the library's (flags are marks unless trusted).
"""

from __future__ import annotations

from test_interactive_browser import click, idle, opened, rect

from analyzer import HIDDEN, Game, solve

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
