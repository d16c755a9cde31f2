"""The analyst's workflow on ``analyzer web``'s page in headless Chromium, each checked against the library.

Open (picker, drop, paste), save (.mine, MBF, a picture), undo, painting and the
wheel, auto-play, dead cells and 50/50 marks, the chance to win and a replay's
timeline; a note does not survive a reload.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

from test_interactive_browser import click, idle, opened, rect, shown

from analyzer import Board, Game, solve
from analyzer.board.board import FLAG, HIDDEN
from analyzer.interactive.session import dead_cells
from analyzer.play.forced import pseudo_fifty_fifties
from analyzer.play.players.endgame import endgame_layouts, endgame_search
from analyzer.replays import analyse_replay, example_path, read_replay

BOARD = "5x4x4\nHHHHH\nH211H\nH1H1H\nHHHHH\n"
CHAIN = "6x3x4\nHH1HHF\n11113F\n000011\n"  # two pairs along the wall: a chain of 50/50s

DROP = """([name, bytes, text]) => {
    const data = new DataTransfer();
    if (name) data.items.add(new File([new Uint8Array(bytes)], name));
    else data.setData('text/plain', text);
    const target = document.querySelector('.mz-canvas');
    for (const type of ['dragover', 'drop']) {
        target.dispatchEvent(new DragEvent(type, {dataTransfer: data, bubbles: true, cancelable: true}));
    }
}"""

PASTE = """(text) => {
    const data = new DataTransfer();
    data.setData('text/plain', text);
    document.querySelector('.mz-root').focus();
    document.querySelector('.mz-root').dispatchEvent(
        new ClipboardEvent('paste', {clipboardData: data, bubbles: true, cancelable: true}));
}"""


def settle(tab: Any) -> None:
    tab.wait_for_timeout(150)  # the action leaves the page (a file is read first)
    idle(tab)


def test_open_reads_the_file_chosen_in_the_picker(tmp_path: Path) -> None:
    path = tmp_path / "corner.mine"
    path.write_text(BOARD)
    with opened(Game.new(9, 9, 10, seed=1)) as (tab, session):
        tab.set_input_files(".mz-file", str(path))
        settle(tab)
        assert session.mode == "edit" and session.board == Board.from_text(BOARD)
        cells = shown(tab)
        assert len(cells) == 20 and tab.get_attribute(".mz-root", "data-mode") == "edit"
        analysis = solve(Board.from_text(BOARD))
        for index, p in enumerate(analysis.cell_probabilities):
            if p is not None:
                assert Fraction(p) == 0 or cells[divmod(index, 5)]["p"] is not None


def test_a_dropped_replay_opens_with_its_timeline_and_a_click_on_it_jumps_there() -> None:
    name = "beginner_8x8_10.avf"
    data = list(Path(example_path(name)).read_bytes())
    expected = analyse_replay(read_replay(example_path(name)))
    with opened(BOARD) as (tab, session):
        tab.evaluate(DROP, [name, data, ""])
        settle(tab)
        assert session.mode == "replay" and session.replay is not None
        assert session.replay.clicks == expected.clicks
        ticks = tab.eval_on_selector_all(
            ".mz-tick", "ts => ts.map(t => [Number(t.dataset.step), Number(t.dataset.risk), t.title])"
        )
        assert [t[1] for t in ticks] == [float(c.mine_probability) for c in expected.clicks]
        guesses = [k for k, c in enumerate(expected.clicks) if c.is_guess]
        assert all("a guess" in ticks[k][2] for k in guesses)
        target = len(ticks) // 2
        tab.click(f'.mz-tick[data-step="{target}"]')
        settle(tab)
        assert session.step == target
        assert tab.evaluate("document.querySelector('.mz-root').mz.view().replay.step") == target
        assert tab.get_attribute(".mz-tick.mz-on", "data-step") == str(target)
        clicked = [c for c, v in shown(tab).items() if "clicked" in v["marks"]]
        assert clicked == [expected.clicks[target].cell]


def test_a_dropped_board_text_and_a_pasted_one_open_in_edit_mode() -> None:
    with opened(Game.new(9, 9, 10, seed=1)) as (tab, session):
        tab.evaluate(DROP, ["", [], BOARD])
        settle(tab)
        assert session.mode == "edit" and session.board == Board.from_text(BOARD)
        tab.evaluate(PASTE, CHAIN)
        settle(tab)
        assert session.board == Board.from_text(CHAIN)
        # Rows without a header take the mine total from its field.
        tab.fill(".mz-mines", "1")
        tab.evaluate(PASTE, "x1.\nx1.\n")
        settle(tab)
        assert session.board == Board.from_minesweepr("x1.\nx1.\n", 1)
        assert tab.get_attribute(".mz-root", "data-cols") == "3"


def test_save_downloads_the_positions_mine_text_the_layouts_mbf_and_a_png() -> None:
    with opened(BOARD, adjust_numbers=False) as (tab, session):
        click(tab, (0, 0), "right")
        with tab.expect_download() as download:
            tab.select_option(".mz-save", "mine")
        saved = Path(download.value.path()).read_text()
        assert download.value.suggested_filename == "board.mine"
        assert saved == session.board.to_text() == Board.from_text(BOARD).replace({(0, 0): FLAG}).to_text()
        with tab.expect_download() as download:
            tab.select_option(".mz-save", "png")
        picture = Path(download.value.path()).read_bytes()
        assert picture[:8] == b"\x89PNG\r\n\x1a\n" and download.value.suggested_filename == "board.png"
        with tab.expect_download() as download:
            tab.select_option(".mz-save", "svg")
        svg = Path(download.value.path()).read_text()
        assert download.value.suggested_filename == "board.svg"
        assert svg.startswith("<svg") and svg.count("data-cell=") == 20
        tab.select_option(".mz-save", "mbf")  # a position has no layout: said, nothing saved
        settle(tab)
        assert tab.text_content(".mz-note").startswith("an .mbf file holds a mine layout")
    with opened(Game.new(9, 9, 10, seed=3)) as (tab, session):
        click(tab, (4, 4))
        with tab.expect_download() as download:
            tab.select_option(".mz-save", "mbf")
        assert session.game is not None
        assert Path(download.value.path()).read_bytes() == session.game.to_mbf()


def test_undo_and_redo_from_the_buttons_and_the_keys() -> None:
    with opened(BOARD, adjust_numbers=False) as (tab, session):
        start = session.board
        assert tab.is_disabled(".mz-undo")
        click(tab, (0, 0), "right")
        flagged = session.board
        assert flagged == start.replace({(0, 0): FLAG})
        tab.click(".mz-undo")
        settle(tab)
        assert session.board == start and shown(tab)[0, 0]["kind"] != "flag"
        tab.click(".mz-redo")
        settle(tab)
        assert session.board == flagged and shown(tab)[0, 0]["kind"] == "flag"
        tab.focus(".mz-root")
        tab.keyboard.press("Control+z")
        settle(tab)
        assert session.board == start
        tab.keyboard.press("Control+y")
        settle(tab)
        assert session.board == flagged


def test_dragging_paints_and_the_wheel_steps_a_number() -> None:
    with opened("6x2x5\nHHHHHH\nHHHHHH\n") as (tab, session):
        first = rect(tab, (0, 0))
        tab.mouse.move(first["cx"], first["cy"])
        tab.mouse.down(button="right")  # the first cell: a flag
        for c in (1, 2, 3):
            box = rect(tab, (0, c))
            tab.mouse.move(box["cx"], box["cy"], steps=3)
        tab.mouse.up(button="right")
        settle(tab)
        assert session.board.cells[:6] == (FLAG, FLAG, FLAG, FLAG, HIDDEN, HIDDEN)
        # The wheel: Alt over a hidden cell makes a number, then plain wheel steps it.
        box = rect(tab, (1, 5))
        tab.mouse.move(box["cx"], box["cy"])
        tab.keyboard.down("Alt")
        tab.mouse.wheel(0, -100)
        tab.keyboard.up("Alt")
        settle(tab)
        assert session.board[1, 5] == 0
        tab.mouse.wheel(0, -100)
        settle(tab)
        assert session.board[1, 5] == 1 and shown(tab)[1, 5]["text"] == "1"
        tab.mouse.wheel(0, 100)
        settle(tab)
        assert session.board[1, 5] == 0


def test_autoplay_stops_at_the_next_guess_and_plays_to_the_end() -> None:
    with opened(Game.new(16, 16, 40, seed=5)) as (tab, session):
        click(tab, (8, 8))
        tab.click(".mz-auto-guess")
        settle(tab)
        game = session.game
        assert game is not None
        if not game.is_finished:
            board = game.board
            analysis = solve(board)
            assert not [
                i for i, p in enumerate(analysis.cell_probabilities) if p == 0 and board.cells[i] == HIDDEN
            ]
            assert tab.text_content(".mz-note").startswith("auto-play stopped at a guess; best guess ")
            cells = shown(tab)  # once: each reading asks the page for every cell
            assert cells and all(
                cells[divmod(i, 16)]["kind"] == ("number" if v >= 0 else cells[divmod(i, 16)]["kind"])
                for i, v in enumerate(board.cells)
            )
        tab.click(".mz-auto-end")
        settle(tab)
        assert game.is_finished
        assert tab.text_content(".mz-note").startswith(f"auto-play: game {game.status} after ")


def test_marks_show_the_librarys_dead_cells_and_forced_50_50s() -> None:
    board = Board.from_text(CHAIN)
    analysis = solve(board)
    with opened(board) as (tab, _):
        assert not [c for c, v in shown(tab).items() if "fifty" in v["marks"]]
        tab.click(".mz-marks")
        settle(tab)
        cells = shown(tab)
        fifty = sorted(board.index(*c) for c, v in cells.items() if "fifty" in v["marks"])
        dead = sorted(board.index(*c) for c, v in cells.items() if "dead" in v["marks"])
        text = tab.text_content(".mz-marks-text")
    assert fifty == pseudo_fifty_fifties(board, analysis, chains=True) == [0, 1, 3, 4]
    assert dead == dead_cells(board, analysis)[0]
    assert "4 cells in forced 50/50s" in text


def test_the_win_chance_is_the_end_games_exact_value() -> None:
    board = Board.from_text("5x2x2\nHHHHH\n1221H\n")
    layouts = endgame_layouts(board, limit=1000)
    assert layouts is not None
    found = endgame_search(board, layouts, max_nodes=100_000)
    assert found is not None
    p = Fraction(found[1], len(layouts))
    with opened(board) as (tab, session):
        tab.click(".mz-win")
        settle(tab)
        text = tab.text_content(".mz-win-text")
        assert session.view()["win"]["p"] == f"{p.numerator}/{p.denominator}"
    assert text.startswith("chance to win with best play: ") and f"{p.numerator}/{p.denominator}" in text
    with opened(Game.new(30, 16, 99, seed=2)) as (tab, _):
        click(tab, (8, 8))
        tab.click(".mz-win")
        settle(tab)
        assert (
            tab.text_content(".mz-win-text")
            == "more than 2,000 layouts remain: too many for the exact search"
        )


def test_next_guess_after_the_last_guess_says_so_and_a_note_does_not_survive_a_reload() -> None:
    path = example_path("beginner_8x8_10.avf")
    clicks = analyse_replay(read_replay(path)).clicks
    last = max(k for k, c in enumerate(clicks) if c.is_guess)
    with opened(path) as (tab, session):
        tab.click(f'.mz-tick[data-step="{last}"]')
        settle(tab)
        assert session.step == last
        tab.click(".mz-next-guess")
        settle(tab)
        assert session.step == last and "no guess after this click" in tab.text_content(".mz-note")
        tab.focus(".mz-root")
        tab.keyboard.press("Control+z")  # nothing to undo: the session's note
        settle(tab)
        assert tab.text_content(".mz-note") == "nothing to undo" and session.note == "nothing to undo"
        tab.reload()
        idle(tab)
        assert tab.is_hidden(".mz-note") or tab.text_content(".mz-note") == ""
