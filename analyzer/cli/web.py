"""``analyzer web [FILE]``: the interactive board served to a browser."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from analyzer.cli.common import _CliError, _progress, _UsageError
from analyzer.cli.inputs import _check_skin, _is_picture_file
from analyzer.cli.options import _TOPOLOGY_HELP, _Commands, _picture_arguments, _port
from analyzer.errors import BoardParseError, GameError
from analyzer.names import PRESETS


def _add_web(sub: _Commands) -> None:
    """``analyzer web [FILE]``: a position, a game or a replay on a local web page."""
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
    _picture_arguments(
        web, mines="with a screenshot that shows no counter: its mine total (default: the client's preset)"
    )
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
    if picture:
        _check_skin(args.skin)
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
