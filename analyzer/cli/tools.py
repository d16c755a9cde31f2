"""``generate`` (layouts as files), ``verify`` (the symbolic checks) and ``warmup`` (the compiled kernels)."""

from __future__ import annotations

import argparse
import os

from analyzer.cli.common import _board_from_args
from analyzer.cli.options import (
    _at_least,
    _cell_argument,
    _Commands,
    _first_click_argument,
    _seed_argument,
    _size_arguments,
)
from analyzer.limits import plural
from analyzer.names import CHECK_NAMES


def _add_verify(sub: _Commands) -> None:
    """``analyzer verify``: the symbolic checks of the engine's formulas."""
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


def _add_generate(sub: _Commands) -> None:
    """``analyzer generate``: random or no-guess layouts written as files."""
    generate = sub.add_parser(
        "generate", help="random or no-guess layouts as MBF files (and .mine positions after the first click)"
    )
    _size_arguments(generate)
    generate.add_argument("--count", type=_at_least(1), default=1, help="layouts to write (default 1)")
    _first_click_argument(generate, "none", help="none (default), safe, opening or safe_zone:R")
    generate.add_argument(
        "--no-guess", action="store_true", help="only layouts won from the first click by deduction alone"
    )
    _cell_argument(generate, "--first-cell", help="the first click (default: corner for safe, else centre)")
    _seed_argument(generate, help="the same seed writes the same files (default 0)")
    generate.add_argument(
        "--output", required=True, metavar="DIR", help="folder to write into (made if missing)"
    )
    generate.add_argument("--name", default=None, help="file name stem (default: board, rule and seed)")
    generate.set_defaults(run=_cmd_generate)


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


def _add_warmup(sub: _Commands) -> None:
    """``analyzer warmup``: every numba kernel compiled into the cache."""
    warmup = sub.add_parser(
        "warmup",
        help="compile every numba kernel now (the set-up does it; later runs load them cached)",
        description="Compile the package's numba kernels into numba's cache (beside their sources), on"
        " every core, so that the first solve or simulation does not stop to compile. `make setup` runs it"
        " once; run it again after changing a kernel's source. Kernels already cached are only loaded.",
    )
    warmup.set_defaults(run=_cmd_warmup)


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
