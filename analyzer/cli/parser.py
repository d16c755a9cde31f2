"""The command line's parser: the top level, then each command's own (added beside the code that runs it)."""

from __future__ import annotations

import argparse

from analyzer._version import __version__
from analyzer.cli.options import _Parser
from analyzer.cli.playing import _add_optimal, _add_play, _add_simulate, _add_stats
from analyzer.cli.replays import _add_replay
from analyzer.cli.solving import _add_explain, _add_solve
from analyzer.cli.tools import _add_generate, _add_verify, _add_warmup
from analyzer.cli.web import _add_web


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="analyzer", description="Exact statistics of Minesweeper.")
    version = f"%(prog)s {__version__} (minesweeper-analyzer)"
    parser.add_argument("--version", action="version", version=version)
    sub = parser.add_subparsers(dest="command", required=True)

    for add in (
        _add_solve,
        _add_explain,
        _add_simulate,
        _add_stats,
        _add_play,
        _add_optimal,
        _add_verify,
        _add_generate,
        _add_replay,
        _add_web,
        _add_warmup,
    ):
        add(sub)
    for listed in sub._choices_actions:  # a command's own --help opens with its one-line summary
        command = sub.choices[listed.dest]
        if command.description is None and listed.help:
            command.description = listed.help[0].upper() + listed.help[1:] + "."
        command.set_defaults(parser=command)  # whose usage errors are reported as the command's
    return parser
