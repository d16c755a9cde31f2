"""``analyzer solve`` and ``analyzer explain``: a position's exact odds, its certain cells and why."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from collections.abc import Sequence
from typing import Any

from analyzer.board.board import Board
from analyzer.cli.common import _check_inside, _checked, _progress, _UsageError
from analyzer.cli.inputs import _layout_position, _picture_board, _read
from analyzer.cli.options import (
    DEFAULT_TIME_LIMIT,
    _at_least,
    _cell_argument,
    _cell_option,
    _Commands,
    _picture_arguments,
    _time_limit,
)
from analyzer.limits import plural
from analyzer.names import ENGINES

_FILE_HELP = "a .mine file, a screenshot of a game, or - for standard input"


def _limit_arguments(parser: argparse.ArgumentParser) -> None:
    """``--time-limit`` and ``--distrust-flags``, which ``solve`` and ``explain`` take alike."""
    parser.add_argument(
        "--time-limit",
        type=_time_limit,
        default=DEFAULT_TIME_LIMIT,
        metavar="SECONDS",
        help=f"give up after this many seconds (default {DEFAULT_TIME_LIMIT:g}; 0: no limit)",
    )
    parser.add_argument(
        "--distrust-flags", action="store_true", help="treat flags as hidden cells (flags may be wrong)"
    )


def _add_solve(sub: _Commands) -> None:
    """``analyzer solve FILE``: the exact mine probabilities of a position."""
    solve = sub.add_parser("solve", help="exact mine probabilities of a board file")
    solve.add_argument("file", help=_FILE_HELP)
    solve.add_argument("--json", action="store_true", help="print exact fractions as JSON")
    solve.add_argument(
        "--grid",
        action="store_true",
        help="print the grid however wide (default: a summary when wider than the terminal)",
    )
    solve.add_argument(
        "--engine",
        choices=ENGINES,
        default="auto",
        help="how components are counted (default auto: the fastest that fits)",
    )
    _limit_arguments(solve)
    solve.add_argument(
        "--best",
        type=_at_least(1),
        nargs="?",
        const=5,
        default=0,
        metavar="N",
        help="the N best moves (default 5): certain cells first, then the best guesses",
    )
    solve.add_argument(
        "--certain",
        action="store_true",
        help="only the certain cells and each component's mine range, by feasibility (no counting)",
    )
    solve.add_argument(
        "--format",
        choices=("mine", "minesweepr", "mbf"),
        default=None,
        help="board format (default: mbf for an .mbf file, else mine); mbf is a layout: see --reveal",
    )
    solve.add_argument(
        "--reveal",
        action="append",
        metavar="R,C",
        type=_cell_option,
        help="with an MBF layout: reveal this cell first (repeatable); the position after is solved",
    )
    _picture_arguments(
        solve,
        mines="mine total, for --format minesweepr, or a picture that shows no counter (default there:"
        " the client's preset for the size)",
    )
    solve.add_argument(
        "--rules",
        default=None,
        help="variant rules of 14 Minesweeper Variants, e.g. QX (see analyzer.variants)",
    )
    solve.set_defaults(run=_cmd_solve)


def _cmd_solve(args: argparse.Namespace) -> int:
    pictured = _picture_board(args)
    if pictured is not None:
        if args.rules is not None:
            return _variant(args, explain=False, text=pictured.to_text())
        if args.certain:
            return _print_certain(pictured, args)
        return _solve_and_print(pictured, args)
    if args.rules is not None:
        return _variant(args, explain=False)

    if args.format is None:
        args.format = "mbf" if args.file.lower().endswith(".mbf") else "mine"
    if args.reveal and args.format != "mbf":
        raise _UsageError("--reveal applies to --format mbf only: a .mine file is already a position")
    if args.format == "mbf":
        if args.mines is not None:
            raise _UsageError(
                "--mines applies to --format minesweepr and to pictures only: an MBF layout has its mines"
            )
        board = _layout_position(args.file, args.reveal or [])
        if args.certain:
            return _print_certain(board, args)
        return _solve_and_print(board, args)
    text = _read(args.file, header=args.format != "minesweepr")
    if args.format == "minesweepr":
        if args.mines is None:
            raise _UsageError("--format minesweepr needs --mines N (the format has no mine total)")
        board = Board.from_minesweepr(text, args.mines)
    else:
        if args.mines is not None:
            raise _UsageError(
                "--mines applies to --format minesweepr and to pictures only: a .mine header has the total"
            )
        board = Board.from_text(text)
    if args.certain:
        return _print_certain(board, args)
    return _solve_and_print(board, args)


def _solve_and_print(board: Board, args: argparse.Namespace) -> int:
    from analyzer.render import board_size_text
    from analyzer.solver import solve

    with _progress("solving"):
        analysis = solve(
            board, engine=args.engine, time_limit=args.time_limit, trust_flags=not args.distrust_flags
        )
    moves: tuple[Any, ...] = ()
    if args.best:
        with _progress("ranking the guesses") as step:
            moves = analysis.best_moves(args.best, on_progress=step)
    if args.json:
        result = analysis.to_dict()
        if args.best:
            result["best_moves"] = [m.to_dict() for m in moves]
        print(json.dumps(result))
        return 0
    unknown = sum(1 for p in analysis.cell_probabilities if p is not None) - (
        len(board.flagged_cells()) if analysis.trust_flags else 0
    )
    size = f"{board_size_text(board)}, {plural(board.mines, 'mine')}"
    grid = None if args.grid else _grid_too_wide(analysis)
    if grid is None:
        print(f"{size}: {analysis.mines_left} among {plural(unknown, 'unknown cell')}; P(mine) in %")
        print(analysis)
    else:
        print(f"{size}: {analysis.mines_left} among {plural(unknown, 'unknown cell')}")
    n_comp = len(analysis.components)
    print(
        f"{analysis.total_text} layouts; {len(analysis.safe)} certainly safe"
        f", {plural(len(analysis.mines), 'certain mine')}"
        f"; {plural(n_comp, 'component')}, {plural(analysis.background_size, 'background cell')}"
    )
    if grid is not None:
        _print_summary(analysis)
    if moves:
        print("best moves:")
        for rank, move in enumerate(moves, 1):
            print(f"{rank:3d}. {move.describe()}")
    if grid is not None:
        width, room = grid
        source = "FILE" if args.file == "-" else args.file
        print(f"grid not shown: {width:,} characters a line, wider than {_room_name(room)}")
        ranking = "" if moves else " --best N ranks moves,"
        print(
            f"--grid prints it, --json gives every exact probability,{ranking} analyzer web {source} draws it"
        )
    return 0


#: The widest grid ``analyzer solve`` prints unless told ``--grid`` when its output is no terminal
#: (a file, a pipe): a 40-column board's. ``COLUMNS`` sets it as for a terminal.
PIPED_GRID_WIDTH = 164


def _grid_room() -> int:
    """Characters a line of the grid may take: the terminal's width, else ``COLUMNS``, else 164."""
    if sys.stdout.isatty():
        return shutil.get_terminal_size().columns
    columns = os.environ.get("COLUMNS", "")
    return int(columns) if columns.isdigit() and int(columns) > 0 else PIPED_GRID_WIDTH


def _room_name(room: int) -> str:
    if sys.stdout.isatty():
        return f"the terminal's {room}"
    if os.environ.get("COLUMNS", "").isdigit():
        return f"COLUMNS={room}"
    return f"{room} (not a terminal; COLUMNS=N sets the width)"


def _grid_too_wide(analysis: Any) -> tuple[int, int] | None:
    """``(the grid's width, the room)`` when the grid of ``analysis`` is wider than the room, else None.

    A graph's list (one cell a line) always fits. The grid's width is bounded below first (every
    column at least 3 characters and a space), so a huge board is never drawn only to be measured.
    """
    from analyzer.board.topology import Graph
    from analyzer.render import analysis_text

    board = analysis.board
    if isinstance(board.topology, Graph):
        return None
    room = _grid_room()
    column = max(3, len(str(board.width - 1)))
    least = len(str(board.height - 1)) + board.width * (column + 1)
    if least > room:
        return least, room
    width = max(len(line) for line in analysis_text(analysis).splitlines())
    return (width, room) if width > room else None


def _print_summary(analysis: Any, room: int = 79) -> None:
    """What the grid would show, in lines of at most ``room`` characters (the cells listed as fit):
    the certain cells, then the safest guesses."""
    board = analysis.board
    trust = analysis.trust_flags
    flags = set(board.flagged_cells()) if trust else set()

    def line(what: str, found: Sequence[tuple[int, int]]) -> str:
        listed = str(found[0])
        for count, cell in enumerate(found[1:], 2):
            more = f", ... ({len(found):,} cells)" if count < len(found) else ""
            if len(f"{what}{listed}, {cell}{more}") > room:
                return f"{what}{listed}, ... ({len(found):,} cells)"
            listed += f", {cell}"
        return what + listed

    if analysis.safe:
        print(line("certainly safe: ", analysis.safe))
    if analysis.mines:
        print(line("certain mines: ", analysis.mines))
    lowest: Any = None
    at: list[tuple[int, int]] = []
    for index, p in enumerate(analysis.cell_probabilities):
        if p is None or p == 0 or p == 1:
            continue
        cell = divmod(index, board.width)
        if cell in flags:
            continue
        if lowest is None or p < lowest:
            lowest, at = p, [cell]
        elif p == lowest:
            at.append(cell)
    if lowest is not None:
        print(line(f"safest guesses: {float(lowest):.1%} mine at ", at))


def _print_certain(board: Board, args: argparse.Namespace) -> int:
    from analyzer.solver.certain import certain_cells

    found = certain_cells(board, trust_flags=not args.distrust_flags, time_limit=args.time_limit)
    if args.json:
        print(
            json.dumps(
                {  # the keys of Analysis.to_dict where they mean the same
                    "width": board.width,
                    "height": board.height,
                    "mines": board.mines,
                    "certain_safe": [list(c) for c in found.safe],
                    "certain_mines": [list(c) for c in found.mines],
                    "components": [
                        {"cells": len(c.cells), "mine_range": list(c.mine_range)} for c in found.components
                    ],
                }
            )
        )
        return 0
    from analyzer.render import certain_text

    print(certain_text(board, found.safe, found.mines, trust_flags=not args.distrust_flags))
    print(f"{len(found.safe)} certainly safe: {' '.join(map(str, found.safe))}")
    print(f"{plural(len(found.mines), 'certain mine')}: {' '.join(map(str, found.mines))}")
    for c in found.components:
        low, high = c.mine_range
        span = str(low) if low == high else f"{low}-{high}"
        print(f"component of {plural(len(c.cells), 'cell')}, {plural(len(c.clues), 'clue')}: {span} mines")
    return 0


def _add_explain(sub: _Commands) -> None:
    """``analyzer explain FILE``: why a cell is certain."""
    explain = sub.add_parser("explain", help="why a cell is certain: a minimal set of clues that forces it")
    explain.add_argument("file", help=_FILE_HELP)
    _picture_arguments(
        explain, mines="with a picture that shows no counter: its mine total (default: the client's preset)"
    )
    _cell_argument(explain, "--cell", help="explain this cell (0-based); default every certain cell")
    explain.add_argument("--json", action="store_true", help="the explanations as JSON")
    _limit_arguments(explain)
    explain.add_argument(
        "--rules",
        default=None,
        help="variant rules, e.g. QX: without --cell, the hint (a minimal explanation)",
    )
    explain.set_defaults(run=_cmd_explain)


def _cmd_explain(args: argparse.Namespace) -> int:
    pictured = _picture_board(args)
    if pictured is None and args.mines is not None:
        raise _UsageError("--mines applies to pictures only: a .mine header has the total")
    if args.rules is not None:
        return _variant(args, explain=True, text=None if pictured is None else pictured.to_text())
    # An explanation needs feasibility, not counting: CP-SAT answers on boards whose layouts no
    # counting engine could count (solve --certain's way), and a small board needs no more.
    from analyzer.solver.certain import certain_cells
    from analyzer.solver.explain import explain

    board = Board.from_text(_read(args.file)) if pictured is None else pictured
    trust = not args.distrust_flags
    deadline = None if args.time_limit is None else time.monotonic() + args.time_limit

    def left() -> float | None:
        return None if deadline is None else max(deadline - time.monotonic(), 1e-3)

    if args.cell is not None:
        _check_inside(args.cell, board.width, board.height, f"cell {args.cell!r}")
        explanations = [explain(board, args.cell, trust_flags=trust, time_limit=left())]
    else:
        found = certain_cells(board, trust_flags=trust, time_limit=left())
        claims = sorted([(cell, False) for cell in found.safe] + [(cell, True) for cell in found.mines])
        explanations = [
            explain(board, cell, trust_flags=trust, is_mine=is_mine, time_limit=left())
            for cell, is_mine in claims
        ]
    if args.json:
        print(json.dumps([e.to_dict() for e in explanations]))
        return 0
    if args.cell is not None:
        print(explanations[0])
        return 0
    if not explanations:
        print("no certain cell: every unknown cell may hold a mine or not")
        return 0
    for e in explanations:
        note = "" if e.is_smallest else " (minimal; smaller not ruled out)"
        print(f"{e.describe()}{note}")
    safe = sum(not e.is_mine for e in explanations)
    print(f"{safe} certainly safe, {plural(len(explanations) - safe, 'certain mine')}; --cell R,C draws one")
    return 0


def _variant(args: argparse.Namespace, *, explain: bool, text: str | None = None) -> int:
    """``solve`` and ``explain`` under variant rules (:mod:`analyzer.variants`).

    ``--time-limit`` counts from here: the import of CP-SAT and the reading of the position
    are in it (seconds on a loaded machine, before the solve's own clock starts).
    """
    started = time.monotonic()
    from analyzer.variants import Position, explain_variant, hint, solve_variant
    from analyzer.variants.rules import parse_rules

    with _checked("--rules: "):
        args.rules = parse_rules(args.rules)
    position = Position.from_text(_read(args.file) if text is None else text)
    limit = args.time_limit
    if limit is not None:
        limit = max(limit - (time.monotonic() - started), 1e-6)
    if explain:
        if args.cell is not None:
            found = [explain_variant(position, args.rules, args.cell, time_limit=limit)]
        else:
            best = hint(position, args.rules, time_limit=limit)
            found = [best] if best is not None else []
        if args.json:
            print(json.dumps([e.to_dict() for e in found]))
        else:
            print("\n".join(e.describe() for e in found) or "no certain cell")
        return 0
    analysis = solve_variant(position, args.rules, time_limit=limit)
    if args.json:
        probs = analysis.probabilities
        print(
            json.dumps(
                {
                    "rules": str(analysis.rules),
                    "certain_safe": [list(c) for c in analysis.safe],
                    "certain_mines": [list(c) for c in analysis.mines],
                    "probabilities": None
                    if probs is None
                    else [[r, c, str(p)] for (r, c), p in probs.items()],
                    "layouts": analysis.layouts,
                    "method": analysis.method,
                    "probability_method": analysis.probability_method,
                }
            )
        )
        return 0
    print(f"rules {analysis.rules}; P(mine) in %, s certainly safe, * certain mine")
    print(analysis)
    print(
        f"{len(analysis.safe)} certainly safe, {plural(len(analysis.mines), 'certain mine')}"
        f" ({analysis.method})"
    )
    count = analysis.layouts
    layouts = "" if count is None else f"{count:,} layout{'' if count == 1 else 's'}; "
    print(f"probabilities: {layouts}{analysis.probability_method}")
    return 0
