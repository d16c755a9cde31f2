"""The ``analyzer`` command line.

``analyzer solve FILE``
    Print the board with each hidden cell's mine probability in percent
    (``*`` a certain mine, ``-`` a certain safe cell, ``F`` a flag), or with
    ``--json`` the exact fractions. ``-`` reads the board from standard input.
``analyzer simulate``
    Win rates of a player (:mod:`analyzer.play.simulation`), e.g. ``analyzer simulate
    --preset expert --player probabilistic --games 1000 --workers 2``.
``analyzer verify``
    Run the symbolic checks of :mod:`analyzer.verify` and print a table.

Errors (a malformed file, a board no layout satisfies, a time-out) print one
line on standard error and exit with status 1; usage errors exit with 2.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence

from analyzer.board.board import Board
from analyzer.errors import AnalyzerError, SimulationError
from analyzer.play.simulation import PRESETS, simulate
from analyzer.solver.counting import ENGINES

__all__ = ["main"]


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except OSError as error:
        raise _CliError(f"cannot read {path!r}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise _CliError(f"cannot read {path!r}: not a text file") from None


class _CliError(Exception):
    pass


def _positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text!r}")
    return value


def _cmd_solve(args: argparse.Namespace) -> int:
    from analyzer.solver import solve

    text = _read(args.file)
    if args.format == "minesweepr":
        if args.mines is None:
            raise _CliError("--format minesweepr needs --mines N (the format has no mine total)")
        board = Board.from_minesweepr(text, args.mines)
    else:
        board = Board.from_text(text)
    analysis = solve(
        board, engine=args.engine, time_limit=args.time_limit, trust_flags=not args.distrust_flags
    )
    if args.json:
        print(json.dumps(analysis.to_dict()))
        return 0
    unknown = sum(1 for p in analysis.cell_probabilities if p is not None) - (
        len(board.flagged_cells()) if analysis.trust_flags else 0
    )
    size = f"{board.width}x{board.height}, {board.mines} mines"
    print(f"{size}: {analysis.mines_left} among {unknown} unknown cells")
    print(analysis)
    n_comp = len(analysis.components)
    print(
        f"{analysis.total} layouts; {len(analysis.safe)} certainly safe, {len(analysis.mines)} certain mines"
        f"; {n_comp} component{'s' if n_comp != 1 else ''}, {analysis.background_size} background cells"
    )
    return 0


# ------------------------------------------------------------------ simulate
def _simulate_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--preset", default=None, help=f"one of {', '.join(PRESETS)} (or give --width/--height/--mines)"
    )
    parser.add_argument("--width", type=int, default=None)
    parser.add_argument("--height", type=int, default=None)
    parser.add_argument("--mines", type=int, default=None)
    parser.add_argument(
        "--player", default="probabilistic", help="random, local, subset, probabilistic or expert"
    )
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument(
        "--first-click", default="safe", help="none, safe, opening or safe_zone:R (default safe)"
    )
    parser.add_argument(
        "--first-cell",
        default="player",
        help="R,C (0-based), corner, centre, random, or player: the player's own choice (default)",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--backend", default="local", help="local (processes) or dask")
    parser.add_argument("--address", default=None, help="Dask scheduler address, for --backend dask")
    parser.add_argument(
        "--results", default=None, metavar="FILE", help="append batches as JSON lines; resume from them"
    )
    parser.add_argument("--batch-size", type=int, default=None)
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="progress bar (default: on a terminal)",
    )


def _board_from_args(args: argparse.Namespace) -> tuple[int, int, int]:
    sizes = (args.width, args.height, args.mines)
    if args.preset is not None:
        if args.preset not in PRESETS:
            raise SimulationError(f"unknown preset {args.preset!r}; expected one of {', '.join(PRESETS)}")
        if any(v is not None for v in sizes):
            raise SimulationError("give --preset or --width/--height/--mines, not both")
        return PRESETS[args.preset]
    if any(v is None for v in sizes):
        raise SimulationError("give --preset NAME, or all of --width, --height and --mines")
    return sizes  # type: ignore[return-value]


def _cmd_simulate(args: argparse.Namespace) -> int:
    width, height, mines = _board_from_args(args)
    progress = sys.stderr.isatty() if args.progress is None else args.progress
    start = time.perf_counter()
    result = simulate(
        width,
        height,
        mines,
        args.player,
        args.games,
        first_click=args.first_click,
        first_cell=args.first_cell,
        seed=args.seed,
        workers=args.workers,
        backend=args.backend,
        address=args.address,
        batch_size=args.batch_size,
        progress=progress,
        results_path=args.results,
    )
    wall = time.perf_counter() - start
    print(result.setup.describe())
    print(result)
    print(f"{wall:.1f} s wall clock")
    return 0


# -------------------------------------------------------------------- verify
def _cmd_verify(args: argparse.Namespace) -> int:
    from analyzer.verify import format_table, run_checks

    results = run_checks(args.check)
    print(format_table(results, latex=args.latex))
    failed = [r.name for r in results if not r.holds]
    verdict = f"{len(results) - len(failed)} of {len(results)} checks hold"
    print(verdict + (f"; failed: {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="analyzer", description="Exact statistics of Minesweeper.")
    sub = parser.add_subparsers(dest="command", required=True)

    solve = sub.add_parser("solve", help="exact mine probabilities of a board file")
    solve.add_argument("file", help="a .mine file, or - for standard input")
    solve.add_argument("--json", action="store_true", help="print exact fractions as JSON")
    solve.add_argument("--engine", choices=ENGINES, default="auto", help="how components are counted")
    solve.add_argument("--time-limit", type=_positive, default=None, metavar="SECONDS")
    solve.add_argument(
        "--distrust-flags", action="store_true", help="treat flags as hidden cells (flags may be wrong)"
    )
    solve.add_argument("--format", choices=("mine", "minesweepr"), default="mine", help="board text format")
    solve.add_argument("--mines", type=int, default=None, help="mine total, for --format minesweepr")
    solve.set_defaults(run=_cmd_solve)

    simulate = sub.add_parser("simulate", help="win rates of a player by Monte Carlo, on all cores or Dask")
    _simulate_arguments(simulate)
    simulate.set_defaults(run=_cmd_simulate)

    from analyzer.verify import CHECKS

    verify = sub.add_parser(
        "verify", help="symbolic checks (sympy) of the formulas the engine and the placement use"
    )
    verify.add_argument(
        "--check",
        action="append",
        metavar="NAME",
        choices=list(CHECKS),
        help="run only this check (repeatable)",
    )
    verify.add_argument("--latex", action="store_true", help="print the statements in LaTeX")
    verify.set_defaults(run=_cmd_verify)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = _parser()
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    try:
        return int(args.run(args))
    except (AnalyzerError, _CliError) as error:
        print(f"analyzer: error: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("analyzer: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
