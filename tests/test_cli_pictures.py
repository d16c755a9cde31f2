"""``analyzer solve|explain|web SHOT.png``: a screenshot is the board, the board read is printed
beside the analysis for a person to check, and a picture that cannot be read is one line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from analyzer.cli import main
from tests.pictured import BOARD, screenshot

ROOT = Path(__file__).resolve().parent.parent
SKIN = ("--skin", "jsminesweeper")  # the reader tries one skin, not every: seconds less a read

pytest.importorskip("PIL")


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("cli_pictures")
    shot = folder / "shot"  # no suffix: a picture is known by its first bytes
    shot.write_bytes(screenshot())
    board = folder / "board.mine"
    board.write_text(BOARD, encoding="utf-8")
    return {"shot": shot, "board": board}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def reading_text(path: Path, **options: object) -> str:
    from analyzer.pictures import read_picture

    return read_picture(path, skin="jsminesweeper", **options).describe()  # type: ignore[arg-type]


def test_solve_a_screenshot_prints_the_board_read_then_the_analysis_of_it(
    capsys: pytest.CaptureFixture[str], files: dict[str, Path]
) -> None:
    status, out, err = run(capsys, "solve", str(files["shot"]))  # every skin tried
    assert status == 0 and err == ""
    expected = reading_text(files["shot"])
    assert "10 mines (preset)" in expected.splitlines()[0]
    assert "\n".join(expected.splitlines()[1:10]) == BOARD.strip().split("\n", 1)[1]
    status, analysis, _ = run(capsys, "solve", str(files["board"]))
    assert status == 0 and out == f"{expected}\n\n{analysis}"


def test_solve_json_stays_json_with_the_reading_on_standard_error(
    capsys: pytest.CaptureFixture[str], files: dict[str, Path]
) -> None:
    status, out, err = run(capsys, "solve", "--json", *SKIN, str(files["shot"]))
    assert status == 0 and err == reading_text(files["shot"]) + "\n\n"
    assert json.loads(out) == json.loads(run(capsys, "solve", "--json", str(files["board"]))[1])


def test_mines_passes_to_the_reader(capsys: pytest.CaptureFixture[str], files: dict[str, Path]) -> None:
    status, out, _ = run(capsys, "solve", "--mines", "12", *SKIN, str(files["shot"]))
    assert status == 0
    assert out.startswith(reading_text(files["shot"], mines=12))
    assert "12 mines (option)" in out.splitlines()[0] and "9x9, 12 mines:" in out


def test_explain_a_screenshot(capsys: pytest.CaptureFixture[str], files: dict[str, Path]) -> None:
    status, out, err = run(capsys, "explain", *SKIN, str(files["shot"]))
    _, expected, _ = run(capsys, "explain", str(files["board"]))
    assert status == 0 and err == "" and "certainly safe" in expected
    assert out == f"{reading_text(files['shot'])}\n\n{expected}"


def test_web_a_screenshot_opens_its_board_in_edit_mode_with_the_reading(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], files: dict[str, Path]
) -> None:
    import analyzer.interactive.web as web
    from analyzer import Board

    served = []
    monkeypatch.setattr(web, "serve", lambda session, **options: served.append(session))
    status, out, _ = run(capsys, "web", "--no-browser", *SKIN, str(files["shot"]))
    assert status == 0 and out == reading_text(files["shot"]) + "\n"
    ((session,),) = [served]
    view = session.view()
    assert view["mode"] == "edit" and session.board == Board.from_text(BOARD)
    assert view["picture"]["skin"] == "jsminesweeper" and view["picture"]["total_source"] == "preset"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("solve", "--skin", "jsminesweeper", "{board}"), "--skin applies to pictures only"),
        (("solve", "--skin", "nosuch", "{shot}"), "--skin 'nosuch': known skins are"),
        (("explain", "--mines", "3", "{board}"), "--mines applies to pictures only"),
        (("web", "--mines", "3", "{board}"), "--mines applies to a picture only"),
        (("solve", "--format", "mine", "{shot}"), "--format mine reads a board file, and"),
    ],
)
def test_options_for_pictures_only_are_usage_errors(
    capsys: pytest.CaptureFixture[str], files: dict[str, Path], argv: tuple[str, ...], message: str
) -> None:
    filled = [a.format(board=files["board"], shot=files["shot"]) for a in argv]
    status, out, err = run(capsys, *filled)
    assert status == 2 and out == "" and len(err.splitlines()) == 1 and message in err


def test_a_picture_that_cannot_be_read_is_one_line_with_status_1_not_a_traceback(
    files: dict[str, Path], tmp_path: Path
) -> None:
    import io

    from PIL import Image

    truncated = tmp_path / "truncated.png"
    truncated.write_bytes(files["shot"].read_bytes()[:200])
    plain = tmp_path / "plain.png"
    buffer = io.BytesIO()
    Image.new("RGB", (200, 120), (200, 200, 200)).save(buffer, format="PNG")
    plain.write_bytes(buffer.getvalue())
    for path in (truncated, plain):
        for command in ("solve", "explain"):
            done = subprocess.run(
                [sys.executable, "-m", "analyzer", command, str(path)],
                capture_output=True,
                text=True,
                cwd=ROOT,
                timeout=120,
            )
            assert done.returncode == 1 and done.stdout == "", (path, done)
            assert done.stderr.startswith("analyzer: error: ") and len(done.stderr.splitlines()) == 1, (
                done.stderr
            )
