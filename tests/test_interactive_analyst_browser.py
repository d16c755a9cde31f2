"""The analyst's second pass (issue 55) as the page shows it, in headless Chromium.

The keyboard's cell cursor and its live region, the ranked candidate guesses,
numbers that follow flags, a position shared by URL, replay keys between guesses
and the end game's winning line; each checked against the session or the library.
The session's side is tested in tests/test_interactive_analyst.py.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from test_interactive_browser import idle, opened, rect

from analyzer import Board, Game, solve
from analyzer.interactive.session import Session
from analyzer.interactive.web import WebServer
from analyzer.replays import analyse_replay, example_path, read_replay

CURSOR = "() => document.querySelector('.mz-root').mz.cursor()"


def press(tab, *keys: str) -> None:
    for key in keys:
        tab.keyboard.press(key)
    tab.wait_for_timeout(50)
    idle(tab)


def test_the_keyboard_alone_moves_a_cursor_reveals_flags_and_reads_each_cell() -> None:
    with opened(Game.new(9, 9, 10, seed=6)) as (tab, session):  # (4, 4) opens an area
        tab.mouse.move(1, 1)  # the pointer off the board: the keys act on the cursor
        tab.focus(".mz-root")
        outline = tab.evaluate("() => getComputedStyle(document.querySelector('.mz-root')).outlineStyle")
        assert outline != "none"  # a visible focus
        press(tab, "ArrowDown", *["ArrowDown"] * 4, *["ArrowRight"] * 4)  # the first press puts it at (0, 0)
        assert tab.evaluate(CURSOR) == [4, 4]
        press(tab, "Enter")
        game = session.game
        assert game is not None and game.revealed_count > 0 and game.board[4, 4] >= 0
        odds = solve(game.board, trust_flags=False)
        hidden = next(c for c in game.board.hidden_cells() if c[0] > 4 and 0 < odds.probability(*c) < 1)
        for _ in range(hidden[0] - 4):
            press(tab, "j")  # h j k l too, in play mode
        for _ in range(abs(hidden[1] - 4)):
            press(tab, "l" if hidden[1] > 4 else "h")
        assert tab.evaluate(CURSOR) == list(hidden)
        p = odds.probability(*hidden)
        live_has = "(t) => document.querySelector('.mz-live').textContent.includes(t)"
        tab.wait_for_function(live_has, arg=f"({p})")
        live = tab.text_content(".mz-live")
        assert live.startswith(f"row {hidden[0]}, column {hidden[1]}: ") and f"({p})" in live
        assert tab.get_attribute(".mz-live", "aria-live") == "polite"
        press(tab, "f")
        assert session.game.board[hidden] == -2
        # Over the board the keys act on the cell under the pointer: ? asks why? of a certain cell.
        analysis = session.analysis
        assert analysis is not None and analysis.safe
        certain = analysis.safe[0]
        box = rect(tab, certain)
        tab.mouse.move(box["cx"], box["cy"])
        press(tab, "?")
        assert session.view()["why"]["cell"] == list(certain)
        assert "why_cell" in tab.evaluate(
            "([r, c]) => document.querySelector('.mz-root').mz.info(r, c).marks", list(certain)
        )
        assert "arrows" in tab.text_content(".mz-keys")  # the key help under the board


def test_on_the_page_the_board_keeps_the_keys_after_the_pointer_leaves_it() -> None:
    # In a notebook the focus goes back to the notebook when the pointer leaves the widget; the
    # page has no notebook, so a person moving the pointer away keeps the cell cursor's keys.
    with opened(Game.new(9, 9, 10, seed=6)) as (tab, _session):
        box = rect(tab, (2, 2))
        tab.mouse.move(box["cx"], box["cy"])  # over the board: the cursor follows the pointer
        tab.mouse.move(1, 1)
        assert tab.evaluate("() => document.activeElement.classList.contains('mz-root')")
        press(tab, "ArrowRight")
        assert tab.evaluate(CURSOR) == [2, 3]


def test_the_ranked_candidates_table_and_numbers_that_follow_flags() -> None:
    with opened("3x3x2\nHHH\nH2H\nHHH\n") as (tab, session):
        tab.click(".mz-candidates-toggle")
        idle(tab)
        rows = tab.eval_on_selector_all(
            ".mz-candidates tbody tr",
            "rows => rows.map(r => [r.dataset.cell,"
            " [...r.querySelectorAll('td[data-exact]')].map(d => d.dataset.exact)])",
        )
        want = session.candidates()["rows"]
        assert len(rows) == 5 and rows[0] == ["0,0", ["3/4", "11/28", "19/28"]]
        names = ("safety", "progress", "secondary")
        figures = [[",".join(map(str, r["cell"])), [r[k] for k in names]] for r in want]
        assert rows == figures
        tab.click(".mz-candidates tbody tr:nth-child(5)")
        assert tab.evaluate(CURSOR) == want[4]["cell"]
        # Edit: a flag beside the 2 makes it a 3 (the button says it is on); off, the 2 stays.
        assert tab.get_attribute(".mz-adjust-numbers", "aria-pressed") == "true"
        box = rect(tab, (0, 0))
        tab.mouse.click(box["cx"], box["cy"], button="right")
        tab.wait_for_timeout(50)
        idle(tab)
        assert session.board == Board.from_text("3x3x2\nFHH\nH3H\nHHH\n")
        tab.click(".mz-adjust-numbers")
        idle(tab)
        box = rect(tab, (0, 2))
        tab.mouse.click(box["cx"], box["cy"], button="right")
        tab.wait_for_timeout(50)
        idle(tab)
        assert session.board == Board.from_text("3x3x2\nFHF\nH3H\nHHH\n")
        # Edit from the keyboard: the cursor (left on (0, 2) by the pointer) down two, a 1; Enter cycles.
        tab.mouse.move(1, 1)
        tab.focus(".mz-root")
        press(tab, "ArrowDown", "ArrowDown", "1")
        assert tab.evaluate(CURSOR) == [2, 2] and session.board[2, 2] == 1
        press(tab, "ArrowLeft", "Enter")
        assert session.board[2, 1] == 0  # hidden -> the flags around it


def test_a_position_shared_by_url_opens_on_another_page() -> None:
    position = "5x4x4\nHHHHH\nH211H\nH1H1H\nHHHHH\n"
    with opened(position) as (tab, _):
        tab.context.grant_permissions(["clipboard-read", "clipboard-write"])
        tab.click(".mz-copy-link")
        tab.wait_for_function("() => window.location.hash.startsWith('#b=')")
        fragment = tab.evaluate("() => window.location.hash")
        assert len(fragment) < 200 and "211" not in fragment  # packed, not the text
        other = Session("3x1x1\nH1H\n")
        with WebServer(other, port=0) as server:
            tab.goto(server.url + fragment)
            tab.wait_for_function("() => document.querySelector('.mz-root').dataset.cols === '5'")
            idle(tab)
            assert other.board == Board.from_text(position) and other.mode == "edit"
            tab.goto(server.url + "#b=!!")  # a broken link says so, and changes nothing
            tab.wait_for_function("() => document.querySelector('.mz-note').textContent.length > 0")
            assert tab.text_content(".mz-note").startswith("the link's position could not be read")
            assert other.board == Board.from_text(position)
    # Too large for a link: the reason, no link.
    digits = random.Random(1)
    numbers = "".join(str(digits.randrange(9)) for _ in range(150 * 150))  # random: deflate cannot shrink it
    big = "150x150x0\n" + "\n".join(numbers[k : k + 150] for k in range(0, len(numbers), 150)) + "\n"
    with opened(big) as (tab, _):
        tab.click(".mz-copy-link")
        tab.wait_for_function("() => document.querySelector('.mz-note').textContent.startsWith('no link')")
        assert "save it as a .mine file instead" in tab.text_content(".mz-note")
        assert tab.evaluate("() => window.location.hash") == ""


@pytest.mark.needs("ms_toollib")
def test_replay_keys_jump_between_guesses() -> None:
    path = example_path("beginner_8x8_10.avf")
    analysed = analyse_replay(read_replay(path))
    guesses = [k for k, click in enumerate(analysed.clicks) if click.is_guess]
    assert len(guesses) >= 2
    with opened(path) as (tab, session):
        tab.mouse.move(1, 1)
        tab.focus(".mz-root")
        press(tab, "[")  # a refusal said from the keyboard alone
        assert tab.text_content(".mz-note") == "no guess before this click"
        press(tab, "]")
        assert session.step == guesses[0]
        press(tab, "Shift+ArrowRight")
        assert session.step == guesses[1]
        press(tab, "[")
        assert session.step == guesses[0]
        press(tab, "End")
        assert session.step == session.steps - 1
        press(tab, "Shift+ArrowLeft")
        assert session.step == guesses[-1]
        tab.click(".mz-previous-guess")
        idle(tab)
        assert session.step == guesses[-2]
        tab.focus(".mz-root")  # the button had the focus (and its own keys)
        press(tab, "Home")
        assert session.step == 0


def test_the_win_chance_shows_its_winning_line() -> None:
    with opened("4x2x2\nHHHH\n1HH1\n") as (tab, session):
        tab.click(".mz-win")
        idle(tab)
        tab.wait_for_selector(".mz-win-line:not([hidden])")
        assert tab.text_content(".mz-win-line summary").startswith("winning line: reveal (0, 1)")
        tab.click(".mz-win-line summary")
        assert tab.is_visible(".mz-win-line-text")
        text = tab.text_content(".mz-win-line-text")
        assert text == session.win_chance()["line_text"]
        assert text.startswith("reveal (0, 1) (a mine 1/3 of the time): wins 4/9")
        assert Fraction(session.win_chance()["p"]) == Fraction(4, 9)
