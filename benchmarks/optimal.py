"""Perfect play: search speed, and the table of ``docs/optimal.md``.

``python -m benchmarks.optimal speed``
    Knowledge states searched and seconds per board (safe first click, every
    first cell), the median of ``--repeats`` runs, each with a fresh memo, of
    the default search (compiled, memo on the symmetry class of a view); and,
    side by side in the same run (``--compare``), the numpy search and the
    search without the symmetry reduction (memo on the view itself), with the
    ratio of each to the default. A disagreement on a value is an error.

``python -m benchmarks.optimal table``
    For every board of at most 16 cells (width >= height: a board and its
    transpose have the same value, which the tests check) and every mine
    count, and 5x5 and 4x6 with 1 to 5 mines, under a safe first click: the
    optimal win probability (exact fraction and percent), the best first cells,
    the optimal probability with a uniformly random first cell, and the exact
    win rate (:func:`analyzer.exact_win_rate`) of each player with a uniformly
    random first cell -- the gap to perfect play. Every finished row is
    appended to ``docs/optimal.jsonl`` (exact fractions) as it is computed; a run
    started again skips the rows already there, and the Markdown table is
    rewritten from that file. A search stopped by ``--max-states`` or a player
    stopped by ``--max-boards`` is recorded as missing, with the budget, and is
    tried again when the run is given a larger budget (or ``--retry-missing``:
    whatever its budget was; only the players lacking a rate are run then).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from analyzer.errors import AnalyzerError
from analyzer.play.exact import exact_win_rate
from analyzer.play.optimal import OptimalSearch, optimal

__all__ = ["PLAYERS", "boards", "speed", "table_rows", "to_markdown", "main"]

_ROOT = Path(__file__).resolve().parent.parent
PLAYERS = ("random", "local", "subset", "probabilistic", "expert", "pseq")
SPEED_BOARDS = ((3, 3, 2), (3, 3, 3), (4, 3, 3), (5, 3, 4), (4, 4, 3), (4, 4, 4))


def boards(max_cells: int = 16) -> list[tuple[int, int, int]]:
    """The table's boards: (width, height, mines), width >= height, safe-first-click mine counts.

    >>> len(boards(4)), boards(2)
    (14, [(1, 1, 0), (2, 1, 0), (2, 1, 1)])
    """
    found = []
    for height in range(1, max_cells + 1):
        for width in range(height, max_cells // height + 1):
            for mines in range(width * height):
                found.append((width, height, mines))
    extra = [(5, 5, m) for m in range(1, 6)] + [(6, 4, m) for m in range(1, 6)]
    if max_cells >= 16:
        found += extra
    return sorted(found, key=_table_order)


def _table_order(board: tuple[int, int, int]) -> tuple[bool, int, int, int]:
    """Boards up to 16 cells first, then by cells, height and mines."""
    width, height, mines = board
    return (width * height > 16, width * height, height, mines)


#: The searches ``speed`` can time beside the default one (compiled, symmetry-reduced memo).
VARIANTS: dict[str, dict[str, bool]] = {
    "numpy": {"compiled": False},
    "no-symmetry": {"symmetry": False},
}


def speed(
    repeats: int,
    sizes: Sequence[tuple[int, int, int]] = SPEED_BOARDS,
    compare: Sequence[str] = tuple(VARIANTS),
) -> list[dict[str, Any]]:
    """Seconds and states of the default search per board, and of each variant in ``compare`` beside it."""
    optimal(2, 2, 1)  # loads the compiled search (from numba's cache, or compiling it): not timed
    rows = []
    for width, height, mines in sizes:
        variants: dict[str, dict[str, bool]] = {"compiled": {}, **{name: VARIANTS[name] for name in compare}}
        timings: dict[str, list[float]] = {name: [] for name in variants}
        states: dict[str, int] = {}
        values: dict[str, Fraction] = {}
        for _ in range(repeats):
            for name, options in variants.items():
                search = OptimalSearch(width, height, mines, **options)
                start = time.perf_counter()
                result = optimal(width, height, mines, first_click="safe", search=search)
                timings[name].append(time.perf_counter() - start)
                states[name] = result.states
                values[name] = result.probability
        if len(set(values.values())) != 1:
            raise AssertionError(f"the searches disagree on {width}x{height}/{mines}: {values}")
        row: dict[str, Any] = {
            "board": f"{width}x{height}/{mines}",
            "probability": str(values["compiled"]),
            **{f"states_{name}": states[name] for name in variants},
            **{f"seconds_{name}": statistics.median(timings[name]) for name in variants},
        }
        rows.append(row)
        text = f"{row['board']:>8}  {row['probability']:>14}  "
        text += f"{states['compiled']:>9} states {row['seconds_compiled']:8.3f} s"
        for name in compare:
            seconds = row[f"seconds_{name}"]
            text += (
                f"   {name}: {states[name]:>9} states {seconds:8.3f} s"
                f" ({seconds / row['seconds_compiled']:.1f}x)"
            )
        print(text, flush=True)
    return rows


def _search_row(
    width: int, height: int, mines: int, max_states: int
) -> tuple[dict[str, Any], OptimalSearch | None]:
    """A row's optimal-play columns, and the search (``None`` when it stopped at ``max_states``)."""
    row: dict[str, Any] = {"width": width, "height": height, "mines": mines, "first_click": "safe"}
    try:
        search = OptimalSearch(width, height, mines, max_states=max_states)
        result = optimal(width, height, mines, first_click="safe", search=search)
    except AnalyzerError as error:
        row["optimal"] = None
        row["missing"] = str(error)
        row["max_states"] = max_states
        return row, None
    search.max_states = None
    mean = sum(result.cell_values.values(), Fraction(0)) / len(result.cell_values)
    row.update(
        optimal=str(result.probability),
        best_cells=[list(c) for c in result.best_cells],
        optimal_random_cell=str(mean),
        states=result.states,
        seconds=round(result.seconds, 3),
        players={},
    )
    return row, search


def _row(
    width: int, height: int, mines: int, max_states: int, max_boards: int, players: Sequence[str]
) -> dict[str, Any]:
    row, search = _search_row(width, height, mines, max_states)
    if search is None:
        return row
    _add_players(row, search, max_boards, players)
    return row


def _add_players(row: dict[str, Any], search: OptimalSearch, max_boards: int, players: Sequence[str]) -> None:
    """Add each player's exact rate (or why it is missing) to ``row["players"]``."""
    width, height, mines = search.width, search.height, search.mines
    for name in players:
        start = time.perf_counter()
        try:
            rate = exact_win_rate(
                name,
                width,
                height,
                mines,
                first_click="safe",
                first_cell="random",
                search=search,
                max_boards=max_boards,
            )
            row["players"][name] = {
                "probability": str(rate.probability),
                "boards": rate.boards,
                "method": rate.method,
                "seconds": round(rate.seconds, 3),
            }
        except AnalyzerError as error:
            row["players"][name] = {
                "probability": None,
                "missing": str(error),
                "max_boards": max_boards,
                "seconds": round(time.perf_counter() - start, 3),
            }


def _read(path: Path) -> dict[tuple[int, int, int], dict[str, Any]]:
    rows: dict[tuple[int, int, int], dict[str, Any]] = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                continue
            rows[(row["width"], row["height"], row["mines"])] = row
    return rows


def _complete(
    row: dict[str, Any], max_states: int, max_boards: int, players: Sequence[str], retry: bool = False
) -> bool:
    """Whether ``row`` needs no new attempt under these budgets (``retry``: a missing rate always does)."""
    if row.get("optimal") is None:
        return bool(row.get("max_states", 0) >= max_states)
    done = row["players"]
    return all(
        name in done
        and (
            done[name].get("probability") is not None
            or (not retry and done[name].get("max_boards", 0) >= max_boards)
        )
        for name in players
    )


def table_rows(
    path: Path,
    max_states: int,
    max_boards: int,
    sizes: Sequence[str] | None,
    players: Sequence[str],
    refresh_search: bool = False,
    retry: bool = False,
) -> dict[tuple[int, int, int], dict[str, Any]]:
    """Compute the rows ``path`` lacks; with ``refresh_search``, search every row again, keeping its players.

    With ``retry``, a player's rate recorded as missing is tried again whatever its
    budget was (after a faster method, say); rates already computed are kept.

    Rows are appended to ``path`` as they come (a run stopped part way resumes);
    at the end the file is written again with one line a board.
    """
    rows = _read(path)
    for board in boards():
        width, height, mines = board
        if sizes is not None and f"{width}x{height}" not in sizes:
            continue
        if refresh_search and board in rows and rows[board].get("optimal") is not None:
            row, _ = _search_row(width, height, mines, max_states)
            if row.get("optimal") != rows[board]["optimal"]:
                raise AssertionError(f"{width}x{height}/{mines}: the search now gives {row.get('optimal')}")
            row["players"] = rows[board]["players"]
        elif board in rows and _complete(rows[board], max_states, max_boards, players, retry):
            continue
        else:
            if board in rows and rows[board].get("optimal") is not None:
                # The optimal columns stand: only the players lacking a rate are run, on the layouts.
                row = dict(rows[board])
                row["players"] = dict(row["players"])
                done = row["players"]
                todo = [name for name in players if done.get(name, {}).get("probability") is None]
                _add_players(row, OptimalSearch(width, height, mines), max_boards, todo)
            else:
                row = _row(width, height, mines, max_states, max_boards, players)
        rows[board] = row
        with path.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(row) + "\n")
        taken = row.get("seconds", 0) + sum(p.get("seconds", 0) for p in row.get("players", {}).values())
        print(f"{width}x{height}/{mines}: {row.get('optimal')} ({taken:.1f} s)", flush=True)
    ordered = sorted(rows, key=_table_order)
    path.write_text("".join(json.dumps(rows[b]) + "\n" for b in ordered), encoding="utf-8")
    return rows


def _percent(value: str | None) -> str:
    return "—" if value is None else f"{100 * float(Fraction(value)):.2f}"


def to_markdown(rows: dict[tuple[int, int, int], dict[str, Any]], command: str) -> str:
    lines = [
        "# Perfect play: exact win probabilities on small boards",
        "",
        f"Made by `{command}` (exact fractions in `docs/optimal.jsonl`).",
        "",
        "Safe first click. **optimal**: the probability of winning under perfect play from the best first",
        "cell (exact fraction and percent), and the best first cells (row,col, 0-based; a board and its",
        "transpose have the same value, so only width >= height is listed). **opt. random**: perfect play",
        "after a uniformly random first cell. The players' columns: each player's exact win rate",
        "(`analyzer.exact_win_rate`, no sampling, random tie-breaks averaged exactly) with a uniformly",
        "random first cell, in percent; compare them with *opt. random*. `random` is computed by its",
        "closed form over the layouts (`analyzer.play.exact.random_player_win`), `local` and `subset`",
        "by a walk from guess to guess memoised up to symmetry, the others by the generic walk of",
        "the player's game tree; the tests check each method against the generic walk. States:",
        "knowledge states the search memoised; seconds on one core of a shared 2-core machine. A dash",
        "is a value not computed within the budget of the run (listed under the table).",
        "",
        "| board | mines | optimal | % | best first cells | opt. random % | "
        + " | ".join(PLAYERS)
        + " | states | s |",
        "|---|---:|---|---:|---|---:|" + "---:|" * len(PLAYERS) + "---:|---:|",
    ]
    missing = []
    for board in boards():
        row = rows.get(board)
        width, height, mines = board
        name = f"{width}x{height}"
        if row is None:
            missing.append(f"- {name}/{mines}: not computed by the committed run (run the command again)")
            continue
        if row.get("optimal") is None:
            missing.append(f"- {name}/{mines}: optimal search stopped ({row.get('missing')})")
            lines.append(f"| {name} | {mines} | — | — | — | — |" + " — |" * len(PLAYERS) + " — | — |")
            continue
        cells = " ".join(f"{r},{c}" for r, c in row["best_cells"])
        if len(row["best_cells"]) > 4:
            cells = (
                f"{len(row['best_cells'])} cells: "
                + " ".join(f"{r},{c}" for r, c in row["best_cells"][:4])
                + " …"
            )
        players = []
        for player in PLAYERS:
            entry = row["players"].get(player, {})
            players.append(_percent(entry.get("probability")))
            if entry.get("probability") is None:
                spent = f" (after {entry['seconds']} s)" if "seconds" in entry else ""
                missing.append(f"- {name}/{mines}, {player}: {entry.get('missing', 'not run')}{spent}")
        lines.append(
            f"| {name} | {mines} | {row['optimal']} | {_percent(row['optimal'])} | {cells} | "
            f"{_percent(row['optimal_random_cell'])} | "
            + " | ".join(players)
            + f" | {row['states']} | {row['seconds']} |"
        )
    lines.append("")
    if missing:
        lines += ["## Missing", "", *missing, ""]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.optimal", description=__doc__.split("\n\n")[0]
    )
    sub = parser.add_subparsers(dest="command", required=True)
    fast = sub.add_parser("speed", help="states and seconds per board, beside other searches")
    fast.add_argument("--repeats", type=int, default=3)
    fast.add_argument(
        "--compare", default=",".join(VARIANTS), help="searches to time beside the default (empty: none)"
    )
    fast.add_argument("--boards", default=None, help="WxHxM,... (default: a few boards up to 4x4/4)")
    table = sub.add_parser("table", help="regenerate docs/optimal.md (resumable)")
    table.add_argument("--jsonl", type=Path, default=_ROOT / "docs" / "optimal.jsonl")
    table.add_argument("--output", type=Path, default=_ROOT / "docs" / "optimal.md")
    table.add_argument(
        "--max-states", type=int, default=3_000_000, help="optimal search budget, states a board"
    )
    table.add_argument("--max-boards", type=int, default=100_000, help="exact player budget, boards a player")
    table.add_argument("--sizes", default=None, help="only these board sizes, e.g. 4x4,5x3 (default all)")
    table.add_argument("--players", default=",".join(PLAYERS), help="players whose exact rates to add")
    table.add_argument(
        "--markdown-only", action="store_true", help="rewrite the Markdown from the JSON lines"
    )
    table.add_argument(
        "--retry-missing",
        action="store_true",
        help="try every missing player rate again, whatever budget it was given before",
    )
    table.add_argument(
        "--refresh-search",
        action="store_true",
        help="search every computed row again (states, seconds; the value must not change), keep its players",
    )
    args = parser.parse_args(argv)
    if args.command == "speed":
        chosen: Sequence[tuple[int, int, int]] = SPEED_BOARDS
        if args.boards:
            chosen = []
            for text in args.boards.split(","):
                try:
                    width, height, mines = (int(x) for x in text.split("x"))
                except ValueError:
                    parser.error(f"--boards takes WxHxM,... (e.g. 4x4x4,5x5x3), got {text!r}")
                chosen.append((width, height, mines))
        speed(args.repeats, chosen, [x for x in args.compare.split(",") if x])
        return 0
    if args.markdown_only:
        rows = _read(args.jsonl)
    else:
        sizes = None if args.sizes is None else [x.strip() for x in args.sizes.split(",")]
        players = [x.strip() for x in args.players.split(",") if x.strip()]
        rows = table_rows(
            args.jsonl,
            args.max_states,
            args.max_boards,
            sizes,
            players,
            args.refresh_search,
            args.retry_missing,
        )
    args.output.write_text(to_markdown(rows, "python -m benchmarks.optimal table"), encoding="utf-8")
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
