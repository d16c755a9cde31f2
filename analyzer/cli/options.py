"""The parser's parts: its one-line errors, the types of option values, the options several commands take."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import NoReturn, TypeAlias

from analyzer.board.topology import TOPOLOGIES
from analyzer.cli.common import _cell, _CliError
from analyzer.names import PRESETS

_Commands: TypeAlias = "argparse._SubParsersAction[_Parser]"
"""The subcommands' parsers, which each command adds itself to (``sub.add_parser``)."""

DEFAULT_TIME_LIMIT = 60.0
"""Seconds ``analyzer solve`` and ``analyzer explain`` work before giving up (``--time-limit 0``: none)."""


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


_TOPOLOGY_HELP = (
    f"how cells touch: one of {', '.join(TOPOLOGIES)} (default square; a cube is n wide, 6n high)"
)


_SKIN_HELP = "with a picture: the client that drew it (default: every known one is tried)"
