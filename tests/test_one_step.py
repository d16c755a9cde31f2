"""Playing on from a position, drawing layouts that fit one, and the one-step study built on both."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest
from usage import fails_clearly, script_fails_clearly

from analyzer import Board
from analyzer.errors import InconsistentBoardError
from analyzer.play import fast
from analyzer.play.fast.probabilities import DEFAULT_MAX_NODES, HIDDEN, probabilities
from benchmarks.one_step import (
    KINDS,
    Position,
    _context,
    one_step,
    one_step_worth,
    our_positions,
    variant_moves,
)

EXPERT = "expert:score=secondary,margin=1/10,candidates=8,dead=wait,pseudo=first,longterm=9/10"


def _numbers(mask: np.ndarray, nbr: np.ndarray) -> np.ndarray:
    cells = mask.shape[0]
    padded = np.append(mask, False)
    return padded[nbr].sum(axis=1)[:cells]


def _board(shown: np.ndarray, width: int, height: int, mines: int) -> Board:
    rows = [
        "".join("H" if v < 0 else str(int(v)) for v in shown[r * width : (r + 1) * width])
        for r in range(height)
    ]
    return Board.from_text(f"{width}x{height}x{mines}\n" + "\n".join(rows) + "\n")


def test_a_game_played_on_from_any_of_its_positions_is_the_same_game() -> None:
    # Each recorded position, with the guess the player made there, plays the rest of the game
    # exactly as the whole game did: same outcome, same guesses.
    positions, wins = our_positions(EXPERT, "intermediate", "safe", (0, 0), 12, seed=5)
    assert len({p.game for p in positions}) >= 6
    player, params, patterns, nbr, _ = _context(EXPERT, "intermediate")
    record = np.empty((nbr.shape[0] + 1, nbr.shape[0]), dtype=np.int8)
    for game in sorted({p.game for p in positions}):
        mask = np.zeros(nbr.shape[0], dtype=np.bool_)
        mask[list(next(p for p in positions if p.game == game).mines)] = True
        whole = fast.play_game(
            player, mask, nbr, 0, first_is_guess=False, params=params, patterns=patterns, positions=record
        )
        assert whole is not None and whole[0] == wins[game]
        assert (record[0] == HIDDEN).all()
        for p in (p for p in positions if p.game == game):
            assert (p.shown == record[p.guess]).all() and p.ours == whole[3][p.guess]
            rest = fast.play_game(
                player,
                mask,
                nbr,
                p.ours,
                first_is_guess=True,
                params=params,
                patterns=patterns,
                start=p.shown,
            )
            assert rest is not None
            assert rest[0] == whole[0] and rest[3] == whole[3][p.guess :]


def test_a_recorded_position_is_one_where_the_player_must_guess() -> None:
    # Before each guess every cell the numbers prove safe is open (the exact engine finds none left),
    # the numbers shown are the layout's, and each position holds the one before.
    positions, _ = our_positions("probabilistic", "beginner", "safe", (0, 0), 30, seed=2)
    nbr = fast.neighbours_of("square", 9, 9)
    assert len(positions) > 10
    from analyzer import solve

    for k, p in enumerate(positions):
        mask = np.zeros(81, dtype=np.bool_)
        mask[list(p.mines)] = True
        shown = p.shown >= 0
        assert not mask[shown].any() and (p.shown[shown] == _numbers(mask, nbr)[shown]).all()
        assert p.shown[p.ours] == HIDDEN
        exact = solve(_board(p.shown, 9, 9, 10)).to_numpy().ravel()
        assert np.nanmin(exact) > 0
        if k and positions[k - 1].game == p.game:
            assert (p.shown[positions[k - 1].shown >= 0] >= 0).all()


BOARDS = [
    "4x4x4\nHHHH\nH2HH\nHH1H\nHHHH\n",
    "5x3x4\n1HHHH\nH3HH1\nHHH2H\n",
    "4x3x3\nHHHH\n12HH\nHHHH\n",
]


@pytest.mark.parametrize("text", BOARDS)
def test_drawn_layouts_are_uniform_over_those_that_fit(text: str) -> None:
    # Every layout that fits, found by brute force, is drawn about equally often, and no other:
    # a chi-square test at the 0.1 % level (the seed is fixed, so the test cannot flicker).
    board = Board.from_text(text)
    cells = board.width * board.height
    nbr = fast.neighbours_of("square", board.width, board.height)
    shown = np.array(board.cells, dtype=np.int8)
    hidden = [i for i in range(cells) if shown[i] < 0]
    fits = set()
    for mines in itertools.combinations(hidden, board.mines):
        mask = np.zeros(cells, dtype=np.bool_)
        mask[list(mines)] = True
        numbers = _numbers(mask, nbr)
        if all(numbers[i] == shown[i] for i in range(cells) if shown[i] >= 0):
            fits.add(tuple(mines))
    draws = 300 * len(fits)
    drawn = fast.sample_layouts(board, draws, seed=11).reshape(draws, cells)
    seen: dict[tuple[int, ...], int] = {}
    for mask in drawn:
        key = tuple(int(i) for i in np.flatnonzero(mask))
        seen[key] = seen.get(key, 0) + 1
    assert set(seen) == fits
    expected = draws / len(fits)
    chi2 = sum((seen[k] - expected) ** 2 / expected for k in fits)
    df = len(fits) - 1  # the 99.9 % point of chi-square by Wilson and Hilferty's cube (z = 3.09)
    assert chi2 < df * (1 - 2 / (9 * df) + 3.09 * (2 / (9 * df)) ** 0.5) ** 3


def test_drawn_layouts_follow_the_seed_and_refuse_an_impossible_board() -> None:
    board = Board.from_text("5x5x6\nHHHHH\nH3HHH\nHHH1H\nHHHHH\nHHHHH\n")
    first = fast.sample_layouts(board, 50, seed=4)
    assert (first == fast.sample_layouts(board, 50, seed=4)).all()
    assert not (first == fast.sample_layouts(board, 50, seed=5)).all()
    with pytest.raises(InconsistentBoardError):
        fast.sample_layouts(Board.from_text("3x1x1\n2HH\n"), 1, seed=0)
    with pytest.raises(ValueError, match="count must be at least 0"):
        fast.sample_layouts(board, -1, seed=0)
    assert fast.sample_layouts(board, 0, seed=0).shape == (0, 5, 5)


def test_a_start_that_is_no_position_is_refused() -> None:
    nbr = fast.neighbours_of("square", 3, 3)
    mask = np.zeros(9, dtype=np.bool_)
    mask[4] = True
    start = np.full(9, HIDDEN, dtype=np.int8)
    start[0] = 1
    with pytest.raises(ValueError, match="cell 0 hidden"):
        fast.play_game("probabilistic", mask, nbr, 0, first_is_guess=True, start=start)
    with pytest.raises(ValueError, match="int8 position"):
        fast.play_game("probabilistic", mask, nbr, 1, first_is_guess=True, start=start.astype(np.int64))
    with pytest.raises(ValueError, match="rows of 9 cells"):
        fast.play_game(
            "probabilistic", mask, nbr, 1, first_is_guess=True, positions=np.empty((2, 8), np.int8)
        )


def _certain_mine_peer(preset: str, mines: int):  # type: ignore[no-untyped-def]
    """A stand-in for Hill: opens a cell the numbers prove a mine where there is one, else ours."""
    width, height = {"beginner": (9, 9), "intermediate": (16, 16)}[preset]
    nbr = fast.neighbours_of("square", width, height)

    def moves(positions: list[Position]) -> list[int]:
        chosen = []
        for p in positions:
            prob = np.empty(nbr.shape[0])
            probabilities(p.shown, nbr, mines, prob, DEFAULT_MAX_NODES, np.zeros(1))
            certain = [i for i in range(nbr.shape[0]) if p.shown[i] < 0 and prob[i] == 1.0]
            chosen.append(certain[0] if certain else p.ours)
        return chosen

    return moves


def test_the_worth_of_a_move_onto_a_certain_mine_is_all_loss(tmp_path: Path) -> None:
    # Where the stand-in opens a certain mine it loses on every drawn layout (so every layout drawn
    # has that mine), and its worth is minus the share ours wins from there; any number of workers
    # gives the same figures.
    positions, _ = our_positions("probabilistic", "beginner", "safe", (0, 0), 100, seed=1)
    moves = _certain_mine_peer("beginner", 10)(positions)
    one = one_step_worth("probabilistic", "beginner", positions, moves, layouts=12, seed=1, workers=1)
    two = one_step_worth("probabilistic", "beginner", positions, moves, layouts=12, seed=1, workers=2)
    assert one == two
    assert len(one) == sum(m != p.ours for p, m in zip(positions, moves, strict=True)) > 5
    assert all(w.theirs_won == 0 and w.layouts == 12 and w.kind in (KINDS[0], KINDS[3]) for w in one)
    assert sum(w.ours_won for w in one) > 0
    table = one_step(
        "probabilistic",
        "beginner",
        "safe",
        (0, 0),
        100,
        classes="",
        layouts=12,
        seed=1,
        peer=_certain_mine_peer("beginner", 10),
        rows=tmp_path / "rows.csv",
    )
    import csv

    with (tmp_path / "rows.csv").open() as written:
        assert [tuple(r.values()) for r in csv.DictReader(written)] == [
            tuple(map(str, (w.game, w.guess, w.kind, w.ours, w.theirs, w.ours_won, w.theirs_won, w.layouts)))
            for w in one
        ]
    total = -sum(w.ours_won / w.layouts for w in one) / 100
    row = next(line for line in table.splitlines() if line.startswith("| all |"))
    assert row.split("|")[3].strip().startswith(f"{100 * total:+.3f}")
    assert f"theirs elsewhere in {len(one)};" in table


def _fails_clearly(capsys: pytest.CaptureFixture[str], args: list[str], code: int, message: str) -> None:
    """``python -m benchmarks.one_step ARGS``'s usage error, in process (tests/usage.py)."""
    from benchmarks.one_step import main

    fails_clearly(capsys, main, args, code, message)


@pytest.fixture
def no_hill_classes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HILL_CLASSES", raising=False)


@pytest.mark.parametrize(
    ("extra", "code", "message"),
    [
        (["--layouts", "0", "--hill-classes", "x"], 2, "--layouts must be at least 1"),
        (["--player", "local", "--hill-classes", "x"], 2, "needs a compiled policy"),
        (["--player", "pseq", "--hill-classes", "x"], 2, "draws nothing"),
        (["--player", "expert:margin=abc", "--hill-classes", "x"], 2, "margin"),
        ([], 2, "name the other player"),
        (["--against", "pseq"], 2, "--against takes probabilistic or expert"),
        (["--against", "expert:margin=abc"], 2, "margin"),
    ],
)
def test_a_bad_option_is_a_usage_error(
    extra: list[str], code: int, message: str, capsys: pytest.CaptureFixture[str], no_hill_classes: None
) -> None:
    _fails_clearly(capsys, ["--games", "2", *extra], code, message)


def test_the_script_exits_with_mains_status_and_its_one_line() -> None:
    # The other usage errors call main() in-process (the same status and message, without starting
    # Python again): this one runs the script, for `python -m benchmarks.one_step` itself.
    args = ["--games", "2", "--layouts", "0", "--hill-classes", "x"]
    script_fails_clearly("benchmarks.one_step", args, 2, "--layouts must be at least 1")


def test_without_the_solver_it_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], no_hill_classes: None
) -> None:
    _fails_clearly(
        capsys, ["--games", "2", "--preset", "beginner", "--hill-classes", str(tmp_path)], 1, "error"
    )


def test_a_variant_asked_in_our_positions_moves_as_it_plays() -> None:
    # Asked in the positions our player reached, the same player names the very guesses it made
    # there; another variant differs somewhere, and the study then plays those positions both ways.
    positions, _ = our_positions(EXPERT, "intermediate", "safe", (0, 0), 10, seed=7)
    assert variant_moves(EXPERT, "intermediate", positions) == [p.ours for p in positions]
    beginner, _ = our_positions("probabilistic", "beginner", "safe", (0, 0), 30, seed=7)
    assert variant_moves("probabilistic", "beginner", beginner) == [p.ours for p in beginner]
    other = variant_moves("expert:candidates=1", "intermediate", positions)
    differ = sum(a != p.ours for a, p in zip(other, positions, strict=True))
    assert 0 < differ < len(positions)
    table = one_step(
        EXPERT, "intermediate", "safe", (0, 0), 10, classes="", layouts=4, seed=7, against=EXPERT
    )
    assert "theirs elsewhere in 0;" in table
    table = one_step(
        EXPERT,
        "intermediate",
        "safe",
        (0, 0),
        10,
        classes="",
        layouts=4,
        seed=7,
        against="expert:candidates=1",
    )
    assert f"theirs elsewhere in {differ};" in table
