"""Recorded games at the edges real archives hold: lost on a chord, a time of 0, more flags than
mines, a time limit, a replay given where a board is read; chord odds as one count."""

from __future__ import annotations

import dataclasses
import itertools
import json
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import examples, game_boards

from analyzer import AnalyzerError, Board, ReplayError
from analyzer.board.board import FLAG
from analyzer.cli import main
from analyzer.replays import analyse_replay, example_path, read_replay
from analyzer.replays.analyse import _all_safe
from analyzer.replays.read import Replay, ReplayAction
from analyzer.solver.solve import count_layouts, solve

pytest.importorskip("ms_toollib")

# 5x4, mines at (0, 1), (0, 4) and (3, 3). Revealing (3, 0) opens the left and middle; the
# player flags (0, 3), a safe cell, then chords the 1 at (1, 2): it opens (0, 1), a mine.
CHORD_LOSS = (5, 4, [(0, 1), (0, 4), (3, 3)], [("reveal", (3, 0)), ("flag", (0, 3)), ("chord", (1, 2))])


def _layouts(board: Board) -> list[frozenset[tuple[int, int]]]:
    """Every layout of a small board, flags read as hidden cells (by brute force)."""
    unknown = [(r, c) for r in range(board.height) for c in range(board.width) if board[r, c] < 0]
    clues = [(r, c) for r in range(board.height) for c in range(board.width) if board[r, c] >= 0]
    found = []
    for mines in itertools.combinations(unknown, board.mines):
        chosen = frozenset(mines)
        if all(sum(n in chosen for n in board.neighbours(*cell)) == board[cell] for cell in clues):
            found.append(chosen)
    return found


@pytest.fixture(scope="module")
def chord_loss(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from analyzer.replays.write import write_evf

    width, height, layout, actions = CHORD_LOSS
    return write_evf(
        tmp_path_factory.mktemp("loss") / "lost_on_a_chord.evf", width, height, layout, actions, timed=False
    )


def test_a_game_lost_on_a_chord_is_the_chord_with_its_exact_risk(chord_loss: Path) -> None:
    replay = read_replay(chord_loss)
    assert [(a.kind, a.cell) for a in replay.actions] == CHORD_LOSS[3]
    game = analyse_replay(replay)
    assert game.result == "lost"
    died = game.died_at
    assert died is not None and died.kind == "chord" and died.cell == (1, 2)
    before = Board.from_text("5x4x3\n" + "".join(line + "\n" for line in replay.actions[2].before or ()))
    assert before[0, 3] == FLAG
    assert set(died.opens) == {(0, 1), (0, 2), (1, 3), (2, 3)}
    layouts = _layouts(before)
    safe = sum(1 for layout in layouts if not layout & set(died.opens))
    assert died.mine_probability == 1 - Fraction(safe, len(layouts)) == Fraction(8, 9)
    assert died.is_guess and died.hit_mine
    # Luck is the chance of surviving every guess: the chord's 1/9 among them.
    assert game.luck == math_prod(c.survival for c in game.guesses)
    assert game.luck <= Fraction(1, 9)


def math_prod(values: object) -> Fraction:
    total = Fraction(1)
    for value in values:  # type: ignore[attr-defined]
        total *= value
    return total


def test_the_command_reports_the_chord_that_lost(
    chord_loss: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", str(chord_loss)]) == 0
    out = capsys.readouterr().out
    assert ", lost" in out
    assert "died at (1, 2)" in out and "88.9% mine" in out
    assert "chord on (1, 2): 88.9% mine" in out and "hit a mine" in out


# Games lost three ways, for the luck: 5x5 with mines at (0, 0), (2, 2) and (4, 4), the corner clicked
# first a mine; and 5x5 with 4 mines where the first click (2, 0) opens the left, (1, 4) is a guess that
# opens a 1, and (0, 4), a guess, is a mine.
FIRST_CLICK_LOSS = (5, 5, [(0, 0), (2, 2), (4, 4)], [("reveal", (0, 0))])
GUESS_LOSS = (
    5,
    5,
    [(0, 2), (0, 4), (3, 3), (4, 4)],
    [("reveal", (2, 0)), ("reveal", (1, 4)), ("reveal", (0, 4))],
)


def _risk(before: Board, opens: tuple[tuple[int, int], ...]) -> Fraction:
    """The chance that ``opens`` holds a mine on ``before``, by brute force."""
    layouts = _layouts(before)
    return Fraction(sum(1 for layout in layouts if layout & set(opens)), len(layouts))


@pytest.fixture(scope="module")
def lost_games(tmp_path_factory: pytest.TempPathFactory, chord_loss: Path) -> dict[str, Path]:
    from analyzer.replays.write import write_evf

    folder = tmp_path_factory.mktemp("lost")
    games = {"chord": write_evf(folder / "chord.evf", *CHORD_LOSS[:2], CHORD_LOSS[2], CHORD_LOSS[3])}
    for name, (width, height, layout, actions) in {"first": FIRST_CLICK_LOSS, "guess": GUESS_LOSS}.items():
        games[name] = write_evf(folder / f"{name}.evf", width, height, layout, actions)
    return games


def test_a_game_lost_on_its_first_click_counts_that_click_at_the_empty_boards_odds(
    lost_games: dict[str, Path],
) -> None:
    game = analyse_replay(read_replay(lost_games["first"]))
    (click,) = game.clicks
    assert game.result == "lost" and click.is_first and click.hit_mine
    assert click.mine_probability == Fraction(3, 25)  # the game let the first click hold a mine
    assert game.guesses == (click,) and click.is_guess
    assert game.luck == 1 - Fraction(3, 25) == Fraction(22, 25)
    assert "first click, not counted" not in click.describe()


def test_a_first_click_that_opens_no_mine_stays_out_of_the_luck(lost_games: dict[str, Path]) -> None:
    game = analyse_replay(read_replay(lost_games["guess"]))
    first = game.clicks[0]
    assert first.is_first and not first.hit_mine and first.mine_probability > 0
    assert not first.is_guess and "first click, not counted" in first.describe()


@pytest.mark.parametrize("name", ["first", "chord", "guess"])
def test_a_lost_games_luck_is_every_guess_the_fatal_one_included_by_brute_force(
    lost_games: dict[str, Path], name: str
) -> None:
    replay = read_replay(lost_games[name])
    game = analyse_replay(replay)
    assert game.result == "lost" and game.clicks[-1].hit_mine
    opening = [a for a in replay.actions if a.kind not in ("flag", "unflag")]
    expected = Fraction(1)
    for k, (action, click) in enumerate(zip(opening, game.clicks, strict=True)):
        before = Board.from_text(
            f"{replay.width}x{replay.height}x{replay.mines}\n" + "\n".join(action.before or ()) + "\n"
        )
        risk = _risk(before, click.opens)
        assert click.mine_probability == risk
        if k > 0 or click.hit_mine:  # a first click counts only when it lost
            expected *= 1 - risk
    assert 0 < expected < 1
    assert game.luck == expected
    assert game.died_at is game.clicks[-1] and game.died_at in game.guesses


def test_text_and_table_agree_on_lost_games(
    lost_games: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import csv

    table = tmp_path / "lost.csv"
    folder = lost_games["first"].parent
    assert main(["replay", str(folder), "--no-progress", "--csv", str(table)]) == 0
    printed = capsys.readouterr().out
    rows = {Path(row["file"]).stem: row for row in csv.DictReader(table.open())}
    assert set(rows) == {"first", "chord", "guess"}
    for name, path in lost_games.items():
        game = analyse_replay(read_replay(path))
        luck = game.luck
        assert main(["replay", str(path)]) == 0
        text = capsys.readouterr().out
        guesses = len(game.guesses)
        assert f"{guesses} guess{'es' if guesses != 1 else ''} (" in text
        assert f"luck {luck.numerator}/{luck.denominator} = " in text
        row = rows[name]
        assert int(row["guesses"]) == guesses and row["luck"] == f"{luck.numerator}/{luck.denominator}"
        assert float(row["luck_percent"]) == pytest.approx(100 * float(luck))
        line = next(line for line in printed.splitlines() if line.startswith(f"{name}.evf "))
        assert line.split()[-1] == f"{100 * float(luck):.2f}" and line.split()[-3] == str(guesses)


def test_a_game_of_time_0_has_no_infinite_speed(chord_loss: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Our written games take no time: 3BV/s is not a number, so it is null in JSON, n/a in text."""
    replay = read_replay(chord_loss)
    assert replay.time == 0
    assert main(["replay", str(chord_loss), "--json"]) == 0
    text = capsys.readouterr().out
    assert "Infinity" not in text and "NaN" not in text
    record = json.loads(text)
    assert record["game"]["bbbv_s"] is None and record["game"]["time"] == 0
    assert isinstance(record["game"]["clicks"], int) and isinstance(record["game"]["zini"], int)
    assert main(["replay", str(chord_loss)]) == 0
    summary = capsys.readouterr().out
    assert "3BV/s n/a" in summary and "inf" not in summary
    assert main(["replay", str(chord_loss), str(example_path("beginner_8x8_10.avf")), "--no-progress"]) == 0
    table = capsys.readouterr().out
    assert "inf" not in table and "n/a" in table


def test_a_replay_with_infinite_statistics_is_valid_json() -> None:
    replay = read_replay(example_path("beginner_8x8_10.avf"))
    odd = dataclasses.replace(
        replay, stats={**replay.stats, "rtime": 0.0, "bbbv_s": float("inf"), "ioe": float("nan")}
    )
    record = analyse_replay(odd).to_dict()
    json.dumps(record, allow_nan=False)
    assert record["game"]["bbbv_s"] is None and record["game"]["efficiency"] is None


def test_more_flags_than_mines_is_a_replay_error_naming_the_file() -> None:
    before = ("FFH", "HHH", "HHH")
    replay = Replay(
        path="many_flags.evf",
        format="evf",
        width=3,
        height=3,
        mines=1,
        layout=frozenset({(0, 0)}),
        actions=(ReplayAction("reveal", (2, 2), 1.5, before, 4),),
        is_completed=False,
        stats={"bbbv": 1.0, "rtime": 2.0},
    )
    with pytest.raises(ReplayError, match=r"'many_flags.evf': at 1.50 s: no flags left"):
        analyse_replay(replay)


def test_the_time_limit_is_one_clear_error() -> None:
    replay = read_replay(example_path("expert_30x16_99.rmv"))
    with pytest.raises(ReplayError, match=r"expert_30x16_99.rmv'.*took over the time limit of 1e-06 s"):
        analyse_replay(replay, time_limit=1e-6)
    with pytest.raises(AnalyzerError, match="time_limit must be a positive number"):
        analyse_replay(replay, time_limit=-1)


def test_errors_name_the_path_as_given(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("broken.avf").write_bytes(b"\x00" * 300)
    with pytest.raises(ReplayError, match=r"^cannot read 'broken.avf': not a valid AVF file"):
        read_replay("broken.avf")
    # Clone 0.75 and earlier end with a 10-digit checksum; 0.76 puts a 100-byte name before it.
    Path("old.mvf").write_bytes(bytes([8, 8, 0, 10]) + bytes(300) + b"0123456789")
    with pytest.raises(
        ReplayError, match=r"^cannot read 'old.mvf': .*Clone 0.75 beta or earlier.*not supported"
    ):
        read_replay("old.mvf")
    Path("076.mvf").write_bytes(bytes([8, 8, 0, 10]) + bytes(300) + b"name" + b" " * 96 + b"0123456789")
    with pytest.raises(ReplayError, match=r"^cannot read '076.mvf': a Minesweeper Clone 0.76 beta recording"):
        read_replay("076.mvf")


def test_solve_given_a_replay_names_the_replay_command(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(example_path("beginner_8x8_10.avf"))
    assert main(["solve", path]) != 0
    err = capsys.readouterr().err
    assert "is a recorded game (AVF replay), not a board" in err
    assert f"analyzer replay {path}" in err and "bad header" not in err


# ------------------------------------------------------------------ chord odds: one count
def _by_numbers(board: Board, cells: list[tuple[int, int]]) -> int:
    """The former method: each safe cell shows exactly one number; sum over every number of each."""
    if not cells:
        return count_layouts(board, trust_flags=False)
    first, rest = cells[0], cells[1:]
    hidden = sum(1 for n in board.neighbours(*first) if board[n] < 0)
    total = 0
    for k in range(hidden + 1):
        try:
            total += _by_numbers(board.replace({first: k}), rest)
        except AnalyzerError:
            continue
    return total


@settings(max_examples=examples(60), deadline=None)
@given(game_boards(max_side=5, max_unknown=12), st.data())
def test_chord_odds_equal_the_former_method_and_brute_force(board: Board, data: st.DataObject) -> None:
    try:
        analysis = solve(board, trust_flags=False)
    except AnalyzerError:
        return
    unknown = [(r, c) for r in range(board.height) for c in range(board.width) if board[r, c] < 0]
    if not unknown:
        return
    cells = data.draw(st.lists(st.sampled_from(unknown), unique=True, max_size=8), label="cells")
    got = _all_safe(board, tuple(cells), analysis)
    layouts = _layouts(board)
    assert got == Fraction(sum(1 for layout in layouts if not layout & set(cells)), len(layouts))
    if len(cells) <= 4:
        assert got == Fraction(_by_numbers(board, cells), analysis.total)


def test_a_chord_of_seven_uncertain_cells_on_expert_is_one_count() -> None:
    """A 1 with seven hidden neighbours and a flag: the chord is safe only if the flag holds the mine."""
    rows = ["H" * 30] * 16
    rows[7] = rows[7][:14] + "F" + rows[7][15:]
    rows[8] = rows[8][:15] + "1" + rows[8][16:]
    board = Board.from_text("30x16x99\n" + "\n".join(rows) + "\n")
    opens = tuple(n for n in board.neighbours(8, 15) if board[n] == -1)
    assert len(opens) == 7
    assert _all_safe(board, opens, solve(board, trust_flags=False)) == Fraction(1, 8)


def test_writing_an_unfinished_game_is_one_line_and_leaves_no_crash_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from analyzer.replays.write import write_evf

    monkeypatch.chdir(tmp_path)
    with pytest.raises(ReplayError, match=r"^cannot write 'open.evf': .*records a finished game only"):
        write_evf("open", 8, 8, [(0, 0), (0, 2), (7, 7)], [("reveal", (4, 4)), ("flag", (0, 1))])
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # no crash.log, no file
