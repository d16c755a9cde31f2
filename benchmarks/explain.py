"""Timing study of explanations (:meth:`analyzer.Analysis.explain`) on expert positions.

Run ``python -m benchmarks.explain`` (``--positions N``, ``--seed S``,
``--output FILE``). Positions come from real games on the expert board (30x16,
99 mines; :func:`analyzer.play.positions.mid_game`: an opening, then safe
cells next to the revealed area revealed at random, at progress 0.2 to 0.8).
Every certain cell of each position is explained (minimal set, then up to
:data:`analyzer.solver.explain.SMALLEST_ROUNDS` hitting-set rounds for the
smallest); the benchmark prints the median and maximum time per explanation,
(wall-clock and CPU), the distribution of explanation sizes (clues, plus one when the mine total is
used), how many use the mine total and how many were proven smallest, and
writes the same figures as JSON to ``results/explain.json`` unless ``--output``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import Counter
from pathlib import Path

from analyzer import solve
from analyzer.play.positions import mid_game

PROGRESS = (0.2, 0.35, 0.5, 0.65, 0.8)


def run(positions: int, seed: int) -> dict[str, object]:
    times: list[float] = []
    cpu: list[float] = []
    sizes: Counter[int] = Counter()
    with_total = smallest = 0
    for k in range(positions):
        board = mid_game(30, 16, 99, progress=PROGRESS[k % len(PROGRESS)], seed=seed + k)
        analysis = solve(board)
        for cell in analysis.safe + analysis.mines:
            start, start_cpu = time.perf_counter(), time.process_time()
            explanation = analysis.explain(*cell)
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
            sizes[explanation.size] += 1
            with_total += explanation.uses_total
            smallest += explanation.is_smallest
    return {
        "positions": positions,
        "explanations": len(times),
        "median_ms": 1000 * statistics.median(times),
        "max_ms": 1000 * max(times),
        "median_cpu_ms": 1000 * statistics.median(cpu),
        "max_cpu_ms": 1000 * max(cpu),
        "sizes": dict(sorted(sizes.items())),
        "uses_total": with_total,
        "proven_smallest": smallest,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.explain", description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=10, help="expert positions (default 10)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--output", default="results/explain.json")
    args = parser.parse_args(argv)
    result = run(args.positions, args.seed)
    print(
        f"{result['explanations']} explanations of certain cells in {result['positions']} expert positions"
        f" (30x16, 99 mines; seeds {args.seed}..{args.seed + args.positions - 1})"
    )
    print(f"wall time per explanation: median {result['median_ms']:.1f} ms, max {result['max_ms']:.1f} ms")
    print(
        f"CPU time per explanation: median {result['median_cpu_ms']:.1f} ms,"
        f" max {result['max_cpu_ms']:.1f} ms"
        " (one CP-SAT worker; on a shared machine the CPU time is the steadier figure)"
    )
    print(f"sizes (clues, +1 with the mine total): {result['sizes']}")
    print(f"using the mine total: {result['uses_total']}; proven smallest: {result['proven_smallest']}")
    output = Path(args.output)
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
