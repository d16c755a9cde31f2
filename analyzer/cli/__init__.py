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

The package, by concern: each command's options are added (``_add_solve``, ...) beside the
function that runs it (``_cmd_solve``, ...), in :mod:`~analyzer.cli.solving` (``solve``,
``explain``), :mod:`~analyzer.cli.playing` (``simulate``, ``stats``, ``play``, ``optimal``),
:mod:`~analyzer.cli.replays` (``replay``), :mod:`~analyzer.cli.web` (``web``) and
:mod:`~analyzer.cli.tools` (``verify``, ``generate``, ``warmup``); :mod:`~analyzer.cli.parser`
puts them together in the order ``analyzer --help`` lists them. What several commands share is
written once: :mod:`~analyzer.cli.options` (the parser's one-line errors, the option types, the
options several commands take), :mod:`~analyzer.cli.inputs` (a board's text, a picture, a
layout) and :mod:`~analyzer.cli.common` (the command line's errors, checks, progress). Heavy
modules are imported inside the functions that use them, so that ``analyzer --help`` stays quick.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Sequence

from analyzer.cli.common import _USAGE_ERRORS, _CliError
from analyzer.cli.inputs import _read as _read
from analyzer.cli.options import DEFAULT_TIME_LIMIT, _usage_line
from analyzer.cli.parser import _parser as _parser
from analyzer.errors import AnalyzerError

__all__ = ["main", "DEFAULT_TIME_LIMIT"]


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
