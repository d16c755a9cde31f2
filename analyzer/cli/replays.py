"""``analyzer replay FILE...``: recorded games analysed click by click, a page or a table."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from analyzer.cli.common import _check_address, _CliError, _keywords, _wants_progress
from analyzer.cli.options import _at_least, _Commands, _dask_arguments, _progress_argument, _time_limit
from analyzer.errors import AnalyzerError, OptionError
from analyzer.limits import plural


def _add_replay(sub: _Commands) -> None:
    """``analyzer replay FILE...``: every click of recorded games, with its exact odds."""
    replay = sub.add_parser(
        "replay",
        help="analyse recorded games (AVF, RMV, EVF, MVF): every guess with its exact odds",
        description="Analyse recorded games (Minesweeper Arbiter's AVF, Vienna Minesweeper's RMV,"
        " Metasweeper's EVF, Minesweeper Clone's MVF): each click is played again on the recorded layout,"
        " every guess is given its exact chance of a mine, needless guesses (a certain safe cell was open)"
        " are counted, and the game's luck is the exact chance of surviving its guesses. One file prints a"
        " page; several files or folders print a table, one row a game (--csv, --parquet, --json keep it)."
        " One bad file never stops the others; the exit status is 1 when any failed.",
    )
    replay.add_argument("files", nargs="+", metavar="FILE", help="replay files or folders of them")
    replay.add_argument("--json", action="store_true", help="the full per-click record as JSON")
    replay.add_argument(
        "--csv", metavar="FILE", default=None, help="also write one row a game as CSV (default: none)"
    )
    replay.add_argument(
        "--parquet",
        metavar="FILE",
        default=None,
        help="also write one row a game as Parquet (needs pyarrow; default: none)",
    )
    replay.add_argument(
        "--workers",
        type=_at_least(1),
        default=os.cpu_count() or 1,
        help="processes, or a local Dask cluster's workers (default: all cores)",
    )
    _dask_arguments(
        replay,
        backend="local processes, or dask: the files' contents sent to Dask workers (default: local)",
        address="Dask scheduler address, for --backend dask (default: a local cluster)",
    )
    replay.add_argument(
        "--time-limit",
        type=_time_limit,
        default=None,
        metavar="SECONDS",
        help="seconds a game's analysis may take; past it that game is an error (default 0: no limit)",
    )
    _progress_argument(replay, help="progress bar for many files (default: on a terminal)")
    replay.set_defaults(run=_cmd_replay)


_NEEDS_PANDAS = "writing tables needs pandas: pip install 'minesweeper-analyzer[replays]'"
_NEEDS_PYARROW = "writing Parquet needs pyarrow (pip install pyarrow); --csv needs nothing more"


def _cmd_replay(args: argparse.Namespace) -> int:
    from importlib.util import find_spec

    from analyzer.replays.batch import analyse_files, replay_files, table_rows

    # What the tables need is checked before the work, not after it.
    if (args.csv or args.parquet) and find_spec("pandas") is None:
        raise _CliError(_NEEDS_PANDAS)
    if args.parquet and find_spec("pyarrow") is None and find_spec("fastparquet") is None:
        raise _CliError(_NEEDS_PYARROW)
    _check_address(args)
    files = replay_files(args.files)
    progress = _wants_progress(args) and len(files) > 1
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(files), unit="replay", file=sys.stderr)
    try:
        results = analyse_files(
            files,
            **_keywords(args, "workers", "backend", "address", "time_limit"),
            on_result=lambda i, r: bar.update() if bar else None,
        )
    except OptionError as error:  # the options passed the checks above: no Dask scheduler, or no dask
        raise _CliError(str(error)) from None
    if bar is not None:
        bar.close()
    games = [r for r in results if not isinstance(r, AnalyzerError)]
    failed = [r for r in results if isinstance(r, AnalyzerError)]
    rows = table_rows(files, results)  # a file that failed keeps its row, the error in a column
    if args.json:
        records = [
            r.to_dict() if not isinstance(r, AnalyzerError) else {"file": str(path), "error": str(r)}
            for path, r in zip(files, results, strict=True)
        ]
        print(json.dumps(records[0] if len(files) == 1 and not failed else records, allow_nan=False))
    elif len(files) == 1 and games:
        print(games[0].summary())
    elif len(files) > 1:
        _print_replay_table(games, rows)
    if args.csv or args.parquet:
        try:
            import pandas as pd
        except ImportError:
            raise _CliError(_NEEDS_PANDAS) from None

        # object columns: a count stays an integer beside a failed file's empty cell
        table = pd.DataFrame(rows, dtype=object)
        if args.csv:
            table.to_csv(args.csv, index=False)
        if args.parquet:
            try:
                table.to_parquet(args.parquet, index=False)
            except ImportError:
                raise _CliError(_NEEDS_PYARROW) from None
    for problem in failed:
        print(f"analyzer: error: {problem}", file=sys.stderr)
    return 1 if failed else 0


def _print_replay_table(games: list[Any], rows: list[dict[str, Any]]) -> None:
    """One row a file (``rows``, from ``table_rows``): a game's figures, or the error that stopped it."""
    failed = [row for row in rows if row["error"] is not None]
    header = (
        f"{'file':40} {'result':>10} {'time':>8} {'3BV':>5} {'3BV/s':>6}"
        f" {'guesses':>7} {'needless':>8} {'luck %':>7}"
    )
    print(header + ("  error" if failed else ""))
    print("-" * len(header))
    for s in rows:
        name = Path(s["file"]).name[:40]
        if s["error"] is not None:
            blank = "-"
            print(
                f"{name:40} {'error':>10} {blank:>8} {blank:>5} {blank:>6} {blank:>7} {blank:>8} {blank:>7}"
                f"  {s['error']}"
            )
            continue
        rate = f"{s['bbbv_s']:.2f}" if s["bbbv_s"] is not None else "n/a"
        seconds = f"{s['time']:.2f}" if s["time"] is not None else "n/a"
        print(
            f"{name:40} {s['result']:>10} {seconds:>8} {s['bbbv']:>5} {rate:>6}"
            f" {s['guesses']:>7} {s['needless_guesses']:>8} {s['luck_percent']:>7.2f}"
        )
    if games:
        won = sum(1 for g in games if g.result == "won")
        guesses = sum(len(g.guesses) for g in games)
        needless = sum(len(g.needless_guesses) for g in games)
        lucks = sorted(float(g.luck) for g in games)
        median = (
            lucks[len(lucks) // 2]
            if len(lucks) % 2
            else (lucks[len(lucks) // 2 - 1] + lucks[len(lucks) // 2]) / 2
        )
        print(
            f"{len(games)} game{'s' if len(games) != 1 else ''}, {won} won;"
            f" {guesses} guesses, {needless} needless; median luck {100 * median:.2f}%"
            + (f"; {plural(len(failed), 'file')} not analysed (error column)" if failed else "")
        )
    elif failed:
        print(f"no game analysed; {plural(len(failed), 'file')} not analysed (error column)")
