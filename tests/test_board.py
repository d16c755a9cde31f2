"""Tests of :mod:`analyzer.board.board`: text formats, value semantics, neighbourhoods, parse errors."""

from __future__ import annotations

import dataclasses
import pickle
import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from strategies import examples, game_boards, mine_texts, numbered_boards

from analyzer import FLAG, HIDDEN, Board, BoardParseError
from analyzer.board.topology import TOPOLOGIES

boards = st.one_of(game_boards(), numbered_boards())


# ------------------------------------------------------------ round trips
@given(boards)
def test_canonical_text_round_trips(board):
    text = board.to_text()
    assert Board.from_text(text) == board
    assert Board.from_text(text).to_text() == text
    assert text.endswith("\n") and "\r" not in text
    assert text.splitlines()[0] == f"{board.width}x{board.height}x{board.mines}"


@given(boards)
def test_repr_evaluates_back(board):
    assert eval(repr(board), {"Board": Board}) == board


@given(boards, st.sampled_from([t for t in TOPOLOGIES if t != "cube"]))  # a cube is n by 6n: test_topology
def test_repr_evaluates_back_with_any_topology(board, topology):
    board = Board(board.width, board.height, board.mines, board.cells, topology)
    again = eval(repr(board), {"Board": Board})
    assert again == board and again.topology == topology


@given(
    boards,
    st.sampled_from(["\n", "\r\n", "\r"]),
    st.text(" \t", max_size=3),
    st.sampled_from(["", "\n", "\n\n", "\r\n", "\n  \n"]),
)
def test_line_ends_trailing_blanks_and_final_newlines_are_accepted(board, line_end, blanks, ending):
    lines = board.to_text().splitlines()
    text = line_end.join(line + blanks for line in lines) + ending
    assert Board.from_text(text) == board


def test_text_without_final_newline_is_accepted():
    assert Board.from_text("2x1x1\nH1") == Board.from_text("2x1x1\nH1\n")


@given(boards)
def test_str_is_the_grid(board):
    assert str(board) == "\n".join(board.to_text().splitlines()[1:])


@given(boards)
def test_minesweepr_format_round_trips(board):
    ascii_rows = board.to_minesweepr()
    assert set(ascii_rows) <= set(".12345678x*\n")
    assert Board.from_minesweepr(ascii_rows, board.mines) == board


def test_minesweepr_format_reads_its_symbols():
    board = Board.from_minesweepr("\n  x1.\n  *2.\n\n", mines=2)
    assert board.to_text() == "3x2x2\nH10\nF20\n"
    assert board.to_minesweepr() == "x1.\n*2.\n"


@given(boards)
def test_from_grid_agrees_with_from_text(board):
    assert Board.from_grid(str(board).split("\n"), mines=board.mines) == board


# ------------------------------------------------------- value semantics
def test_equal_boards_hash_alike_and_work_as_keys():
    a = Board.from_text("3x2x1\nH1H\n111\n")
    b = Board.from_text("3x2x1\r\nH1H  \r\n111\r\n")
    c = Board(3, 2, 1, [HIDDEN, 1, HIDDEN, 1, 1, 1])
    assert a == b == c and hash(a) == hash(b) == hash(c)
    assert len({a, b, c}) == 1
    assert {a: "x"}[c] == "x"


@pytest.mark.parametrize(
    "other",
    [
        Board.from_text("3x2x2\nHFH\n111\n"),  # different cells and mines
        Board.from_text("3x2x2\nH1H\n111\n"),  # different mine total
        Board(3, 2, 1, (HIDDEN, 1, HIDDEN, 1, 1, 1), "torus"),  # different topology
        Board.from_text("2x3x1\nH1\nH1\n11\n"),  # different shape
    ],
)
def test_boards_that_differ_are_unequal(other):
    board = Board.from_text("3x2x1\nH1H\n111\n")
    assert board != other


def test_board_is_not_equal_to_its_text():
    assert Board.from_text("1x1x0\n0\n") != "1x1x0\n0\n"


@given(boards)
def test_pickling_keeps_value_and_hash(board):
    again = pickle.loads(pickle.dumps(board))
    assert again == board and hash(again) == hash(board)


def test_board_is_immutable():
    board = Board.from_text("3x2x1\nH1H\n111\n")
    with pytest.raises(dataclasses.FrozenInstanceError):
        board.mines = 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        board.cells = ()
    assert isinstance(board.cells, tuple)
    assert isinstance(Board(2, 1, 1, [HIDDEN, 1]).cells, tuple)


def test_replace_returns_a_new_board_and_leaves_the_old_one():
    board = Board.from_text("3x2x1\nH1H\n111\n")
    changed = board.replace({(0, 0): FLAG})
    assert changed.to_text() == "3x2x1\nF1H\n111\n"
    assert board.to_text() == "3x2x1\nH1H\n111\n"
    assert board.replace(mines=2).mines == 2 and board.mines == 1
    assert board.replace() == board


def test_replace_validates_the_new_board():
    board = Board.from_text("3x2x1\nH1H\n111\n")
    with pytest.raises(BoardParseError, match=r"more mines \(3\) than unrevealed cells \(2\)"):
        board.replace(mines=3)
    with pytest.raises(BoardParseError, match=r"bad cell value 9"):
        board.replace({(0, 0): 9})
    with pytest.raises(IndexError, match=r"outside"):
        board.replace({(2, 0): 1})


def test_accessors():
    board = Board.from_text("3x2x2\nHF1\n012\n")
    assert board[0, 0] == HIDDEN and board[0, 1] == FLAG and board[1, 2] == 2
    assert board.hidden_cells() == ((0, 0),)
    assert board.flagged_cells() == ((0, 1),)
    assert board.revealed_cells() == ((0, 2), (1, 0), (1, 1), (1, 2))
    assert board.mines_left == 1
    assert board.is_hidden(0, 0) and board.is_flagged(0, 1) and board.is_revealed(1, 0)
    assert list(board.rows()) == [(HIDDEN, FLAG, 1), (0, 1, 2)]
    with pytest.raises(IndexError):
        board[2, 0]
    with pytest.raises(IndexError):
        board.index(0, -1)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((0, 1, 0, ()), "board must be at least 1x1, got 0x1"),
        ((2, 1, 0, (0,)), "expected 2 cells for 2x1, got 1"),
        ((1, 1, 0, (9,)), "bad cell value 9"),
        ((1, 1, -1, (HIDDEN,)), "mine count must be a non-negative integer, got -1"),
        ((2, 1, 0, (FLAG, 1)), "fewer mines (0) than flags (1)"),
        ((2, 1, 2, (HIDDEN, 1)), "more mines (2) than unrevealed cells (1)"),
        ((1, 1, 0, (0,), "spherical"), "unknown topology 'spherical'"),
    ],
)
def test_constructor_validates(args, message):
    with pytest.raises(BoardParseError, match=re.escape(message)):
        Board(*args)


# ------------------------------------------------------------ neighbours
# ---------------------------------------------------------- parse errors
@pytest.mark.parametrize(
    ("text", "message", "line", "column"),
    [
        # wrong row length: too short, too long
        ("3x2x1\nH1H\n11\n", "row '11' has 2 cells, expected 3", 3, 3),
        ("2x2x1\nH1\n111\n", "row '111' has 3 cells, expected 2", 3, 3),
        # unknown characters
        ("2x2x1\nH1\n1?\n", "unknown character '?' in '1?'", 3, 2),
        ("2x2x1\nh1\n11\n", "unknown character 'h' in 'h1'", 2, 1),
        ("2x2x1\nH9\n11\n", "unknown character '9' in 'H9'", 2, 2),
        ("2x2x1\n H\n11\n", "unknown character ' ' in ' H'", 2, 1),
        # bad or missing header
        ("2x2\nH1\n11\n", "bad header '2x2': expected 'WIDTHxHEIGHTxMINES', e.g. '9x9x10'", 1, 1),
        ("H1\n11\n", "bad header 'H1': expected 'WIDTHxHEIGHTxMINES'", 1, 1),
        ("2x2x-1\nHH\nHH\n", "bad header '2x2x-1'", 1, 1),
        ("axbxc\nH\n", "bad header 'axbxc'", 1, 1),
        ("2x2x1x0\nH1\n11\n", "bad header '2x2x1x0'", 1, 1),
        ("0x2x0\n\n\n", "bad header '0x2x0': board must be at least 1x1", 1, 1),
        ("2x0x0\n", "bad header '2x0x0': board must be at least 1x1", 1, 1),
        # wrong number of rows: too few (points at the first missing one), too many
        ("2x3x1\nH1\n11\n", "header '2x3x1' promises 3 rows, found 2", 4, None),
        ("2x1x1\nH1\n11\n", "header '2x1x1' promises 1 row, found 2", 3, None),
        ("2x2x1\n", "header '2x2x1' promises 2 rows, found 0", 2, None),
        # mine totals
        ("2x2x0\nF1\n11\n", "fewer mines (0) than flags (1)", 1, None),
        ("2x2x5\nHH\nHH\n", "more mines (5) than cells (4)", 1, None),
        ("2x2x3\nH1\nH1\n", "more mines (3) than hidden and flagged cells (2)", 1, None),
        ("2x2x2\nF1\n11\n", "more mines (2) than hidden and flagged cells (1)", 1, None),
        # empty text
        ("", "empty text: expected a header 'WIDTHxHEIGHTxMINES'", 1, None),
        ("\n \r\n\t\n", "empty text", 1, None),
    ],
)
def test_parse_errors_name_line_and_column(text, message, line, column):
    where = f"line {line}" + (f", column {column}" if column is not None else "") + ": "
    with pytest.raises(BoardParseError, match="^" + re.escape(where + message)) as info:
        Board.from_text(text)
    assert (info.value.line, info.value.column) == (line, column)
    assert isinstance(info.value, ValueError)


def test_parse_error_of_non_text():
    with pytest.raises(BoardParseError, match="expected text, got bytes"):
        Board.from_text(b"1x1x0\n0\n")


@pytest.mark.parametrize(
    ("text", "mines", "message", "line", "column"),
    [
        ("x1\nx?\n", 1, "unknown character '?' in 'x?'", 2, 2),
        ("x1\n\nx11\n", 1, "row 'x11' has 3 cells, expected 2", 3, None),
        ("\n\n", 0, "empty board", 1, None),
        ("x1\n", 3, "more mines (3) than cells (2)", None, None),
        ("*1\n", 0, "fewer mines (0) than flags (1)", None, None),
        ("x1\n", -1, "mine count must be a non-negative integer, got -1", None, None),
    ],
)
def test_minesweepr_parse_errors(text, mines, message, line, column):
    with pytest.raises(BoardParseError, match=re.escape(message)) as info:
        Board.from_minesweepr(text, mines)
    assert (info.value.line, info.value.column) == (line, column)


# Headers with "digits" that are not ASCII ones, or too many of them: str.isdigit()
# says yes to "²" (which int() refuses) and to "١" (which int() reads as 1), and
# int() refuses strings of more than 4300 digits.
_TRICKY_HEADERS = ["²x1x0\n0\n", "١x1x0\n0\n", "1x1x" + "0" * 5000 + "\n0\n"]


@pytest.mark.parametrize(
    "text", _TRICKY_HEADERS, ids=["superscript-two", "arabic-indic-one", "5000-digit-mines"]
)
def test_unparsable_header_numbers_are_parse_errors(text):
    with pytest.raises(BoardParseError) as info:
        Board.from_text(text)
    assert info.value.line == 1


@settings(max_examples=examples(500), deadline=None)
@given(mine_texts())
@example("²x1x0\n0\n")
def test_from_text_returns_a_board_or_raises_a_parse_error(text):
    try:
        board = Board.from_text(text)
    except BoardParseError as error:
        assert error.line is None or error.line >= 1
        assert error.column is None or error.column >= 1
    else:
        assert Board.from_text(board.to_text()) == board


@pytest.mark.parametrize("end", ["\n", "\r\n", "\r"])
def test_minesweepr_text_reads_every_line_end(end: str) -> None:
    """LF, CRLF and a lone CR (classic Mac OS files) all end a row."""
    text = end.join(["x1.", "x1.", ""])
    assert Board.from_minesweepr(text, 1).to_text() == "3x2x1\nH10\nH10\n"
