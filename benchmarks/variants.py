"""Variant positions on 8x8: certain cells and a hint, medians (``python -m benchmarks.variants``).

For each rule set, positions are made from a random layout meeting its board rules
(seeded), with a share of the safe cells revealed; the time is one
``solve_variant(..., probabilities=False)`` plus one ``hint`` on it (CP-SAT).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

from analyzer.errors import InconsistentBoardError
from analyzer.variants import Position, hint, parse_rules, solve_variant

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
import variant_oracle as oracle  # noqa: E402

RULE_SETS = [
    "V",
    "M",
    "L",
    "N",
    "X",
    "X'",
    "K",
    "Q",
    "C",
    "T",
    "O",
    "D",
    "B",
    "A",
    "QX",
    "CX'",
    "TK",
    "LM",
    "OL",
]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=5, help="positions a rule set")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    worst = 0.0
    print(f"{'rules':6s} {'median s':>9s} {'max s':>7s}  positions")
    for rules in RULE_SETS:
        times = []
        canonical = str(parse_rules(rules))
        tries = 0
        while len(times) < args.positions and tries < 20 * args.positions:
            tries += 1
            cells, mines, _ = oracle.random_position(
                canonical, 8, 8, rng.randrange(10**9), fill=0.3, reveal=0.5
            )
            position = Position(8, 8, mines, cells)
            start = time.perf_counter()
            try:
                analysis = solve_variant(position, rules, probabilities=False)
            except InconsistentBoardError:
                continue  # no layout met the board rules quickly: not a position of the game
            hint(analysis)
            times.append(time.perf_counter() - start)
        if not times:
            print(f"{rules:6s} no consistent position made in {tries} tries")
            continue
        median = statistics.median(times)
        worst = max(worst, median)
        print(f"{rules:6s} {median:9.3f} {max(times):7.3f}  {len(times)}")
    print(f"largest median: {worst:.3f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
