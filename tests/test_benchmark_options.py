"""The benchmark scripts' options: a bad value is a usage error (exit 2) in one line, not a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.games import _games_per_preset

ROOT = Path(__file__).resolve().parent.parent


def test_games_per_preset_reads_any_of_the_three_presets() -> None:
    assert _games_per_preset("beginner=30,expert=2") == {"beginner": 30, "expert": 2}
    assert _games_per_preset("intermediate=5") == {"intermediate": 5}


@pytest.mark.parametrize("bad", ["300", "beginner=x", "huge=3", "beginner=-1"])
def test_a_bad_games_option_is_a_usage_error(bad: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.games", "race", "--games", bad],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert "expected preset=games" in done.stderr.strip().splitlines()[-1]


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
def test_a_bad_paired_variant_is_a_usage_error(variant: str, message: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.games", "paired", "--variants", "expert", variant, "--games", "2"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert message in done.stderr.strip().splitlines()[-1]


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
