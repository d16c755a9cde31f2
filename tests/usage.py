"""Usage errors of the command-line scripts, checked as a person sees them: an exit status and one
line on stderr, never a traceback (tests/test_benchmark_options.py, tests/test_one_step.py)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _one_clear_line(status: object, err: str, code: int, message: str) -> None:
    assert status == code
    assert "Traceback" not in err
    assert message in err.strip().splitlines()[-1]


def fails_clearly(
    capsys: pytest.CaptureFixture[str],
    main: Callable[[list[str]], int],
    args: list[str],
    code: int,
    message: str,
) -> None:
    """``main(args)`` exits ``code`` with ``message`` on the last line of stderr; an exception
    escaping it (a traceback) fails the test. In process: the same status and message as the
    script, without starting Python again (:func:`script_fails_clearly` runs the script itself)."""
    try:
        status: object = main(args)
    except SystemExit as exit:  # argparse's usage errors
        status = exit.code
    _one_clear_line(status, capsys.readouterr().err, code, message)


def script_fails_clearly(module: str, args: Sequence[str], code: int, message: str) -> None:
    """``python -m module ARGS`` exits ``code`` with ``message`` on the last line of stderr."""
    done = subprocess.run(
        [sys.executable, "-m", module, *args], capture_output=True, text=True, cwd=ROOT, timeout=300
    )
    _one_clear_line(done.returncode, done.stderr, code, message)
