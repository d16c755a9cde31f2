"""The interactive board on hexagonal, cube and graph boards, in headless Chromium (``analyzer web``'s page).

The cells are where :func:`analyzer.render.cell_centres` puts them in the static picture
(to scale), a click at a cell's drawn centre reaches that cell, a point most of the way to
a neighbour's centre reaches the neighbour, and every probability, reveal, flag and chord
is the library's on the same position.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from test_interactive_browser import assert_probabilities_match, best_cell, click, idle, opened, shown

from analyzer import FLAG, HIDDEN, Board, Game, solve
from analyzer.board.topology import neighbour_table
from analyzer.render import cell_centres

_CENTRES = """() => {
    const mz = document.querySelector('.mz-root').mz;
    const view = mz.view();
    const out = [];
    for (let r = 0; r < view.height; r++) {
        for (let c = 0; c < view.width; c++) {
            const box = mz.rect(r, c);
            out.push([box.cx, box.cy]);
        }
    }
    return [out, mz.zoom(), mz.geometry()];
}"""
_HITS = "(points) => points.map(([x, y]) => document.querySelector('.mz-root').mz.hit(x, y))"


def drawn_centres(tab: Any) -> tuple[list[tuple[float, float]], int, str]:
    centres, zoom, kind = tab.evaluate(_CENTRES)
    return [(x, y) for x, y in centres], zoom, kind


def assert_laid_out_as_the_static_picture(tab: Any, board: Board) -> list[tuple[float, float]]:
    """Every cell's drawn centre is the static picture's, scaled to the zoom and moved as one."""
    centres, zoom, _ = drawn_centres(tab)
    picture, unit = cell_centres(board)
    scale = zoom / unit
    dx, dy = centres[0][0] - picture[0][0] * scale, centres[0][1] - picture[0][1] * scale
    for index, ((x, y), (px, py)) in enumerate(zip(centres, picture, strict=True)):
        assert (x, y) == pytest.approx((px * scale + dx, py * scale + dy), abs=0.51), divmod(
            index, board.width
        )
    return centres


def assert_hits(tab: Any, board: Board, centres: list[tuple[float, float]], *, neighbours: bool) -> None:
    """A point near a cell's centre is that cell; with ``neighbours``, one 70% of the way to a neighbour's
    centre is the neighbour (the drawing puts the topology's neighbours side by side)."""
    zoom = drawn_centres(tab)[1]
    points, expected = [], []
    for index, (x, y) in enumerate(centres):
        cell = list(divmod(index, board.width))
        for k in range(6):
            angle = math.pi / 3 * k + 0.3
            points.append([x + 0.4 * zoom * math.cos(angle), y + 0.4 * zoom * math.sin(angle)])
            expected.append(cell)
        if neighbours:
            for j in neighbour_table(board.topology, board.width, board.height)[index]:
                nx, ny = centres[j]
                points.append([x + 0.7 * (nx - x), y + 0.7 * (ny - y)])
                expected.append(list(divmod(j, board.width)))
    assert tab.evaluate(_HITS, points) == expected


def hidden_guess(board: Board) -> tuple[int, int]:
    analysis = solve(board)
    return next(
        divmod(i, board.width)
        for i, p in enumerate(analysis.cell_probabilities)
        if p is not None and 0 < p < 1 and board.cells[i] == HIDDEN
    )


def test_a_hexagonal_board_is_drawn_as_hexagons_and_edited_by_clicking_them(tmp_path: Path) -> None:
    board = Board.from_text("7x6x6 hex\nHHHHHHH\nH21HHHH\nH1H1HHH\nHHHHHHH\nHHH01HH\nHHHHHHH\n")
    with opened(board, adjust_numbers=False) as (tab, session):  # the numbers stay as typed
        assert tab.get_attribute(".mz-root", "data-topology") == "hex"
        assert tab.text_content(".mz-caption").startswith("7x6 hex, 6 mines")
        centres = assert_laid_out_as_the_static_picture(tab, board)
        assert drawn_centres(tab)[2] == "hex"
        assert_hits(tab, board, centres, neighbours=True)
        assert_probabilities_match(tab, board)
        assert best_cell(tab) == solve(board).best_moves(1)[0].cell
        # A right click flags the hexagon clicked; a left click on a hidden one makes it a number.
        cell = hidden_guess(board)
        click(tab, cell, "right")
        flagged = board.replace({cell: FLAG})
        assert session.board == flagged
        assert_probabilities_match(tab, flagged)
        click(tab, (5, 6))
        numbered = flagged.replace({(5, 6): 0})
        assert session.board == numbered
        assert_probabilities_match(tab, numbered)
        tab.screenshot(path=str(tmp_path / "hex.png"))
        # Zoomed out, the hexagons are drawn as the bricks of their rows: the same places, the same hits.
        for _ in range(4):
            tab.click(".mz-zoom-out")
        assert tab.evaluate("() => document.querySelector('.mz-root').mz.zoom()") == 8
        centres = assert_laid_out_as_the_static_picture(tab, board)
        assert_hits(tab, board, centres, neighbours=True)
        click(tab, (5, 6), "right")
        assert session.board == numbered.replace({(5, 6): FLAG})


def test_a_hexagonal_game_reveals_flags_and_chords_on_the_six_neighbours() -> None:
    game = Game.new(9, 8, 12, seed=4, topology="hex")
    expected = Game.new(9, 8, 12, seed=4, topology="hex")
    with opened(game) as (tab, session):
        click(tab, (4, 4))
        expected.reveal(4, 4)
        assert session.board == expected.board and game.revealed_count > 1
        assert_probabilities_match(tab, game.board)
        # Flag every certain mine with right clicks, then chord a number whose mines are all flagged.
        for mine in solve(game.board).mines:
            click(tab, mine, "right")
            expected.toggle_flag(*mine)
        assert session.board == expected.board
        table = neighbour_table("hex", 9, 8)
        view = expected.board.cells
        chord = next(
            divmod(i, 9)
            for i, value in enumerate(view)
            if value > 0
            and sum(view[j] == FLAG for j in table[i]) == value
            and any(view[j] == HIDDEN for j in table[i])
        )
        click(tab, chord)
        expected.chord(*chord)
        assert session.board == expected.board
        assert_probabilities_match(tab, game.board)


def test_a_new_hexagonal_game_from_the_page_is_the_library_game() -> None:
    with opened(None) as (tab, session):
        tab.select_option(".mz-preset", "16,16,40")
        tab.select_option(".mz-play-topology", "hex")
        tab.fill(".mz-seed", "12")
        tab.click(".mz-play-controls button:text('new game')")
        idle(tab)
        assert tab.get_attribute(".mz-root", "data-topology") == "hex"
        click(tab, (8, 8))
        expected = Game.new(16, 16, 40, seed=12, topology="hex")
        expected.reveal(8, 8)
        assert session.board == expected.board
        assert_probabilities_match(tab, expected.board, sample=10)


def test_the_cube_is_drawn_as_its_net_and_played_by_clicking_its_faces(tmp_path: Path) -> None:
    game = Game.new(4, 24, 14, seed=2, topology="cube")
    expected = Game.new(4, 24, 14, seed=2, topology="cube")
    with opened(game) as (tab, session):
        assert tab.text_content(".mz-caption").startswith("cube of 4x4 faces, 14 mines")
        centres = assert_laid_out_as_the_static_picture(tab, game.board)
        assert drawn_centres(tab)[2] == "cube"
        assert_hits(tab, game.board, centres, neighbours=False)
        for cell in ((1, 1), (13, 2)):  # on the top face, then on the bottom one (the net's fourth face)
            if expected.is_finished or not expected.board.is_hidden(*cell):
                continue
            click(tab, cell)
            expected.reveal(*cell)
            assert session.board == expected.board
        if not expected.is_finished:
            assert_probabilities_match(tab, game.board)
            guess = hidden_guess(game.board)
            click(tab, guess, "right")
            expected.toggle_flag(*guess)
            assert session.board == expected.board
        tab.screenshot(path=str(tmp_path / "cube.png"))


def test_a_graph_board_is_drawn_at_its_positions_and_opened_and_saved_as_json(tmp_path: Path) -> None:
    # A ring of six cells around a middle one, placed where the file says.
    ring = [((i + 1) % 6, (i + 5) % 6, 6) for i in range(6)]
    board = Board.from_graph(
        [*ring, list(range(6))],
        [HIDDEN, 1, HIDDEN, HIDDEN, 2, HIDDEN, HIDDEN],
        2,
        names=["a", "b", "c", "d", "e", "f", "mid"],
        positions=[(math.cos(k * math.pi / 3), math.sin(k * math.pi / 3)) for k in range(6)] + [(0.0, 0.0)],
    )
    with opened(Game.new(9, 9, 10, seed=1), adjust_numbers=False) as (tab, session):
        # Open the graph's JSON as a person does, with the file picker.
        tab.set_input_files(
            ".mz-file",
            files=[{"name": "ring.json", "mimeType": "application/json", "buffer": board.to_text().encode()}],
        )
        idle(tab)
        assert session.board == board
        assert tab.get_attribute(".mz-root", "data-topology") == "graph"
        centres = assert_laid_out_as_the_static_picture(tab, board)
        assert_hits(tab, board, centres, neighbours=False)
        assert_probabilities_match(tab, board)
        click(tab, (0, 6), "right")
        flagged = board.replace({(0, 6): FLAG})
        assert session.board == flagged
        assert shown(tab)[(0, 6)]["kind"] == "flag"
        box = tab.evaluate("() => document.querySelector('.mz-root').mz.rect(0, 6)")
        tab.mouse.move(box["cx"], box["cy"])
        tab.wait_for_function(
            "() => document.querySelector('.mz-hover').textContent.startsWith('cell mid: flag')"
        )
        # Save: the position's file is the graph's JSON, read back as the same board.
        with tab.expect_download() as download:
            tab.select_option(".mz-save", "mine")
        saved = Path(download.value.path()).read_text()
        assert download.value.suggested_filename == "ring.json"
    assert Board.from_text(saved) == flagged


def test_a_square_only_action_says_so_on_a_hexagonal_game() -> None:
    game = Game.new(9, 9, 10, seed=3, topology="hex")
    game.reveal(4, 4)
    with opened(game) as (tab, session):
        tab.select_option(".mz-save", "mbf")
        idle(tab)
        assert tab.text_content(".mz-note") == (
            "an .mbf file holds a square board's layout, not one on a hex board:"
            " save the .mine position instead"
        )
        with tab.expect_download() as download:
            tab.select_option(".mz-save", "mine")
        assert Path(download.value.path()).read_text().startswith("9x9x10 hex\n")
        assert session.board == game.board
