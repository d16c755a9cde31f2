"""The parser's parts: its one-line errors, the types of option values, the options several commands take."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import NoReturn, TypeAlias

from analyzer.board.topology import TOPOLOGIES
from analyzer.cli.common import _cell, _CliError
from analyzer.names import BACKENDS, PRESETS

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


def _size_arguments(parser: argparse.ArgumentParser, *, required: bool = False) -> None:
    """``--preset`` or ``--width/--height/--mines``: the board of a command that makes its own.

    ``required``: the three sizes must be given, and there is no ``--preset`` (``optimal``'s small boards).
    """
    if not required:
        parser.add_argument(
            "--preset",
            choices=tuple(PRESETS),
            default=None,
            help="a classic board: "
            + ", ".join(f"{n} {w}x{h}/{m}" for n, (w, h, m) in PRESETS.items())
            + " (or give --width/--height/--mines)",
        )
    for flag, metavar, least, what in (
        ("width", "W", 1, "columns"),
        ("height", "H", 1, "rows"),
        ("mines", "M", 0, "mines"),
    ):
        others = " and ".join(f"--{other}" for other in ("width", "height", "mines") if other != flag)
        parser.add_argument(
            f"--{flag}",
            type=_at_least(least),
            default=None,
            required=required,
            metavar=metavar,
            help=f"{what} (required)" if required else f"{what} (with {others})",
        )


def _first_click_argument(parser: argparse.ArgumentParser, default: str, help: str) -> None:
    """``--first-click RULE``: a first-click rule's name, checked before any work."""
    parser.add_argument("--first-click", type=_first_click_option, default=default, help=help)


def _cell_argument(parser: argparse.ArgumentParser, flag: str, help: str) -> None:
    """``flag R,C``: a cell (0-based), none by default; written otherwise, a usage error before any work."""
    parser.add_argument(flag, default=None, metavar="R,C", type=_cell_option, help=help)


def _seed_argument(parser: argparse.ArgumentParser, help: str) -> None:
    """``--seed N``: a whole number >= 0, 0 by default."""
    parser.add_argument("--seed", type=_at_least(0), default=0, help=help)


def _workers_argument(parser: argparse.ArgumentParser) -> None:
    """``--workers N``: processes on this machine, 1 by default."""
    parser.add_argument("--workers", type=_at_least(1), default=1, help="processes (default 1)")


def _dask_arguments(parser: argparse.ArgumentParser, backend: str, address: str) -> None:
    """``--backend local|dask`` and ``--address``, the Dask scheduler's (helps: ``backend``, ``address``)."""
    parser.add_argument("--backend", choices=BACKENDS, default="local", help=backend)
    parser.add_argument("--address", default=None, help=address)


def _progress_argument(parser: argparse.ArgumentParser, help: str) -> None:
    """``--progress/--no-progress``: a progress bar; neither, one on a terminal (``_wants_progress``)."""
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None, help=help)


def _picture_arguments(parser: argparse.ArgumentParser, mines: str) -> None:
    """``--mines`` (help: ``mines``) and ``--skin``: what a picture of a game may need told."""
    parser.add_argument("--mines", type=int, default=None, help=mines)
    parser.add_argument("--skin", default=None, help=_SKIN_HELP)


_TOPOLOGY_HELP = (
    f"how cells touch: one of {', '.join(TOPOLOGIES)} (default square; a cube is n wide, 6n high)"
)


_SKIN_HELP = "with a picture: the client that drew it (default: every known one is tried)"
