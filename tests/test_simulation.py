"""Tests of :mod:`analyzer.play.simulation`: intervals, determinism, resume, Dask, CLI."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from analyzer import Game
from analyzer.cli import main as cli
from analyzer.play import simulation as sim
from analyzer.play.players import LocalPlayer, RandomPlayer, make_player
from analyzer.play.simulation import (
    PRESETS,
    Setup,
    SimulationError,
    WinRate,
    play,
    play_indexed,
    simulate,
    wilson_interval,
)


# ------------------------------------------------------------------ Wilson
@pytest.mark.parametrize(
    ("wins", "games", "low", "high"),
    [
        # Newcombe (1998), Statistics in Medicine 17:857, table I, method 3 (score interval).
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
        # Symmetric and extreme cases.
        (50, 100, 0.4038, 0.5962),
        (10, 10, 0.7225, 1.0),
    ],
)
def test_wilson_interval_known_values(wins: int, games: int, low: float, high: float) -> None:
    got = wilson_interval(wins, games)
    assert got == pytest.approx((low, high), abs=5e-5)


def test_wilson_interval_formula_and_errors() -> None:
    wins, n, z = 37, 120, 1.959963984540054
    p = wins / n
    centre = (wins + z * z / 2) / (n + z * z)
    half = z * math.sqrt(n) / (n + z * z) * math.sqrt(p * (1 - p) + z * z / (4 * n))
    assert wilson_interval(wins, n) == pytest.approx((centre - half, centre + half), rel=1e-12)
    assert wilson_interval(3, 5, z=0) == pytest.approx((0.6, 0.6))
    with pytest.raises(SimulationError, match="games must be an integer >= 1"):
        wilson_interval(0, 0)
    with pytest.raises(SimulationError, match=r"wins must be an integer in 0\.\.5"):
        wilson_interval(6, 5)


def test_win_rate_values() -> None:
    setup = Setup(4, 4, 2, "safe", "0,0", "LocalPlayer()", 0)
    rate = WinRate(setup, 3, 4, 6, 0.5)
    assert (rate.rate, rate.mean_guesses, rate.seconds_per_game) == (0.75, 1.5, 0.125)
    assert rate == WinRate(setup, 3, 4, 6, 99.0)  # time is not compared
    assert "3/4 won: 75.00%" in str(rate)


# ----------------------------------------------------------------- playing
def test_play_counts_guesses() -> None:
    rng = np.random.default_rng(0)
    # The random player: every reveal but a protected first one is a guess.
    for rule, first_is_guess in (("safe", 0), ("none", 1)):
        for seed in range(20):
            game = Game.new(5, 5, 4, first_click=rule, seed=seed)
            record = play(game, RandomPlayer(), rng=rng, first_cell=(2, 2))
            assert record.status == game.status != "playing"
            assert record.guesses == record.reveals - 1 + first_is_guess
            assert record.flags == 0
    # Local flags what it proves; with no mines nothing is a guess.
    game = Game.new(4, 4, 0, first_click="safe", seed=0)
    assert play(game, LocalPlayer(), rng=rng, first_cell=None).guesses == 0


def test_play_indexed_is_the_same_game_for_every_player() -> None:
    setup = Setup(6, 6, 5, "safe", "random", "x", 11)
    first = {}
    for name in ("random", "local", "probabilistic"):
        board_seq, _ = sim.game_seed(setup.seed, 4).spawn(2)
        rng = np.random.default_rng(board_seq)
        first[name] = divmod(int(rng.integers(36)), 6)
        assert play_indexed(setup, make_player(name), 4) == play_indexed(setup, make_player(name), 4)
    assert len(set(first.values())) == 1


# --------------------------------------------------------------- simulate
def test_simulate_is_identical_across_workers_and_batches() -> None:
    args = (6, 6, 6, "local", 48)
    kwargs = {"first_click": "safe", "first_cell": "random", "seed": 3}
    one = simulate(*args, **kwargs, workers=1)
    two = simulate(*args, **kwargs, workers=2, batch_size=5)
    odd = simulate(*args, **kwargs, workers=1, batch_size=7)
    assert one == two == odd
    assert one.games == 48 and 0 < one.wins < 48
    other_seed = simulate(*args, first_cell="random", seed=4)
    assert other_seed.setup != one.setup


def test_simulate_bad_inputs() -> None:
    with pytest.raises(SimulationError, match="unknown player 'nobody'"):
        simulate(4, 4, 2, "nobody", 1)
    with pytest.raises(SimulationError, match="width must be an integer >= 1, got 0"):
        simulate(0, 4, 2, "local", 1)
    with pytest.raises(SimulationError, match="room for at most 15 mines"):
        simulate(4, 4, 16, "local", 1)
    with pytest.raises(SimulationError, match="games must be an integer >= 1"):
        simulate(4, 4, 2, "local", 0)
    with pytest.raises(SimulationError, match="first cell .* outside"):
        simulate(4, 4, 2, "local", 1, first_cell=(4, 0))
    with pytest.raises(SimulationError, match="bad first cell 'middle'"):
        simulate(4, 4, 2, "local", 1, first_cell="middle")
    with pytest.raises(SimulationError, match="unknown first-click rule"):
        simulate(4, 4, 2, "local", 1, first_click="lucky")
    with pytest.raises(SimulationError, match="unknown backend 'spark'"):
        simulate(4, 4, 2, "local", 1, backend="spark")


def test_first_cell_names() -> None:
    corner = simulate(5, 4, 3, "local", 6, first_cell="corner")
    assert corner.setup.first_cell == "0,0"
    assert corner == simulate(5, 4, 3, "local", 6, first_cell="0,0")
    assert simulate(5, 4, 3, "local", 2, first_cell="centre").setup.first_cell == "2,2"
    assert simulate(5, 4, 3, "local", 2).setup.first_cell == "player"


# ----------------------------------------------------------------- resume
def test_results_file_resume(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "results.jsonl"
    args = (5, 5, 4, "subset", 40)
    kwargs = {"first_cell": "random", "seed": 9, "batch_size": 8}
    fresh = simulate(*args, **kwargs)

    played: list[tuple[int, int]] = []
    real = sim._run_batch

    def counting(setup, player, start, stop, use_fast=False):
        played.append((start, stop))
        if len(played) == 3:
            raise KeyboardInterrupt  # interrupted in the middle of the third batch
        return real(setup, player, start, stop, use_fast)

    monkeypatch.setattr(sim, "_run_batch", counting)
    with pytest.raises(KeyboardInterrupt):
        simulate(*args, **kwargs, results_path=path)
    lines = path.read_text().splitlines()
    assert [(json.loads(x)["start"], json.loads(x)["stop"]) for x in lines] == [(0, 8), (8, 16)]
    # A write cut short leaves a broken last line: ignored, and mended before the next one.
    with path.open("a") as handle:
        handle.write('{"format": 1, "setup": {"wid')

    played.clear()
    monkeypatch.setattr(sim, "_run_batch", lambda *a: (played.append(a[2:4]), real(*a))[1])
    with pytest.warns(UserWarning, match="line 3: skipped an unfinished last line"):
        resumed = simulate(*args, **kwargs, results_path=path)
    assert resumed == fresh
    assert played == [(16, 24), (24, 32), (32, 40)]  # finished batches are not played again
    # Everything is there now: nothing to play, the same answer, from the file alone.
    played.clear()
    assert simulate(*args, **kwargs, results_path=path) == fresh and played == []
    # A different batch size or more games reuses what fits.
    more = simulate(5, 5, 4, "subset", 45, first_cell="random", seed=9, batch_size=3, results_path=path)
    assert played == [(40, 43), (43, 45)]
    assert more == simulate(5, 5, 4, "subset", 45, first_cell="random", seed=9)


def test_results_file_keeps_setups_apart(tmp_path: Path) -> None:
    path = tmp_path / "sweep.jsonl"
    a = simulate(4, 4, 2, "local", 10, seed=1, results_path=path)
    b = simulate(4, 4, 3, "local", 10, seed=1, results_path=path)
    assert simulate(4, 4, 2, "local", 10, seed=1, results_path=path) == a
    assert simulate(4, 4, 3, "local", 10, seed=1, results_path=path) == b
    setups = {json.dumps(json.loads(line)["setup"], sort_keys=True) for line in path.read_text().splitlines()}
    assert len(setups) == 2
    # Another player's options make another setup.
    c = simulate(4, 4, 2, make_player("expert", candidates=2), 3, seed=1, results_path=path)
    assert "candidates=2" in c.setup.player


# ------------------------------------------------------------------- Dask
def test_dask_gives_the_local_result(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    args = (5, 5, 4, "probabilistic", 16)
    kwargs = {"first_cell": "random", "seed": 5, "batch_size": 4}
    local = simulate(*args, **kwargs)
    path = tmp_path / "dask.jsonl"
    remote = simulate(*args, **kwargs, backend="dask", workers=1, results_path=path)
    assert remote == local
    assert len(path.read_text().splitlines()) == 4


def test_dask_bad_address() -> None:
    pytest.importorskip("distributed")
    with pytest.raises(SimulationError, match="address is for backend 'dask'"):
        simulate(4, 4, 2, "local", 1, address="tcp://127.0.0.1:1")


# -------------------------------------------------------------------- CLI
def cli_main(argv: list[str]) -> int:
    return cli(["simulate", *argv])


def test_cli_runs(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status = cli_main(
        ["--width", "5", "--height", "5", "--mines", "3", "--player", "local", "--games", "12", "--seed", "2"]
        + ["--first-cell", "2,2", "--results", str(tmp_path / "r.jsonl"), "--no-progress"]
    )
    out = capsys.readouterr().out
    assert status == 0
    assert "5x5/3, first click safe at 2,2, player LocalPlayer(), seed 2" in out
    expected = simulate(5, 5, 3, "local", 12, first_cell=(2, 2), seed=2)
    assert f"{expected.wins}/12 won" in out


def test_cli_player_with_options(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--preset", "beginner", "--games", "30", "--first-cell", "0,0", "--no-progress"]
    assert cli_main([*argv, "--player", "expert:score=secondary,margin=3/50,candidates=16"]) == 0
    out = capsys.readouterr().out
    player = make_player("expert", score="secondary", margin=Fraction(3, 50), candidates=16)
    assert f"player {player!r}, seed 0" in out
    expected = simulate(9, 9, 10, player, 30, first_cell=(0, 0))
    assert f"{expected.wins}/30 won" in out


def test_cli_exact_flag_plays_the_exact_player(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--preset", "beginner", "--player", "probabilistic", "--games", "15", "--first-cell", "corner"]
    assert cli_main([*argv, "--no-progress"]) == 0
    fast = capsys.readouterr().out.splitlines()[1]
    assert cli_main([*argv, "--no-progress", "--exact"]) == 0
    exact = capsys.readouterr().out.splitlines()[1]
    # the same games and moves: the same wins and guesses (only the time differs)
    assert fast.split(" ms/game")[0].rsplit(",", 1)[0] == exact.split(" ms/game")[0].rsplit(",", 1)[0]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--preset", "huge"], "argument --preset: invalid choice: 'huge'"),
        (["--preset", "beginner", "--player", "nobody"], "unknown player 'nobody'"),
        (["--preset", "beginner", "--player", "expert:colour=blue"], "bad option for player 'expert'"),
        (["--preset", "beginner", "--player", "expert:margin"], "'margin': expected option=value"),
        (["--preset", "beginner", "--player", "expert:margin=1/0"], "'1/0' is not a number"),
        (["--width", "3", "--height", "3", "--mines", "9"], "room for at most 8 mines"),
        (["--width", "0", "--height", "3", "--mines", "1"], "argument --width: expected a whole number >= 1"),
        (
            ["--width", "3", "--height", "3", "--mines", "10"],
            "more than the 3x3 board's 9 cells",
        ),
        (["--width", "3"], "give --preset NAME, or all of --width, --height and --mines"),
        (["--preset", "expert", "--width", "3"], "not both"),
        (["--preset", "beginner", "--first-cell", "9,0"], "first cell (9, 0) is outside the 9x9 board"),
        (["--preset", "beginner", "--games", "0"], "argument --games: expected a whole number >= 1, got '0'"),
        (["--preset", "beginner", "--workers", "0"], "argument --workers: expected a whole number >= 1"),
        (["--preset", "beginner", "--workers", "10000"], "workers must be an integer from 1 to"),
        (
            ["--preset", "beginner", "--batch-size", "0"],
            "argument --batch-size: expected a whole",
        ),
        (["--preset", "beginner", "--seed", "-1"], "argument --seed: expected a whole number >= 0"),
        (["--preset", "beginner", "--backend", "spark"], "argument --backend: invalid choice: 'spark'"),
        (["--preset", "beginner", "--first-click", "lucky"], "unknown first-click rule 'lucky'"),
    ],
)
def test_cli_bad_input_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    """Each is a usage error: exit status 2 (as argparse's own), one line naming what is wrong."""
    try:
        status = cli_main([*argv, "--no-progress"])
    except SystemExit as stop:  # argparse's: the usage, then the error
        status = stop.code  # type: ignore[assignment]
    captured = capsys.readouterr()
    assert status == 2
    assert captured.out == ""
    last = captured.err.strip().splitlines()[-1]
    assert last.startswith(("analyzer: error: ", "analyzer simulate: error: ")) and message in last
    assert "Traceback" not in captured.err


def test_presets() -> None:
    assert PRESETS == {"beginner": (9, 9, 10), "intermediate": (16, 16, 40), "expert": (30, 16, 99)}


def test_cli_says_how_many_games_it_resumed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    results = str(tmp_path / "runs.jsonl")
    argv = ["--preset", "beginner", "--player", "local", "--no-progress", "--results", results]
    assert cli_main([*argv, "--games", "20"]) == 0
    assert "resumed" not in capsys.readouterr().err
    assert cli_main([*argv, "--games", "50"]) == 0
    assert f"resumed 20 games from {results}; played 30 more" in capsys.readouterr().err
    assert simulate(9, 9, 10, "local", 50, results_path=results).resumed == 50


def test_cli_prints_what_the_readme_shows(capsys: pytest.CaptureFixture[str]) -> None:
    """The README's `analyzer simulate` block, run as written: the same lines (the time per game aside)."""
    import re
    import shlex

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    shown = re.search(r"^    \$ analyzer (simulate .*)\n((?:    \S.*\n)+)", readme, flags=re.M)
    assert shown is not None, "the README shows an analyzer simulate run"
    assert cli(shlex.split(shown.group(1)) + ["--no-progress"]) == 0
    out = capsys.readouterr().out

    def masked(text: str) -> list[str]:
        return [re.sub(r"[0-9.]+ ms/game", "T ms/game", line.strip()) for line in text.splitlines()]

    assert masked(out) == masked(shown.group(2))
