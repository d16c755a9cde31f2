"""Random variant positions beyond the benchmark's (``python -m benchmarks.variant_scan``).

:mod:`benchmarks.variants` times 8x8 start positions with a quarter of the safe cells
revealed at least; the game's own positions are often emptier and smaller. Here each
position of a rule set is seeded: a side of 5 to 8, the game's mine total for it
(:func:`~analyzer.variants.generate.default_mines`), a layout meeting the board rules
(:func:`~analyzer.variants.generate.random_layout`), then 0 to 40 % of the safe cells
revealed (:func:`~analyzer.variants.generate.random_position`): consistent by construction.
The time of a position is one full ``solve_variant`` (certain cells and probabilities),
CPU time of this process (CP-SAT runs single-threaded in it), with ``--time-limit`` as
the user's limit (a position that reaches it counts at that time and says so). Per rule
set: the median, the 95th percentile and the worst time, what the worst position's
probabilities came to, and its text (``--show`` prints it, to replay with
``analyzer solve --rules R``). The same ``--seed`` gives the same positions whatever
``--rules`` picks (a set's seeds follow its place in the full list).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from analyzer.errors import SolverTimeoutError
from analyzer.variants import parse_rules, solve_variant
from analyzer.variants.generate import random_position

from .variants import rule_sets

__all__ = ["scan_positions", "main"]


def scan_positions(rules: str, count: int, seed: int, *, sizes: tuple[int, int] = (5, 8), most: float = 0.4):
    """The ``count`` positions of a rule set: ``(position, side, reveal)`` each, seeded."""
    places = {name: k for k, name in enumerate(rule_sets())}
    s = places.get(str(parse_rules(rules)), len(places))
    found = []
    for k in range(count):
        rng = random.Random(f"scan {seed} {s} {k}")
        side = rng.randint(*sizes)
        reveal = round(rng.uniform(0, most), 3)
        position, _ = random_position(rules, side, side, seed=seed * 1_000_003 + s * 1009 + k, reveal=reveal)
        found.append((position, side, reveal))
    return found


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=10, help="positions a rule set")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rules", default=None, help="comma-separated rule sets (default: all)")
    parser.add_argument("--time-limit", type=float, default=30.0, help="the user's limit a position (s)")
    parser.add_argument("--show", action="store_true", help="print each set's worst position")
    parser.add_argument("--over", type=float, default=None, help="print every position slower than this (s)")
    args = parser.parse_args(argv)
    sets = args.rules.split(",") if args.rules else rule_sets()
    print("load average before: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    print(f"{args.positions} positions a rule set, 5x5-8x8, 0-40 % revealed, seed {args.seed}")
    print(f"{'rules':6s} {'median':>7s} {'p95':>7s} {'worst':>7s}  worst position")
    overall = (0.0, "")
    for rules in sets:
        times: list[tuple[float, str, str]] = []
        for position, side, reveal in scan_positions(rules, args.positions, args.seed):
            cpu = time.process_time()
            try:
                analysis = solve_variant(position, rules, time_limit=args.time_limit)
                if analysis.probabilities is not None:
                    outcome = f"{analysis.layouts} layouts"
                elif analysis.probability_method.startswith("the time limit"):
                    outcome = "time limit (counting)"
                else:
                    outcome = "not counted"
            except SolverTimeoutError:
                outcome = "time limit"
            spent = time.process_time() - cpu
            what = f"{side}x{side} {position.mines} mines {reveal:.0%} revealed, {outcome}"
            times.append((spent, what, position.to_text()))
            if args.over is not None and spent > args.over:
                print(f"  {rules} {spent:.2f} s: {what}\n{position.to_text()}", flush=True)
        cpus = [t for t, _, _ in times]
        worst = max(times)
        overall = max(overall, (worst[0], rules))
        print(
            f"{rules:6s} {statistics.median(cpus):7.3f} {_p95(cpus):7.3f} {worst[0]:7.3f}  {worst[1]}",
            flush=True,
        )
        if args.show:
            print(worst[2])
    print(f"worst: {overall[0]:.3f} s ({overall[1]})")
    print("load average after: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
