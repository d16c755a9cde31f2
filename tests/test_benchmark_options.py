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
