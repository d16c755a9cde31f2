"""The interactive board as a person uses it: ``analyzer web``'s page in headless Chromium.

The page runs the widget's own front end (``static/board.js``), so these tests
cover what Jupyter shows too; tests/test_interactive_jupyterlab.py loads the widget itself.
Every figure the page shows is checked against the library on the same position.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from browser import page

from analyzer import Board, Game, InconsistentBoardError, solve
from analyzer.interactive.session import Session, share_text
from analyzer.interactive.web import WebServer
from analyzer.render import probability_colour
from analyzer.replays import analyse_replay, example_path, read_replay

_CELLS = """(which) => {
    const mz = document.querySelectorAll('.mz-root')[which].mz;
    const view = mz.view();
    const out = [];
    for (let r = 0; r < view.height; r++) {
        for (let c = 0; c < view.width; c++) out.push([r, c, mz.info(r, c)]);
    }
    return out;
}"""


@contextmanager
def opened(source: object, **options: Any) -> Iterator[tuple[Any, Session]]:
    """A page of ``analyzer web`` for ``source``, loaded and idle, and the session behind it."""
    session = Session(source, **options)
    with WebServer(session, port=0) as server, page(1300, 900) as tab:
        tab.goto(server.url)
        idle(tab)
        yield tab, session


IDLE = """(which) => {
    const root = document.querySelectorAll('.mz-root')[which];
    return root && root.dataset.version !== undefined && !root.classList.contains('mz-working')
        && root.dataset.bestPending === 'false' && root.dataset.painted === root.dataset.version;
}"""


def idle(tab: Any, timeout: float = 60_000, which: int = 0) -> None:
    """Wait until the page has an answer and its best move, has drawn them, and is not working on another.

    ``which`` is the board's number on the page (a notebook shows several).
    """
    tab.wait_for_function(IDLE, arg=which, timeout=timeout)


def shown(tab: Any, which: int = 0) -> dict[tuple[int, int], dict[str, Any]]:
    """What each cell shows, read from the board's hook (the codes and probabilities it draws)."""
    return {(r, c): info for r, c, info in tab.evaluate(_CELLS, which)}


def rect(tab: Any, cell: tuple[int, int], which: int = 0) -> dict[str, float]:
    """Where a cell is on the screen (the board scrolls it into view first)."""
    return tab.evaluate(
        "([which, r, c]) => document.querySelectorAll('.mz-root')[which].mz.rect(r, c)", [which, *cell]
    )


def click(tab: Any, cell: tuple[int, int], button: str = "left", which: int = 0) -> None:
    box = rect(tab, cell, which)
    tab.mouse.click(box["cx"], box["cy"], button=button)
    tab.wait_for_timeout(50)
    idle(tab, which=which)


def hover(tab: Any, cell: tuple[int, int], which: int = 0) -> None:
    box = rect(tab, cell, which)
    tab.mouse.move(box["cx"], box["cy"])


def exact(tab: Any, cell: tuple[int, int], which: int = 0) -> dict[str, Any]:
    """The exact fraction the page gets for a cell (what hovering it shows)."""
    return tab.evaluate(
        "([which, r, c]) => document.querySelectorAll('.mz-root')[which].mz.exact(r, c)", [which, *cell]
    )


def assert_probabilities_match(
    tab: Any, board: Board, sample: int | None = None, which: int = 0, *, trust_flags: bool = True
) -> None:
    """Each hidden cell's probability on the page is the one :func:`analyzer.solve` gives.

    The drawn float is the fraction's (to float32), the kind says safe, mine or guess
    exactly, and the exact fraction the page asks for (hover) is the fraction itself,
    for every cell or for ``sample`` of them spread over the board. ``trust_flags`` false: the
    flags are the player's marks (play mode's default), not mines.
    """
    analysis = solve(board, trust_flags=trust_flags)
    cells = shown(tab, which)
    assert len(cells) == board.width * board.height
    asked = []
    for index, p in enumerate(analysis.cell_probabilities):
        cell = divmod(index, board.width)
        if p is None or board.cells[index] == -2:
            assert cells[cell]["p"] is None, cell
            continue
        assert cells[cell]["p"] == pytest.approx(float(p), rel=1e-6, abs=1e-40), cell
        kind = {0: "safe", 1: "mine"}.get(p, "guess")  # type: ignore[call-overload]
        assert cells[cell]["kind"] == kind, cell
        if kind == "guess":  # the colour analyzer.render gives the probability (to a rounding step)
            drawn, want = cells[cell]["background"], probability_colour(float(p))
            assert all(abs(int(drawn[k : k + 2], 16) - int(want[k : k + 2], 16)) <= 1 for k in (1, 3, 5)), (
                cell
            )
        asked.append((cell, p))
    if sample is not None and len(asked) > sample:
        asked = asked[:: len(asked) // sample][:sample]
    for cell, p in asked:
        answer = exact(tab, cell, which)
        assert Fraction(answer["p"]) == p, cell


def best_cell(tab: Any, which: int = 0) -> tuple[int, int]:
    outlined = [c for c, v in shown(tab, which).items() if "best" in v["marks"]]
    assert len(outlined) == 1
    return outlined[0]


SLOW_FRAMES = """const frame = window.requestAnimationFrame;
window.requestAnimationFrame = (callback) => setTimeout(() => frame(callback), 400);"""


def test_a_click_as_soon_as_the_page_is_idle_lands_even_when_frames_are_slow() -> None:
    # The canvas takes its size when a frame draws it: until then a click beside its default
    # 300x150 misses it. idle() waits for the drawing too (a busy CI machine once lost this click).
    session = Session(Game.new(30, 16, 99, seed=2))
    with WebServer(session, port=0) as server, page(1300, 900) as tab:
        tab.add_init_script(SLOW_FRAMES)
        tab.goto(server.url)
        idle(tab)
        click(tab, (8, 8))
        assert session.view()["version"] == int(tab.get_attribute(".mz-root", "data-painted") or -1)
    assert session.game is not None and session.game.board.is_revealed(8, 8)


def test_edit_mode_shows_the_exact_probabilities_and_follows_each_edit() -> None:
    board = Board.from_text("5x4x4\nHHHHH\nH211H\nH1H1H\nHHHHH\n")
    with opened(board, adjust_numbers=False) as (tab, session):  # the numbers stay as typed
        assert_probabilities_match(tab, board)
        assert best_cell(tab) == solve(board).best_moves(1)[0].cell
        # A right click flags a cell: the page shows the new position's probabilities.
        click(tab, (0, 0), "right")
        flagged = board.replace({(0, 0): -2})
        assert session.board == flagged
        assert_probabilities_match(tab, flagged)
        # A digit typed over a hidden cell makes it that number.
        hover(tab, (3, 2))
        # Hover shows the cell's exact fraction, asked for when the pointer rests.
        p = solve(flagged).probability(3, 2)
        tab.wait_for_function(
            "text => document.querySelector('.mz-hover').textContent.includes(text)", arg=f"P(mine) = {p}"
        )
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
        # "new board" takes a size as `analyzer web --new` does (a 300x300 one: the slow test below).
        assert_new_board_from_a_size(tab, session, 30, 20, 96)


def assert_new_board_from_a_size(tab: Any, session: Session, width: int, height: int, mines: int) -> None:
    """The size field's ``WxHxM`` opens an empty board of that size: its far corner's probability
    is the mine density, and the caption says its size."""
    tab.fill(".mz-size", f"{width}x{height}x{mines}")
    tab.press(".mz-size", "Enter")
    idle(tab)
    assert session.board == Board(width, height, mines, (-1,) * (width * height))
    far = f"() => document.querySelector('.mz-root').mz.info({height - 1}, {width - 1}).p"
    assert tab.evaluate(far) == pytest.approx(mines / (width * height))
    assert tab.text_content(".mz-caption").startswith(f"{width}x{height}, {mines} mines")


@pytest.mark.slow  # most of a minute; the same field with a 30x20 board runs by default (above)
def test_a_new_board_of_90_000_cells_from_a_size() -> None:
    with opened("3x2x1\nHHH\nH1H\n") as (tab, session):
        assert_new_board_from_a_size(tab, session, 300, 300, 14400)


def test_an_impossible_edit_names_the_clues_in_conflict() -> None:
    with opened("4x2x2\nHHHH\n1H1H\n") as (tab, _):
        hover(tab, (0, 1))
        tab.keyboard.press("0")  # a 0 beside the 1s' only other hidden cells
        idle(tab)
        message = tab.text_content(".mz-error")
        cells = shown(tab)
    with pytest.raises(InconsistentBoardError) as expected:
        solve(Board.from_text("4x2x2\nH0HH\n1H1H\n"))
    assert message == str(expected.value)
    conflict = sorted(c for c, v in cells.items() if "conflict" in v["marks"])
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
    highlighted = sorted(c for c, v in cells.items() if "why_clues" in v["marks"])
    assert highlighted == sorted(explanation.clues)
    assert [c for c, v in cells.items() if "why_cell" in v["marks"]] == [cell]


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


@pytest.mark.needs("ms_toollib")
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
        # Zoomed in, the board scrolls to each step's click.
        for _ in range(4):
            tab.click(".mz-zoom-in")
        for number in (guess.number + 5, len(analysed.clicks) - 3):
            tab.fill(".mz-slider", str(number - 1))
            tab.dispatch_event(".mz-slider", "change")
            idle(tab)
            target = analysed.clicks[number - 1].cell
            assert tab.evaluate(
                "([r, c]) => document.querySelector('.mz-root').mz.visible(r, c)", list(target)
            )
        tab.fill(".mz-slider", str(guess.number - 1))
        tab.dispatch_event(".mz-slider", "change")
        idle(tab)
        board = session.board
        # The position before the guess, its probabilities, and the click outlined.
        assert_probabilities_match(tab, board)
        assert Fraction(exact(tab, guess.cell)["p"]) == guess.mine_probability
        assert "clicked" in cells[guess.cell]["marks"]
        assert guess.describe().strip() in text
        # The last step is the end of the game, with its luck.
        tab.fill(".mz-slider", str(session.steps - 1))
        tab.dispatch_event(".mz-slider", "change")
        idle(tab)
        end = tab.text_content(".mz-replay-text")
        # The short luck; a click on it shows the exact fraction.
        tab.click(".mz-replay-text")
        tab.wait_for_selector(".mz-exact:not([hidden])")
        luck = tab.text_content(".mz-exact-value")
    assert end.startswith(f"end: {analysed.result}")
    assert f"luck {share_text(analysed.luck)}" in end
    assert luck == str(analysed.luck)


def test_a_slow_solve_shows_working_and_keeps_the_last_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    solve_module = importlib.import_module("analyzer.solver.solve")  # the module, not the function
    board = Board.from_text("5x4x4\nHHHHH\nH211H\nH1H1H\nHHHHH\n")
    with opened(board, adjust_numbers=False) as (tab, _):
        before = shown(tab)
        real = solve_module.solve

        def slow(*args: Any, **kwargs: Any) -> Any:
            time.sleep(1.5)
            return real(*args, **kwargs)

        monkeypatch.setattr(solve_module, "solve", slow)
        box = rect(tab, (0, 0))
        tab.mouse.click(box["cx"], box["cy"], button="right")
        tab.wait_for_selector(".mz-root.mz-working")
        assert tab.is_visible(".mz-busy")
        during = shown(tab)
        assert {c: v["p"] for c, v in during.items()} == {c: v["p"] for c, v in before.items()}
        idle(tab)
        assert_probabilities_match(tab, board.replace({(0, 0): -2}))
        assert not tab.is_visible(".mz-busy")


def test_a_100x100_board_shows_the_solvers_probabilities() -> None:
    """Each cell's drawn probability and kind, and a sample of exact fractions: 100x100, 1,600 mines."""
    game = Game.new(100, 100, 1600, seed=3, first_click="opening")
    with opened(game) as (tab, session):
        click(tab, (50, 50))
        assert session.board == game.board and game.revealed_count > 1
        assert_probabilities_match(tab, game.board, sample=25)
        # The cell in view is the one asked for: the board scrolls to a far corner and back.
        far = (99, 99)
        box = rect(tab, far)
        assert tab.evaluate(
            "([x, y]) => document.elementFromPoint(x, y).classList.contains('mz-canvas')",
            [box["cx"], box["cy"]],
        )
        click(tab, far, "right")
        assert game.board.is_flagged(*far)


@pytest.mark.needs("ms_toollib")
def test_the_board_scrolls_to_each_replay_click_and_keeps_its_labels() -> None:
    """On a board larger than its window, each step's click is scrolled into view, the labels stay."""
    path = example_path("expert_30x16_99.rmv")
    analysed = analyse_replay(read_replay(path))
    session = Session(path)
    with WebServer(session, port=0) as server, page(700, 500) as tab:
        tab.goto(server.url)
        idle(tab)
        visible = "([r, c]) => document.querySelector('.mz-root').mz.visible(r, c)"
        far = [c.cell for c in analysed.clicks if c.cell[1] >= 25]
        assert far and not tab.evaluate(visible, list(far[0]))  # off-screen at first
        for click_ in (analysed.clicks[k] for k in (0, len(analysed.clicks) // 2, len(analysed.clicks) - 1)):
            tab.fill(".mz-slider", str(click_.number - 1))
            tab.dispatch_event(".mz-slider", "change")
            idle(tab)
            assert tab.evaluate(visible, list(click_.cell)), click_.cell
        # The column labels are drawn on the canvas's top edge whatever the scroll: read its pixels.
        tab.evaluate("() => document.querySelector('.mz-root').mz.scrollToCell(15, 29, true)")
        tab.wait_for_timeout(100)
        top_is_white = tab.evaluate(
            """() => {
                const canvas = document.querySelector('.mz-canvas');
                const scroll = document.querySelector('.mz-scroll');
                const ratio = window.devicePixelRatio || 1;
                const row = canvas.getContext('2d').getImageData(0, 2 * ratio, canvas.width, 1).data;
                let light = 0;
                for (let i = 0; i < row.length; i += 4) light += row[i] > 200 && row[i + 1] > 200;
                return [scroll.scrollTop + scroll.scrollLeft > 0, light / (row.length / 4)];
            }"""
        )
        assert top_is_white[0] and top_is_white[1] > 0.8  # scrolled, and the label strip is on top


def test_clicks_sent_faster_than_the_answers_all_count_in_order() -> None:
    game = Game.new(16, 16, 40, seed=9)
    game.reveal(8, 8)
    cells = [(r, c) for r, c in ((0, 0), (0, 15), (15, 0), (15, 15), (0, 7)) if game.board.is_hidden(r, c)]
    with opened(game) as (tab, session):
        boxes = [rect(tab, cell) for cell in cells]
        for box in boxes:  # no wait between the clicks
            tab.mouse.click(box["cx"], box["cy"], button="right")
        tab.wait_for_timeout(100)
        idle(tab)
        assert sorted(session.board.flagged_cells()) == sorted(cells)
        assert_probabilities_match(tab, session.board, sample=5, trust_flags=False)  # the player's marks
