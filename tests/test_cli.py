"""The command line: output, JSON, standard input, and one clear line for every error."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from analyzer.cli import main
from analyzer.play.positions import clue_lattice

EXAMPLES = Path(__file__).resolve().parent.parent / "analyzer" / "examples"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_solve_prints_percentages_and_marks(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "solve", str(EXAMPLES / "cs70_4x3_4.mine"))
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "4x3, 4 mines: 3 among 9 unknown cells; P(mine) in %"
    assert lines[1].split() == ["0", "1", "2", "3"]
    assert lines[2].split() == ["0"] + ["25"] * 4
    assert lines[3].split() == ["1", "F", "50", "33", "33"]
    assert lines[4].split() == ["2", "[2]", "50", "[2]", "33"]
    assert lines[5].startswith("24 layouts")


def test_solve_marks_certain_cells(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    board = tmp_path / "b.mine"
    board.write_text("4x1x1\nH10H\n")
    status, out, _ = run(capsys, "solve", str(board))
    assert status == 0
    assert out.splitlines()[2].split() == ["0", "*", "[1]", "[.]", "-"]
    assert "1 certainly safe, 1 certain mine;" in out  # one mine: singular


def test_solve_json_has_exact_fractions(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "solve", "--json", str(EXAMPLES / "cs70_figure2_4x4_6.mine"))
    assert status == 0
    data = json.loads(out)
    assert (data["width"], data["height"], data["mines"], data["total"]) == (4, 4, 6, "57")
    assert data["probabilities"][2][1] == "2/19"
    assert data["probabilities"][1][1] is None
    assert Fraction(data["probabilities"][0][0]) == Fraction(17, 57)


def test_solve_reads_standard_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("3x1x1\nH1H\n"))
    status, out, _ = run(capsys, "solve", "-", "--json")
    assert status == 0
    assert json.loads(out)["probabilities"] == [["1/2", None, "1/2"]]


def test_solve_reads_minesweepr_format(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    board = tmp_path / "b.txt"
    board.write_text("x1.\nx1.\n")
    status, out, _ = run(capsys, "solve", str(board), "--format", "minesweepr", "--mines", "1", "--json")
    assert status == 0
    assert json.loads(out)["probabilities"][0][0] == "1/2"


def test_distrusted_flags_get_probabilities(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "solve", "--json", "--distrust-flags", str(EXAMPLES / "cs70_4x3_4.mine"))
    assert status == 0
    assert json.loads(out)["total"] == "30"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("3x1x1\n3HH\n", "clue 3 at (0, 0) needs 3 mines but has only 1 hidden neighbour"),
        ("3x1x1\nH?H\n", "line 2, column 2: unknown character '?'"),
        ("3x1x9\nHHH\n", "more mines (9) than cells (3)"),
        ("4x1x1\n1HH1\n", "mine total 1 cannot be met"),
        ("3x2x2\nHHH\n202\n", "no mine layout satisfies the clues"),
        ("", "empty text"),
    ],
)
def test_errors_are_one_line_without_traceback(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, message: str
) -> None:
    board = tmp_path / "bad.mine"
    board.write_text(text)
    status, out, err = run(capsys, "solve", str(board))
    assert status == 1 and out == ""
    assert err.startswith("analyzer: error: ") and message in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_missing_file_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "solve", "no/such/board.mine")
    assert status == 1
    assert err == "analyzer: error: cannot read 'no/such/board.mine': No such file or directory\n"


def test_time_limit_is_a_clear_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    board = tmp_path / "hard.mine"
    board.write_text(clue_lattice(6, seed=1).to_text())
    status, _, err = run(capsys, "solve", str(board), "--engine", "frontier", "--time-limit", "0.001")
    assert status == 1 and "time limit" in err and err.count("\n") == 1


def test_bad_options_exit_with_usage_status(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as raised:
        main(["solve", "x.mine", "--time-limit", "-1"])
    assert raised.value.code == 2
    assert "positive number of seconds" in capsys.readouterr().err
    status, _, err = run(capsys, "solve", str(EXAMPLES / "cs70_4x3_4.mine"), "--format", "minesweepr")
    assert status == 2 and "--mines" in err  # options that do not go together: usage


def test_verify_runs_one_check(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "verify", "--check", "vandermonde")
    assert status == 0
    assert "vandermonde" in out and "1 of 1 checks hold" in out


def test_console_script_runs_as_a_module() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "analyzer", "solve", str(EXAMPLES / "cs70_4x3_4.mine"), "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["total"] == "24"


def test_solve_json_lists_certain_cells_and_components(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    board = tmp_path / "b.mine"
    board.write_text("4x1x1\nH10H\n")
    status, out, _ = run(capsys, "solve", str(board), "--json")
    data = json.loads(out)
    assert status == 0
    assert data["certain_safe"] == [[0, 3]] and data["certain_mines"] == [[0, 0]]
    assert data["background_size"] == 0
    status, out, _ = run(capsys, "solve", str(EXAMPLES / "cs70_4x3_4.mine"), "--json")
    data = json.loads(out)
    assert data["certain_safe"] == [] and data["certain_mines"] == []
    (comp,) = data["components"]
    assert [2, 0] in comp["clues"] and sum(int(n) for n in comp["layouts_by_mines"]) > 0


@pytest.mark.parametrize(
    ("argv", "kind"),
    [
        (["solve", "/nonexistent/board.mine", "--json"], "CommandError"),
        (["solve", "BOARD", "--json"], "InconsistentBoardError"),
    ],
)
def test_json_errors_are_an_object_on_stdout(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], kind: str
) -> None:
    board = tmp_path / "b.mine"
    board.write_text("3x1x1\n3HH\n")
    argv = [str(board) if a == "BOARD" else a for a in argv]
    status, out, err = run(capsys, *argv)
    assert status == 1 and err == ""
    data = json.loads(out)
    assert data["type"] == kind and data["error"]
    if kind == "InconsistentBoardError":
        assert data["clues"] == [[0, 0]]


def test_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    board = tmp_path / "big.mine"
    board.write_text("200x200x5000\n" + ("H" * 200 + "\n") * 200)
    script = f"{sys.executable} -m analyzer solve {board} --grid | head -1"
    done = subprocess.run(["bash", "-c", "set -o pipefail; " + script], capture_output=True, text=True)
    assert done.stdout.startswith("200x200, 5000 mines")
    assert done.stderr == ""
    assert done.returncode == 141


@pytest.mark.parametrize("module", ["analyzer", "analyzer.cli"])
def test_python_dash_m_runs_the_command_line(module: str) -> None:
    """``python -m analyzer`` and ``python -m analyzer.cli`` (the module ``analyzer`` names) both run it."""
    done = subprocess.run(
        [sys.executable, "-m", module, "solve", str(EXAMPLES / "cs70_4x3_4.mine"), "--json"],
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parent.parent,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["mines"] == 4


@pytest.mark.parametrize(("given", "expected"), [("0", None), ("2.5", 2.5)])
def test_time_limit_zero_is_off(given: str, expected: float | None, monkeypatch: pytest.MonkeyPatch) -> None:
    import analyzer.solver as solver

    seen = []
    real = solver.solve
    monkeypatch.setattr(solver, "solve", lambda *a, **k: (seen.append(k["time_limit"]), real(*a, **k))[1])
    assert main(["solve", str(EXAMPLES / "cs70_4x3_4.mine"), "--time-limit", given]) == 0
    assert seen == [expected]


def test_time_limit_has_a_default(monkeypatch: pytest.MonkeyPatch) -> None:
    import analyzer.solver as solver
    from analyzer.cli import DEFAULT_TIME_LIMIT

    seen = []
    real = solver.solve
    monkeypatch.setattr(solver, "solve", lambda *a, **k: (seen.append(k["time_limit"]), real(*a, **k))[1])
    assert main(["solve", str(EXAMPLES / "cs70_4x3_4.mine")]) == 0
    assert seen == [DEFAULT_TIME_LIMIT] and DEFAULT_TIME_LIMIT > 0


def test_solve_an_mbf_layout_after_revealing_cells(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``--format mbf`` (or an .mbf name) solves the position a player sees after ``--reveal``."""
    from analyzer import solve
    from analyzer.play.game import Game

    game = Game.from_layout_text("*....\n.....\n...*.\n*....\n")
    path = tmp_path / "layout.mbf"
    path.write_bytes(game.to_mbf())
    code, out, _ = run(capsys, "solve", str(path), "--reveal", "0,4", "--json")
    assert code == 0
    expected = Game.from_layout_text("*....\n.....\n...*.\n*....\n")
    expected.reveal(0, 4)  # the flood fill opens the top right
    assert json.loads(out)["total"] == str(solve(expected.board).total)
    assert Fraction(json.loads(out)["probabilities"][3][0]) == solve(expected.board).probability(3, 0)
    # Nothing revealed: every cell alike.
    code, out, _ = run(capsys, "solve", str(path), "--json")
    assert code == 0 and json.loads(out)["total"] == "1140"  # C(20, 3)
    # A mine, a cell off the board, --reveal on a .mine file: one-line errors.
    for argv, message in (
        (("--reveal", "0,0"), "is a mine in this layout"),
        (("--reveal", "9,9"), "outside the 5x4 board"),
    ):
        code, _, err = run(capsys, "solve", str(path), *argv)
        assert code == 1 and message in err and "Traceback" not in err
    board = tmp_path / "board.mine"
    board.write_text("3x1x1\nH1H\n")
    code, _, err = run(capsys, "solve", str(board), "--reveal", "0,0")
    assert code == 2 and "--reveal applies to --format mbf only" in err


@pytest.mark.parametrize("value", ["-3", "0", "x"])
def test_best_takes_a_positive_whole_number(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["solve", "analyzer/examples/cs70_4x3_4.mine", "--best", value])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "argument --best:" in err and "Traceback" not in err


def _usage_status(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    """The exit status and standard error's last line of a command that may stop in argparse."""
    try:
        status = main(list(argv))
    except SystemExit as stop:
        status = stop.code  # type: ignore[assignment]
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return status, err.strip().splitlines()[-1]


def test_web_refuses_a_port_out_of_range_before_listening(capsys: pytest.CaptureFixture[str]) -> None:
    status, line = _usage_status(capsys, "web", "--no-browser", "--port", "99999")
    assert status == 2 and "argument --port: expected a port from 0 to 65535" in line


def test_web_names_a_folder_and_a_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, line = _usage_status(capsys, "web", str(tmp_path), "--no-browser")
    assert status == 1 and line == (
        f"analyzer: error: {str(tmp_path)!r} is a folder: give a .mine board, an .mbf layout or a replay file"
        " (analyzer replay FOLDER analyses a folder of replays)"
    )
    missing = str(tmp_path / "nosuch.mine")
    status, line = _usage_status(capsys, "web", missing, "--no-browser")
    assert status == 1 and line == f"analyzer: error: cannot read {missing!r}: No such file or directory"


def test_play_names_a_replay_given_as_a_layout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    truncated = tmp_path / "trunc.avf"
    truncated.write_bytes(bytes(range(1, 100)))
    status, line = _usage_status(capsys, "play", "--layout", str(truncated))
    assert status == 1 and "is a recorded game (AVF), not a layout" in line
    assert f"`analyzer replay {truncated}` analyses it" in line and "--format mbf" not in line


def test_every_option_has_help_with_its_default_and_every_command_a_description() -> None:
    import argparse

    from analyzer.cli import _parser

    parser = _parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, sub in commands.choices.items():
        assert sub.description, f"analyzer {name} has no description"
        for action in sub._actions:
            if isinstance(action, argparse._HelpAction) or not action.option_strings:
                continue
            where = f"analyzer {name} {action.option_strings[-1]}"
            assert action.help, f"{where} has no help"
            takes_value = action.nargs != 0 and not isinstance(action, argparse.BooleanOptionalAction)
            if takes_value and action.default is not None and not action.required:
                assert "default" in action.help, f"{where}: the help does not give its default"
            if action.option_strings[-1] == "--backend":
                assert action.choices == ("local", "dask")


def test_parquet_without_pyarrow_is_refused_before_the_analysis(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib.util

    import analyzer.replays.batch as batch

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "pyarrow" else real(name, *a)
    )
    monkeypatch.setattr(batch, "analyse_files", lambda *a, **k: pytest.fail("analysed before refusing"))
    assert main(["replay", str(tmp_path), "--parquet", str(tmp_path / "t.parquet")]) == 1
    assert "writing Parquet needs pyarrow" in capsys.readouterr().err


def test_web_without_a_file_opens_an_expert_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """The README and docs/getting-started.md: ``analyzer web`` is a new expert game (30x16, 99 mines)."""
    import analyzer.interactive.web as web

    served = []
    monkeypatch.setattr(web, "serve", lambda session, **options: served.append((session, options)))
    assert main(["web", "--no-browser"]) == 0
    ((session, options),) = served
    view = session.view()
    assert (view["mode"], view["width"], view["height"], view["mines"]) == ("play", 30, 16, 99)
    assert options["open_browser"] is False
    assert main(["web", "--no-browser", "--new", "beginner"]) == 0
    assert (served[-1][0].view()["width"], served[-1][0].view()["mines"]) == (9, 10)
    for page in ("README.md", "docs/getting-started.md"):
        text = (EXAMPLES.parents[1] / page).read_text(encoding="utf-8")
        assert re.search(r"analyzer web +# a new expert game", text), page


def test_a_grid_wider_than_the_output_becomes_a_summary(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """200x200 printed 203 lines of 803 characters; now a summary and the ways to see the rest."""
    board = tmp_path / "big.mine"
    board.write_text("200x200x5000\n" + ("H" * 200 + "\n") * 200)
    monkeypatch.delenv("COLUMNS", raising=False)
    status, out, err = run(capsys, "solve", str(board))
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "200x200, 5000 mines: 5000 among 40000 unknown cells"
    assert lines[1].startswith("8.88e6542 (6543 digits) layouts; 0 certainly safe, 0 certain mines;")
    assert lines[2] == "safest guesses: 12.5% mine at (0, 0), (0, 1), (0, 2), ... (40,000 cells)"
    assert (
        lines[3]
        == "grid not shown: 803 characters a line, wider than 164 (not a terminal; COLUMNS=N sets the width)"
    )
    assert lines[4] == (
        "--grid prints it, --json gives every exact probability, --best N ranks moves,"
        f" analyzer web {board} draws it"
    )
    assert len(lines) == 5
    status, out, _ = run(capsys, "solve", str(board), "--grid")  # the whole grid, on request
    assert status == 0 and len(out.splitlines()) == 203 and max(map(len, out.splitlines())) == 803


def test_the_grid_is_summarised_past_the_terminal_s_width(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os
    import shutil

    from analyzer import solve

    board = tmp_path / "row.mine"
    board.write_text("20x1x2\nH1HHHHHHHHHHHHHHHHHH\n")  # 81 characters a line
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.setattr(shutil, "get_terminal_size", lambda *a: os.terminal_size((81, 30)))
    status, out, _ = run(capsys, "solve", str(board))
    assert status == 0 and out.splitlines()[1].split()[:3] == ["0", "1", "2"]  # it fits: the grid
    monkeypatch.setattr(shutil, "get_terminal_size", lambda *a: os.terminal_size((80, 30)))
    status, out, _ = run(capsys, "solve", str(board), "--best", "1")
    lines = out.splitlines()
    lowest = f"{float(solve(board).probability(0, 3)):.1%}"
    assert status == 0 and lines[2:4] == [
        f"safest guesses: {lowest} mine at (0, 3), (0, 4), (0, 5), (0, 6), ... (17 cells)",
        "best moves:",
    ]
    assert lines[-2] == "grid not shown: 81 characters a line, wider than the terminal's 80"
    assert (
        lines[-1] == f"--grid prints it, --json gives every exact probability, analyzer web {board} draws it"
    )
    assert all(len(line) < 80 for line in lines[:-1])


#: Bad invocations, the status docs/guide/cli.md gives them, and a word of the one line they print.
#: BOARD is a board file, FOLDER a folder of one replay, NOFILE a missing file, RESULTS a results
#: file that is no such file, NODIR a folder that does not exist.
BAD_INVOCATIONS = [
    # usage errors: 2, "analyzer COMMAND: error: ... (see analyzer COMMAND --help)"
    ([], 2, "the following arguments are required: command"),
    (["nosuch"], 2, "invalid choice: 'nosuch'"),
    (["solve"], 2, "the following arguments are required: file"),
    (["solve", "BOARD", "--nosuch"], 2, "unrecognized arguments: --nosuch"),
    (["solve", "BOARD", "--best", "x"], 2, "argument --best: 'x' is not a whole number"),
    (["solve", "BOARD", "--time-limit", "-1"], 2, "positive number of seconds"),
    (["solve", "BOARD", "--format", "minesweepr"], 2, "needs --mines N"),
    (["solve", "BOARD", "--rules", "QZ"], 2, "unknown rule 'Z'"),
    (["explain", "BOARD", "--cell", "a,b"], 2, "expected a cell as R,C"),
    (["simulate", "--preset", "beginner", "--player", "nosuch"], 2, "unknown player 'nosuch'"),
    (["simulate", "--preset", "beginner", "--first-cell", "99,99"], 2, "outside the 9x9 board"),
    (["simulate", "--preset", "beginner", "--topology", "sphere"], 2, "unknown topology 'sphere'"),
    (["simulate", "--preset", "beginner", "--address", "tcp://127.0.0.1:1"], 2, "--address is for"),
    (["simulate", "--preset", "beginner", "--workers", "100000"], 2, "workers must be"),
    (["simulate", "--width", "3"], 2, "give --preset NAME, or all of"),
    (["optimal", "--width", "2", "--height", "2", "--mines", "1", "--players", "nosuch"], 2, "nosuch"),
    (["optimal", "--width", "2", "--height", "2", "--mines", "1", "--first-cell", "5,5"], 2, "outside"),
    (["verify", "--check", "nosuch"], 2, "invalid choice: 'nosuch'"),
    (["replay", "FOLDER", "--address", "tcp://127.0.0.1:1"], 2, "--address is for --backend dask"),
    (["web", "--new", "huge", "--no-browser"], 2, "--new 'huge'"),
    (["web", "--port", "99999", "--no-browser"], 2, "expected a port from 0 to 65535"),
    # errors: 1, "analyzer: error: ..."
    (["solve", "NOFILE"], 1, "No such file or directory"),
    (["solve", "BAD"], 1, "needs 3 mines but has only 1 hidden neighbour"),
    (["replay", "NOFILE"], 1, "no such file or folder"),
    (["simulate", "--preset", "beginner", "--games", "1", "--results", "NODIR"], 1, "does not exist"),
    (["simulate", "--preset", "beginner", "--games", "1", "--results", "RESULTS"], 1, "not a results line"),
]


@pytest.mark.parametrize(
    ("argv", "status", "word"), BAD_INVOCATIONS, ids=lambda v: " ".join(v) if isinstance(v, list) else None
)
def test_bad_invocations_exit_as_the_manual_says_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], status: int, word: str
) -> None:
    board, bad, folder, results = (
        tmp_path / "b.mine",
        tmp_path / "bad.mine",
        tmp_path / "games",
        tmp_path / "r.jsonl",
    )
    board.write_text("3x1x1\nH1H\n")
    bad.write_text("3x1x1\n3HH\n")
    folder.mkdir()
    (folder / "g.avf").write_bytes(b"not a replay")
    results.write_text('{"nope": 1}\n')
    names = {
        "BOARD": board,
        "BAD": bad,
        "FOLDER": folder,
        "NOFILE": tmp_path / "nosuch.mine",
        "RESULTS": results,
        "NODIR": tmp_path / "nodir" / "r.jsonl",
    }
    argv = [str(names.get(a, a)) for a in argv]
    try:
        got = main(argv)
    except SystemExit as stop:  # argparse's own
        got = stop.code  # type: ignore[assignment]
    out, err = capsys.readouterr()
    assert (got, out) == (status, ""), err
    assert err.count("\n") == 1 and err.endswith("\n") and "Traceback" not in err, err
    assert word in err
    if status == 2:
        prog = "analyzer" if not argv or argv[0] == "nosuch" else f"analyzer {argv[0]}"
        assert err.startswith(f"{prog}: error: ") and err.endswith(f" (see {prog} --help)\n"), err
    else:
        assert err.startswith("analyzer: error: "), err


def test_the_manual_s_exit_status_table_is_the_one_tested() -> None:
    page = (Path(__file__).resolve().parents[1] / "docs" / "guide" / "cli.md").read_text(encoding="utf-8")
    rows = {line.split("|")[1].strip(): line for line in page.splitlines() if re.match(r"^\| \d+ \|", line)}
    assert sorted(rows) == ["0", "1", "130", "141", "2"]
    assert "one line `analyzer SUBCOMMAND: error: ... (see analyzer SUBCOMMAND --help)`" in rows["2"]
    assert "one line `analyzer: error: ...`" in rows["1"]
    assert {status for _, status, _ in BAD_INVOCATIONS} == {1, 2}
