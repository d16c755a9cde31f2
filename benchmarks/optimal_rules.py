"""Perfect play under each first-click rule: ``python -m benchmarks.optimal_rules``.

For every board of the optimal-play table (:func:`benchmarks.optimal.boards`: every
board of at most 16 cells, width >= height, every mine count; and 5x5 and 6x4 with 1 to 5
mines), the exact probability of winning under optimal play from the best first cell,
under each first-click rule of :func:`analyzer.optimal`:

- ``none``: no protection, a first click on a mine loses;
- ``safe``: the first cell is never a mine;
- ``opening``: the first cell and its neighbours are never mines (the first click
  opens a zero); a dash where the board has no room for that around its centre.

One search a board serves the three rules (its memo holds the value of every view,
whichever rule led to it). Published values are often given under ``none``, so the
table lets them be compared as published. Each finished board is appended to
``docs/optimal_rules.jsonl`` (exact fractions) as it is computed; a run started again
skips the boards already there, and ``docs/optimal_rules.md`` is rewritten from that
file. ``--sizes 4x4,5x3`` limits a run to some board sizes.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from analyzer.errors import AnalyzerError
from analyzer.play.optimal import OptimalSearch, optimal
from benchmarks.optimal import boards as table_boards

__all__ = ["RULES", "board_row", "to_markdown", "main"]

_ROOT = Path(__file__).resolve().parent.parent
RULES = ("none", "safe", "opening")


def board_row(width: int, height: int, mines: int) -> dict[str, Any]:
    """The three rules' optimal values on one board (fractions as ``"p/q"``).

    >>> row = board_row(4, 4, 4)
    >>> row["none"]["probability"], row["safe"]["probability"]
    ('961/1820', '961/1365')
    """
    search = OptimalSearch(width, height, mines)
    row: dict[str, Any] = {"width": width, "height": height, "mines": mines}
    start = time.perf_counter()
    for rule in RULES:
        try:
            result = optimal(width, height, mines, first_click=rule, search=search)
        except AnalyzerError as error:
            row[rule] = {"error": str(error)}
            continue
        row[rule] = {
            "probability": str(result.probability),
            "best_cells": [list(cell) for cell in result.best_cells],
        }
    row["states"] = len(search.memo)
    row["seconds"] = round(time.perf_counter() - start, 3)
    return row


def _cells(cells: list[list[int]]) -> str:
    text = " ".join(f"{r},{c}" for r, c in cells[:4])
    return text if len(cells) <= 4 else f"{len(cells)} cells: {text} …"


def _value(entry: dict[str, Any]) -> tuple[str, str]:
    if "probability" not in entry:
        return "—", "—"
    p = Fraction(entry["probability"])
    return str(p), f"{100 * float(p):.2f}"


def to_markdown(rows: Sequence[dict[str, Any]]) -> str:
    """The table of ``docs/optimal_rules.md`` from the rows of the JSON-lines file."""
    lines = [
        "# Perfect play under each first-click rule",
        "",
        "Made by `python -m benchmarks.optimal_rules` (exact fractions in `docs/optimal_rules.jsonl`).",
        "",
        "The probability of winning under perfect play from the best first cell, for each",
        "first-click rule: **none** (a first click on a mine loses), **safe** (the first cell",
        "is never a mine) and **opening** (nor are its neighbours: the first click opens a zero;",
        "a dash where the board has no room for that around its centre). Under *none* a first",
        "cell is safe with probability (cells - mines) / cells, after which the game is the",
        "*safe* one from that cell, so each *none* value is the *safe* value times that",
        "fraction (`tests/test_optimal_rules.py` checks it on every row). Cells are (row,col),",
        "0-based; states: the views one search of the board memoised for the three rules.",
        "",
        "| board | mines | none | % | safe | % | opening | % | best first cells (opening) | states | s |",
        "|---|---:|---|---:|---|---:|---|---:|---|---:|---:|",
    ]
    for row in rows:
        cells = [_value(row[rule]) for rule in RULES]
        opening = row["opening"]
        best = _cells(opening["best_cells"]) if "best_cells" in opening else "—"
        lines.append(
            f"| {row['width']}x{row['height']} | {row['mines']} | "
            + " | ".join(f"{fraction} | {percent}" for fraction, percent in cells)
            + f" | {best} | {row['states']} | {row['seconds']} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.optimal_rules", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--jsonl", type=Path, default=_ROOT / "docs" / "optimal_rules.jsonl")
    parser.add_argument("--output", type=Path, default=_ROOT / "docs" / "optimal_rules.md")
    parser.add_argument("--sizes", default=None, help="comma-separated WxH sizes to compute (default: all)")
    args = parser.parse_args(argv)
    wanted = None
    if args.sizes:
        try:
            wanted = {tuple(int(v) for v in size.lower().split("x")) for size in args.sizes.split(",")}
        except ValueError:
            parser.error(f"--sizes takes WxH,WxH,...; got {args.sizes!r}")
    done: dict[tuple[int, int, int], dict[str, Any]] = {}
    if args.jsonl.exists():
        for line in args.jsonl.read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                done[(row["width"], row["height"], row["mines"])] = row
    order = table_boards()
    with args.jsonl.open("a") as out:
        for board in order:
            if board in done or (wanted is not None and board[:2] not in wanted):
                continue
            row = board_row(*board)
            done[board] = row
            out.write(json.dumps(row) + "\n")
            out.flush()
            print(f"{board[0]}x{board[1]}/{board[2]}: {row['seconds']} s", file=sys.stderr, flush=True)
    rows = [done[board] for board in order if board in done]
    args.output.write_text(to_markdown(rows))
    print(f"{len(rows)} boards in {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
