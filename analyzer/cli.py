"""The ``analyzer`` command line.

``analyzer solve FILE``
    Print the board with each hidden cell's mine probability in percent
    (``*`` a certain mine, ``-`` a certain safe cell, ``F`` a flag), or with
    ``--json`` the exact fractions. ``-`` reads the board from standard input.
    FILE may be a screenshot (known by its first bytes: PNG, JPEG, GIF, BMP, WebP,
    TIFF): the board read from it (:mod:`analyzer.pictures`) is printed first, its
    unsure cells marked ``?``, so that a person can check it (``solve``, ``explain``, ``web``).
``analyzer explain FILE [--cell R,C]``
    Why a cell is certainly safe or a mine: a minimal set of clues (and the
    mine total, when needed) that forces it, drawn on the board.
``analyzer simulate``
    Win rates of a player (:mod:`analyzer.play.simulation`), e.g. ``analyzer simulate
    --preset expert --player probabilistic --games 1000 --workers 2``.
``analyzer optimal``
    The exact probability of winning under perfect play (:mod:`analyzer.play.optimal`),
    e.g. ``analyzer optimal --width 4 --height 4 --mines 4 --first-click safe``: the
    value of every first cell, the best ones, and with ``--players`` each player's
    exact win rate (:mod:`analyzer.play.exact`).
``analyzer verify``
    Run the symbolic checks of :mod:`analyzer.verify` and print a table.

Exit status (docs/guide/cli.md): 0 on success; 1 for an error (a file that cannot be
read, parsed or written, a board no layout satisfies, a time-out, a failed check, no Dask
scheduler), printed as one line ``analyzer: error: ...`` on standard error, or with ``--json``
as ``{"error": ..., "type": ...}`` on standard output; 2 for a usage error, found before any
work (an unknown option or name, a bad number, a cell not written ``R,C``, options that do not
go together, a value out of range), one line ``analyzer solve: error: ... (see analyzer solve
--help)``; 130 when interrupted; 141 when standard output is closed early (``| head``).

``solve`` and ``explain`` stop after :data:`DEFAULT_TIME_LIMIT` seconds unless
given ``--time-limit SECONDS`` (``0``: no limit); on a terminal a solve that
takes more than a few seconds shows the time spent on standard error.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import shutil
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, NoReturn

from analyzer._version import __version__
from analyzer.board.board import Board
from analyzer.board.topology import TOPOLOGIES
from analyzer.errors import (
    AnalyzerError,
    BoardParseError,
    GameError,
    OptionError,
    PlayerError,
)
from analyzer.limits import plural
from analyzer.names import BACKENDS, CHECK_NAMES, ENGINES, PLAYER_NAMES, PRESETS

if TYPE_CHECKING:
    from analyzer.play.game import Game

__all__ = ["main", "DEFAULT_TIME_LIMIT"]

DEFAULT_TIME_LIMIT = 60.0
"""Seconds ``analyzer solve`` and ``analyzer explain`` work before giving up (``--time-limit 0``: none)."""


MAX_INPUT_BYTES = 256 * 1024 * 1024
"""The most a board file may hold when its size cannot be known from a header (minesweepr format)."""
_HEADER_BYTES = 256


def _read(path: str, *, header: bool = True) -> str:
    """The text of ``path`` (``-``: standard input), read no further than the board can need.

    With ``header``, the first line must be a ``WxHxM`` header within 256 bytes,
    and the rest may hold at most ``H`` rows of ``W`` cells with their line ends
    (and some trailing blank space): anything longer is refused, not read.
    """
    _refuse_replay(path)
    try:
        if path == "-":
            stdin = getattr(sys.stdin, "buffer", None)
            if stdin is None:  # replaced by a text stream (tests, embedding)
                stdin = io.BytesIO(sys.stdin.read(MAX_INPUT_BYTES + 1).encode("utf-8"))
            return _capped(stdin, "standard input", header)
        with open(path, "rb") as handle:
            return _capped(handle, repr(path), header)
    except OSError as error:
        raise _CliError(f"cannot read {path!r}: {error.strerror or error}") from None


def _refuse_replay(path: str) -> None:
    """A recorded game given where a board is read: say so, and name the command that reads it."""
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix in ("avf", "rmv", "evf", "mvf"):
        raise _CliError(
            f"{path!r} is a recorded game ({suffix.upper()} replay), not a board:"
            f" analyse it with 'analyzer replay {path}'"
        )


def _capped(handle: BinaryIO, name: str, header: bool) -> str:
    limit = MAX_INPUT_BYTES
    first = b""
    if header:
        first = handle.readline(_HEADER_BYTES)
        if first and not first.endswith(b"\n") and len(first) >= _HEADER_BYTES:
            raise _CliError(
                f"cannot read {name}: no 'WIDTHxHEIGHTxMINES' header line in its first {_HEADER_BYTES} bytes"
            )
        match = re.fullmatch(  # a byte-order mark may come first; a topology's name may follow
            rb"(?:\xef\xbb\xbf)?\s*([0-9]{1,9})\s*[xX]\s*([0-9]{1,9})\s*[xX]\s*([0-9]{1,9})(?:\s+[A-Za-z]+)?\s*",
            first,
        )
        if match is None and first.removeprefix(b"\xef\xbb\xbf").lstrip().startswith(b"{"):
            pass  # a JSON graph board: read up to MAX_INPUT_BYTES
        elif match is None:
            # Not a header: the parser names what is wrong with it; the rest is not read.
            limit = 0
        else:
            width, height = int(match.group(1)), int(match.group(2))
            limit = height * (width + 2) + 4096
    data = handle.read(limit + 1)
    if len(data) > limit and limit > 0:
        what = "the header's board" if header and limit != MAX_INPUT_BYTES else "a board"
        raise _CliError(f"cannot read {name}: more than {limit} bytes, more than {what} can need")
    try:
        return (first + data).decode("utf-8")
    except UnicodeDecodeError:
        raise _CliError(f"cannot read {name}: not a text file") from None


class _CliError(Exception):
    pass


class _UsageError(_CliError):
    """Options that cannot work together or a value out of range: exit status 2, before any work."""


_USAGE_ERRORS = (_UsageError, OptionError, PlayerError)
"""Errors that mean the command line itself is wrong (exit status 2, as argparse's own): a
value out of range or options that do not go together, found by the library's checks. A rule
set, a simulation's or a perfect-play search's options are checked before the work (``_checked``)
and refused as usage errors there; later ``RuleError``, ``SimulationError`` and ``GameError``
are about the board, a results file or the work, and exit with status 1."""


@contextlib.contextmanager
def _checked(option: str = "") -> Iterator[None]:
    """Options checked by the library before any work: whatever it refuses is a usage error."""
    try:
        yield
    except AnalyzerError as error:
        raise _UsageError(f"{option}{error}") from None


class _Parser(argparse.ArgumentParser):
    """argparse, its errors one line (``analyzer solve: error: ... (see analyzer solve --help)``)
    instead of the usage block and the message."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, _usage_line(self.prog, message) + "\n")


def _usage_line(prog: str, message: str) -> str:
    return f"{prog}: error: {message} (see {prog} --help)"


def _at_least(minimum: int) -> Callable[[str], int]:
    """An argparse type: a whole number of at least ``minimum`` (a usage error otherwise)."""

    def parse(text: str) -> int:
        try:
            number = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if number < minimum:
            raise argparse.ArgumentTypeError(f"expected a whole number >= {minimum}, got {text!r}")
        return number

    parse.__name__ = f"whole number >= {minimum}"
    return parse


def _port(text: str) -> int:
    """``--port``: a TCP port, 0 (any free one) to 65535."""
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 0 <= number <= 65535:
        raise argparse.ArgumentTypeError(f"expected a port from 0 to 65535 (0: any free one), got {text!r}")
    return number


def _first_click_option(text: str) -> str:
    """An argparse type: a first-click rule's name, checked before any work."""
    from analyzer.errors import GameError
    from analyzer.play.game import FirstClickRule

    try:
        FirstClickRule.parse(text)
    except GameError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


def _cell_option(text: str) -> tuple[int, int]:
    """An argparse type: a cell written ``R,C`` (0-based), refused before any work otherwise."""
    try:
        return _cell(text)
    except _CliError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _time_limit(text: str) -> float | None:
    """``--time-limit``: positive seconds, or 0 for no limit."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if value == 0:
        return None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(
            f"expected a positive number of seconds or 0 (no limit), got {text!r}"
        )
    return value


@contextlib.contextmanager
def _progress(what: str, *, after: float = 2.0) -> Iterator[Callable[[int, int], None]]:
    """On a terminal, show ``what`` and the seconds spent on standard error while the block runs.

    The block gets a function ``step(done, of)``: once called, the line shows ``done/of`` too.
    """
    counts: list[int] = []

    def step(done: int, of: int) -> None:
        counts[:] = [done, of]

    if not sys.stderr.isatty():
        yield step
        return
    done = threading.Event()
    start = time.perf_counter()

    def tick() -> None:
        if done.wait(after):
            return
        while not done.wait(1.0):
            share = f" {counts[0]}/{counts[1]}," if counts else ""
            seconds = time.perf_counter() - start
            print(f"\ranalyzer: {what}...{share} {seconds:.0f} s", end="", file=sys.stderr)
        print("\r\033[K", end="", file=sys.stderr)

    thread = threading.Thread(target=tick, daemon=True)
    thread.start()
    try:
        yield step
    finally:
        done.set()
        thread.join()


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


def _layout_position(path: str, cells: list[tuple[int, int]]) -> Board:
    """The board a player sees on an MBF layout after revealing ``cells`` (flood fill included)."""
    if path == "-":
        raise _UsageError("--format mbf reads a file, not standard input")
    game = _load_layout(path, "mbf")
    for row, col in cells:
        if not (0 <= row < game.height and 0 <= col < game.width):
            raise _CliError(f"--reveal {row},{col} is outside the {game.width}x{game.height} board")
        if game.is_mine(row, col):
            raise _CliError(f"--reveal {row},{col} is a mine in this layout: the game would be lost")
        game.reveal(row, col)
    return game.board


def _picture_board(args: argparse.Namespace) -> Board | None:
    """The board of a picture given as FILE (known by its first bytes), its reading printed first.

    ``None`` when FILE is no picture (then ``--skin`` is refused: it names a picture's client).
    The reading (:meth:`~analyzer.pictures.PictureReading.describe`: the board read, unsure
    cells ``?``, where the mine total came from) goes to standard output before the analysis,
    for a person to check it; with ``--json``, to standard error, so that the output stays JSON.
    """
    path: str = args.file
    piped = _stdin_picture() if path == "-" else None  # xclip -o -t image/png | analyzer solve -
    source: str | bytes = path if piped is None else piped
    if piped is None and (path == "-" or not _is_picture_file(path)):
        if args.skin is not None:
            what = "standard input" if path == "-" else repr(path)
            raise _UsageError(f"--skin applies to pictures only: {what} is none")
        return None
    from analyzer.pictures import read_picture, skin_names

    if args.skin is not None and args.skin not in skin_names():
        raise _UsageError(f"--skin {args.skin!r}: known skins are {', '.join(skin_names())}")
    if getattr(args, "format", None) is not None:  # solve's
        what = "standard input" if path == "-" else repr(path)
        raise _UsageError(f"--format {args.format} reads a board file, and {what} is a picture")
    with _progress("reading the picture"):
        reading = read_picture(source, mines=args.mines, skin=args.skin)
    out = sys.stderr if args.json else sys.stdout
    print(reading.describe(), file=out)
    print(file=out, flush=True)
    return reading.board


def _stdin_picture() -> bytes | None:
    """Standard input's bytes when they are a picture (its first bytes looked at, not consumed).

    ``None`` when they are not (a board's text follows, read as before) or cannot be looked at
    without reading them (a text stream put in place of standard input). At most the reader's
    bound (:data:`analyzer.pictures.load.MAX_BYTES`) is read: more is refused unread.
    """
    from analyzer.pictures.load import MAX_BYTES, image_format

    stdin = getattr(sys.stdin, "buffer", None)
    peek = getattr(stdin, "peek", None)
    if stdin is None or peek is None:
        return None
    try:
        head = bytes(peek(16)[:16])
    except (OSError, ValueError):
        return None
    if image_format(head) is None:
        return None  # as analyzer.pictures.is_image_file knows a picture's file
    data = stdin.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise _CliError(f"cannot read standard input: a picture of more than {MAX_BYTES // 2**20} MiB")
    return bytes(data)


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


# ------------------------------------------------------------------- explain
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
        row, col = args.cell
        if not (0 <= row < board.height and 0 <= col < board.width):
            raise _CliError(f"cell {(row, col)!r} is outside the {board.width}x{board.height} board")
        explanations = [explain(board, (row, col), trust_flags=trust, time_limit=left())]
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


# ------------------------------------------------------------------ simulate
def _size_arguments(parser: argparse.ArgumentParser) -> None:
    """``--preset`` or ``--width/--height/--mines``: the board of a command that makes its own."""
    parser.add_argument(
        "--preset",
        choices=tuple(PRESETS),
        default=None,
        help="a classic board: "
        + ", ".join(f"{n} {w}x{h}/{m}" for n, (w, h, m) in PRESETS.items())
        + " (or give --width/--height/--mines)",
    )
    parser.add_argument(
        "--width",
        type=_at_least(1),
        default=None,
        metavar="W",
        help="columns (with --height and --mines)",
    )
    parser.add_argument(
        "--height",
        type=_at_least(1),
        default=None,
        metavar="H",
        help="rows (with --width and --mines)",
    )
    parser.add_argument(
        "--mines",
        type=_at_least(0),
        default=None,
        metavar="M",
        help="mines (with --width and --height)",
    )


def _simulate_arguments(parser: argparse.ArgumentParser) -> None:
    _size_arguments(parser)
    parser.add_argument("--topology", default="square", help=_TOPOLOGY_HELP)
    parser.add_argument(
        "--player",
        default="probabilistic",
        help=f"one of {', '.join(PLAYER_NAMES)} (default probabilistic), with options as"
        " NAME:OPTION=VALUE,... (e.g. expert:score=secondary,margin=3/50,candidates=16)",
    )
    parser.add_argument(
        "--games", type=_at_least(1), default=1000, metavar="N", help="games to play (default 1000)"
    )
    parser.add_argument(
        "--first-click",
        type=_first_click_option,
        default="safe",
        help="none, safe, opening or safe_zone:R (default safe)",
    )
    parser.add_argument(
        "--first-cell",
        default="player",
        help="R,C (0-based), corner, centre, random, or player: the player's own choice (default)",
    )
    parser.add_argument(
        "--seed",
        type=_at_least(0),
        default=0,
        help="the same seed plays the same games (default 0)",
    )
    parser.add_argument("--workers", type=_at_least(1), default=1, help="processes (default 1)")
    parser.add_argument(
        "--backend",
        choices=BACKENDS,
        default="local",
        help="local: processes on this machine (default); dask: a Dask cluster (see --address)",
    )
    parser.add_argument("--address", default=None, help="Dask scheduler address, for --backend dask")
    parser.add_argument(
        "--results", default=None, metavar="FILE", help="append batches as JSON lines; resume from them"
    )
    parser.add_argument(
        "--batch-size",
        type=_at_least(1),
        default=None,
        metavar="N",
        help="games a task plays (default: the games split evenly, a few tasks a worker)",
    )
    parser.add_argument(
        "--exact",
        action="store_true",
        help="play through the exact engine (Fractions) even where the player has a compiled form",
    )
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="progress bar (default: on a terminal)",
    )


def _board_from_args(args: argparse.Namespace) -> tuple[int, int, int]:
    sizes = (args.width, args.height, args.mines)
    if args.preset is not None:
        if any(v is not None for v in sizes):
            raise _UsageError("give --preset or --width/--height/--mines, not both")
        return PRESETS[args.preset]
    if any(v is None for v in sizes):
        raise _UsageError("give --preset NAME, or all of --width, --height and --mines")
    _check_mines(*sizes)
    return sizes  # type: ignore[return-value]


def _check_mines(width: int, height: int, mines: int) -> None:
    if mines > width * height:
        raise _UsageError(f"--mines {mines} is more than the {width}x{height} board's {width * height} cells")


def _cmd_simulate(args: argparse.Namespace) -> int:
    from analyzer.play.simulation import simulate

    width, height, mines = _board_from_args(args)
    _check_simulate_options(args, width, height, mines)
    progress = sys.stderr.isatty() if args.progress is None else args.progress
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
        exact=args.exact,
        topology=args.topology,
    )
    if result.resumed:
        played = result.games - result.resumed
        print(
            f"resumed {plural(result.resumed, 'game')} from {args.results}; played {played} more",
            file=sys.stderr,
        )
    print(result.setup.describe())
    print(result)  # the README's two lines: the time is per game, the whole run's is the shell's to time
    return 0


def _check_simulate_options(args: argparse.Namespace, width: int, height: int, mines: int) -> None:
    """The player, the board's topology and first click, the first cell and the backend, before any game."""
    from analyzer.limits import whole
    from analyzer.play.players import make_player
    from analyzer.play.simulation import MAX_WORKERS, _make_setup

    with _checked():
        player = make_player(args.player)
        _make_setup(width, height, mines, player, args.first_click, args.first_cell, args.seed, args.topology)
        whole(args.workers, "workers", minimum=1, maximum=MAX_WORKERS, error=OptionError)
    if args.address is not None and args.backend != "dask":
        raise _UsageError("--address is for --backend dask")


# ------------------------------------------------------------------- optimal
def _cmd_optimal(args: argparse.Namespace) -> int:
    from analyzer.play.exact import exact_win_rate
    from analyzer.play.game import FirstClickRule
    from analyzer.play.optimal import OptimalSearch, optimal
    from analyzer.play.players import make_player

    _check_mines(args.width, args.height, args.mines)
    first = args.first_cell
    with _checked("--first-click: "):
        rule = FirstClickRule.parse(args.first_click)
    if rule.radius is not None and rule.radius > 1:
        raise _UsageError(f"--first-click {rule.name!r}: the search takes the rules none, safe and opening")
    if first is not None and not (0 <= first[0] < args.height and 0 <= first[1] < args.width):
        raise _UsageError(
            f"--first-cell {first[0]},{first[1]} is outside the {args.width}x{args.height} board"
        )
    for name in (args.players or "").split(","):
        with _checked("--players: "):
            if name.strip():
                make_player(name.strip())
    search = OptimalSearch(args.width, args.height, args.mines)
    result = optimal(
        args.width, args.height, args.mines, first_click=args.first_click, first_cell=first, search=search
    )
    players = [p.strip() for p in args.players.split(",") if p.strip()] if args.players else []
    where = f"{first[0]},{first[1]}" if first is not None else "random"
    rates = {
        name: exact_win_rate(
            name,
            args.width,
            args.height,
            args.mines,
            first_click=args.first_click,
            first_cell=where,
            search=search,
        )
        for name in players
    }
    if args.json:
        print(
            json.dumps(
                {
                    "width": result.width,
                    "height": result.height,
                    "mines": result.mines,
                    "first_click": result.first_click,
                    "probability": str(result.probability),
                    "best_cells": [list(c) for c in result.best_cells],
                    "cell_values": {f"{r},{c}": str(v) for (r, c), v in sorted(result.cell_values.items())},
                    "states": result.states,
                    "seconds": result.seconds,
                    "players": {
                        name: {"first_cell": where, "probability": str(r.probability)}
                        for name, r in rates.items()
                    },
                }
            )
        )
        return 0
    print(result)
    if first is None:
        print("win % by first cell:")
        for row in range(result.height):
            print(
                " ".join(f"{100 * float(result.cell_values[(row, col)]):7.3f}" for col in range(result.width))
            )
    for name, rate in rates.items():
        gap = result.probability - rate.probability if first is not None else None
        note = "" if gap is None else f", {100 * float(gap):.4f} points below perfect play"
        print(f"{name:>13} (first cell {where}): {rate.probability} = {rate.percent:.4f}%{note}")
    return 0


# -------------------------------------------------------------------- verify
def _cmd_verify(args: argparse.Namespace) -> int:
    from analyzer import verify

    unknown = [name for name in args.check or () if name not in verify.CHECKS]
    if unknown:  # a usage error, reported as argparse reports an invalid choice (status 2)
        choices = ", ".join(repr(name) for name in verify.CHECKS)
        args.parser.error(f"argument --check: invalid choice: {unknown[0]!r} (choose from {choices})")
    results = verify.run_checks(args.check)
    print(verify.format_table(results, latex=args.latex))
    failed = [r.name for r in results if not r.holds]
    verdict = f"{len(results) - len(failed)} of {len(results)} checks hold"
    print(verdict + (f"; failed: {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0


# --------------------------------------------------------------------- stats
def _cmd_stats(args: argparse.Namespace) -> int:
    from analyzer.play.metrics import METRICS, metrics_sample

    width, height, mines = _board_from_args(args)
    first = args.first_cell
    start = time.perf_counter()
    sample = metrics_sample(
        width,
        height,
        mines,
        args.boards,
        first_click=args.first_click,
        first_cell=first,
        seed=args.seed,
        workers=args.workers,
    )
    seconds = time.perf_counter() - start
    if args.json:
        print(
            json.dumps(
                {
                    "width": width,
                    "height": height,
                    "mines": mines,
                    "boards": sample.boards,
                    "first_click": sample.first_click,
                    "seed": args.seed,
                    "summary": {m: sample.summary(m) for m in METRICS},
                    "histogram": {m: sample.histogram(m) for m in METRICS},
                }
            )
        )
        return 0
    where = "" if sample.first_cell is None else f" at {sample.first_cell[0]},{sample.first_cell[1]}"
    print(
        f"{width}x{height}/{mines}, {sample.boards} random layouts, first click {sample.first_click}{where}, "
        f"seed {args.seed} ({seconds:.1f} s)"
    )
    print(f"{'metric':<9} {'mean':>8} {'sd':>7} {'min':>5} {'q1':>6} {'median':>7} {'q3':>6} {'max':>5}")
    for metric in METRICS:
        s = sample.summary(metric)
        print(
            f"{metric:<9} {s['mean']:8.3f} {s['sd']:7.3f} {s['min']:5.0f} {s['q1']:6.1f} "
            f"{s['median']:7.1f} {s['q3']:6.1f} {s['max']:5.0f}"
        )
    histogram = sample.histogram(args.histogram)
    low, high = min(histogram), max(histogram)
    step = max(1, -(-(high - low + 1) // 30))  # at most 30 bars
    bins: dict[int, int] = {}
    for value, count in histogram.items():
        start_of = low + (value - low) // step * step
        bins[start_of] = bins.get(start_of, 0) + count
    top = max(bins.values())
    label = "value" if step == 1 else f"values, bins of {step}"
    print(f"\nhistogram of {args.histogram} (boards per {label})")
    for value, count in sorted(bins.items()):
        span = f"{value}" if step == 1 else f"{value}-{value + step - 1}"
        print(f"{span:>9} {count:8d} {'#' * max(1, round(40 * count / top))}")
    return 0


def _cell(text: str) -> tuple[int, int]:
    parts = text.split(",")
    if len(parts) != 2 or not all(p.strip().isascii() and p.strip().isdigit() for p in parts):
        raise _CliError(f"expected a cell as R,C (0-based), got {text[:80]!r}")
    return (int(parts[0]), int(parts[1]))


# ---------------------------------------------------------------------- play
_TOPOLOGY_HELP = (
    f"how cells touch: one of {', '.join(TOPOLOGIES)} (default square; a cube is n wide, 6n high)"
)


_REPLAY_SUFFIXES = ("avf", "rmv", "evf", "mvf")
"""The file name endings of recorded games (:mod:`analyzer.replays`), named here without importing it."""


def _load_layout(path: str, kind: str, topology: str = "square") -> Game:
    """A game on the layout of an MBF file (``kind`` ``mbf``) or of layout text (``text``) on ``topology``."""
    from analyzer.play.game import Game

    try:
        with open(path, "rb") as handle:
            data = handle.read(1 << 20)
    except OSError as error:
        raise _CliError(f"cannot read {path!r}: {error.strerror or error}") from None
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix in _REPLAY_SUFFIXES:
        raise _CliError(
            f"{path!r} is a recorded game ({suffix.upper()}), not a layout: `analyzer replay {path}` analyses"
            f" it, `analyzer web {path}` steps through it (--layout takes an .mbf file or layout text)"
        )
    if kind == "auto":
        kind = "mbf" if suffix == "mbf" else "text"
    if kind == "mbf":
        if topology != "square":
            raise _CliError(f"an MBF layout is a square board; --topology {topology} reads layout text")
        return Game.from_mbf(data)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise _CliError(
            f"cannot read {path!r} as layout text ('*' a mine, '.' a safe cell):"
            " if it is an MBF layout, give --format mbf"
        ) from None
    return Game.from_layout_text(text, topology=topology)


def _cmd_play(args: argparse.Namespace) -> int:
    from analyzer.play.replay import replay

    game = _load_layout(args.layout, args.format, args.topology)
    if args.evf and game.topology != "square":
        raise _CliError("--evf writes square boards only (an EVF replay has no topology)")
    first = args.first_cell
    if first is not None and not (0 <= first[0] < game.height and 0 <= first[1] < game.width):
        raise _CliError(f"first cell {first!r} is outside the {game.width}x{game.height} board")
    mines = plural(game.mine_count, "mine")
    print(f"{game.width}x{game.height}, {mines}; player {args.player}, seed {args.seed}")
    guesses = 0
    last = None
    layout = game.mines
    played = []
    for move in replay(game, args.player, seed=args.seed, first_cell=first):
        last = move
        played.append(move)
        action = move.action
        p = move.probability
        label = "flag  " if action.kind == "flag" else "reveal"
        kind_of = (
            "guess" if action.kind == "reveal" and p != 0 else "safe" if action.kind == "reveal" else "mine"
        )
        guesses += kind_of == "guess"
        extra = f", opened {move.revealed}" if move.revealed > 1 else ""
        print(
            f"{move.number:4d}  {label} ({action.row}, {action.col})  P(mine) = {p} ({float(p):.1%})"
            f"  {kind_of}{extra}"
        )
    status = game.status if last is None else last.status
    moves = plural(0 if last is None else last.number, "move")
    print(f"{status} after {moves}, {plural(guesses, 'guess')}")
    if args.evf:
        from analyzer.replays.write import game_actions, write_evf

        written = write_evf(
            args.evf,
            game.width,
            game.height,
            layout or game.mines or (),
            game_actions(played),
            player=f"analyzer {args.player} seed {args.seed}",
            cursor_step=args.cursor_step,
        )
        print(f"wrote {written}")
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    from importlib.util import find_spec

    from analyzer.replays.batch import analyse_files, replay_files, table_rows

    # What the tables need is checked before the work, not after it.
    if (args.csv or args.parquet) and find_spec("pandas") is None:
        raise _CliError("writing tables needs pandas: pip install 'minesweeper-analyzer[replays]'")
    if args.parquet and find_spec("pyarrow") is None and find_spec("fastparquet") is None:
        raise _CliError("writing Parquet needs pyarrow (pip install pyarrow); --csv needs nothing more")
    if args.address is not None and args.backend != "dask":
        raise _UsageError("--address is for --backend dask")
    files = replay_files(args.files)
    progress = (sys.stderr.isatty() if args.progress is None else args.progress) and len(files) > 1
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(files), unit="replay", file=sys.stderr)
    try:
        results = analyse_files(
            files,
            workers=args.workers,
            backend=args.backend,
            address=args.address,
            time_limit=args.time_limit,
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
            raise _CliError(
                "writing tables needs pandas: pip install 'minesweeper-analyzer[replays]'"
            ) from None

        # object columns: a count stays an integer beside a failed file's empty cell
        table = pd.DataFrame(rows, dtype=object)
        if args.csv:
            table.to_csv(args.csv, index=False)
        if args.parquet:
            try:
                table.to_parquet(args.parquet, index=False)
            except ImportError:
                message = "writing Parquet needs pyarrow (pip install pyarrow); --csv needs nothing more"
                raise _CliError(message) from None
    for problem in failed:
        print(f"analyzer: error: {problem}", file=sys.stderr)
    return 1 if failed else 0


def _cmd_web(args: argparse.Namespace) -> int:
    from analyzer.interactive.session import Session
    from analyzer.interactive.web import serve

    source: object = args.source
    if args.source is not None:
        path = Path(args.source)
        if path.is_dir():
            raise _CliError(
                f"{args.source!r} is a folder: give a .mine board, an .mbf layout or a replay file"
                " (analyzer replay FOLDER analyses a folder of replays)"
            )
        if not path.exists():
            raise _CliError(f"cannot read {args.source!r}: No such file or directory")
        if not os.access(path, os.R_OK):
            raise _CliError(f"cannot read {args.source!r}: Permission denied")
    picture = source is not None and _is_picture_file(args.source)
    if not picture and (args.mines is not None or args.skin is not None):
        option = "--mines" if args.mines is not None else "--skin"
        raise _UsageError(f"{option} applies to a picture only: give a screenshot as FILE")
    if picture and args.skin is not None:
        from analyzer.pictures import skin_names

        if args.skin not in skin_names():
            raise _UsageError(f"--skin {args.skin!r}: known skins are {', '.join(skin_names())}")
    session = Session(None if picture else source, time_limit=args.time_limit, seed=args.seed)
    if picture:  # the board read is printed here too, for a person to check it beside the page
        with _progress("reading the picture"):
            reading = session.open_picture(args.source, mines=args.mines, skin=args.skin)
        print(reading.describe(), flush=True)
    elif source is None:
        size = PRESETS.get(args.new)
        if size is None:
            parts = args.new.lower().split("x")
            if len(parts) != 3 or not all(p.isdigit() for p in parts):
                raise _UsageError(
                    f"--new {args.new!r}: expected {', '.join(PRESETS)} or WxHxM, e.g. 30x16x99"
                )
            size = (int(parts[0]), int(parts[1]), int(parts[2]))
        try:  # the size does not fit the topology (a cube is n wide, 6n high), or no such topology
            session.new_game(*size, seed=args.seed, topology=args.topology)
        except (BoardParseError, GameError) as error:
            raise _UsageError(f"--new {args.new!r} --topology {args.topology!r}: {error}") from None
    try:
        serve(session, host=args.host, port=args.port, open_browser=not args.no_browser)
    except OSError as error:
        raise _CliError(f"cannot listen on {args.host}:{args.port}: {error.strerror or error}") from None
    return 0


def _is_picture_file(path: str) -> bool:
    """Whether the file at ``path`` is a picture, by its first bytes (``analyzer.pictures.is_image_file``)."""
    from analyzer.pictures import is_image_file

    return os.path.isfile(path) and is_image_file(path)


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


def _cmd_generate(args: argparse.Namespace) -> int:
    from analyzer.play.generate import generate_layouts, write_layouts

    width, height, mines = _board_from_args(args)
    rule = "no_guess" if args.no_guess else args.first_click
    if args.no_guess and args.first_click not in ("none", "opening"):
        rule = f"no_guess:{args.first_click}"
    first = args.first_cell
    layouts = generate_layouts(
        width, height, mines, args.count, first_click=rule, first_cell=first, seed=args.seed
    )
    stem = args.name or f"{width}x{height}x{mines}_{rule.replace(':', '-')}_seed{args.seed}"
    for path in write_layouts(layouts, args.output, stem):
        print(path)
    return 0


def _cmd_warmup(args: argparse.Namespace) -> int:
    from analyzer.warmup import STAGES, uncached_kernels, warm_up

    missing = uncached_kernels()
    if os.environ.get("NUMBA_CACHE_DIR"):  # a cache elsewhere: what it holds is not looked up here
        print("analyzer: compiling the numba kernels not in NUMBA_CACHE_DIR yet...", flush=True)
    elif missing:
        cores = min(len(STAGES), os.cpu_count() or 1)
        print(
            f"analyzer: compiling {plural(len(missing), 'numba kernel')} not cached yet, on"
            f" {plural(cores, 'core')} (once; later runs load them)...",
            flush=True,
        )
    else:
        print("analyzer: every numba kernel is cached; loading them to check...", flush=True)
    seconds = warm_up(lambda line: print(line, flush=True))
    print(f"analyzer: kernels ready in {seconds:.1f} s")
    return 0


_SKIN_HELP = "with a picture: the client that drew it (default: every known one is tried)"


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="analyzer", description="Exact statistics of Minesweeper.")
    version = f"%(prog)s {__version__} (minesweeper-analyzer)"
    parser.add_argument("--version", action="version", version=version)
    sub = parser.add_subparsers(dest="command", required=True)

    solve = sub.add_parser("solve", help="exact mine probabilities of a board file")
    solve.add_argument("file", help="a .mine file, a screenshot of a game, or - for standard input")
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
    solve.add_argument(
        "--time-limit",
        type=_time_limit,
        default=DEFAULT_TIME_LIMIT,
        metavar="SECONDS",
        help=f"give up after this many seconds (default {DEFAULT_TIME_LIMIT:g}; 0: no limit)",
    )
    solve.add_argument(
        "--distrust-flags", action="store_true", help="treat flags as hidden cells (flags may be wrong)"
    )
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
    solve.add_argument(
        "--mines",
        type=int,
        default=None,
        help="mine total, for --format minesweepr, or a picture that shows no counter (default there:"
        " the client's preset for the size)",
    )
    solve.add_argument("--skin", default=None, help=_SKIN_HELP)
    solve.add_argument(
        "--rules",
        default=None,
        help="variant rules of 14 Minesweeper Variants, e.g. QX (see analyzer.variants)",
    )
    solve.set_defaults(run=_cmd_solve)

    explain = sub.add_parser("explain", help="why a cell is certain: a minimal set of clues that forces it")
    explain.add_argument("file", help="a .mine file, a screenshot of a game, or - for standard input")
    explain.add_argument(
        "--mines",
        type=int,
        default=None,
        help="with a picture that shows no counter: its mine total (default: the client's preset)",
    )
    explain.add_argument("--skin", default=None, help=_SKIN_HELP)
    explain.add_argument(
        "--cell",
        default=None,
        metavar="R,C",
        type=_cell_option,
        help="explain this cell (0-based); default every certain cell",
    )
    explain.add_argument("--json", action="store_true", help="the explanations as JSON")
    explain.add_argument(
        "--time-limit",
        type=_time_limit,
        default=DEFAULT_TIME_LIMIT,
        metavar="SECONDS",
        help=f"give up after this many seconds (default {DEFAULT_TIME_LIMIT:g}; 0: no limit)",
    )
    explain.add_argument(
        "--distrust-flags", action="store_true", help="treat flags as hidden cells (flags may be wrong)"
    )
    explain.add_argument(
        "--rules",
        default=None,
        help="variant rules, e.g. QX: without --cell, the hint (a minimal explanation)",
    )
    explain.set_defaults(run=_cmd_explain)

    simulate = sub.add_parser("simulate", help="win rates of a player by Monte Carlo, on all cores or Dask")
    _simulate_arguments(simulate)
    simulate.set_defaults(run=_cmd_simulate)

    stats = sub.add_parser("stats", help="3BV, openings and islands of many random layouts")
    _size_arguments(stats)
    stats.add_argument(
        "--boards", type=_at_least(1), default=10_000, metavar="N", help="random layouts (default 10000)"
    )
    stats.add_argument(
        "--first-click",
        type=_first_click_option,
        default="none",
        help="none (default), safe, opening or safe_zone:R",
    )
    stats.add_argument(
        "--first-cell",
        default=None,
        metavar="R,C",
        type=_cell_option,
        help="for a first-click rule (default 0,0)",
    )
    stats.add_argument(
        "--seed", type=_at_least(0), default=0, help="the same seed draws the same layouts (default 0)"
    )
    stats.add_argument("--workers", type=_at_least(1), default=1, help="processes (default 1)")
    stats.add_argument(
        "--histogram",
        choices=("bbbv", "openings", "islands"),
        default="bbbv",
        help="the metric whose histogram is drawn (default bbbv)",
    )
    stats.add_argument("--json", action="store_true", help="summary and histograms as JSON")
    stats.set_defaults(run=_cmd_stats)

    play = sub.add_parser("play", help="replay a layout (MBF or layout text) with a player, move by move")
    play.add_argument(
        "--layout", required=True, metavar="FILE", help="an .mbf file, or layout text (* mine, . safe)"
    )
    play.add_argument(
        "--format",
        choices=("auto", "mbf", "text"),
        default="auto",
        help="layout format (default auto: mbf for an .mbf file, else text)",
    )
    play.add_argument(
        "--player", default="probabilistic", help=f"one of {', '.join(PLAYER_NAMES)} (default probabilistic)"
    )
    play.add_argument(
        "--first-cell",
        default=None,
        metavar="R,C",
        type=_cell_option,
        help="reveal this cell first (default: the player's choice)",
    )
    play.add_argument("--topology", default="square", help=_TOPOLOGY_HELP + " (layout text only)")
    play.add_argument("--seed", type=_at_least(0), default=0, help="the player's randomness (default 0)")
    play.add_argument(
        "--evf",
        default=None,
        metavar="FILE",
        help="also write the game as an EVF replay (read by analyzer replay; default: none)",
    )
    play.add_argument(
        "--cursor-step",
        type=_at_least(0),
        default=8,
        metavar="PIXELS",
        help="with --evf, record the cursor's path between clicks in steps of this many pixels"
        " (default 8; 0: none)",
    )
    play.set_defaults(run=_cmd_play)

    best = sub.add_parser("optimal", help="exact win probability under perfect play on a small board")
    best.add_argument("--width", type=_at_least(1), required=True, metavar="W", help="columns (required)")
    best.add_argument("--height", type=_at_least(1), required=True, metavar="H", help="rows (required)")
    best.add_argument("--mines", type=_at_least(0), required=True, metavar="M", help="mines (required)")
    best.add_argument(
        "--first-click", default="safe", help="none, safe (default) or opening: the first-click rule"
    )
    best.add_argument(
        "--first-cell",
        default=None,
        metavar="R,C",
        type=_cell_option,
        help="R,C (0-based); default: every cell, the best reported",
    )
    best.add_argument(
        "--players",
        default=None,
        metavar="NAMES",
        help="comma-separated players whose exact win rate to add (at --first-cell, or a random first cell;"
        f" default none): {', '.join(PLAYER_NAMES)}",
    )
    best.add_argument("--json", action="store_true", help="exact fractions as JSON")
    best.set_defaults(run=_cmd_optimal)

    verify = sub.add_parser(
        "verify", help="symbolic checks (sympy) of the formulas the engine and the placement use"
    )
    verify.add_argument(
        "--check",
        action="append",
        metavar="NAME",
        help=f"run only this check (repeatable): {', '.join(CHECK_NAMES)}",
    )
    verify.add_argument("--latex", action="store_true", help="print the statements in LaTeX")
    verify.set_defaults(run=_cmd_verify, parser=verify)

    generate = sub.add_parser(
        "generate", help="random or no-guess layouts as MBF files (and .mine positions after the first click)"
    )
    _size_arguments(generate)
    generate.add_argument("--count", type=_at_least(1), default=1, help="layouts to write (default 1)")
    generate.add_argument(
        "--first-click",
        type=_first_click_option,
        default="none",
        help="none (default), safe, opening or safe_zone:R",
    )
    generate.add_argument(
        "--no-guess", action="store_true", help="only layouts won from the first click by deduction alone"
    )
    generate.add_argument(
        "--first-cell",
        default=None,
        metavar="R,C",
        type=_cell_option,
        help="the first click (default: corner for safe, else centre)",
    )
    generate.add_argument(
        "--seed", type=_at_least(0), default=0, help="the same seed writes the same files (default 0)"
    )
    generate.add_argument(
        "--output", required=True, metavar="DIR", help="folder to write into (made if missing)"
    )
    generate.add_argument("--name", default=None, help="file name stem (default: board, rule and seed)")
    generate.set_defaults(run=_cmd_generate)

    from analyzer.names import BACKENDS as REPLAY_BACKENDS

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
    replay.add_argument(
        "--backend",
        choices=REPLAY_BACKENDS,
        default="local",
        help="local processes, or dask: the files' contents sent to Dask workers (default: local)",
    )
    replay.add_argument(
        "--address",
        default=None,
        help="Dask scheduler address, for --backend dask (default: a local cluster)",
    )
    replay.add_argument(
        "--time-limit",
        type=_time_limit,
        default=None,
        metavar="SECONDS",
        help="seconds a game's analysis may take; past it that game is an error (default 0: no limit)",
    )
    replay.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="progress bar for many files (default: on a terminal)",
    )
    replay.set_defaults(run=_cmd_replay)

    web = sub.add_parser(
        "web",
        help="the interactive board in a browser: edit a position, play, step through a replay",
        description="Serve the interactive board on a local web page (and open it in a browser): edit a"
        " .mine position and see every cell's exact mine probability, play a new game or an .mbf layout"
        " with the odds shown, or step through a recorded game click by click. Stop with Ctrl-C.",
    )
    web.add_argument(
        "source",
        nargs="?",
        default=None,
        metavar="FILE",
        help="a .mine board (edit mode), an .mbf layout (play mode), a replay file (replay mode) or a"
        " screenshot of a game (its board in edit mode, unsure cells outlined); default: a new game",
    )
    web.add_argument(
        "--mines",
        type=int,
        default=None,
        help="with a screenshot that shows no counter: its mine total (default: the client's preset)",
    )
    web.add_argument("--skin", default=None, help=_SKIN_HELP)
    web.add_argument(
        "--new",
        default="expert",
        metavar="SIZE",
        help="without FILE, the new game: beginner, intermediate, expert or WxHxM (default: expert)",
    )
    web.add_argument("--topology", default="square", help=_TOPOLOGY_HELP + " (of the new game)")
    web.add_argument("--seed", type=int, default=0, help="seed of the first new game (default: 0)")
    web.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
    web.add_argument(
        "--port", type=_port, default=8765, help="port, 0 to 65535 (default: 8765; 0 takes a free one)"
    )
    web.add_argument("--no-browser", action="store_true", help="print the address without opening a browser")
    web.add_argument(
        "--time-limit",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="seconds an exact solve may take before CP-SAT's certain cells are shown instead (default: 10)",
    )
    web.set_defaults(run=_cmd_web)

    warmup = sub.add_parser(
        "warmup",
        help="compile every numba kernel now (the set-up does it; later runs load them cached)",
        description="Compile the package's numba kernels into numba's cache (beside their sources), on"
        " every core, so that the first solve or simulation does not stop to compile. `make setup` runs it"
        " once; run it again after changing a kernel's source. Kernels already cached are only loaded.",
    )
    warmup.set_defaults(run=_cmd_warmup)
    for listed in sub._choices_actions:  # a command's own --help opens with its one-line summary
        command = sub.choices[listed.dest]
        if command.description is None and listed.help:
            command.description = listed.help[0].upper() + listed.help[1:] + "."
        command.set_defaults(parser=command)  # whose usage errors are reported as the command's
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = _parser()
    args, extra = parser.parse_known_args(sys.argv[1:] if argv is None else argv)
    if extra:  # reported by the subcommand given, not by the top level
        args.parser.error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        status = int(args.run(args))
        sys.stdout.flush()
        return status
    except (AnalyzerError, _CliError) as error:
        status = 2 if isinstance(error, _USAGE_ERRORS) else 1
        if getattr(args, "json", False):
            kind = "CommandError" if isinstance(error, _CliError) else type(error).__name__
            report: dict[str, object] = {"error": str(error), "type": kind}
            clues = getattr(error, "clues", None)
            if clues:
                report["clues"] = [list(cell) for cell in clues]
            print(json.dumps(report))
        elif status == 2:
            print(_usage_line(args.parser.prog, str(error)), file=sys.stderr)
        else:
            print(f"analyzer: error: {error}", file=sys.stderr)
        return status
    except KeyboardInterrupt:
        print("analyzer: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (``analyzer solve big.mine | head -1``): stop quietly,
        # and point stdout at /dev/null so the interpreter's final flush cannot fail again.
        with contextlib.suppress(OSError, ValueError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return 141


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
