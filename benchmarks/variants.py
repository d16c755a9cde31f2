"""Variant positions on 8x8: certain cells and a hint (``python -m benchmarks.variants``).

Every rule of :data:`~analyzer.variants.RULES` alone and every pair of them that can
hold together (a rule added there joins automatically). For each rule set,
``--positions`` start positions from :func:`analyzer.variants.generate.random_position`
(seeded: a layout meeting the board rules with the game's mine total, 26 on 8x8, 24
under B; a quarter, a half or three quarters of the safe cells revealed, in turn). A rule
set's seeds follow from its place in the full list, so ``--rules`` picks the same positions
as the full run.
The time of a position is one ``solve_variant(..., probabilities=False)`` (every certain
cell, CP-SAT) plus one ``hint`` on its answer: wall and CPU time of this process (CP-SAT
runs single-threaded in it), the median and the max per rule set, and the overall max.
The machine's load average is printed before and after: on a shared machine the CPU
time is the steadier figure. With ``--empty``, each rule set's one position is the empty
board (nothing revealed) with its first position's mine total: the start of a game.
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import time

from analyzer.board.board import HIDDEN
from analyzer.errors import RuleError
from analyzer.variants import RULES, Position, hint, parse_rules, solve_variant
from analyzer.variants.generate import random_position

__all__ = ["rule_sets", "main"]

REVEALS = (0.25, 0.5, 0.75)


def rule_sets(pairs: bool = True) -> list[str]:
    """Every rule alone, then every pair that parses (two clue regions or M with N do not)."""
    found = list(RULES)
    if pairs:
        for a, b in itertools.combinations(RULES, 2):
            try:
                name = str(parse_rules(a + b))
            except RuleError:
                continue
            if name not in found:  # V with another rule is that rule
                found.append(name)
    return found


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg()) + f" ({os.cpu_count()} CPUs)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=3, help="positions a rule set")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--size", type=int, default=8, help="board side")
    parser.add_argument("--rules", default=None, help="comma-separated rule sets (default: all)")
    parser.add_argument("--singles", action="store_true", help="every rule alone, no pairs")
    parser.add_argument(
        "--empty", action="store_true", help="one position a rule set: the empty board (its first's total)"
    )
    args = parser.parse_args(argv)
    if args.empty:
        args.positions = 1
    sets = args.rules.split(",") if args.rules else rule_sets(pairs=not args.singles)
    n = args.size
    print(f"load average before: {_load()}")
    shown = "the empty board" if args.empty else f"{args.positions} positions"
    print(f"{n}x{n}, {shown} a rule set, seed {args.seed}")
    print(f"{'rules':6s} {'mines':>5s} {'median s':>9s} {'max s':>7s} {'cpu med':>8s} {'cpu max':>8s}")
    worst_wall = worst_cpu = (0.0, "")
    places = {name: k for k, name in enumerate(rule_sets())}
    for rules in sets:
        s = places.get(str(parse_rules(rules)), len(places))
        walls, cpus, totals = [], [], set()
        for k in range(args.positions):
            seed = args.seed * 1_000_003 + s * 1009 + k
            position, _ = random_position(rules, n, n, seed=seed, reveal=REVEALS[k % len(REVEALS)])
            if args.empty:
                position = Position(n, n, position.mines, (HIDDEN,) * (n * n))
            totals.add(position.mines)
            wall, cpu = time.perf_counter(), time.process_time()
            hint(solve_variant(position, rules, probabilities=False))
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
        worst_wall = max(worst_wall, (max(walls), rules))
        worst_cpu = max(worst_cpu, (max(cpus), rules))
        mines = "/".join(map(str, sorted(totals)))
        print(
            f"{rules:6s} {mines:>5s} {statistics.median(walls):9.3f} {max(walls):7.3f} "
            f"{statistics.median(cpus):8.3f} {max(cpus):8.3f}",
            flush=True,
        )
    print(
        f"max wall: {worst_wall[0]:.3f} s ({worst_wall[1]}); max CPU: {worst_cpu[0]:.3f} s ({worst_cpu[1]})"
    )
    print(f"load average after: {_load()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
