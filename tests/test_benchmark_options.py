"""The benchmark scripts' options: a bad value is a usage error (exit 2) in one line, not a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from usage import fails_clearly, script_fails_clearly

from benchmarks.games import _games_per_preset


def test_games_per_preset_reads_any_of_the_three_presets() -> None:
    assert _games_per_preset("beginner=30,expert=2") == {"beginner": 30, "expert": 2}
    assert _games_per_preset("intermediate=5") == {"intermediate": 5}


@pytest.mark.parametrize("bad", ["300", "beginner=x", "huge=3", "beginner=-1"])
def test_a_bad_games_option_is_a_usage_error(bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    _fails_clearly(capsys, ["race", "--games", bad], 2, "expected preset=games")


def test_the_script_exits_with_mains_status_and_its_one_line() -> None:
    # The other usage errors call main() in-process (the same status and message, without starting
    # Python again): this one runs the script, for `python -m benchmarks.games` itself.
    script_fails_clearly("benchmarks.games", ["race", "--games", "300"], 2, "expected preset=games")


def _fails_clearly(capsys: pytest.CaptureFixture[str], args: list[str], code: int, message: str) -> None:
    """``python -m benchmarks.games ARGS``'s usage error, in process (tests/usage.py)."""
    from benchmarks.games import main

    fails_clearly(capsys, main, args, code, message)


def test_paired_variants_are_read_with_their_options() -> None:
    from fractions import Fraction

    from benchmarks.games import parse_variant

    assert parse_variant("expert") == ("expert", {})
    assert parse_variant("expert:score=secondary,margin=3/50,candidates=16") == (
        "expert",
        {"score": "secondary", "margin": Fraction(3, 50), "candidates": 16},
    )


@pytest.mark.parametrize(
    ("variant", "message"),
    [
        ("expert:candidates", "expected option=value"),
        ("expert:score=sideways", "score must be one of"),
        ("greedy", "unknown player"),
    ],
)
def test_a_bad_paired_variant_is_a_usage_error(
    variant: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _fails_clearly(capsys, ["paired", "--variants", "expert", variant, "--games", "2"], 2, message)


def test_paired_variants_play_the_same_games() -> None:
    # The same variant twice: every game alike, a difference of exactly zero; a different one is paired.
    from benchmarks.games import paired

    table = paired(
        ["expert", "expert", "expert:candidates=1"], "beginner", "safe", (0, 0), 40, workers=2, batch=15
    )
    rows = [line for line in table.splitlines() if line.startswith("| `")]
    assert len(rows) == 3
    first, again, narrow = (row.split("|") for row in rows)
    assert first[3] == again[3]  # the same wins, so the same rate and interval
    assert again[5].strip() == "+0.00 ± 0.00" and again[6].strip() == "0 / 0"
    gains, losses = (int(x) for x in narrow[6].split("/"))
    wins = lambda row: float(row[3].split()[0])  # noqa: E731
    assert abs((wins(narrow) - wins(first)) - 100 * (gains - losses) / 40) < 1e-9


def test_the_layouts_handed_to_a_peer_are_the_games_our_players_play() -> None:
    # Each exported layout, played by the compiled player from the same first cell, gives game i's
    # record; and the protected zone is honoured (opening: no mine around the first click).
    import numpy as np

    from analyzer.play import fast
    from analyzer.play.players import make_player
    from analyzer.play.simulation import Setup, play_indexed_fast
    from benchmarks.games import PRESETS, setup_layouts

    for rule, cell in (("safe", (0, 0)), ("opening", (2, 2))):
        width, height, mines = PRESETS["beginner"]
        layouts = setup_layouts("beginner", rule, cell, 30, seed=4)
        player = make_player("probabilistic")
        setup = Setup(width, height, mines, rule, f"{cell[0]},{cell[1]}", repr(player), 4)
        nbr = fast.neighbours_of("square", width, height)
        first = cell[0] * width + cell[1]
        for index, cells in enumerate(layouts):
            assert len(cells) == mines == len(set(cells))
            mask = np.zeros(width * height, dtype=bool)
            mask[cells] = True
            around = {first} | (
                {int(j) for j in nbr[first] if j < width * height} if rule == "opening" else set()
            )
            assert not mask[sorted(around)].any()
            played = fast.play_game("probabilistic", mask, nbr, first, first_is_guess=False)
            assert played is not None
            record = play_indexed_fast(setup, player, index)
            assert (played[0], played[1]) == (record.is_won, record.guesses)
        assert len({tuple(c) for c in layouts}) == 30  # games differ


def test_the_race_against_hill_pairs_the_games() -> None:
    # A stand-in peer that wins the even games: its rate, its split against ours and the difference
    # follow from our own wins on the same games.
    from benchmarks.games import _paired_games, race_hill

    table = race_hill(
        "probabilistic",
        "beginner",
        "safe",
        (0, 0),
        40,
        classes="",
        seed=3,
        workers=2,
        peer=lambda layouts: ([i % 2 == 0 for i in range(len(layouts))], 0.5),
    )
    ours, _ = _paired_games((9, 9, 10, "safe", "0,0", 3), "probabilistic", 40, 1)
    rows = [
        line.split("|")
        for line in table.splitlines()
        if line.startswith("| ours") or line.startswith("| David")
    ]
    assert float(rows[1][3].split()[0]) == 50.0 and rows[1][4].strip() == "12.50"
    assert float(rows[0][3].split()[0]) == 100 * sum(ours) / 40
    only_hill = sum(1 for i, won in enumerate(ours) if i % 2 == 0 and not won)
    only_ours = sum(1 for i, won in enumerate(ours) if i % 2 == 1 and won)
    assert rows[1][7].strip() == f"{only_hill} / {only_ours}"
    assert rows[1][6].strip().startswith(f"{100 * (only_hill - only_ours) / 40:+.2f} ±")


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--games", "0"], "--games must be at least 1"),
        (["--player", "expert:score=nonsense"], "score"),
        (["--first-cell", "a,b"], "invalid literal"),
        ([], "HILL_CLASSES"),
    ],
)
def test_a_bad_race_hill_option_is_a_usage_error(
    extra: list[str], message: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("HILL_CLASSES", raising=False)
    _fails_clearly(capsys, ["race-hill", *extra], 2, message)


def test_race_hill_without_the_solver_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Classes that hold no driver (or no java at all): a one-line error, not a traceback.
    _fails_clearly(
        capsys, ["race-hill", "--games", "2", "--hill-classes", str(tmp_path)], 1, "Hill's solver did not run"
    )


def test_summarize_pairs_players_on_the_batches_both_played(tmp_path: Path) -> None:
    # Two players' results files on the same 40 batches of 100 games (seed 0) and a third on
    # another seed: the second's difference is its batches' mean with the batches' spread; the
    # third has no batch in common and no row; a setup with fewer than 30 common batches none.
    import json
    import statistics

    from benchmarks.games import compare

    def write(player: str, setup: str, seed: int, wins: list[int]) -> None:
        lines = [
            json.dumps({"setup": {"seed": seed}, "start": 100 * i, "stop": 100 * (i + 1), "wins": w})
            for i, w in enumerate(wins)
        ]
        (tmp_path / player).mkdir(exist_ok=True)
        (tmp_path / player / f"{setup}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")

    base = [40 + i % 3 for i in range(40)]
    better = [w + (1 if i % 4 else 0) for i, w in enumerate(base)]
    write("a", "expert-safe", 0, base)
    write("b", "expert-safe", 0, better)
    write("c", "expert-safe", 1, better)
    write("a", "beginner-safe", 0, base[:20])
    write("b", "beginner-safe", 0, better[:20])
    table = compare(tmp_path, ["a", "b", "c"])
    rows = [line for line in table.splitlines() if line.startswith("| expert-safe | `")]
    assert len(rows) == 1 and "`b`" in rows[0]
    assert not any(line.startswith("| beginner-safe | `") for line in table.splitlines())
    shares = [(b - a) / 100 for a, b in zip(base, better, strict=True)]
    half = 1.959963984540054 * statistics.stdev(shares) / 40**0.5
    assert rows[0].split("|")[3].strip() == "4,000"
    assert rows[0].split("|")[4].strip() == f"{100 * sum(shares) / 40:+.3f} ± {100 * half:.3f}"


def test_paired_refuses_zero_games(capsys: pytest.CaptureFixture[str]) -> None:
    _fails_clearly(
        capsys, ["paired", "--variants", "expert", "--games", "0"], 2, "--games must be at least 1"
    )


def test_a_stray_line_from_hills_driver_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    # The solver's watchdog prints "... might be looping" when a move takes over 2 s of wall time;
    # an answer line is "KEY VALUE", and anything else is named, not unpacked into a traceback.
    import benchmarks.games as games
    import benchmarks.one_step as one_step

    assert games.driver_answers(["0 1", "1 0", "cpu 0.25"]) == [("0", "1"), ("1", "0"), ("cpu", "0.25")]
    stray = ["0 1", "game 7 might be looping", "1 0", "cpu 0.25"]
    with pytest.raises(RuntimeError, match="printed 'game 7 might be looping', not an answer"):
        games.driver_answers(stray)
    monkeypatch.setattr(games, "run_jvms", lambda *args: stray)
    with pytest.raises(RuntimeError, match="might be looping"):
        games.run_hill("", "beginner", (0, 0), [[1], [2]], 1)
    monkeypatch.setattr(one_step, "run_jvms", lambda *args: stray)
    with pytest.raises(RuntimeError, match="might be looping"):
        one_step.run_hill_moves("", "beginner", (0, 0), [], 1)


def test_the_written_games_are_the_same_files_on_one_and_two_processes(tmp_path: Path) -> None:
    from benchmarks.replays import write_games

    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir()
    two.mkdir()
    alone, won_alone = write_games(one, 6, workers=1)
    shared, won_shared = write_games(two, 6, workers=2)
    assert [p.name for p in alone] == [p.name for p in shared] == [f"expert{i:05d}.evf" for i in range(6)]
    assert sorted(p.name for p in one.iterdir()) == [p.name for p in alone]
    assert [p.read_bytes() for p in alone] == [p.read_bytes() for p in shared]
    assert won_alone == won_shared
    # Each file is its own game: seed i plays game i.
    assert len({p.read_bytes() for p in alone}) == 6


def test_the_variant_benchmark_times_the_empty_board(capsys, monkeypatch) -> None:
    """``--empty``: one position a rule set, nothing revealed, its first position's mine total."""
    from benchmarks import variants

    seen = []
    solve = variants.solve_variant

    def spy(position, rules, **options):  # type: ignore[no-untyped-def]
        seen.append(position)
        return solve(position, rules, **options)

    monkeypatch.setattr(variants, "solve_variant", spy)
    assert variants.main(["--empty", "--rules", "V,Q", "--size", "5"]) == 0
    assert len(seen) == 2 and all(len(p.hidden_cells()) == 25 for p in seen)
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == "5x5, the empty board a rule set, seed 0"
    rows = {line.split()[0]: line.split() for line in lines[3:5]}
    assert set(rows) == {"V", "Q"}
    assert rows["V"][1] == rows["Q"][1] == "10"  # round(0.4 * 25): both totals hold a layout


def test_each_win_rates_folder_holds_the_player_its_readme_names() -> None:
    # results/win_rates/README.md maps a folder to the player its runs were played with: every
    # file of the folder records that player (as it was built), and every folder is listed.
    import json
    import re

    from analyzer.play.players import make_player, parse_player

    folder = Path(__file__).resolve().parent.parent / "results" / "win_rates"
    readme = (folder / "README.md").read_text(encoding="utf-8")
    listed = dict(re.findall(r"^\| `([\w-]+)` \| `([^`]+)` \|$", readme, re.M))
    assert sorted(listed) == sorted(p.name for p in folder.iterdir() if p.is_dir())
    for name, spec in listed.items():
        player, options = parse_player(spec)
        expected = repr(make_player(player, **options))
        files = sorted((folder / name).glob("*.jsonl"))
        assert files, name
        for path in files:
            first = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
            assert first["setup"]["player"] == expected, (name, path.name)
