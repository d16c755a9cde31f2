"""The rules W, P, E and S on 8x8: certain cells and a hint, then exact probabilities, medians.

``python -m benchmarks.variant_patterns``: for each rule set, positions are made from a
random layout (a random snake under S; seeded), with a share of the safe cells revealed
showing their clues. Two times a position: one ``solve_variant(..., probabilities=False)``
plus one ``hint`` on it (CP-SAT), and one ``solve_variant`` with probabilities (the
component pipeline for W, P, E alone; the enumeration of every layout under board
rules), given ``--probability-limit`` seconds (a position past it is counted apart: the
enumeration under C or O filters layouts for connectivity one by one).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

from analyzer.errors import InconsistentBoardError, SolverTimeoutError
from analyzer.variants import Position, hint, parse_rules, solve_variant

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
import variant_oracle as oracle  # noqa: E402

RULE_SETS = ["W", "P", "E", "S", "LP", "LE", "QW", "CP", "TE", "SW", "SX", "SM"]


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive count, got {text!r}")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected positive seconds, got {text!r}")
    return value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=_positive, default=5, help="positions a rule set")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--probability-limit", type=_seconds, default=20.0, help="seconds for one position's probabilities"
    )
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    worst = 0.0
    print(f"{'rules':6s} {'hint s':>8s} {'max s':>7s} {'probs s':>8s} {'max s':>7s}  positions  past limit")
    for rules in RULE_SETS:
        hints: list[float] = []
        probs: list[float] = []
        past = 0
        canonical = str(parse_rules(rules))
        tries = 0
        while len(hints) < args.positions and tries < 20 * args.positions:
            tries += 1
            cells, mines, runs, _ = oracle.random_pattern_position(
                canonical, 8, 8, rng.randrange(10**9), fill=0.3, reveal=0.5
            )
            listed = tuple(sorted((r * 8 + c, v) for (r, c), v in runs.items()))
            position = Position(8, 8, mines, cells, runs=listed)
            start = time.perf_counter()
            try:
                analysis = solve_variant(position, rules, probabilities=False)
            except InconsistentBoardError:
                continue  # no layout met the board rules quickly: not a position of the game
            hint(analysis)
            hints.append(time.perf_counter() - start)
            start = time.perf_counter()
            try:
                solve_variant(position, rules, time_limit=args.probability_limit)
            except SolverTimeoutError:
                past += 1
                continue
            probs.append(time.perf_counter() - start)
        if not hints:
            print(f"{rules:6s} no consistent position made in {tries} tries")
            continue
        median = statistics.median(hints)
        worst = max(worst, median)
        p_median = f"{statistics.median(probs):8.3f} {max(probs):7.3f}" if probs else f"{'-':>8s} {'-':>7s}"
        print(f"{rules:6s} {median:8.3f} {max(hints):7.3f} {p_median}  {len(hints):9d}  {past:10d}")
    print(f"largest median (certain cells and a hint): {worst:.3f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
