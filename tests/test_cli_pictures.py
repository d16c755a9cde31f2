"""``analyzer solve|explain|web SHOT.png``: a screenshot is the board, the board read is printed
beside the analysis for a person to check, and a picture that cannot be read is one line.

The pictures are real ones of tests/pictures/real/ (tests/pictured.py): each run's analysis is
the one of the hand-typed transcription beside it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from analyzer.cli import main
from tests.pictured import BEGINNER, DESKTOP, UNSURE, transcription

ROOT = Path(__file__).resolve().parent.parent

pytest.importorskip("PIL")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def reading_text(path: Path, **options: object) -> str:
    from analyzer.pictures import read_picture

    return read_picture(path, **options).describe()  # type: ignore[arg-type]


@pytest.fixture
def mine(tmp_path: Path) -> Path:
    """Where a test writes a transcription as a .mine file."""
    return tmp_path / "board.mine"


def test_solve_a_desktop_screenshot_prints_the_board_read_then_the_analysis_of_its_transcription(
    capsys: pytest.CaptureFixture[str], mine: Path
) -> None:
    status, out, err = run(capsys, "solve", str(DESKTOP))
    assert status == 0 and err == ""
    expected = reading_text(DESKTOP)
    assert "99 mines (counter)" in expected.splitlines()[0]
    mine.write_text(transcription(DESKTOP).to_text())
    status, analysis, _ = run(capsys, "solve", str(mine))
    assert status == 0 and out == f"{expected}\n\n{analysis}"


def test_a_picture_is_known_by_its_bytes_not_its_name(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    renamed = tmp_path / "shot.mine"
    shutil.copyfile(BEGINNER, renamed)
    status, out, _ = run(capsys, "solve", "--skin", "online", str(renamed))
    assert status == 0 and out.startswith(reading_text(BEGINNER, skin="online"))


def test_solve_json_stays_json_with_the_reading_on_standard_error(
    capsys: pytest.CaptureFixture[str], mine: Path
) -> None:
    status, out, err = run(capsys, "solve", "--json", str(BEGINNER))
    assert status == 0 and err == reading_text(BEGINNER) + "\n\n"
    mine.write_text(transcription(BEGINNER).to_text())
    assert json.loads(out) == json.loads(run(capsys, "solve", "--json", str(mine))[1])


def test_mines_passes_to_the_reader(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "solve", "--mines", "100", str(DESKTOP))
    assert status == 0
    assert out.startswith(reading_text(DESKTOP, mines=100))
    assert "100 mines (option)" in out.splitlines()[0] and "30x16, 100 mines:" in out


def test_explain_a_screenshot(capsys: pytest.CaptureFixture[str], mine: Path) -> None:
    status, out, err = run(capsys, "explain", str(BEGINNER))
    mine.write_text(transcription(BEGINNER).to_text())
    _, expected, _ = run(capsys, "explain", str(mine))
    assert status == 0 and err == "" and "certainly safe" in expected
    assert out == f"{reading_text(BEGINNER)}\n\n{expected}"


def test_web_a_screenshot_opens_its_board_in_edit_mode_with_its_unsure_cell(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import analyzer.interactive.web as web

    served = []
    monkeypatch.setattr(web, "serve", lambda session, **options: served.append(session))
    status, out, _ = run(capsys, "web", "--no-browser", str(UNSURE))
    assert status == 0 and out == reading_text(UNSURE) + "\n"
    ((session,),) = [served]
    view = session.view()
    assert view["mode"] == "edit" and session.board == transcription(UNSURE)
    assert session.unsure == ((12, 28),) and view["marks"]["unsure"] == [12 * 30 + 28]
    assert view["picture"]["skin"] == "jsminesweeper" and view["picture"]["total_source"] == "counter"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("solve", "--skin", "online", "{board}"), "--skin applies to pictures only"),
        (("solve", "--skin", "nosuch", "{shot}"), "--skin 'nosuch': known skins are"),
        (("explain", "--mines", "3", "{board}"), "--mines applies to pictures only"),
        (("web", "--mines", "3", "{board}"), "--mines applies to a picture only"),
        (("solve", "--format", "mine", "{shot}"), "--format mine reads a board file, and"),
    ],
)
def test_options_for_pictures_only_are_usage_errors(
    capsys: pytest.CaptureFixture[str], mine: Path, argv: tuple[str, ...], message: str
) -> None:
    mine.write_text(transcription(BEGINNER).to_text())
    filled = [a.format(board=mine, shot=BEGINNER) for a in argv]
    status, out, err = run(capsys, *filled)
    assert status == 2 and out == "" and len(err.splitlines()) == 1 and message in err


def test_a_picture_that_cannot_be_read_is_one_line_with_status_1_not_a_traceback(tmp_path: Path) -> None:
    import io

    from PIL import Image

    truncated = tmp_path / "truncated.png"
    truncated.write_bytes(BEGINNER.read_bytes()[:200])
    plain = tmp_path / "plain.png"
    buffer = io.BytesIO()
    Image.new("RGB", (200, 120), (200, 200, 200)).save(buffer, format="PNG")
    plain.write_bytes(buffer.getvalue())
    for path in (truncated, plain):
        for command in ("solve", "explain", "web --no-browser --port 0"):
            done = subprocess.run(
                [sys.executable, "-m", "analyzer", *command.split(), str(path)],
                capture_output=True,
                text=True,
                cwd=ROOT,
                timeout=120,
            )
            assert done.returncode == 1 and done.stdout == "", (path, done)
            assert done.stderr.startswith("analyzer: error: ") and len(done.stderr.splitlines()) == 1, (
                done.stderr
            )


def test_the_guide_shows_what_the_command_prints(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/guide/pictures-front.md's ``$ analyzer solve PICTURE`` block is the command's output."""
    page = (ROOT / "docs" / "guide" / "pictures-front.md").read_text(encoding="utf-8")
    block = page.split("```text\n$ analyzer solve ", 1)[1].split("```", 1)[0]
    command, shown = block.split("\n", 1)
    status, out, _ = run(capsys, "solve", *command.split())
    assert status == 0 and "read a 9x9 board" in out and out == shown


def test_a_picture_piped_to_standard_input_is_read_as_a_file_is() -> None:
    """``xclip -o -t image/png | analyzer solve -``: the clipboard's screenshot, known by its bytes."""
    as_file = subprocess.run(
        [sys.executable, "-m", "analyzer", "solve", str(BEGINNER)], capture_output=True, cwd=ROOT, timeout=120
    )
    piped = subprocess.run(
        [sys.executable, "-m", "analyzer", "solve", "-"],
        input=BEGINNER.read_bytes(),
        capture_output=True,
        cwd=ROOT,
        timeout=120,
    )
    assert piped.returncode == 0 and piped.stderr == b"" and b"read a 9x9 board" in piped.stdout
    assert piped.stdout == as_file.stdout
    text = subprocess.run(  # a board's text piped in is read as before
        [sys.executable, "-m", "analyzer", "solve", "-"],
        input=transcription(BEGINNER).to_text().encode(),
        capture_output=True,
        cwd=ROOT,
        timeout=120,
    )
    assert text.returncode == 0 and piped.stdout.endswith(text.stdout)
