"""The one-step worth of another player's guesses over ours: where they guess otherwise, and by how much.

    python -m benchmarks.one_step --player SPEC --games 2000 --seed 14 --layouts 100 \\
        --workers 2 (--hill-classes DIR | --against SPEC)

1. Our player (``--player``) plays games 0 to ``--games``-1 of the setup (the layouts
   ``race-hill`` hands Hill's solver) with the compiled engine, and the position before each of
   its guesses after the first click is kept.
2. The other player is asked its move in each position: David Hill's solver (the bulk runner's
   settings, through the driver's ``PositionMoves``; built by ``scripts/build_hill.sh DEST``,
   nothing of it kept here), or with ``--against`` a variant of ours (``probabilistic`` or
   ``expert`` with options).
3. Where the two moves differ, each is played, and the game finished by our player, on
   ``--layouts`` layouts drawn uniformly among those the position allows (the same layouts for
   both moves, drawn from the seed, the game and the guess: any number of workers gives the same
   figures). The share of those layouts won after their move minus the share won after ours is
   the one-step worth of their choice in that position.

The table sums these by kind of position and divides by the games: how many points a game their
choices of single guesses are worth over ours, each followed by our play, with a 95 % interval
over the games (a game's term is the sum over its positions). Far more sensitive than whole games
(``python -m benchmarks.games paired``), since only the positions where the two differ count and
each is played on many layouts; but one step only: a rule that is better at every step is not
thereby measured over a whole game. Kinds, from our engine's probabilities of the position: an
end game of at most 400 layouts (where Hill's solver searches exhaustively); they take a cell of
probability 1/2 where ours is safer (a 50/50 taken early); the two cells equally likely to be
mines; theirs riskier; theirs safer.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.games import (
    PRESETS,
    _add_setup_arguments,
    _checked_setup,
    driver_answers,
    parse_variant,
    run_jvms,
    setup_layouts,
)

HILL_ENDGAME = 400
"""Hill's bulk settings (``SMALL_ANALYSIS``) search the whole game tree up to this many layouts."""

KINDS = (
    f"end game (at most {HILL_ENDGAME} layouts)",
    "theirs a 50/50, ours safer",
    "the same probability",
    "theirs riskier",
    "theirs safer",
)


@dataclass(frozen=True)
class Position:
    """The position before one of our player's guesses: game ``game``, its ``guess``-th guessed cell."""

    game: int
    guess: int
    shown: Any  # numpy int8: numbers, -1 hidden
    ours: int
    mines: tuple[int, ...]


@dataclass(frozen=True)
class Worth:
    """One position where the moves differ, each followed by our play on the same ``layouts``."""

    game: int
    guess: int
    kind: str
    ours: int
    theirs: int
    ours_won: int
    theirs_won: int
    layouts: int


def _context(player: str, preset: str) -> tuple[str, Any, Any, Any, int]:
    """The compiled policy's name, options and patterns for ``player``; the board's neighbours and mines."""
    from analyzer.play import fast
    from analyzer.play.players import make_player
    from analyzer.play.players.expert import ExpertPlayer

    name, options = parse_variant(player)
    made = make_player(name, **options)
    width, height, mines = PRESETS[preset]
    nbr = fast.neighbours_of("square", width, height)
    params = fast.expert_params(made) if isinstance(made, ExpertPlayer) else None
    uses = params is not None and fast.uses_patterns(params)
    patterns = fast.fifty_fifty_patterns("square", width, height) if uses else None
    return name, params, patterns, nbr, mines


def our_positions(
    player: str, preset: str, first_click: str, first_cell: tuple[int, int], games: int, *, seed: int = 0
) -> tuple[list[Position], list[bool]]:
    """Our player's positions before each guess after the first click, and its wins, game by game."""
    import numpy as np

    from analyzer.play import fast

    name, params, patterns, nbr, _ = _context(player, preset)
    width = PRESETS[preset][0]
    cells = nbr.shape[0]
    first = first_cell[0] * width + first_cell[1]
    positions: list[Position] = []
    wins = []
    record = np.empty((cells + 1, cells), dtype=np.int8)
    for game, mines in enumerate(setup_layouts(preset, first_click, first_cell, games, seed=seed)):
        mask = np.zeros(cells, dtype=np.bool_)
        mask[mines] = True
        played = fast.play_game(
            name, mask, nbr, first, first_is_guess=False, params=params, patterns=patterns, positions=record
        )
        if played is None:
            raise RuntimeError(f"game {game}: a position was too hard for the compiled engine")
        won, _, _, guessed = played
        wins.append(won)
        for t in range(1, min(len(guessed), cells + 1)):
            positions.append(Position(game, t, record[t].copy(), guessed[t], tuple(mines)))
    return positions, wins


def _shown_text(shown: Any) -> str:
    return "".join("H" if v < 0 else str(int(v)) for v in shown)


def run_hill_moves(
    classes: str, preset: str, first_cell: tuple[int, int], positions: Sequence[Position], workers: int
) -> list[int]:
    """Hill's move (a cell) in each position, asked of ``workers`` JVMs running ``hilldrv.PositionMoves``."""
    width, height, mines = PRESETS[preset]
    header = f"{width} {height} {mines} {first_cell[0]} {first_cell[1]}\n"
    lines = [f"{k} {_shown_text(p.shown)} {' '.join(map(str, p.mines))}\n" for k, p in enumerate(positions)]
    moves: dict[int, int] = {}
    for key, cell in driver_answers(run_jvms(classes, "hilldrv.PositionMoves", header, lines, workers)):
        if cell == "mismatch":
            raise RuntimeError(f"Hill's game did not reach position {key}: clicks and layout disagree")
        moves[int(key)] = int(cell)
    if sorted(moves) != list(range(len(positions))):
        raise RuntimeError(f"Hill's solver answered {len(moves)} of {len(positions)} positions")
    return [moves[k] for k in range(len(positions))]


def variant_moves(player: str, preset: str, positions: Sequence[Position]) -> list[int]:
    """The move of ``player`` (``probabilistic`` or ``expert`` with options) in each position; ours
    where a position was too hard for it to enumerate."""
    from analyzer.play import fast

    name, params, patterns, nbr, mines = _context(player, preset)
    moves = []
    for p in positions:
        cell = fast.guess_in(name, p.shown, nbr, mines, params=params, patterns=patterns)
        moves.append(p.ours if cell < 0 else cell)
    return moves


def kind_of(position: Position, theirs: int, nbr: Any, mines: int) -> str:
    """Which of :data:`KINDS` the position and the two moves are (our engine's probabilities)."""
    import math

    import numpy as np

    from analyzer.play.fast.probabilities import DEFAULT_MAX_NODES, probabilities

    prob = np.empty(nbr.shape[0])
    info = np.zeros(1)
    probabilities(position.shown, nbr, mines, prob, DEFAULT_MAX_NODES, info)
    ours, other = prob[position.ours], prob[theirs]
    if math.exp(info[0]) <= HILL_ENDGAME + 0.5:
        return KINDS[0]
    if abs(other - 0.5) < 1e-9 and ours < other - 1e-9:
        return KINDS[1]
    if abs(other - ours) < 1e-9:
        return KINDS[2]
    return KINDS[3] if other > ours else KINDS[4]


def _worth_chunk(
    args: tuple[str, str, int, int, list[tuple[Position, int]]],
) -> list[tuple[Position, int, int, int, int]]:
    """Each (position, their move) played both ways on the same drawn layouts: (position, move, ours won,
    theirs won, layouts)."""
    import numpy as np

    from analyzer.play import fast

    player, preset, layouts, seed, items = args
    name, params, patterns, nbr, mines = _context(player, preset)
    out = []
    for position, theirs in items:
        rng = np.random.default_rng([seed, position.game, position.guess])
        drawn = fast.position_layouts(position.shown, nbr, mines, layouts, rng)
        ours_won = theirs_won = used = 0
        for mask in drawn:
            results = [
                fast.play_game(
                    name,
                    mask,
                    nbr,
                    cell,
                    first_is_guess=True,
                    params=params,
                    patterns=patterns,
                    start=position.shown,
                )
                for cell in (position.ours, theirs)
            ]
            if results[0] is None or results[1] is None:
                continue  # too hard for the compiled engine: left out for both moves
            used += 1
            ours_won += results[0][0]
            theirs_won += results[1][0]
        out.append((position, theirs, ours_won, theirs_won, used))
    return out


def one_step_worth(
    player: str,
    preset: str,
    positions: Sequence[Position],
    moves: Sequence[int],
    *,
    layouts: int,
    seed: int = 0,
    workers: int = 1,
    progress: bool = False,
) -> list[Worth]:
    """The positions where their move differs from ours, each move's wins on the same drawn layouts
    (with ``progress``, a bar on standard error)."""
    from concurrent.futures import ProcessPoolExecutor

    _, _, _, nbr, mines = _context(player, preset)
    differ = [(p, m) for p, m in zip(positions, moves, strict=True) if m != p.ours]
    chunks = [(player, preset, layouts, seed, differ[k : k + 20]) for k in range(0, len(differ), 20)]
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(differ), unit="position", desc="both moves played on", file=sys.stderr)
    done = []
    with ProcessPoolExecutor(workers) if workers > 1 else contextlib.nullcontext() as pool:
        for rows in pool.map(_worth_chunk, chunks) if pool is not None else map(_worth_chunk, chunks):
            done.extend(rows)
            if bar is not None:
                bar.update(len(rows))
    if bar is not None:
        bar.close()
    return [
        Worth(p.game, p.guess, kind_of(p, theirs, nbr, mines), p.ours, theirs, ours_won, theirs_won, used)
        for p, theirs, ours_won, theirs_won, used in done
    ]


def worth_table(worths: Sequence[Worth], games: int, positions: int) -> str:
    """The one-step worth of their choices by kind, in points a game with a 95 % interval over the games."""
    z = 1.959963984540054
    lines = [
        "| kind | positions | their move's worth over ours, points a game (95 %) |",
        "|---|---:|---:|",
    ]
    first = "of all: the first guess after the first click"
    for kind in (*KINDS, "all", first):
        per_game = [0.0] * games
        count = 0
        for w in worths:
            if (kind in ("all", w.kind) or kind == first and w.guess == 1) and w.layouts:
                per_game[w.game] += (w.theirs_won - w.ours_won) / w.layouts
                count += 1
        mean = sum(per_game) / games
        spread = (sum((g - mean) ** 2 for g in per_game) / max(games - 1, 1) / games) ** 0.5
        lines.append(f"| {kind} | {count} | {100 * mean:+.3f} ± {100 * z * spread:.3f} |")
    lines.append(f"| (moves alike) | {positions - len(worths)} | |")
    return "\n".join(lines)


def one_step(
    player: str,
    preset: str,
    first_click: str,
    first_cell: tuple[int, int],
    games: int,
    *,
    classes: str,
    layouts: int = 100,
    seed: int = 0,
    workers: int = 1,
    against: str | None = None,
    peer: Callable[[Sequence[Position]], list[int]] | None = None,
    progress: bool = False,
    rows: Path | None = None,
) -> str:
    """The whole study (see the module's doc) as a Markdown table.

    The other player: ``against`` (a variant of ours), else ``peer`` (positions to moves: tests), else
    Hill's solver from ``classes``. ``rows``: a CSV file to write each position where the moves
    differ into (game, guess, kind, the two cells, the layouts won after each, layouts).
    """
    positions, wins = our_positions(player, preset, first_click, first_cell, games, seed=seed)
    if against is not None:
        moves = variant_moves(against, preset, positions)
    elif peer is not None:
        moves = peer(positions)
    else:
        moves = run_hill_moves(classes, preset, first_cell, positions, workers)
    worths = one_step_worth(
        player, preset, positions, moves, layouts=layouts, seed=seed, workers=workers, progress=progress
    )
    if rows is not None:
        import csv

        with rows.open("w", newline="") as out:
            table = csv.writer(out)
            table.writerow(["game", "guess", "kind", "ours", "theirs", "ours_won", "theirs_won", "layouts"])
            for w in worths:
                table.writerow(
                    [w.game, w.guess, w.kind, w.ours, w.theirs, w.ours_won, w.theirs_won, w.layouts]
                )
    head = (
        f"ours won {sum(wins)} of {games} games; {len(positions)} guesses after the first click,"
        f" theirs elsewhere in {len(worths)}; each followed by ours on {layouts} layouts"
    )
    return head + "\n\n" + worth_table(worths, games, len(positions))


def _usage_error(text: str) -> int:
    print(f"one_step: error: {text}", file=sys.stderr)
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    """The command line of ``python -m benchmarks.one_step``."""
    import os

    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.one_step", description=__doc__.splitlines()[0]
    )
    parser.add_argument(
        "--player",
        default="expert:score=blended,margin=1/10,candidates=32,endgame_layouts=255,dead=wait,"
        "pseudo=chains,alike=once,longterm=9/10",
    )
    _add_setup_arguments(parser, games=2000)
    parser.add_argument("--layouts", type=int, default=100, help="layouts drawn per position (default 100)")
    parser.add_argument("--rows", type=Path, help="a CSV file for each position where the moves differ")
    other = parser.add_mutually_exclusive_group()
    other.add_argument("--against", help="a variant of ours as the other player (probabilistic or expert)")
    other.add_argument(
        "--hill-classes", help="the classes scripts/build_hill.sh built (default: HILL_CLASSES)"
    )
    args = parser.parse_args(argv)
    cell = _checked_setup(
        [args.player] + ([args.against] if args.against else []), args.first_cell, args.games
    )
    if cell is None:
        return 2
    if parse_variant(args.player)[0] not in ("probabilistic", "expert"):  # pseq draws among ties
        return _usage_error("the player needs a compiled policy that draws nothing: probabilistic or expert")
    if args.against and parse_variant(args.against)[0] not in ("probabilistic", "expert"):
        return _usage_error("--against takes probabilistic or expert (with options)")
    if args.layouts < 1:
        return _usage_error(f"--layouts must be at least 1, not {args.layouts}")
    classes = args.hill_classes or os.environ.get("HILL_CLASSES")
    if not classes and not args.against:
        return _usage_error(
            "name the other player: --against SPEC, or Hill's built classes with --hill-classes or"
            " HILL_CLASSES (scripts/build_hill.sh DEST builds them)"
        )
    width, height, mines = PRESETS[args.preset]
    print(
        f"{args.preset} {width}x{height}/{mines}, {args.first_click} first click at {cell}, games 0 to"
        f" {args.games - 1} of seed {args.seed}; ours: {args.player};"
        f" theirs: {args.against or 'Hill, ' + str(classes)}"
    )
    try:
        table = one_step(
            args.player,
            args.preset,
            args.first_click,
            cell,
            args.games,
            classes=classes or "",
            layouts=args.layouts,
            seed=args.seed,
            workers=args.workers,
            against=args.against,
            progress=True,
            rows=args.rows,
        )
    except (OSError, RuntimeError) as error:  # no java, classes that are not the driver's, a game too hard
        print(f"one_step: error: {error}", file=sys.stderr)
        return 1
    print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
