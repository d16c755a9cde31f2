"""Whole-process start-up: wall time and peak memory of short commands, beside ms-toollib.

Each command runs in a fresh process ``--repeat`` times (numba's cache warm, as after
``make setup``, and Python's bytecode cache too: ``PYTHONDONTWRITEBYTECODE`` is removed
from the children's environment, as on a usual install); the table gives the median wall
time and the largest peak resident
memory (``ru_maxrss`` of that child, from ``os.wait4``). The peer's line solves the
same board with ``ms_toollib.cal_probability_onboard`` in a fresh ``python -c``.

    python -m benchmarks.startup --repeat 7
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SMALL = "4x3x4\nHHHH\nFHHH\n2H2H\n"
CERTAIN = "4x2x2\nHHHH\n1221\n"


def _run(argv: list[str]) -> tuple[float, float]:
    """Wall seconds and peak resident MB of one run of ``argv``."""
    start = time.perf_counter()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        error = process.stderr.read().decode() if process.stderr else ""
        raise SystemExit(f"{' '.join(argv)} failed: {error.strip()}")
    if process.stderr:
        process.stderr.close()
    return wall, usage.ru_maxrss / 1024


def _peer_script(path: Path) -> str:
    return (
        "import sys, ms_toollib\n"
        f"lines = open({str(path)!r}).read().split()\n"
        "w, h, m = map(int, lines[0].split('x'))\n"
        "grid = [[10 if c == 'H' else 11 if c == 'F' else int(c) for c in row] for row in lines[1:]]\n"
        "ms_toollib.cal_probability_onboard(grid, m)\n"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs of each command (default 5)")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")

    python = sys.executable
    analyzer_cli = [python, "-m", "analyzer"]
    with tempfile.TemporaryDirectory() as folder:
        small = Path(folder) / "small.mine"
        small.write_text(SMALL)
        certain = Path(folder) / "certain.mine"
        certain.write_text(CERTAIN)
        expert = Path(folder) / "expert.mine"
        # Made in a child: this process stays small, since a forked child counts the parent's
        # pages in its peak memory until it runs the command.
        make = (
            "from analyzer.play.positions import mid_game;"
            " print(mid_game(30, 16, 99, seed=1).to_text(), end='')"
        )
        expert.write_text(
            subprocess.run([python, "-c", make], capture_output=True, text=True, check=True).stdout
        )
        commands: list[tuple[str, list[str]]] = [
            ("import analyzer", [python, "-c", "import analyzer"]),
            ("analyzer solve (4x3)", [*analyzer_cli, "solve", str(small)]),
            ("analyzer solve (expert)", [*analyzer_cli, "solve", str(expert)]),
            ("analyzer solve --best (4x3)", [*analyzer_cli, "solve", str(small), "--best"]),
            ("analyzer explain (4x2)", [*analyzer_cli, "explain", str(certain)]),
            ("analyzer verify --check vandermonde", [*analyzer_cli, "verify", "--check", "vandermonde"]),
            (
                "analyzer simulate --games 10",
                [*analyzer_cli, "simulate", "--preset", "beginner", "--games", "10", "--no-progress"],
            ),
        ]
        try:
            import ms_toollib  # noqa: F401
        except ImportError:
            print("ms-toollib is not installed (the bench extra): its lines are left out")
        else:
            commands.append(("ms-toollib solve (4x3)", [python, "-c", _peer_script(small)]))
            commands.append(("ms-toollib solve (expert)", [python, "-c", _peer_script(expert)]))
        commands.append(("python -c pass", [python, "-c", "pass"]))
        print(f"{'command':38} {'median wall':>12} {'max wall':>10} {'peak MB':>8}")
        print("-" * 71)
        for name, command in commands:
            _run(command)  # once untimed: the page cache and numba's cache are warm for every line alike
            runs = [_run(command) for _ in range(args.repeat)]
            walls = [wall for wall, _ in runs]
            peak = max(mb for _, mb in runs)
            print(
                f"{name:38} {statistics.median(walls):>10.3f} s {max(walls):>8.3f} s {peak:>8.0f}", flush=True
            )
    load = os.getloadavg()[0]
    print(f"\n{args.repeat} runs each, load average {load:.2f} on {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    sys.exit(main())
