"""The ``analyzer`` command line.

``analyzer solve FILE``
    Print the board with each hidden cell's mine probability in percent
    (``*`` a certain mine, ``-`` a certain safe cell, ``F`` a flag), or with
    ``--json`` the exact fractions. ``-`` reads the board from standard input.
``analyzer simulate``
    Win rates of a player (:mod:`analyzer.simulation`), e.g. ``analyzer simulate
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
from collections.abc import Sequence

from analyzer.board import Board
from analyzer.counting import ENGINES
from analyzer.errors import AnalyzerError

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
    from analyzer.solve import solve

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


def _cmd_simulate(args: argparse.Namespace) -> int:
    from analyzer.simulation import run_args

    return run_args(args)


def _cmd_verify(args: argparse.Namespace) -> int:
    from analyzer.verify import main as verify_main

    return verify_main(args.rest)


# Subcommands whose own parsers read everything after their name.
_DELEGATED = {"verify": _cmd_verify}


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

    from analyzer.simulation import add_arguments

    simulate = sub.add_parser("simulate", help="win rates of a player by Monte Carlo, on all cores or Dask")
    add_arguments(simulate)
    simulate.set_defaults(run=_cmd_simulate)

    # Parsed by analyzer.verify.main itself (see _DELEGATED); listed here for --help.
    sub.add_parser("verify", help="symbolic checks of the formulas the engine uses", add_help=False)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = _parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in _DELEGATED:
        args = argparse.Namespace(run=_DELEGATED[argv[0]], rest=argv[1:])
    else:
        args = parser.parse_args(argv)
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
