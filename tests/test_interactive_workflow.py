"""The analyst's workflow on the interactive board, without a browser: each action against the library.

Open and paste, save, undo and redo, drag-painting and the wheel, auto-play, dead
cells and forced 50/50s, the exact chance to win, and a replay's timeline.
What the page shows of them is tested in tests/test_interactive_workflow_browser.py.
"""

from __future__ import annotations

import base64
import itertools
import os
import tempfile
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from strategies import examples, game_boards

from analyzer import Board, Game, solve
from analyzer.board.board import FLAG, HIDDEN
from analyzer.interactive import session as session_module
from analyzer.interactive.session import MAX_UPLOAD_BYTES, Session, board_from_text, dead_cells
from analyzer.play.forced import pseudo_fifty_fifties
from analyzer.replays import analyse_replay, example_path, read_replay

BOARD = "5x4x4\nHHHHH\nH211H\nH1H1H\nHHHHH\n"


def opened(session: Session, name: str, data: bytes) -> None:
    session.act({"type": "open", "name": name, "data": base64.b64encode(data).decode()})


# ----------------------------------------------------------------- open, paste, save
def test_open_reads_a_mine_file_from_its_bytes() -> None:
    session = Session()
    opened(session, "corner.mine", BOARD.encode())
    assert session.note == "" and session.mode == "edit"
    assert session.board == Board.from_text(BOARD)
    assert session.view()["name"] == "corner"


def test_open_reads_an_mbf_layout_into_play_mode() -> None:
    game = Game.from_layout(9, 9, [(0, 0), (4, 4), (8, 8)])
    session = Session(BOARD)
    opened(session, "layout.MBF", game.to_mbf())
    assert session.note == "" and session.mode == "play" and session.game is not None
    assert session.game.mines == game.mines


@pytest.mark.needs("ms_toollib")
@pytest.mark.parametrize("name", ["beginner_8x8_10.avf", "beginner_8x8_10.evf", "expert_30x16_99.rmv"])
def test_open_reads_a_replay_from_its_bytes_in_a_private_folder_it_removes(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    session = Session(BOARD)
    opened(session, name, Path(example_path(name)).read_bytes())
    assert session.note == "" and session.mode == "replay" and session.replay is not None
    expected = analyse_replay(read_replay(example_path(name)))
    assert session.replay.clicks == expected.clicks
    assert session.replay.replay.path == name  # the name shown, not the temporary file's
    assert list(tmp_path.iterdir()) == []


@pytest.mark.needs("ms_toollib")
def test_a_broken_replay_is_named_by_its_own_name() -> None:
    session = Session(BOARD)
    opened(session, "broken.avf", b"not a replay at all")
    assert session.note.startswith("cannot read 'broken.avf'") or "'broken.avf'" in session.note
    assert "upload" not in session.note and session.mode == "edit"
    assert session.board == Board.from_text(BOARD)


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("x.mine", "not base64!", "the bytes of 'x.mine' are not base64"),
        ("x.mine", "", "'x.mine' is empty"),
        ("", "AAAA", "open needs the file's name, got ''"),
        ("x.bin", base64.b64encode(b"\xff\xfe\x00").decode(), "'x.bin' is not text: open a .mine"),
        ("x.mbf", base64.b64encode(bytes([3, 2, 0, 9])).decode(), "bad MBF: header promises 9 mines"),
        ("x.mine", base64.b64encode(b"3x1x1\nH?H\n").decode(), "line 2, column 2: unknown character '?'"),
    ],
)
def test_a_bad_file_is_refused_and_changes_nothing(name: str, data: str, message: str) -> None:
    session = Session(BOARD)
    session.act({"type": "open", "name": name, "data": data})
    assert message in session.note
    assert session.mode == "edit" and session.board == Board.from_text(BOARD)
    assert session.view()["history"] == {"undo": 0, "redo": 0}


def test_an_oversized_file_or_board_is_refused_before_it_is_read() -> None:
    session = Session(BOARD)
    session.act({"type": "open", "name": "big.mine", "data": "A" * (MAX_UPLOAD_BYTES // 3 * 4 + 8)})
    assert session.note == "'big.mine' is larger than a file opened here (20 MiB)"
    wide = "H" * 20_001 + "\n"
    opened(session, "wide.mine", f"20001x1x1\n{wide}".encode())
    assert session.note == "a board is at most 20,000 cells a side, got 20001x1"
    session.act({"type": "paste", "text": wide * 2, "mines": 1})
    assert session.note == "a board is at most 20,000 cells a side, got 20001x2"
    assert session.board == Board.from_text(BOARD)


def test_no_action_reads_a_path(tmp_path: Path) -> None:
    """A path in an action is text like any other: never opened (files come as bytes)."""
    path = tmp_path / "secret.mine"
    path.write_text("3x1x1\nH1H\n")
    session = Session(BOARD)
    session.act({"type": "paste", "text": str(path)})
    assert session.note == "text without a 'WxHxM' header needs the mine total (the mines field)"
    session.act({"type": "paste", "text": str(path), "mines": 1})
    assert "unknown character" in session.note
    session.act({"type": "open", "name": str(path), "data": base64.b64encode(str(path).encode()).decode()})
    assert session.note == "text without a 'WxHxM' header needs the mine total (the mines field)"
    assert session.board == Board.from_text(BOARD)


@pytest.mark.parametrize(
    ("text", "mines"),
    [
        (BOARD, None),
        ("  5x4x4\r\n  HHHHH\r\n\r\n  H211H\r\n  H1H1H\r\n  HHHHH  \r\n", None),
        ("HHHHH\nH211H\nH1H1H\nHHHHH\n", 4),
        ("xxxxx\nx211x\nx1x1x\nxxxxx\n", "4"),
    ],
)
def test_paste_reads_mine_text_and_rows_with_the_mine_total(text: str, mines: object) -> None:
    session = Session(Board.from_text("2x1x0\n00\n"))
    session.act({"type": "paste", "text": text, "mines": mines})
    assert session.note == "" and session.board == Board.from_text(BOARD)
    assert board_from_text(text, None if mines is None else int(str(mines))) == Board.from_text(BOARD)


def test_save_makes_the_files_of_the_position_and_the_layout() -> None:
    session = Session(BOARD)
    session.act({"type": "cell", "cell": [0, 0], "button": "right"})
    session.act({"type": "save", "format": "mine"})
    download = session.view()["download"]
    assert download["name"] == "board.mine" and download["mime"] == "text/plain"
    assert base64.b64decode(download["data"]).decode() == session.board.to_text()
    session.act({"type": "save", "format": "minesweepr"})
    assert base64.b64decode(session.download["data"]).decode() == session.board.to_minesweepr()  # type: ignore[index]
    first = session.download["id"]  # type: ignore[index]
    session.act({"type": "save", "format": "mbf"})
    assert session.note.startswith("an .mbf file holds a mine layout") and session.download is None
    session.act({"type": "new_game", "width": 9, "height": 9, "mines": 10, "seed": 4})
    session.act({"type": "cell", "cell": [4, 4]})
    session.act({"type": "save", "format": "mbf"})
    assert session.game is not None and session.download is not None
    assert base64.b64decode(session.download["data"]) == session.game.to_mbf()
    assert session.download["id"] > first and session.download["name"] == "board.mbf"
    session.act({"type": "cell", "cell": [0, 0], "button": "right"})
    assert session.view()["download"] is None  # one answer only
    session.act({"type": "save", "format": "png"})
    assert session.note == "save as 'mine', 'minesweepr', 'mbf' or 'svg', got 'png'"


@pytest.mark.needs("ms_toollib")
def test_save_mbf_of_a_replay_is_its_layout() -> None:
    session = Session(example_path("beginner_8x8_10.avf"))
    session.act({"type": "save", "format": "mbf"})
    assert session.download is not None
    game = Game.from_mbf(base64.b64decode(session.download["data"]))
    assert game.mines == read_replay(example_path("beginner_8x8_10.avf")).layout


# ----------------------------------------------------------------- undo, paint, wheel
def test_undo_and_redo_take_back_edits_and_moves() -> None:
    session = Session(BOARD)
    start = session.board
    session.act({"type": "key", "cell": [0, 0], "key": "f"})
    edited = session.board
    session.act({"type": "mines", "mines": 5})
    assert session.view()["history"] == {"undo": 2, "redo": 0}
    session.act({"type": "undo"})
    assert session.board == edited
    session.act({"type": "undo"})
    assert session.board == start and session.view()["history"] == {"undo": 0, "redo": 2}
    session.act({"type": "undo"})
    assert session.note == "nothing to undo" and session.board == start
    session.act({"type": "redo"})
    assert session.board == edited
    session.act({"type": "key", "cell": [3, 4], "key": "f"})  # a new edit forgets what could be redone
    assert session.view()["history"] == {"undo": 2, "redo": 0}
    session.act({"type": "redo"})
    assert session.note == "nothing to redo"

    session.act({"type": "new_game", "width": 9, "height": 9, "mines": 10, "seed": 2})
    game_start = session.board
    session.act({"type": "cell", "cell": [4, 4]})
    after_click = session.board
    hidden = next(iter(after_click.hidden_cells()))
    session.act({"type": "cell", "cell": list(hidden), "button": "right"})
    assert session.board[hidden] == FLAG
    session.act({"type": "undo"})
    assert session.board == after_click
    session.act({"type": "undo"})
    assert session.board == game_start and session.mode == "play"
    session.act({"type": "cell", "cell": [4, 4]})  # the same seed: the same game after the same click
    assert session.board == after_click
    session.act({"type": "undo"})
    session.act({"type": "undo"})  # back to the edit before the new game
    assert session.mode == "edit" and session.board.cells[-1] == FLAG


@pytest.mark.needs("ms_toollib")
def test_refused_actions_and_replay_steps_are_not_undone() -> None:
    session = Session(example_path("beginner_8x8_10.avf"))
    session.act({"type": "step", "step": 3})
    session.act({"type": "cell", "cell": [99, 0]})
    assert session.view()["history"] == {"undo": 0, "redo": 0}


def test_the_history_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(session_module, "HISTORY_STEPS", 3)
    session = Session(BOARD)
    for mines in range(5, 10):
        session.act({"type": "mines", "mines": mines})
    assert session.view()["history"]["undo"] == 3
    monkeypatch.setattr(session_module, "HISTORY_CELLS", 45)  # two boards of 20 cells
    session.act({"type": "mines", "mines": 4})
    assert session.view()["history"]["undo"] == 2


def test_paint_sets_many_cells_as_one_edit() -> None:
    session = Session(BOARD, adjust_numbers=False)
    session.act({"type": "paint", "cells": [[0, 0], [0, 1], [0, 2]], "value": "flag"})
    assert session.board.cells[:3] == (FLAG,) * 3
    session.act({"type": "paint", "cells": [[3, 0], [3, 1]], "value": 0})
    assert session.board.cells[15:17] == (0, 0)
    session.act({"type": "paint", "cells": [[0, 0], [9, 9]], "value": "hidden"})
    assert session.note == "cell (9, 9) is off the 5x4 board" and session.board.cells[0] == FLAG
    session.act({"type": "paint", "cells": [[0, 0]], "value": 9})
    assert session.note == "a number is 0-8, got 9"
    session.act({"type": "undo"})
    assert session.board.cells[15:17] == (HIDDEN, HIDDEN) and session.board.cells[:3] == (FLAG,) * 3
    session.act({"type": "paint", "cells": [[2, 0], [2, 2]], "value": "like", "like": [1, 1]})  # a drag
    assert session.board[2, 0] == session.board[2, 2] == 2


def test_the_wheel_steps_a_number_within_its_neighbours() -> None:
    session = Session("3x2x1\nHHH\nHHH\n")
    for _ in range(3):
        session.act({"type": "wheel", "cell": [0, 0], "delta": 1})
    assert session.board[0, 0] == 2
    for _ in range(3):
        session.act({"type": "wheel", "cell": [0, 0], "delta": 1})
    assert session.board[0, 0] == 3  # a corner has three neighbours
    for _ in range(3):
        session.act({"type": "wheel", "cell": [0, 0], "delta": -1})
    assert session.board[0, 0] == 0
    session.act({"type": "wheel", "cell": [0, 0], "delta": -1})
    assert session.board[0, 0] == HIDDEN
    session.act({"type": "wheel", "cell": [0, 0], "delta": -1})
    assert session.note == "cell (0, 0) is not a number: scroll up to make it one"


def test_the_view_counts_the_mines_left() -> None:
    session = Session(BOARD)
    assert session.view()["mines_left"] == 4
    session.act({"type": "key", "cell": [0, 0], "key": "f"})
    assert session.view()["mines_left"] == 3
    session.act({"type": "new_game", "width": 9, "height": 9, "mines": 10, "seed": 1})
    session.act({"type": "cell", "cell": [0, 0], "button": "right"})
    assert session.view()["mines_left"] == 9


# ----------------------------------------------------------------- auto-play
def test_autoplay_plays_the_certain_cells_and_stops_at_the_next_guess() -> None:
    session = Session(Game.new(16, 16, 40, seed=5))
    session.act({"type": "cell", "cell": [8, 8]})
    session.act({"type": "autoplay", "until": "guess"})
    assert session.game is not None
    if not session.game.is_finished:
        assert session.note.startswith("auto-play stopped at a guess; best guess (")
        board = session.board
        analysis = solve(board)
        assert all(p != 0 for i, p in enumerate(analysis.cell_probabilities) if board.cells[i] == HIDDEN)
    assert session.view()["history"]["undo"] == 2  # one step for the whole run


def test_autoplay_to_the_end_finishes_the_game_and_undo_takes_it_back() -> None:
    session = Session(Game.new(9, 9, 10, seed=11))
    start = session.board
    session.act({"type": "autoplay", "until": "end"})
    assert session.game is not None and session.game.is_finished
    assert session.note.startswith(f"auto-play: game {session.game.status} after ")
    session.act({"type": "undo"})
    assert session.board == start and not session.game.is_finished
    session.act({"type": "autoplay", "until": "never"})
    assert session.note == "auto-play goes until 'guess' or 'end', got 'never'"


def test_autoplay_does_not_trust_a_wrong_flag_and_stops_at_its_time(monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game.from_layout_text("*.\n..\n..\n")
    game.reveal(2, 0)
    session = Session(game)
    assert session.board.hidden_cells() == ((0, 0), (0, 1))
    session.act({"type": "cell", "cell": [0, 1], "button": "right"})  # wrong: trusted, (0, 0) would look safe
    assert session.analysis is not None and session.analysis.probability(0, 0) == Fraction(1, 2)
    session.act({"type": "autoplay", "until": "guess"})
    assert game.status == "playing"
    assert session.note.startswith("auto-play stopped at a guess; best guess (0, 0) guess: 50.0% mine")
    # Trusted, the flag is a fact for auto-play as for the analysis shown: (0, 0) is safe, and a mine.
    session.act({"type": "trust_flags", "on": True})
    assert session.analysis is not None and session.analysis.probability(0, 0) == 0
    session.act({"type": "autoplay", "until": "guess"})
    assert game.status == "lost" and game.fatal_cell == (0, 0)
    monkeypatch.setattr(session_module, "AUTOPLAY_SECONDS", -1.0)
    session = Session(Game.new(9, 9, 10, seed=11))
    session.act({"type": "autoplay", "until": "end"})
    assert session.note == "auto-play stopped after -1 s (after 0 safe clicks, 0 guesses)"


# ----------------------------------------------------------------- dead cells, 50/50s
def _brute_numbers(board: Board) -> dict[int, set[int]]:
    """Each hidden cell's possible numbers when safe, over every layout (flags are mines)."""
    cells = board.cells
    table = board.neighbour_table
    unknown = [i for i, v in enumerate(cells) if v == HIDDEN]
    left = board.mines - cells.count(FLAG)
    found: dict[int, set[int]] = {i: set() for i in unknown}
    for mined in itertools.combinations(unknown, left):
        mines = set(mined) | {i for i, v in enumerate(cells) if v == FLAG}
        if all(v < 0 or sum(j in mines for j in table[i]) == v for i, v in enumerate(cells)):
            for i in unknown:
                if i not in mines:
                    found[i].add(sum(j in mines for j in table[i]))
    return found


@settings(max_examples=examples(40), deadline=None)
@given(game_boards(max_side=5, max_unknown=10))
def test_dead_cells_are_the_cells_in_doubt_that_can_show_one_number(board: Board) -> None:
    analysis = solve(board)
    numbers = _brute_numbers(board)
    doubt = [
        i for i, p in enumerate(analysis.cell_probabilities) if board.cells[i] == HIDDEN and p not in (0, 1)
    ]
    dead, looked, total = dead_cells(board, analysis)
    assert looked == total == len(doubt)
    assert dead == [i for i in doubt if len(numbers[i]) == 1]


def test_marks_are_the_librarys_dead_cells_and_50_50s() -> None:
    board = Board.from_text("6x3x4\nHH1HHF\n11113F\n000011\n")  # a chain of two pairs along the wall
    session = Session(board)
    view = session.view()
    assert "fifty" not in view["marks"] and view["marks_text"] is None
    session.act({"type": "marks", "on": True})
    view = session.view()
    assert view["marks"]["fifty"] == pseudo_fifty_fifties(board, solve(board), chains=True) == [0, 1, 3, 4]
    assert view["marks"]["dead"] == dead_cells(board, solve(board))[0]
    assert view["marks_text"].endswith("4 cells in forced 50/50s") and view["shown"]["marks"]


def test_the_dead_cell_search_stops_at_its_time_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(session_module, "MARK_SECONDS", -1.0)
    session = Session(BOARD)
    session.act({"type": "marks", "on": True})
    assert "(dead cells looked for in 0 of 14 cells in -1 s)" in session.view()["marks_text"]
    monkeypatch.setattr(session_module, "MARK_CELLS", 19)
    session.act({"type": "key", "cell": [0, 0], "key": "h"})  # a new position: the marks again
    assert "(50/50s are looked for on boards of at most 19 cells)" in session.view()["marks_text"]


# ----------------------------------------------------------------- the chance to win
def _best_play(board: Board) -> Fraction:
    """The chance to win with best play by a plain expectimax over the layouts (no flood fill needed:
    a zero's neighbours are safe to reveal for nothing)."""
    cells = board.cells
    table = board.neighbour_table
    unknown = [i for i, v in enumerate(cells) if v == HIDDEN]
    flags = {i for i, v in enumerate(cells) if v == FLAG}
    left = board.mines - len(flags)
    layouts = []
    for mined in itertools.combinations(unknown, left):
        mines = set(mined) | flags
        if all(v < 0 or sum(j in mines for j in table[i]) == v for i, v in enumerate(cells)):
            layouts.append(frozenset(mines))

    @cache
    def wins(live: frozenset[int]) -> int:
        if len(live) == 1:
            return 1
        best = 0
        for cell in unknown:
            groups: dict[int, set[int]] = {}
            for k in live:
                if cell not in layouts[k]:
                    groups.setdefault(sum(j in layouts[k] for j in table[cell]), set()).add(k)
            if len(groups) == 1 and len(next(iter(groups.values()))) == len(live):
                continue  # safe everywhere with one number: tells nothing
            best = max(best, sum(wins(frozenset(group)) for group in groups.values()))
        return best

    return Fraction(wins(frozenset(range(len(layouts)))), len(layouts))


@settings(max_examples=examples(40), deadline=None)
@given(game_boards(max_side=5, max_unknown=8))
def test_the_win_chance_is_best_plays_exact_chance(board: Board) -> None:
    session = Session(board)
    session.act({"type": "win", "on": True})
    win = session.view()["win"]
    assert Fraction(win["p"]) == _best_play(board), win["text"]


def test_the_win_chance_of_small_cases_and_why_it_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Session("3x1x1\nHHH\n").win_chance()["p"] == "2/3"
    assert Session("2x3x1\nHH\n11\n00\n").win_chance()["p"] == "1/2"
    assert Session("3x1x1\nF1H\n").win_chance()["p"] == "1/1"
    session = Session(Game.new(30, 16, 99, seed=1))
    session.act({"type": "win", "on": True})
    assert session.view()["win"]["text"].startswith("before the first click the first-click rule decides")
    session.act({"type": "cell", "cell": [8, 8]})
    text = session.view()["win"]["text"]
    assert text == "more than 2,000 layouts remain: too many for the exact search"
    monkeypatch.setattr(session_module, "WIN_NODES", 1)
    session = Session("5x1x2\nHHHHH\n")
    assert session.win_chance()["text"] == "the exact search passed 1 positions: too large"


def test_the_win_chance_in_play_does_not_trust_the_players_flags() -> None:
    game = Game.from_layout_text("*.*\n...\n...\n")
    game.reveal(2, 1)
    session = Session(game)
    assert session.board.hidden_cells() == ((0, 0), (0, 1), (0, 2))
    assert session.win_chance()["p"] == "1/1"
    session.act({"type": "cell", "cell": [0, 1], "button": "right"})  # a wrong flag
    assert session.win_chance()["p"] == "1/1"
    # Trusted, the flag is a mine for the win chance as for the analysis: as edit mode takes it.
    session.act({"type": "trust_flags", "on": True})
    trusted = session.win_chance()["p"]
    assert trusted == Session(session.board).win_chance()["p"] and trusted != "1/1"


# ----------------------------------------------------------------- a replay's timeline
@pytest.mark.needs("ms_toollib")
def test_the_timeline_gives_each_clicks_risk_and_next_guess_says_when_there_is_none() -> None:
    session = Session(example_path("beginner_8x8_10.avf"))
    timeline = session.view()["timeline"]
    clicks = session.replay.clicks  # type: ignore[union-attr]
    assert timeline["risk"] == [float(c.mine_probability) for c in clicks]
    assert timeline["guess"] == [c.is_guess for c in clicks]
    guesses = [k for k, c in enumerate(clicks) if c.is_guess]
    for k in [g for g in guesses if g > 0]:
        session.act({"type": "guess", "direction": 1})
        assert session.step == k and session.note == ""
    session.act({"type": "guess", "direction": 1})
    assert session.note == "no guess after this click: the rest of the game was certain"
    assert session.step == guesses[-1]
    session.act({"type": "guess", "direction": -1})
    assert session.step == guesses[-2]


def test_a_note_is_for_one_answer_only() -> None:
    session = Session(BOARD)
    session.act({"type": "fly"})
    assert session.view()["note"] == "unknown action 'fly'"
    session.act({"type": "marks", "on": False})
    assert session.view()["note"] == ""


def _unused(*args: Any) -> None:  # keeps os imported for tmp checks on other platforms
    os.fspath(".")


def test_save_svg_draws_every_cell_as_the_library_sees_it() -> None:
    import xml.etree.ElementTree as ElementTree

    from analyzer.render import percent_text, probability_colour

    board = Board.from_text(BOARD).replace({(0, 0): FLAG})
    session = Session(board)
    session.act({"type": "marks", "on": True})
    session.act({"type": "save", "format": "svg"})
    assert session.download is not None and session.download["name"] == "board.svg"
    assert session.download["mime"] == "image/svg+xml"
    tree = ElementTree.fromstring(base64.b64decode(session.download["data"]))
    ns = "{http://www.w3.org/2000/svg}"
    squares = {r.get("data-cell"): r for r in tree.iter(ns + "rect") if r.get("data-cell")}
    texts = {(t.get("x"), t.get("y")): t.text for t in tree.iter(ns + "text")}
    analysis = solve(board)
    assert len(squares) == 20
    for index, p in enumerate(analysis.cell_probabilities):
        row, col = divmod(index, 5)
        square = squares[f"{row},{col}"]
        at = (str(float(square.get("x")) + 12), str(float(square.get("y")) + 12))  # type: ignore[arg-type]
        if board.cells[index] >= 1:
            assert texts[at] == str(board.cells[index])
        elif board.cells[index] == FLAG:
            assert texts[at] == "⚑"
        elif p is not None and 0 < p < 1:
            assert square.get("fill") == probability_colour(float(p)) and texts[at] == percent_text(p)
    best = [r for r in tree.iter(ns + "rect") if r.get("class") == "mz-mark-best"]
    assert len(best) <= 1
    session.act({"type": "resize", "width": 600, "height": 600, "mines": 10})
    session.act({"type": "save", "format": "svg"})
    assert session.note.startswith("an SVG of 360,000 cells is too large (at most 250,000)")


def test_the_win_chance_of_a_large_end_game_flags_its_certain_mines_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """1,600 certain mines around one safe cell left: one layout, a sure win (no search over the mines)."""
    game = Game.new(100, 100, 1600, seed=3)
    game.reveal(50, 50)
    mines = game.mines
    assert mines is not None
    left = [
        (r, c)
        for r in range(100)
        for c in range(100)
        if (r, c) not in mines and not game.board.is_revealed(r, c)
    ]
    for cell in left[1:]:
        if not game.board.is_revealed(*cell):
            game.reveal(*cell)
    session = Session(game)
    assert not game.is_finished
    win = session.win_chance()
    assert win["p"] == "1/1" and win["cell"] == list(left[0])
    monkeypatch.setattr(session_module, "WIN_HIDDEN", 0)
    session = Session(game)
    assert session.win_chance()["text"] == (
        "1 hidden cell besides the certain mines: the exact search takes at most 0"
    )


def test_play_best_reveals_the_best_move_under_a_flag_that_is_not_trusted() -> None:
    game = Game.from_layout_text("*.\n..\n..\n")
    game.reveal(2, 0)
    session = Session(game)
    session.act({"type": "cell", "cell": [0, 1], "button": "right"})  # a wrong flag on a 50/50
    best = session.best_move()
    assert best is not None
    if best.cell != (0, 1):  # make the best move the flagged cell: flag the other one instead
        session.act({"type": "cell", "cell": [0, 1], "button": "right"})
        session.act({"type": "cell", "cell": list(best.cell), "button": "right"})
    flagged = session.board.flagged_cells()[0]
    assert session.best_move() is not None and session.best_move().cell == flagged  # type: ignore[union-attr]
    session.act({"type": "play_best"})
    assert session.note == "" and (game.board.is_revealed(*flagged) or game.fatal_cell == flagged)
