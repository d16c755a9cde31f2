"""Recorded games: reading through ms-toollib, the exact per-click analysis, bad files, the command."""

from __future__ import annotations

import dataclasses
import itertools
import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import examples, game_boards

from analyzer import Board, ReplayError
from analyzer.cli import main
from analyzer.replays import analyse_replay, example_names, example_path, read_replay
from analyzer.replays.analyse import _all_safe
from analyzer.replays.batch import analyse_files
from analyzer.solver.solve import solve

ms_toollib = pytest.importorskip("ms_toollib")

SHARED = Path(__file__).resolve().parents[2] / "shared" / "replays"
# From the shared folder's README (as ms-toollib 1.5.20 reports them): board, 3BV, time.
PUBLISHED = {
    "beginner_8x8_10.avf": ((8, 8, 10), 24, 14.52),
    "custom_8x11_7.avf": ((8, 11, 7), 8, 5.42),
    "beginner_8x8_10.evf": ((8, 8, 10), 3, 3.796),
    "expert_30x16_99.mvf": ((30, 16, 99), 122, 37.81),
    "expert_30x16_99.rmv": ((30, 16, 99), 134, 98.763),
}
CLASSES = {"avf": "AvfVideo", "rmv": "RmvVideo", "evf": "EvfVideo", "mvf": "MvfVideo"}


def _peer(path: Path | str):  # noqa: ANN202
    video = getattr(ms_toollib, CLASSES[str(path).rsplit(".", 1)[1]])(str(path))
    video.parse()
    video.analyse()
    video.analyse_for_features(["needless_guess", "high_risk_guess", "pluck"])
    return video


def _example_files() -> list[Path]:
    files = [Path(str(example_path(name))) for name in example_names()]
    if SHARED.is_dir():
        files += sorted(p for p in SHARED.iterdir() if p.suffix.lstrip(".") in CLASSES)
    return files


def test_the_examples_are_the_published_games() -> None:
    assert set(example_names()) == set(PUBLISHED)
    for name, ((width, height, mines), bbbv, seconds) in PUBLISHED.items():
        replay = read_replay(example_path(name))
        assert (replay.width, replay.height, replay.mines) == (width, height, mines)
        assert replay.bbbv == bbbv and replay.time == pytest.approx(seconds)
        assert len(replay.layout) == mines


@pytest.mark.parametrize("path", _example_files(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_board_layout_and_statistics_equal_ms_toollib(path: Path) -> None:
    replay = read_replay(path)
    peer = _peer(path)
    assert (replay.height, replay.width, replay.mines) == (peer.row, peer.column, peer.mine_num)
    mines = {(r, c) for r, row in enumerate(peer.board) for c, v in enumerate(row) if v == -1}
    assert replay.layout == mines
    assert replay.bbbv == peer.bbbv and replay.time == peer.rtime
    assert replay.is_completed == peer.is_completed


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_luck_is_ten_to_the_minus_pluck(name: str) -> None:
    """ms-toollib's pluck sums -log10 of each guess's float survival chance: our exact product agrees."""
    game = analyse_replay(read_replay(example_path(name)))
    pluck = _peer(example_path(name)).events[-1].key_dynamic_params.pluck
    assert float(game.luck) == pytest.approx(10**-pluck, rel=1e-9, abs=1e-12)
    assert game.pluck == pytest.approx(pluck)


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_needless_guesses_are_the_ones_ms_toollib_marks_within_its_square(name: str) -> None:
    """ms-toollib marks a left-click guess with a certainly safe cell in the 5x5 square around it;
    ours counts a certainly safe cell anywhere, so ours include its marks and agree on that square."""
    game = analyse_replay(read_replay(example_path(name)))
    peer = _peer(example_path(name))
    marked = sorted(e.time for e in peer.events if "needless_guess" in e.comments)
    nearby = sorted(c.time for c in game.clicks if c.is_guess and c.kind == "reveal" and c.safe_nearby)
    assert nearby == marked
    assert set(marked) <= {c.time for c in game.needless_guesses}


def test_a_game_summary() -> None:
    game = analyse_replay(read_replay(example_path("expert_30x16_99.rmv")))
    assert game.result == "won" and game.died_at is None
    assert [c.cell for c in game.guesses] == [(1, 0), (0, 1), (0, 29), (1, 21)]
    assert [c.mine_probability for c in game.guesses] == [
        Fraction(1, 3),
        Fraction(1, 2),
        Fraction(2, 5),
        Fraction(1, 2),
    ]
    assert game.luck == Fraction(2, 3) * Fraction(1, 2) * Fraction(3, 5) * Fraction(1, 2) == Fraction(1, 10)
    first = game.clicks[0]
    assert first.is_first and not first.is_guess and first.mine_probability == Fraction(99, 480)
    for click in game.clicks:
        assert click.mine_probability == 1 - click.survival
        assert click.safest_probability <= click.mine_probability or click.is_first
    text = game.summary()
    assert "4 guesses (2 needless); luck 1/10 = 10.0%" in text
    assert "click on (0, 29): 40.0% mine; needless, 1 certainly safe cell" in text


def test_each_click_is_the_exact_solve_of_the_recorded_position() -> None:
    replay = read_replay(example_path("expert_30x16_99.mvf"))
    game = analyse_replay(replay)
    opening = [a for a in replay.actions if a.before is not None]
    assert len(opening) == len(game.clicks)
    for action, click in zip(opening, game.clicks, strict=True):
        text = f"{replay.width}x{replay.height}x{replay.mines}\n" + "\n".join(action.before) + "\n"
        analysis = solve(Board.from_text(text), trust_flags=False)
        if click.kind == "reveal":
            assert click.mine_probability == analysis.probability(*click.cell)
        safe = [c for c in analysis.safe if c not in click.opens and Board.from_text(text)[c] < 0]
        assert click.safe_cells == len([c for c in safe if Board.from_text(text)[c] != -2])


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


@settings(max_examples=examples(40), deadline=None)
@given(game_boards(max_side=5, max_unknown=11), st.data())
def test_a_chord_s_survival_is_the_brute_force_one(board: Board, data: st.DataObject) -> None:
    layouts = _layouts(board)
    if not layouts:
        return
    unknown = [(r, c) for r in range(board.height) for c in range(board.width) if board[r, c] < 0]
    if not unknown:
        return
    cells = tuple(data.draw(st.lists(st.sampled_from(unknown), unique=True, max_size=4), label="cells"))
    expected = Fraction(sum(1 for layout in layouts if not layout & set(cells)), len(layouts))
    assert _all_safe(board, cells, solve(board, trust_flags=False)) == expected


# ------------------------------------------------------------------ broken files and games
def _bad_files(folder: Path) -> dict[str, Path]:
    real = Path(str(example_path("expert_30x16_99.rmv"))).read_bytes()
    files = {
        "empty.evf": b"",
        "random.avf": bytes(range(256)) * 12,
        "truncated.rmv": real[:500],
        "other_format.rmv": Path(str(example_path("beginner_8x8_10.avf"))).read_bytes(),
    }
    made = {}
    for name, data in files.items():
        made[name] = folder / name
        made[name].write_bytes(data)
    return made


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("empty.evf", "the file is empty"),
        ("random.avf", "not a valid AVF file"),
        ("truncated.rmv", "not a valid RMV file"),
        ("other_format.rmv", "not a valid RMV file"),
    ],
)
def test_bad_files_are_one_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, message: str
) -> None:
    path = _bad_files(tmp_path)[name]
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ReplayError, match=message):
        read_replay(path)
    assert not (tmp_path / "crash.log").exists()  # ms-toollib's panic log stays out of the user's folder


def test_oversized_unknown_and_missing_files(tmp_path: Path) -> None:
    huge = tmp_path / "huge.avf"
    with open(huge, "wb") as handle:
        handle.truncate(100 * 1024 * 1024)  # 100 MB, refused by its size before any reading
    with pytest.raises(ReplayError, match="104,857,600 bytes is more than a replay holds"):
        read_replay(huge)
    other = tmp_path / "game.txt"
    other.write_text("x")
    with pytest.raises(ReplayError, match=r"not a replay format \(.avf, .rmv, .evf, .mvf\)"):
        read_replay(other)
    with pytest.raises(ReplayError, match="No such file"):
        read_replay(tmp_path / "missing.avf")


def test_actions_that_contradict_the_layout_are_refused() -> None:
    replay = read_replay(example_path("beginner_8x8_10.avf"))
    mine = sorted(replay.layout)[0]
    moved = next((r, c) for r in range(8) for c in range(8) if (r, c) not in replay.layout)
    broken = dataclasses.replace(replay, layout=(replay.layout - {mine}) | {moved})
    with pytest.raises(ReplayError, match="contradict|not the one its layout gives"):
        analyse_replay(broken)


def test_a_game_stopped_early_is_analysed_as_far_as_it_went() -> None:
    replay = read_replay(example_path("expert_30x16_99.rmv"))
    stopped = dataclasses.replace(replay, actions=replay.actions[:60], is_completed=False)
    game = analyse_replay(stopped)
    assert game.result == "unfinished" and game.died_at is None
    assert len(game.clicks) == sum(1 for a in replay.actions[:60] if a.before is not None)


def test_a_lost_game_names_the_click_and_its_odds() -> None:
    """Swap the mine of a true 50/50 onto the cell the player guessed: the same boards, a lost game."""
    replay = read_replay(example_path("expert_30x16_99.rmv"))
    full = analyse_replay(replay)
    guess = full.guesses[-1]  # (1, 21) at 50 %
    index = next(i for i, a in enumerate(replay.actions) if a.before is not None and a.time == guess.time)
    before = Board.from_text("30x16x99\n" + "\n".join(replay.actions[index].before) + "\n")
    clues = [(r, c) for r in range(16) for c in range(30) if before[r, c] >= 0]

    def numbers(layout: frozenset[tuple[int, int]]) -> list[int]:
        return [sum(n in layout for n in before.neighbours(*cell)) for cell in clues]

    swapped = None
    for other in sorted(replay.layout):
        if before[other] < 0:
            layout = (replay.layout - {other}) | {guess.cell}
            if numbers(layout) == numbers(replay.layout):
                swapped = layout
                break
    assert swapped is not None
    lost = dataclasses.replace(
        replay, layout=swapped, actions=replay.actions[: index + 1], is_completed=False
    )
    game = analyse_replay(lost)
    assert game.result == "lost"
    assert game.died_at is not None and game.died_at.cell == guess.cell
    assert game.died_at.mine_probability == Fraction(1, 2)
    assert "died at (1, 21)" in game.summary()


# ------------------------------------------------------------------ the command
def test_cli_summary_json_and_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(example_path("expert_30x16_99.rmv"))
    assert main(["replay", path]) == 0
    out = capsys.readouterr().out
    assert "RMV, 30x16 with 99 mines, won" in out and "luck 1/10 = 10.0%" in out
    assert main(["replay", path, "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["game"]["luck"] == "1/10" and record["game"]["bbbv"] == 134
    assert sum(c["is_guess"] for c in record["clicks"]) == 4
    folder = Path(str(example_path("beginner_8x8_10.avf"))).parent
    table = tmp_path / "games.csv"
    assert main(["replay", str(folder), "--workers", "2", "--no-progress", "--csv", str(table)]) == 0
    out = capsys.readouterr().out
    assert "5 games, 5 won" in out
    assert len(table.read_text().splitlines()) == 6


def test_cli_bad_files_one_line_each(tmp_path: Path) -> None:
    files = _bad_files(tmp_path)
    good = str(example_path("custom_8x11_7.avf"))
    run = subprocess.run(
        [sys.executable, "-m", "analyzer", "replay", good, *map(str, files.values()), "--workers", "1"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])},
    )
    assert run.returncode == 1
    errors = run.stderr.strip().splitlines()
    assert len(errors) == len(files) and all(
        line.startswith("analyzer: error: cannot read") for line in errors
    )
    assert "Traceback" not in run.stderr and "custom_8x11_7.avf" in run.stdout


def test_many_files_in_order_on_two_processes() -> None:
    names = [str(example_path(n)) for n in sorted(PUBLISHED)] * 2
    alone = analyse_files(names, workers=1)
    pooled = analyse_files(names, workers=2)
    assert [g.statistics() for g in alone] == [g.statistics() for g in pooled]  # type: ignore[union-attr]


def test_import_analyzer_does_not_load_ms_toollib() -> None:
    probe = "import analyzer, sys; print('ms_toollib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_cli_parquet_without_pyarrow_is_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        pass
    else:
        pytest.skip("pyarrow is installed: Parquet is written")
    path = str(example_path("custom_8x11_7.avf"))
    assert main(["replay", path, "--parquet", str(tmp_path / "t.parquet")]) != 0
    out, err = capsys.readouterr()
    assert err.strip() == (
        "analyzer: error: writing Parquet needs pyarrow (pip install pyarrow); --csv needs nothing more"
    )
    assert out == ""  # refused before the analysis, not after printing it


# ------------------------------------------------------------------ our games as files, and back
@settings(max_examples=examples(15), deadline=None)
@given(
    width=st.integers(2, 5),
    height=st.integers(2, 4),
    data=st.data(),
    player=st.sampled_from(["probabilistic", "random", "local"]),
    seed=st.integers(0, 2**16),
)
def test_a_written_game_reads_back_with_each_clicks_brute_force_odds(
    width: int,
    height: int,
    data: st.DataObject,
    player: str,
    seed: int,
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    from bruteforce import brute_force

    from analyzer import Game
    from analyzer.play.replay import replay
    from analyzer.replays.write import game_actions, write_evf

    cells = [(r, c) for r in range(height) for c in range(width)]
    mines = data.draw(st.integers(1, min(4, len(cells) - 1)), label="mines")
    layout = sorted(data.draw(st.lists(st.sampled_from(cells), min_size=mines, max_size=mines, unique=True)))
    game = Game.from_layout(width, height, layout)
    positions = []
    moves = []
    for move in replay(game, player, seed=seed):
        moves.append(move)
    # The positions the player saw before each reveal, played again on a fresh game.
    again = Game.from_layout(width, height, layout)
    for move in moves:
        if move.action.kind == "reveal":
            positions.append(again.board)
            again.reveal(move.action.row, move.action.col)
        else:
            again.flag(move.action.row, move.action.col)
    path = write_evf(tmp_path_factory.mktemp("evf") / "game", width, height, layout, game_actions(moves))
    read = read_replay(path)
    assert (read.width, read.height, read.mines, read.layout) == (width, height, mines, frozenset(layout))
    assert read.is_completed == (game.status == "won")
    analysed = analyse_replay(read)
    reveals = [m for m in moves if m.action.kind == "reveal"]
    assert [c.cell for c in analysed.clicks] == [(m.action.row, m.action.col) for m in reveals]
    assert analysed.result == game.status
    for click, board in zip(analysed.clicks, positions, strict=True):
        oracle = brute_force(board, trust_flags=False)
        assert click.mine_probability == oracle.probability(*click.cell)
        assert click.mine_probability == solve(board, trust_flags=False).probability(*click.cell)


def test_a_written_game_with_chords_flags_and_cursor_moves(tmp_path: Path) -> None:
    from analyzer.replays.write import write_evf

    # 5x3, mines at (0, 0), (0, 4), (2, 4): reveal the 1 at (1, 1), flag (0, 0), chord the 1
    # (it opens all but the right column), unflag, then reveal (1, 4), the last safe cell.
    layout = [(0, 0), (0, 4), (2, 4)]
    actions = [
        ("reveal", (1, 1)),
        ("flag", (0, 0)),
        ("chord", (1, 1)),
        ("unflag", (0, 0)),
        ("reveal", (1, 4)),
    ]
    path = write_evf(tmp_path / "chords.evf", 5, 3, layout, actions, player="test", cursor_step=3)
    read = read_replay(path)
    kinds = [(a.kind, a.cell) for a in read.actions]
    assert kinds == actions
    assert read.fields["player"] == "test" and read.fields["software"] == "analyzer"
    assert read.events > 2 * len(actions)  # the cursor's path was recorded too
    analysed = analyse_replay(read)
    assert [c.kind for c in analysed.clicks] == ["reveal", "chord", "reveal"]
    assert analysed.result == "won"
    # The flag was a guess (one 1 says little): the chord risked whatever its 7 cells hold.
    chord = analysed.clicks[1]
    before = Board.from_text("5x3x3\nFHHHH\nH1HHH\nHHHHH\n")
    layouts = _layouts(before)
    safe = sum(1 for layout in layouts if not layout & set(chord.opens))
    assert len(chord.opens) == 7 and chord.mine_probability == 1 - Fraction(safe, len(layouts))
    assert chord.is_guess


def test_writing_refuses_bad_actions(tmp_path: Path) -> None:
    from analyzer.replays.write import write_evf

    with pytest.raises(ReplayError, match="off the 4x3 board"):
        write_evf(tmp_path / "x", 4, 3, [(0, 0)], [("reveal", (5, 5))])
    with pytest.raises(ReplayError, match="cannot record a 'jump'"):
        write_evf(tmp_path / "x", 4, 3, [(0, 0)], [("jump", (1, 1))])
    with pytest.raises(ReplayError, match="no folder"):
        write_evf(tmp_path / "missing" / "x", 4, 3, [(0, 0)], [("reveal", (2, 2))])


def test_an_untimed_game_is_the_same_bytes_whenever_it_is_written(tmp_path: Path) -> None:
    import time

    from analyzer.replays.write import write_evf

    # 5x3, mines at (0, 0), (0, 4), (2, 4), the cursor's path recorded: ms-toollib stamps its
    # events and the game's start and end with the wall clock; untimed, every one of them is zero.
    layout = [(0, 0), (0, 4), (2, 4)]
    actions = [("reveal", (1, 1)), ("flag", (0, 0)), ("chord", (1, 1)), ("reveal", (1, 4))]
    first = write_evf(tmp_path / "first", 5, 3, layout, actions, cursor_step=3, timed=False)
    time.sleep(0.01)
    again = write_evf(tmp_path / "again", 5, 3, layout, actions, cursor_step=3, timed=False)
    timed = write_evf(tmp_path / "timed", 5, 3, layout, actions, cursor_step=3)
    assert first.read_bytes() == again.read_bytes()
    assert first.read_bytes()[18:34] == bytes(16) and timed.read_bytes()[18:34] != bytes(16)
    read, clocked = read_replay(first), read_replay(timed)
    assert read.time == 0 and all(a.time == 0 for a in read.actions)
    assert [(a.kind, a.cell) for a in read.actions] == [(a.kind, a.cell) for a in clocked.actions]
    assert (read.events, read.layout, read.bbbv) == (clocked.events, clocked.layout, clocked.bbbv)
    assert analyse_replay(read).result == analyse_replay(clocked).result == "won"


def test_the_clock_is_taken_out_of_pauses_and_every_event(tmp_path: Path) -> None:
    from analyzer.replays.write import _without_clock, write_evf

    # 4x3, one mine, one reveal: a 34-byte head, four texts, no device id, 2 bytes of mines,
    # no custom figures, two events (a press and a release), the end, an empty checksum.
    data = write_evf(tmp_path / "x", 4, 3, [(0, 0)], [("reveal", (2, 2))], timed=False).read_bytes()
    assert len(data) == 67 and data[-3:] == bytes(3) and data[52] == 2 and data[58] == 3
    clocked = bytearray(data)
    clocked[12:16] = (1300).to_bytes(4, "big")  # the game's time, in ms
    clocked[18:34] = (1_795_761_151_213_874).to_bytes(8, "big") * 2  # its start and end, in us
    clocked[53] = 7  # the press, 7 ms after the start
    clocked[59] = 20  # the release, 300 + 1000 + 20 ms after the press: two pauses
    clocked[58:58] = b"\xff\x01\x2c" + b"\xff\x03\xe8"
    assert _without_clock(bytes(clocked), "x") == data
    with pytest.raises(ReplayError, match="not the v4 layout expected"):
        _without_clock(data[:60], "x")
    with pytest.raises(ReplayError, match="not version 4"):
        _without_clock(b"\x03" + data[1:], "x")


def test_ms_toollibs_remarks_are_asked_for_on_boards_up_to_expert_size(tmp_path: Path) -> None:
    import math

    path = Path(str(example_path("beginner_8x8_10.avf")))
    default = read_replay(path)
    without = read_replay(path, peer_remarks=False)
    assert any(a.comments for a in default.actions) and not math.isnan(default.actions[-1].pluck)
    assert all(a.comments == "" and math.isnan(a.pluck) for a in without.actions)
    # The exact analysis does not depend on them.
    assert [c.mine_probability for c in analyse_replay(without).clicks] == [
        c.mine_probability for c in analyse_replay(default).clicks
    ]


def test_cli_play_writes_an_evf_that_replay_reads(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    layout = tmp_path / "layout.txt"
    layout.write_text("*....\n.....\n...*.\n")
    evf = tmp_path / "game.evf"
    assert main(["play", "--layout", str(layout), "--player", "probabilistic", "--evf", str(evf)]) == 0
    played = capsys.readouterr().out
    assert f"wrote {evf}" in played
    assert main(["replay", str(evf), "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    reveals = [line.split()[2:4] for line in played.splitlines() if line.split()[1:2] == ["reveal"]]
    assert [c["cell"] for c in record["clicks"]] == [
        [int(r.strip("(,")), int(c.strip(")"))] for r, c in reveals
    ]
    assert record["game"]["player"] == "analyzer probabilistic seed 0"


SWEEPING_VIEW = Path(__file__).resolve().parent / "replays" / "sweeping_view"


@pytest.mark.parametrize(
    "name", ["test_subject.avf", "test_subject.evf", "test_subject.rmv", "test_subject_2.rmv"]
)
def test_sweeping_views_games_read_as_its_own_parser_reads_them(name: str) -> None:
    """Layouts, players, the EVF's 3BV and time, as sweeping-view (independent of ms-toollib) reads them."""
    expected = json.loads((SWEEPING_VIEW / "expected.json").read_text())[name]
    replay = read_replay(SWEEPING_VIEW / name)
    origin = expected["origin"]
    assert replay.layout == frozenset((r - origin, c - origin) for r, c in expected["mines"])
    assert replay.mines == len(expected["mines"])
    assert replay.fields["player"] == expected["player"]
    if "bbbv" in expected:
        assert (replay.bbbv, replay.time) == (expected["bbbv"], expected["time"])
    analysed = analyse_replay(replay)
    assert analysed.result == "won"
    # The exact luck against ms-toollib's float pluck, as on the bundled games.
    assert abs(float(analysed.luck) - 10**-analysed.pluck) < 1e-9
