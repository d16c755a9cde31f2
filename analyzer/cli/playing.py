"""Games: ``simulate`` (win rates), ``stats`` (random layouts' figures), ``play`` (a player on a layout)
and ``optimal`` (perfect play)."""

from __future__ import annotations

import argparse
import json
import sys
import time

from analyzer.cli.common import (
    _board_from_args,
    _check_address,
    _check_inside,
    _check_mines,
    _checked,
    _CliError,
    _keywords,
    _UsageError,
    _wants_progress,
)
from analyzer.cli.inputs import _load_layout
from analyzer.cli.options import (
    _TOPOLOGY_HELP,
    _at_least,
    _cell_argument,
    _Commands,
    _dask_arguments,
    _first_click_argument,
    _progress_argument,
    _seed_argument,
    _size_arguments,
    _workers_argument,
)
from analyzer.errors import OptionError
from analyzer.limits import plural
from analyzer.names import PLAYER_NAMES


def _add_simulate(sub: _Commands) -> None:
    """``analyzer simulate``: a player's win rate by Monte Carlo."""
    simulate = sub.add_parser("simulate", help="win rates of a player by Monte Carlo, on all cores or Dask")
    _size_arguments(simulate)
    simulate.add_argument("--topology", default="square", help=_TOPOLOGY_HELP)
    simulate.add_argument(
        "--player",
        default="probabilistic",
        help=f"one of {', '.join(PLAYER_NAMES)} (default probabilistic), with options as"
        " NAME:OPTION=VALUE,... (e.g. expert:score=secondary,margin=3/50,candidates=16)",
    )
    simulate.add_argument(
        "--games", type=_at_least(1), default=1000, metavar="N", help="games to play (default 1000)"
    )
    _first_click_argument(simulate, "safe", help="none, safe, opening or safe_zone:R (default safe)")
    simulate.add_argument(
        "--first-cell",
        default="player",
        help="R,C (0-based), corner, centre, random, or player: the player's own choice (default)",
    )
    _seed_argument(simulate, help="the same seed plays the same games (default 0)")
    _workers_argument(simulate)
    _dask_arguments(
        simulate,
        backend="local: processes on this machine (default); dask: a Dask cluster (see --address)",
        address="Dask scheduler address, for --backend dask",
    )
    simulate.add_argument(
        "--results", default=None, metavar="FILE", help="append batches as JSON lines; resume from them"
    )
    simulate.add_argument(
        "--batch-size",
        type=_at_least(1),
        default=None,
        metavar="N",
        help="games a task plays (default: the games split evenly, a few tasks a worker)",
    )
    simulate.add_argument(
        "--exact",
        action="store_true",
        help="play through the exact engine (Fractions) even where the player has a compiled form",
    )
    _progress_argument(simulate, help="progress bar (default: on a terminal)")
    simulate.set_defaults(run=_cmd_simulate)


def _cmd_simulate(args: argparse.Namespace) -> int:
    from analyzer.play.simulation import simulate

    width, height, mines = _board_from_args(args)
    _check_simulate_options(args, width, height, mines)
    result = simulate(
        width,
        height,
        mines,
        args.player,
        args.games,
        progress=_wants_progress(args),
        results_path=args.results,
        **_keywords(args, "first_click", "first_cell", "seed", "workers", "backend", "address"),
        **_keywords(args, "batch_size", "exact", "topology"),
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
    _check_address(args)


def _add_stats(sub: _Commands) -> None:
    """``analyzer stats``: 3BV, openings and islands of random layouts."""
    stats = sub.add_parser("stats", help="3BV, openings and islands of many random layouts")
    _size_arguments(stats)
    stats.add_argument(
        "--boards", type=_at_least(1), default=10_000, metavar="N", help="random layouts (default 10000)"
    )
    _first_click_argument(stats, "none", help="none (default), safe, opening or safe_zone:R")
    _cell_argument(stats, "--first-cell", help="for a first-click rule (default 0,0)")
    _seed_argument(stats, help="the same seed draws the same layouts (default 0)")
    _workers_argument(stats)
    stats.add_argument(
        "--histogram",
        choices=("bbbv", "openings", "islands"),
        default="bbbv",
        help="the metric whose histogram is drawn (default bbbv)",
    )
    stats.add_argument("--json", action="store_true", help="summary and histograms as JSON")
    stats.set_defaults(run=_cmd_stats)


def _cmd_stats(args: argparse.Namespace) -> int:
    from analyzer.play.metrics import METRICS, metrics_sample

    width, height, mines = _board_from_args(args)
    start = time.perf_counter()
    sample = metrics_sample(
        width, height, mines, args.boards, **_keywords(args, "first_click", "first_cell", "seed", "workers")
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


def _add_play(sub: _Commands) -> None:
    """``analyzer play --layout FILE``: a player's game on a layout, move by move."""
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
    _cell_argument(play, "--first-cell", help="reveal this cell first (default: the player's choice)")
    play.add_argument("--topology", default="square", help=_TOPOLOGY_HELP + " (layout text only)")
    _seed_argument(play, help="the player's randomness (default 0)")
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


def _cmd_play(args: argparse.Namespace) -> int:
    from analyzer.play.replay import replay

    game = _load_layout(args.layout, args.format, args.topology)
    if args.evf and game.topology != "square":
        raise _CliError("--evf writes square boards only (an EVF replay has no topology)")
    first = args.first_cell
    if first is not None:
        _check_inside(first, game.width, game.height, f"first cell {first!r}")
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


def _add_optimal(sub: _Commands) -> None:
    """``analyzer optimal``: the exact win probability under perfect play."""
    best = sub.add_parser("optimal", help="exact win probability under perfect play on a small board")
    _size_arguments(best, required=True)
    best.add_argument(
        "--first-click", default="safe", help="none, safe (default) or opening: the first-click rule"
    )
    _cell_argument(best, "--first-cell", help="R,C (0-based); default: every cell, the best reported")
    best.add_argument(
        "--players",
        default=None,
        metavar="NAMES",
        help="comma-separated players whose exact win rate to add (at --first-cell, or a random first cell;"
        f" default none): {', '.join(PLAYER_NAMES)}",
    )
    best.add_argument("--json", action="store_true", help="exact fractions as JSON")
    best.set_defaults(run=_cmd_optimal)


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
    if first is not None:
        _check_inside(first, args.width, args.height, f"--first-cell {first[0]},{first[1]}", _UsageError)
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
