"""``Board.from_image``: a screenshot becomes the board it shows, through the one reader; lazy imports."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from analyzer import Board
from analyzer.errors import PictureError
from tests.pictured import BEGINNER, BOARD, DESKTOP, screenshot, transcription

ROOT = Path(__file__).resolve().parent.parent

pytest.importorskip("PIL")


@pytest.fixture(scope="module")
def shot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("shot") / "shot.png"
    path.write_bytes(screenshot())
    return path


def test_a_screenshot_becomes_the_board_it_shows_as_the_reader_reads_it(shot: Path) -> None:
    from analyzer.pictures import read_picture

    board = Board.from_image(shot, skin="jsminesweeper")
    assert board == Board.from_text(BOARD)
    assert board == read_picture(shot.read_bytes(), skin="jsminesweeper").board


def test_real_screenshots_as_a_path_and_as_bytes_are_their_transcriptions() -> None:
    assert Board.from_image(DESKTOP) == transcription(DESKTOP)  # a whole desktop, XP's window in it
    assert Board.from_image(BEGINNER.read_bytes()) == transcription(BEGINNER)


def test_the_mine_total_given_is_the_boards(shot: Path) -> None:
    board = Board.from_image(str(shot), mines=12, skin="jsminesweeper")
    assert board.mines == 12 and board.cells == Board.from_text(BOARD).cells


def test_bytes_that_are_no_picture_and_an_unknown_skin_are_one_line_picture_errors(shot: Path) -> None:
    with pytest.raises(PictureError) as error:
        Board.from_image(BOARD.encode())
    assert "\n" not in str(error.value)
    with pytest.raises(PictureError, match="unknown skin 'nosuch'"):
        Board.from_image(shot, skin="nosuch")


def test_import_analyzer_and_the_board_load_neither_pillow_nor_the_reader() -> None:
    probe = (
        "import sys, json, analyzer\n"
        "from analyzer import Board\n"
        "Board.from_text('3x1x1\\nH1H\\n')\n"
        "print(json.dumps(sorted(m for m in sys.modules"
        " if m.split('.')[0] == 'PIL' or m.startswith('analyzer.pictures'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT)
    assert json.loads(out.stdout.splitlines()[-1]) == []
    # the probe sees them once a picture is read
    loads = probe.replace("Board.from_text('3x1x1\\nH1H\\n')", "import analyzer.pictures, PIL.Image")
    seen = subprocess.run(
        [sys.executable, "-c", loads],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    assert loads != probe and "PIL.Image" in json.loads(seen.stdout.splitlines()[-1])
