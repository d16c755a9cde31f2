"""Win-rate studies and game speed: ``python -m benchmarks.games speed|reproduce``.

``speed``
    Games per second of each player on each preset (safe first click in the
    corner), in one process: the median over ``--repeats`` runs of ``--games``
    games (fewer for the slow players: see ``--help``).
``race``
    CPU milliseconds per game of a player against the C++ peer MineSweeperProb
    (PSEQ), side by side in the same run on the same setups: the three presets
    with a safe first click in the corner and with an opening at the peer's
    cell (its ``@[3,3]`` on 9x9 and 16x16 is our (2, 2), ``@[4,4]`` on 30x16 our
    (3, 3)). The peer runs when the environment variable ``MSP_BINARY`` names a
    built ``MineSweeperSolver`` (built by whoever runs the benchmark; nothing of
    it is kept here); its CPU time is that of its worker process.
``race-minesolve``
    Win rate and CPU milliseconds per game of a player against minesolve
    (totte174/minesolve, C, depth-d game-tree search), side by side in the same
    run on expert. minesolve chooses its own first click (on the empty expert
    board it names (0, 0), which the benchmark checks) and, when a mine is
    there, moves it to a random other cell: uniform over the layouts with (0, 0)
    safe, which is our ``safe`` rule with the first click at (0, 0). The binary
    is named by ``MINESOLVE_BINARY`` (built by whoever runs the benchmark from
    the public repository with ``cmake -B build && make -C build``; nothing of
    it is kept here); its CPU time is that of its process, and its games come
    from its own C ``rand()``, seeded from the clock.
``race-hill``
    A player and David Hill's Java solver (DavidNHill/Minesweeper, the bulk
    runner's settings: ``SMALL_ANALYSIS``, no flags) on the same games: games
    0 to ``--games``-1 of one setup and seed, the layouts handed to Hill's
    solver by the driver in ``benchmarks/peers/hill`` (ours, calling its API).
    Hill's solver opens the first cell given; the table gives both win rates,
    CPU ms a game (Hill's: its JVMs' whole CPU time) and Hill's difference to
    ours with a 95 % interval from the paired games. The solver is built by
    whoever runs the benchmark with ``scripts/build_hill.sh DEST`` (a clone of
    the public repository compiled in ``DEST``; nothing of it is kept here),
    and named by ``--hill-classes`` or ``HILL_CLASSES``.
``paired``
    Variants of a player (``name`` or ``name:option=value,...``, e.g.
    ``expert:score=secondary``) on the same games: each plays games 0 to
    ``--games``-1 of one setup with one seed, so the same layouts. The table
    gives each variant's win rate (95 % Wilson interval), its CPU ms a game,
    and its difference to the first variant with a 95 % interval from the
    paired outcomes (the games one won and the other lost), far narrower than
    the two rates' own intervals when the variants mostly play alike.
``summarize``
    The 10^6-game runs of ``scripts/fast_win_rates.sh`` (``results/win_rates/NAME/SETUP.jsonl``,
    ``NAME`` a player's folder) against PSEQ's published table; with ``--players a,b,...`` one row a setup
    for all of them, and each player's difference to the first on the batches
    both played (the same games), with a 95 % interval from the batches'
    differences.
``reproduce``
    The three studies of ``docs/win_rates.md``, written there as Markdown
    tables (and ``docs/win_rates_4x4.png``):

    1. Safe zone: 10x10 with 10 mines, a random first click, safe zone of
       radius 1 to 4, players ``local``, ``probabilistic`` and ``expert``.
    2. Mine density on a 4x4 board (1 to 15 mines, safe random first click),
       players ``random``, ``local``, ``subset`` and ``probabilistic``.
    3. The presets under ``safe`` with the first click in the corner (0, 0)
       and under ``opening`` with the first click at row 3, column 3, players
       ``local``, ``subset``, ``probabilistic`` and ``expert``.

    Game counts: ``--games`` for ``random``/``local``/``subset``,
    ``--games-solver`` for ``probabilistic``, ``--games-expert`` for ``expert``
    (halved on the expert preset, whose games take longest). Every batch goes to
    ``--results`` (JSON lines) as it finishes: an interrupted run started again
    with the same options carries on where it stopped.

Every figure states the games it used; published figures are the ones the
project quotes.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from analyzer.play.simulation import PRESETS, WinRate, simulate

__all__ = ["Run", "plan", "run_plan", "to_markdown", "speed", "main"]

_DOCS = Path(__file__).resolve().parent.parent / "results"
_FAST = ("random", "local", "subset")


@dataclass(frozen=True, slots=True)
class Run:
    """One configuration of a study: what to play, how many games, what was published."""

    study: str
    label: str
    width: int
    height: int
    mines: int
    first_click: str
    first_cell: str
    player: str
    games: int
    published: float | None = None
    source: str = ""


SAFE_ZONE_PUBLISHED = {1: 91.85, 2: 90.73, 3: 86.79, 4: 79.62}
"""Win rates (%) of a single-number-rule player, 10x10/10, by safe-zone radius (as published)."""

PSEQ = {
    ("beginner", "safe"): 91.6775,
    ("intermediate", "safe"): 78.1228,
    ("expert", "safe"): 39.6158,
    ("beginner", "opening"): 96.8457,
    ("intermediate", "opening"): 88.7111,
    ("expert", "opening"): 52.7838,
}
"""PSEQ win rates (%) from MineSweeperProb's repository README (5x10^8 games a beginner cell,
2x10^8 intermediate, 10^8 to 2x10^8 expert): safe first click in the corner (its SFAR ``@[1,1]``),
or an opening at our 0-based (3, 3), its SNR ``@[4,4]`` (per-first-click tables). These studies
click (3, 3); the peer's best opening cell on 9x9 and 16x16 is ``@[3,3]``, our (2, 2)."""

PSEQ_HEADLINE = {
    "beginner-safe": (91.6775, 0.0024),
    "intermediate-safe": (78.1228, 0.0057),
    "expert-safe": (39.6158, 0.0068),
    "beginner-opening": (97.1453, 0.0015),
    "intermediate-opening": (88.9267, 0.0043),
    "expert-opening": (52.7838, 0.0069),
}
"""PSEQ (%, with the 95% half-width) on the setups of ``scripts/fast_win_rates.sh``, from
MineSweeperProb's README: SFAR ``@[1,1]``; SNR ``@[3,3]`` (our (2, 2)) on 9x9 and 16x16 and
``@[4,4]`` (our (3, 3)) on 30x16."""


def _results_file(folder: Path, player: str, setup: str) -> Path:
    """The results file of one player (its folder's name) on one setup (``expert-safe``...)."""
    return folder / player / f"{setup}.jsonl"


def _tally(path: Path) -> tuple[int, int]:
    """``(wins, games)`` summed over a results file (0, 0 when there is none)."""
    import json

    wins = games = 0
    if not path.exists():
        return 0, 0
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut short by an interrupted run
        wins += entry["wins"]
        games += entry["stop"] - entry["start"]
    return wins, games


def compare(folder: Path, players: Sequence[str]) -> str:
    """One Markdown row a setup: each player's win % (95% CI) and games, then PSEQ's published rate."""
    from analyzer.play.simulation import wilson_interval

    lines = [
        "| setup | " + " | ".join(f"`{player}`" for player in players) + " | PSEQ (MineSweeperProb) |",
        "|---|" + "---|" * len(players) + "---:|",
    ]
    for name, (published, half) in PSEQ_HEADLINE.items():
        cells = []
        for player in players:
            wins, games = _tally(_results_file(folder, player, name))
            if not games:
                cells.append("not run")
                continue
            low, high = wilson_interval(wins, games)
            count = f"10^{len(str(games)) - 1}" if str(games).strip("0") == "1" else f"{games:,}"
            cells.append(f"{100 * wins / games:.2f} ({100 * low:.2f}-{100 * high:.2f}), {count} games")
        lines.append(f"| {name} | " + " | ".join(cells) + f" | {published} ± {half} |")
    paired = [row for name in PSEQ_HEADLINE for row in _batch_differences(folder, players, name)]
    if paired:
        lines += [
            "",
            f"Each player against `{players[0]}` on the batches both played (the same games: same seed and"
            " game numbers), the 95 % interval from the batches' differences:",
            "",
            "| setup | player | games in common | difference (points, 95 %) |",
            "|---|---|---:|---:|",
            *paired,
        ]
    return "\n".join(lines)


def _batches(path: Path) -> dict[tuple[int, int, int], int]:
    """A results file's batches: (seed, start, stop) to wins (empty when there is no file)."""
    import json

    found: dict[tuple[int, int, int], int] = {}
    if not path.exists():
        return found
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut short by an interrupted run
        found[(entry["setup"]["seed"], entry["start"], entry["stop"])] = entry["wins"]
    return found


def _batch_differences(folder: Path, players: Sequence[str], name: str) -> list[str]:
    """Rows of each later player's difference to the first on their common batches of one setup
    (at least 30 batches, else no row)."""
    first = _batches(_results_file(folder, players[0], name))
    rows = []
    for player in players[1:]:
        other = _batches(_results_file(folder, player, name))
        common = sorted(set(first) & set(other))
        if len(common) < 30:
            continue
        shares = [(other[k] - first[k]) / (k[2] - k[1]) for k in common]
        games = sum(k[2] - k[1] for k in common)
        mean = sum(other[k] - first[k] for k in common) / games
        half = 1.959963984540054 * statistics.stdev(shares) / len(shares) ** 0.5
        rows.append(f"| {name} | `{player}` | {games:,} | {100 * mean:+.3f} ± {100 * half:.3f} |")
    return rows


def summarize(folder: Path, player: str) -> str:
    """A Markdown table of the runs in ``folder`` (``scripts/fast_win_rates.sh``) against PSEQ's table."""
    from analyzer.play.simulation import wilson_interval

    lines = [
        f"| `{player}`, setup | games | wins | ours, % (95% CI) | PSEQ, % (MineSweeperProb) "
        "| PSEQ inside ours? |",
        "|---|---:|---:|---|---|---|",
    ]
    for name, (published, half) in PSEQ_HEADLINE.items():
        path = _results_file(folder, player, name)
        if not path.exists():
            lines.append(f"| {name} | 0 | - | not run | {published} ± {half} | - |")
            continue
        wins, games = _tally(path)
        if not games:
            lines.append(f"| {name} | 0 | - | not run | {published} ± {half} | - |")
            continue
        low, high = wilson_interval(wins, games)
        inside = "yes" if 100 * low <= published <= 100 * high else "no"
        lines.append(
            f"| {name} | {games:,} | {wins:,} | {100 * wins / games:.3f} ({100 * low:.3f}-{100 * high:.3f}) "
            f"| {published} ± {half} | {inside} |"
        )
    return "\n".join(lines)


JSMINESWEEPER = {("expert", "safe"): 41.1, ("expert", "opening"): 54.3}
"""JSMinesweeper's expert win rates (%), as published."""


def plan(
    games: int,
    games_solver: int,
    games_expert: int,
    *,
    solver_on_expert: int | None = None,
    expert_on_expert: int | None = None,
) -> list[Run]:
    """The runs of the three studies with these game counts (see the module notes).

    ``solver_on_expert`` and ``expert_on_expert`` set the games of the
    ``probabilistic`` and ``expert`` players on the expert preset (default
    ``games_solver`` and ``games_expert // 2``).

    >>> runs = plan(100, 50, 20)
    >>> len(runs), sorted({run.study for run in runs})
    (96, ['density_4x4', 'presets', 'safe_zone'])
    >>> sorted({run.games for run in runs if run.label.startswith("expert")})
    [10, 50, 100]
    """

    def count(player: str, preset: str = "") -> int:
        if player in _FAST:
            return games
        if player == "probabilistic":
            if preset == "expert" and solver_on_expert is not None:
                return solver_on_expert
            return games_solver
        if preset == "expert":
            return max(1, games_expert // 2) if expert_on_expert is None else expert_on_expert
        return games_expert

    runs = []
    for player in ("local", "probabilistic", "expert"):
        for radius in (1, 2, 3, 4):
            published = SAFE_ZONE_PUBLISHED[radius] if player == "local" else None
            runs.append(
                Run(
                    "safe_zone",
                    f"radius {radius}",
                    10,
                    10,
                    10,
                    f"safe_zone:{radius}",
                    "random",
                    player,
                    count(player),
                    published,
                    "published" if published is not None else "",
                )
            )
    for player in ("random", "local", "subset", "probabilistic"):
        for mines in range(1, 16):
            runs.append(
                Run("density_4x4", f"{mines} mines", 4, 4, mines, "safe", "random", player, count(player))
            )
    for rule, cell in (("safe", "0,0"), ("opening", "3,3")):
        for preset, (w, h, m) in PRESETS.items():
            for player in ("local", "subset", "probabilistic", "expert"):
                published, source = None, ""
                if player in ("probabilistic", "expert"):
                    published, source = PSEQ[(preset, rule)], "PSEQ"
                runs.append(
                    Run(
                        "presets",
                        f"{preset} {rule} {cell}",
                        w,
                        h,
                        m,
                        rule,
                        cell,
                        player,
                        count(player, preset),
                        published,
                        source,
                    )
                )
    return runs


def run_plan(
    runs: Sequence[Run],
    *,
    seed: int = 0,
    workers: int = 1,
    results_path: str | Path | None = None,
    log: Any = None,
) -> list[tuple[Run, WinRate, float]]:
    """Simulate every run; returns ``(run, result, wall seconds)`` (wall ~0 when read back from the file)."""
    out = []
    for number, run in enumerate(runs, 1):
        start = time.perf_counter()
        result = simulate(
            run.width,
            run.height,
            run.mines,
            run.player,
            run.games,
            first_click=run.first_click,
            first_cell=run.first_cell,
            seed=seed,
            workers=workers,
            results_path=results_path,
        )
        wall = time.perf_counter() - start
        if log is not None:
            print(
                f"[{number}/{len(runs)}] {run.study} {run.label} {run.player}: {result} ({wall:.1f} s)",
                file=log,
            )
            log.flush()
        out.append((run, result, wall))
    return out


def _percent(result: WinRate) -> str:
    low, high = result.interval
    return f"{100 * result.rate:.2f} ({100 * low:.2f}-{100 * high:.2f})"


def to_markdown(results: Sequence[tuple[Run, WinRate, float]], *, command: str, seed: int) -> str:
    """The tables of ``docs/win_rates.md``."""
    lines = [
        "# Win rates",
        "",
        f"Produced by `{command}` (seed {seed}); every row states the games it used.",
        "Win rates in percent with the Wilson 95% interval in brackets; `guesses` is the mean",
        "number of reveals per game the player could not prove safe (a protected first click",
        "is not a guess); `ms/game` is the time one process spent per game on the machine",
        "that ran it. Game `i` of a configuration is the same layout for every player (same",
        "seed, same first cell): differences between players are sharper than their separate",
        "intervals suggest.",
        "",
    ]
    by_study: dict[str, list[tuple[Run, WinRate, float]]] = {}
    for entry in results:
        by_study.setdefault(entry[0].study, []).append(entry)

    if "safe_zone" in by_study:
        lines += [
            "## 1. Safe zone: 10x10, 10 mines, random first click",
            "",
            "Every cell within Chebyshev distance R of the (uniformly random) first click is",
            "mine-free. The players see the board only: none of them uses the fact that hidden",
            "cells of the zone (distance 2 or more) are safe.",
            "",
            "| radius | player | games | win % (95% CI) | published % | guesses | ms/game |",
            "|---|---|---:|---|---:|---:|---:|",
        ]
        for run, result, _ in by_study["safe_zone"]:
            pub = f"{run.published:.2f}" if run.published is not None else ""
            lines.append(
                f"| {run.label.split()[-1]} | {run.player} | {result.games} | {_percent(result)} | {pub} "
                f"| {result.mean_guesses:.2f} | {1000 * result.seconds_per_game:.1f} |"
            )
        lines += ["", "Published figures for a player using the two single-number rules.", ""]

    if "density_4x4" in by_study:
        entries = by_study["density_4x4"]
        players = list(dict.fromkeys(run.player for run, _, _ in entries))
        lines += [
            "## 2. Win rate against mine density, 4x4",
            "",
            "Safe first click on a uniformly random cell. Each cell: win % (95% CI);",
            f"games per cell: {', '.join(f'{p} {_games(entries, p)}' for p in players)}.",
            "",
            "| mines | " + " | ".join(players) + " |",
            "|---:|" + "---|" * len(players),
        ]
        table: dict[int, dict[str, WinRate]] = {}
        for run, result, _ in entries:
            table.setdefault(run.mines, {})[run.player] = result
        for mines, row in sorted(table.items()):
            lines.append(
                f"| {mines} | " + " | ".join(_percent(row[p]) if p in row else "" for p in players) + " |"
            )
        lines += ["", "![win rate against mines on 4x4](win_rates_4x4.png)", ""]

    if "presets" in by_study:
        lines += [
            "## 3. Presets",
            "",
            "`safe 0,0`: the first click is safe and made in the top-left corner; `opening 3,3`:",
            "the first click (row 3, column 3, 0-based) is a zero. Published: PSEQ from",
            "MineSweeperProb's repository README (5x10^8 games a beginner cell, 10^8 to 2x10^8",
            "the others), its SFAR `@[1,1]` and, for our (3, 3), its SNR `@[4,4]` per-cell",
            "figures; JSMinesweeper on expert 41.1% (safe corner) and 54.3% (opening).",
            "",
            "| board | rule | player | games | win % (95% CI) | published % | guesses | ms/game |",
            "|---|---|---|---:|---|---|---:|---:|",
        ]
        for run, result, _ in by_study["presets"]:
            preset, rule, cell = run.label.split()
            pub = ""
            if run.published is not None:
                pub = f"{run.published:.2f} PSEQ"
                js = JSMINESWEEPER.get((preset, rule))
                if js is not None:
                    pub += f", {js:.1f} JSMinesweeper"
            lines.append(
                f"| {preset} {run.width}x{run.height}/{run.mines} | {rule} {cell} | {run.player} | "
                f"{result.games} | {_percent(result)} | {pub} | {result.mean_guesses:.2f} "
                f"| {1000 * result.seconds_per_game:.1f} |"
            )
        lines.append("")
    return "\n".join(lines)


def same_layouts(
    results: Sequence[tuple[Run, WinRate, float]], *, seed: int, workers: int, results_path: str | Path
) -> str:
    """``probabilistic`` against ``expert`` on the same games of each preset.

    Where ``probabilistic`` played more games, its wins on the expert's first
    ``n`` games (the same layouts) are read back from the results file (played
    only if its batches do not cover exactly those games).
    """
    lines = [
        "",
        "### The same layouts",
        "",
        "Game `i` is the same layout for both players, so on the games both played:",
        "",
        "| board | rule | games | probabilistic wins | expert wins |",
        "|---|---|---:|---:|---:|",
    ]
    found = {(run.label, run.player): (run, result) for run, result, _ in results if run.study == "presets"}
    for (label, player), (run, expert) in found.items():
        if player != "expert" or (label, "probabilistic") not in found:
            continue
        _, solver = found[(label, "probabilistic")]
        n = min(expert.games, solver.games)
        if solver.games != n:
            solver = simulate(
                run.width,
                run.height,
                run.mines,
                "probabilistic",
                n,
                first_click=run.first_click,
                first_cell=run.first_cell,
                seed=seed,
                workers=workers,
                results_path=results_path,
            )
        if expert.games != n:
            continue
        preset, rule, cell = label.split()
        lines.append(f"| {preset} | {rule} {cell} | {n} | {solver.wins} | {expert.wins} |")
    return "\n".join(lines) + "\n"


def _games(entries: Sequence[tuple[Run, WinRate, float]], player: str) -> int | str:
    counts = {result.games for run, result, _ in entries if run.player == player}
    return counts.pop() if len(counts) == 1 else "/".join(str(c) for c in sorted(counts))


def plot_density(results: Sequence[tuple[Run, WinRate, float]], path: Path) -> None:
    """Win rate against mines on 4x4, one line per player, with the intervals as bands."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    entries = [(run, result) for run, result, _ in results if run.study == "density_4x4"]
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for player in dict.fromkeys(run.player for run, _ in entries):
        rows = sorted((run.mines, result) for run, result in entries if run.player == player)
        xs = [m for m, _ in rows]
        ax.plot(xs, [100 * r.rate for _, r in rows], marker="o", ms=3, label=player)
        ax.fill_between(
            xs, [100 * r.interval[0] for _, r in rows], [100 * r.interval[1] for _, r in rows], alpha=0.2
        )
    ax.set_xlabel("mines on a 4x4 board")
    ax.set_ylabel("win rate (%)")
    ax.set_title("Safe random first click; bands: Wilson 95% intervals")
    ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


# ------------------------------------------------------------------- speed
SPEED_GAMES = {"random": 400, "local": 200, "subset": 200, "probabilistic": 60, "expert": 20}
"""Games per timing run of ``speed``, by player (scaled down for the slow ones)."""


def speed(
    players: Sequence[str], presets: Sequence[str], *, repeats: int = 3, scale: float = 1.0, seed: int = 0
) -> list[tuple[str, str, int, float]]:
    """``(player, preset, games, median games per second)`` in this process (safe corner start)."""
    rows = []
    for preset in presets:
        w, h, m = PRESETS[preset]
        for player in players:
            games = max(1, round(SPEED_GAMES.get(player, 20) * scale * (0.5 if preset == "expert" else 1)))
            rates = []
            for r in range(repeats):
                start = time.perf_counter()
                simulate(w, h, m, player, games, first_cell="0,0", seed=seed + r)
                rates.append(games / (time.perf_counter() - start))
            rows.append((player, preset, games, statistics.median(rates)))
    return rows


RACE_SETUPS = (
    ("beginner", "safe", (0, 0)),
    ("intermediate", "safe", (0, 0)),
    ("expert", "safe", (0, 0)),
    ("beginner", "opening", (2, 2)),
    ("intermediate", "opening", (2, 2)),
    ("expert", "opening", (3, 3)),
)
"""The peer's published setups: SFAR at @[1,1], SNR at @[3,3] (9x9, 16x16) and @[4,4] (30x16)."""


@dataclass(frozen=True, slots=True)
class RaceRow:
    preset: str
    first_click: str
    first_cell: tuple[int, int]
    player: str
    games: int
    cpu_ms: float
    wins: int
    peer_games: int = 0
    peer_cpu_ms: float = float("nan")
    peer_wins: int = 0


def _peer_config(preset: str, first_click: str, cell: tuple[int, int], strategy: str) -> str:
    width, height, mines = PRESETS[preset]
    rule = {"safe": "SFAR", "opening": "SNR"}[first_click]
    return f"FL@[{cell[0] + 1},{cell[1] + 1}]-{strategy}-{width}-{height}-T{mines}-{rule}"


def run_peer(binary: str, config: str, games: int) -> tuple[int, float]:
    """Run MineSweeperProb on one setup; returns (wins, CPU seconds of its processes)."""
    import json
    import resource
    import subprocess

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([binary, config, str(games), "1"], capture_output=True, text=True, timeout=3600)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"{binary} {config} exited {done.returncode}: {done.stderr.strip()[:200]}")
    result = json.loads(done.stdout.strip().splitlines()[-1])["result"]
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return int(result["pass"]), cpu


def race(
    player: str,
    games: dict[str, int],
    *,
    repeats: int = 3,
    seed: int = 0,
    peer: str | None = None,
    strategy: str = "PSEQ",
    log: Any = None,
) -> list[RaceRow]:
    """CPU ms per game of ``player`` (one process) and, with ``peer``, of MineSweeperProb on the same setups.

    Each side's figure is the median over ``repeats`` runs of ``games[preset]``
    games; wins are summed over the runs.
    """
    rows = []
    for preset, rule, cell in RACE_SETUPS:
        if preset not in games:
            continue  # a preset left out of --games is not raced
        width, height, mines = PRESETS[preset]
        n = games[preset]
        ours, our_wins = [], 0
        simulate(width, height, mines, player, 2, first_click=rule, first_cell=cell, seed=seed)  # compile
        for r in range(repeats):
            start = time.process_time()
            result = simulate(
                width, height, mines, player, n, first_click=rule, first_cell=cell, seed=seed + r
            )
            ours.append(1000 * (time.process_time() - start) / n)
            our_wins += result.wins
        row = RaceRow(preset, rule, cell, player, n * repeats, statistics.median(ours), our_wins)
        if peer:
            theirs, their_wins = [], 0
            config = _peer_config(preset, rule, cell, strategy)
            for _ in range(repeats):
                wins, cpu = run_peer(peer, config, n)
                theirs.append(1000 * cpu / n)
                their_wins += wins
            row = RaceRow(
                *[
                    getattr(row, f)
                    for f in ("preset", "first_click", "first_cell", "player", "games", "cpu_ms", "wins")
                ],
                peer_games=n * repeats,
                peer_cpu_ms=statistics.median(theirs),
                peer_wins=their_wins,
            )
        if log is not None:
            print(f"  done {preset} {rule}", file=log, flush=True)
        rows.append(row)
    return rows


def minesolve_first_click(binary: str) -> tuple[int, int]:
    """The cell minesolve opens first on an empty expert board."""
    import re
    import subprocess

    empty = ("." * 30 + "\n") * 16
    done = subprocess.run(
        [binary, "--config=expert", "--depth=1"], input=empty, capture_output=True, text=True, timeout=60
    )
    found = re.search(r"\((\d+), (\d+)\)", done.stdout)
    if done.returncode != 0 or found is None:
        raise RuntimeError(
            f"{binary} gave no first move: {done.stdout.strip()[:200]} {done.stderr.strip()[:200]}"
        )
    return int(found.group(1)), int(found.group(2))


def run_minesolve(binary: str, depth: int, games: int) -> tuple[int, float]:
    """minesolve's ``--simulate`` on expert at ``depth``: (wins, CPU seconds of its process)."""
    import resource
    import subprocess

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        [binary, "--config=expert", f"--depth={depth}", f"--simulate={games}"],
        capture_output=True,
        text=True,
        timeout=24 * 3600,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"{binary} exited {done.returncode}: {done.stderr.strip()[:200]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return int(done.stdout.strip().splitlines()[-1]), cpu


def _wilson(wins: int, games: int) -> str:
    """The win rate in percent with its 95 % Wilson interval."""
    if games == 0:
        return "-"
    z = 1.959963984540054
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * ((p * (1 - p) / games + z * z / (4 * games * games)) ** 0.5) / (1 + z * z / games)
    return f"{100 * p:.2f} ({100 * (centre - half):.2f}-{100 * (centre + half):.2f})"


def race_minesolve(
    player: str, games: int, depths: Sequence[int], *, seed: int = 0, binary: str | None = None
) -> str:
    """Expert, safe first click at (0, 0): ``player`` and minesolve at each depth, one process each."""
    width, height, mines = PRESETS["expert"]
    simulate(width, height, mines, player, 2, first_click="safe", first_cell=(0, 0), seed=seed)  # compile
    start = time.process_time()
    ours = simulate(width, height, mines, player, games, first_click="safe", first_cell=(0, 0), seed=seed)
    our_ms = 1000 * (time.process_time() - start) / games
    lines = [
        "| player | games | win % (95 % interval) | CPU ms/game | ratio to ours |",
        "|---|---:|---:|---:|---:|",
        f"| ours: {player} | {games} | {_wilson(ours.wins, games)} | {our_ms:.2f} | 1.00x |",
    ]
    if binary:
        first = minesolve_first_click(binary)
        if first != (0, 0):
            lines.insert(0, f"(minesolve opens {first} first, not (0, 0): its setup differs from ours)")
        for depth in depths:
            wins, cpu = run_minesolve(binary, depth, games)
            ms = 1000 * cpu / games
            lines.append(
                f"| minesolve depth {depth} | {games} | {_wilson(wins, games)} | {ms:.2f}"
                f" | {ms / our_ms:.2f}x |"
            )
    return "\n".join(lines)


def setup_layouts(
    preset: str, first_click: str, first_cell: tuple[int, int], games: int, *, seed: int = 0
) -> list[list[int]]:
    """The mines (cells numbered row by row) of games ``0..games-1`` of a setup with a fixed first cell.

    Drawn as :func:`~analyzer.play.simulation.play_indexed_fast` draws them, so a peer given these
    plays the same games as our players.
    """
    import numpy as np

    from analyzer.play import fast
    from analyzer.play.simulation import _fast_zone, game_streams

    width, height, mines = PRESETS[preset]
    zone = _fast_zone(first_click, "square", width, height, first_cell[0] * width + first_cell[1])
    layouts = []
    for index in range(games):
        board_seq, _ = game_streams(seed, index)
        mask = fast.layout_mask(width, height, mines, zone, np.random.default_rng(board_seq))
        layouts.append(np.flatnonzero(mask).tolist())
    return layouts


def run_jvms(classes: str, main: str, header: str, lines: Sequence[str], workers: int) -> list[str]:
    """Java's ``main`` class from ``classes`` in ``workers`` JVMs at once, each fed ``header`` and every
    ``workers``-th of ``lines`` on standard input: the lines they print, all together.

    Raises ``RuntimeError`` (a JVM's first lines of error) when one exits with an error, and
    ``OSError`` when there is no ``java``.
    """
    import subprocess
    from concurrent.futures import ThreadPoolExecutor

    jobs = []
    for part in range(workers):
        process = subprocess.Popen(
            ["java", "-cp", classes, main],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        jobs.append((process, header + "".join(lines[part::workers])))
    with ThreadPoolExecutor(len(jobs)) as feeders:  # every JVM fed and read at once
        answers = list(feeders.map(lambda job: (job[0], *job[0].communicate(job[1])), jobs))
    printed = []
    for process, out, err in answers:
        if process.returncode != 0:
            said = "; ".join(line.strip() for line in err.strip().splitlines()[:3])
            raise RuntimeError(f"Hill's solver exited {process.returncode}: {said}")
        printed.extend(out.splitlines())
    return printed


def driver_answers(printed: Sequence[str]) -> list[tuple[str, str]]:
    """The driver's answer lines ("KEY VALUE"), split; ``RuntimeError`` naming any other line.

    The drivers keep standard output for their answers (the solver's own prints, such as its
    "might be looping" watchdog, go to standard error): another line there is a driver out of date.
    """
    answers = []
    for line in printed:
        fields = line.split()
        if len(fields) != 2:
            raise RuntimeError(
                f"Hill's driver printed {line.strip()!r}, not an answer: rebuild it (scripts/build_hill.sh)"
            )
        answers.append((fields[0], fields[1]))
    return answers


def run_hill(
    classes: str, preset: str, first_cell: tuple[int, int], layouts: Sequence[list[int]], workers: int
) -> tuple[list[bool], float]:
    """David Hill's solver on the given layouts, in ``workers`` JVMs: (wins game by game, CPU seconds).

    Each JVM runs the driver of ``benchmarks/peers/hill`` on every ``workers``-th game; the CPU time
    is that of the whole processes (the JVMs' start-up, compiler and collector included).
    """
    import resource

    width, height, mines = PRESETS[preset]
    header = f"{width} {height} {mines} {first_cell[0]} {first_cell[1]}\n"
    lines = [f"{i} {' '.join(map(str, layout))}\n" for i, layout in enumerate(layouts)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    won: dict[int, bool] = {}
    for index, result in driver_answers(run_jvms(classes, "hilldrv.PlayLayouts", header, lines, workers)):
        if index != "cpu":
            won[int(index)] = result == "1"
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if sorted(won) != list(range(len(layouts))):
        raise RuntimeError(f"Hill's solver answered {len(won)} of {len(layouts)} games")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return [won[i] for i in range(len(layouts))], cpu


def _paired_difference(won: Sequence[bool], first: Sequence[bool]) -> tuple[str, str]:
    """``won`` against ``first`` on the same games: the difference in points with its 95 % interval,
    and the games won only by each (``only won / only first``)."""
    games = len(first)
    gains = sum(1 for a, b in zip(won, first, strict=True) if a and not b)
    losses = sum(1 for a, b in zip(won, first, strict=True) if b and not a)
    spread = max(gains + losses - (gains - losses) ** 2 / games, 0.0) ** 0.5 / games
    z = 1.959963984540054
    return f"{100 * (gains - losses) / games:+.2f} ± {100 * z * spread:.2f}", f"{gains} / {losses}"


def race_hill(
    player: str,
    preset: str,
    first_click: str,
    first_cell: tuple[int, int],
    games: int,
    *,
    classes: str,
    seed: int = 0,
    workers: int = 1,
    peer: Callable[[Sequence[list[int]]], tuple[list[bool], float]] | None = None,
) -> str:
    """``player`` and David Hill's solver on the same ``games`` games, as a Markdown table.

    ``peer`` plays the layouts in Hill's place (for tests); by default :func:`run_hill` with ``classes``.
    """
    layouts = setup_layouts(preset, first_click, first_cell, games, seed=seed)
    if peer is None:
        theirs, their_cpu = run_hill(classes, preset, first_cell, layouts, workers)
    else:
        theirs, their_cpu = peer(layouts)
    width, height, mines = PRESETS[preset]
    fields = (width, height, mines, first_click, f"{first_cell[0]},{first_cell[1]}", seed)
    ours, our_cpu = _paired_games(fields, player, games, workers)
    difference, split = _paired_difference(theirs, ours)
    our_ms = 1000 * our_cpu / games
    their_ms = 1000 * their_cpu / games
    return "\n".join(
        [
            "| player | games | win % (95 % interval) | CPU ms/game | ratio to ours "
            "| Hill minus ours (95 %) | games won only by Hill / only by ours |",
            "|---|---:|---:|---:|---:|---:|---:|",
            f"| ours: `{player}` | {games} | {_wilson(sum(ours), games)} | {our_ms:.2f} | 1.00x | - | - |",
            f"| David Hill's solver | {games} | {_wilson(sum(theirs), games)} | {their_ms:.2f} "
            f"| {their_ms / our_ms:.2f}x | {difference} | {split} |",
        ]
    )


def parse_variant(text: str) -> tuple[str, dict[str, Any]]:
    """``name`` or ``name:option=value,...`` as a player name and its options (ints, fractions, words).

    :func:`analyzer.play.players.parse_player`, with a bad one a usage error.

    >>> parse_variant("expert:score=secondary,margin=3/50,candidates=16")
    ('expert', {'score': 'secondary', 'margin': Fraction(3, 50), 'candidates': 16})
    """
    from analyzer.errors import PlayerError
    from analyzer.play.players import parse_player

    try:
        return parse_player(text)
    except PlayerError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _paired_batch(
    setup_fields: tuple[Any, ...], variants: Sequence[str], start: int, stop: int
) -> list[tuple[list[bool], float]]:
    """Games ``start..stop-1`` of the setup for every variant, in order: (wins game by game, CPU seconds)."""
    from analyzer.play.players import make_player
    from analyzer.play.simulation import Setup, has_fast_form, play_indexed, play_indexed_fast

    out = []
    for text in variants:
        name, options = parse_variant(text)
        player = make_player(name, **options)
        setup = Setup(*setup_fields[:5], repr(player), setup_fields[5])
        one = play_indexed_fast if has_fast_form(player) else play_indexed
        begin = time.process_time()
        won = [one(setup, player, index).is_won for index in range(start, stop)]
        out.append((won, time.process_time() - begin))
    return out


def _paired_runs(
    fields: tuple[Any, ...], variants: Sequence[str], games: int, workers: int, batch: int = 500
) -> tuple[list[list[bool]], list[float]]:
    """Games ``0..games-1`` of a setup for every variant on ``workers`` processes: (wins game by
    game, CPU seconds) a variant, in game order whatever the number of workers."""
    from concurrent.futures import ProcessPoolExecutor

    _paired_batch(fields, variants, 0, 1)  # compile in this process before the clock starts
    spans = [(start, min(start + batch, games)) for start in range(0, games, batch)]
    won: list[list[bool]] = [[] for _ in variants]
    cpu = [0.0] * len(variants)
    with ProcessPoolExecutor(max(1, workers)) as pool:
        jobs = [pool.submit(_paired_batch, fields, variants, a, b) for a, b in spans]
        for job in jobs:
            for v, (wins, seconds) in enumerate(job.result()):
                won[v] += wins
                cpu[v] += seconds
    return won, cpu


def _paired_games(fields: tuple[Any, ...], player: str, games: int, workers: int) -> tuple[list[bool], float]:
    won, cpu = _paired_runs(fields, [player], games, workers)
    return won[0], cpu[0]


def paired(
    variants: Sequence[str],
    preset: str,
    first_click: str,
    first_cell: tuple[int, int],
    games: int,
    *,
    seed: int = 0,
    workers: int = 1,
    batch: int = 500,
) -> str:
    """The variants on the same ``games`` games of one setup, as a Markdown table (see the module's doc)."""
    width, height, mines = PRESETS[preset]
    fields = (width, height, mines, first_click, f"{first_cell[0]},{first_cell[1]}", seed)
    won, cpu = _paired_runs(fields, variants, games, workers, batch)
    lines = [
        f"| variant | games | win % (95 % interval) | CPU ms/game | difference to {variants[0]} (95 %) "
        "| games won only by it / only by the first |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for v, text in enumerate(variants):
        difference, split = ("-", "-") if v == 0 else _paired_difference(won[v], won[0])
        lines.append(
            f"| `{text}` | {games} | {_wilson(sum(won[v]), games)} | {1000 * cpu[v] / games:.2f} "
            f"| {difference} | {split} |"
        )
    return "\n".join(lines)


def _games_per_preset(text: str) -> dict[str, int]:
    """``beginner=N,intermediate=N,expert=N`` (any of the three) as a dict; a usage error otherwise.

    >>> _games_per_preset("beginner=30,expert=2")
    {'beginner': 30, 'expert': 2}
    """
    games: dict[str, int] = {}
    for part in text.split(","):
        name, _, count = part.partition("=")
        if name.strip() not in ("beginner", "intermediate", "expert") or not count.strip().isdigit():
            raise argparse.ArgumentTypeError(
                f"{part!r}: expected preset=games, e.g. beginner=20000,intermediate=5000,expert=1000"
            )
        games[name.strip()] = int(count)
    return games


def race_table(rows: Sequence[RaceRow], strategy: str) -> str:
    """The race as a Markdown table."""
    lines = [
        f"| setup | ours: {rows[0].player if rows else ''}, CPU ms/game | win % (games) "
        f"| MineSweeperProb {strategy}, CPU ms/game | win % (games) | ratio |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        setup = f"{row.preset} {row.first_click} at {row.first_cell}"
        ours = f"{100 * row.wins / row.games:.2f} ({row.games})"
        if row.peer_games:
            theirs = f"{100 * row.peer_wins / row.peer_games:.2f} ({row.peer_games})"
            ratio = f"{row.cpu_ms / row.peer_cpu_ms:.2f}x"
            peer_ms = f"{row.peer_cpu_ms:.3f}"
        else:
            theirs = ratio = peer_ms = "-"
        lines.append(f"| {setup} | {row.cpu_ms:.3f} | {ours} | {peer_ms} | {theirs} | {ratio} |")
    return "\n".join(lines)


def _add_setup_arguments(parser: argparse.ArgumentParser, *, games: int) -> None:
    """The options naming one setup's games: preset, first-click rule and cell, games, workers, seed."""
    parser.add_argument("--preset", default="expert", choices=sorted(PRESETS))
    parser.add_argument("--first-click", default="safe")
    parser.add_argument("--first-cell", default="0,0", help="R,C (default 0,0)")
    parser.add_argument("--games", type=int, default=games)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)


def _checked_setup(players: Sequence[str], first_cell: str, games: int) -> tuple[int, int] | None:
    """The first cell ``R,C`` once the players and the game count are checked; ``None`` (the
    error printed) when one is wrong."""
    from analyzer.errors import AnalyzerError
    from analyzer.play.players import make_player

    try:
        for text in players:
            name, options = parse_variant(text)
            make_player(name, **options)
        row, _, col = first_cell.partition(",")
        cell = (int(row), int(col))
        if games < 1:
            raise ValueError(f"--games must be at least 1, not {games}")
    except (AnalyzerError, argparse.ArgumentTypeError, ValueError) as error:
        print(f"bench_games: error: {error}", file=sys.stderr)
        return None
    return cell


def main(argv: Sequence[str] | None = None) -> int:
    """The command line of ``python -m benchmarks.games``."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.games", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sp = sub.add_parser("speed", help="games per second per player and preset")
    sp.add_argument("--players", default="random,local,subset,probabilistic,expert")
    sp.add_argument("--presets", default=",".join(PRESETS))
    sp.add_argument("--repeats", type=int, default=3)
    sp.add_argument("--scale", type=float, default=1.0, help="multiply the games per timing run")
    rc = sub.add_parser("race", help="CPU ms per game against MineSweeperProb (set MSP_BINARY)")
    rc.add_argument("--player", default="probabilistic")
    rc.add_argument("--strategy", default="PSEQ", help="the peer's strategy string (PSEQ, PSEQ-D16, ...)")
    rc.add_argument(
        "--games",
        type=_games_per_preset,
        default="beginner=20000,intermediate=5000,expert=1000",
        help="games per preset, as beginner=N,intermediate=N,expert=N",
    )
    rc.add_argument("--repeats", type=int, default=3)
    rc.add_argument("--seed", type=int, default=0)
    rm = sub.add_parser(
        "race-minesolve", help="win rate and CPU ms per game against minesolve (set MINESOLVE_BINARY)"
    )
    rm.add_argument("--player", default="expert")
    rm.add_argument("--games", type=int, default=1000)
    rm.add_argument("--depths", default="1,2", help="minesolve's search depths (default 1,2)")
    rm.add_argument("--seed", type=int, default=0)
    pa = sub.add_parser("paired", help="variants of a player on the same games, with paired differences")
    pa.add_argument("--variants", nargs="+", required=True, type=str, help="name or name:option=value,...")
    _add_setup_arguments(pa, games=10_000)
    rh = sub.add_parser(
        "race-hill", help="a player and David Hill's solver on the same games (set HILL_CLASSES)"
    )
    rh.add_argument(
        "--player",
        default="expert:score=secondary,margin=1/10,candidates=32,endgame_layouts=255,dead=wait,pseudo=first",
    )
    _add_setup_arguments(rh, games=2000)
    rh.add_argument("--hill-classes", help="the classes scripts/build_hill.sh built (default: HILL_CLASSES)")
    sm = sub.add_parser("summarize", help="the runs of scripts/fast_win_rates.sh against PSEQ's table")
    sm.add_argument("--player", default="probabilistic", help="a folder of the results (its name)")
    sm.add_argument("--players", help="comma-separated: one compact row a setup for all of them")
    sm.add_argument(
        "--folder", type=Path, default=Path(__file__).resolve().parent.parent / "results" / "win_rates"
    )
    rp = sub.add_parser("reproduce", help="the win-rate studies, written to docs/win_rates.md")
    rp.add_argument("--games", type=int, default=2000, help="games per configuration: random, local, subset")
    rp.add_argument("--games-solver", type=int, default=1000, help="games per configuration: probabilistic")
    rp.add_argument("--games-expert", type=int, default=400, help="games per configuration: expert player")
    rp.add_argument(
        "--solver-on-expert", type=int, default=None, help="probabilistic games on the expert preset"
    )
    rp.add_argument(
        "--expert-on-expert",
        type=int,
        default=None,
        help="expert-player games on the expert preset (default: half of --games-expert)",
    )
    rp.add_argument("--studies", default="safe_zone,density_4x4,presets")
    rp.add_argument("--workers", type=int, default=2)
    rp.add_argument("--seed", type=int, default=0)
    rp.add_argument("--results", default="results/win_rates.jsonl", help="JSON lines, to resume from")
    rp.add_argument("--output", type=Path, default=_DOCS / "win_rates.md")
    args = parser.parse_args(argv)

    if args.command == "summarize":
        if args.players:
            print(compare(args.folder, args.players.split(",")))
        else:
            print(summarize(args.folder, args.player))
        return 0

    if args.command == "race":
        import os

        games = args.games
        peer = os.environ.get("MSP_BINARY")
        print(
            f"CPU ms per game, one process each, median of {args.repeats} runs"
            + (f"; peer {peer}" if peer else "; MSP_BINARY not set: ours only")
        )
        rows = race(
            args.player, games, repeats=args.repeats, seed=args.seed, peer=peer, strategy=args.strategy
        )
        print(race_table(rows, args.strategy))
        return 0

    if args.command == "paired":
        cell = _checked_setup(args.variants, args.first_cell, args.games)
        if cell is None:
            return 2
        print(
            f"{args.preset} {'x'.join(map(str, PRESETS[args.preset]))}, {args.first_click} first click at"
            f" {cell}, games 0-{args.games - 1} of seed {args.seed} for every variant,"
            f" {args.workers} processes"
        )
        setup = (args.preset, args.first_click, cell, args.games)
        table = paired(args.variants, *setup, seed=args.seed, workers=args.workers)
        print(table)
        return 0

    if args.command == "race-hill":
        import os

        classes = args.hill_classes or os.environ.get("HILL_CLASSES")
        cell = _checked_setup([args.player], args.first_cell, args.games)
        if cell is None:
            return 2
        if not classes:
            print(
                "bench_games: error: name Hill's built classes with --hill-classes or HILL_CLASSES"
                " (scripts/build_hill.sh DEST builds them)",
                file=sys.stderr,
            )
            return 2
        width, height, mines = PRESETS[args.preset]
        print(
            f"{args.preset} {width}x{height}/{mines}, {args.first_click} first click at {cell}, games 0 to"
            f" {args.games - 1} of seed {args.seed} for both, {args.workers} worker(s) each; Hill: {classes}"
        )
        try:
            table = race_hill(
                args.player,
                args.preset,
                args.first_click,
                cell,
                args.games,
                classes=classes,
                seed=args.seed,
                workers=args.workers,
            )
        except (OSError, RuntimeError) as error:  # no java, or classes that are not the driver's
            print(f"bench_games: error: Hill's solver did not run: {error}", file=sys.stderr)
            return 1
        print(table)
        return 0

    if args.command == "race-minesolve":
        import os

        binary = os.environ.get("MINESOLVE_BINARY")
        print(
            f"Expert 30x16/99, safe first click at (0, 0), {args.games} games each, one process each"
            + (f"; minesolve {binary}" if binary else "; MINESOLVE_BINARY not set: ours only")
        )
        depths = [int(d) for d in args.depths.split(",") if d]
        print(race_minesolve(args.player, args.games, depths, seed=args.seed, binary=binary))
        return 0

    if args.command == "speed":
        players = [p for p in args.players.split(",") if p]
        presets = [p for p in args.presets.split(",") if p]
        unknown = [p for p in presets if p not in PRESETS]
        if unknown:
            print(f"bench_games: error: unknown preset {unknown[0]!r}", file=sys.stderr)
            return 1
        print(f"Games per second, one process, safe first click at (0, 0), median of {args.repeats} runs")
        print(f"| player | {' | '.join(presets)} |")
        print("|---|" + "---:|" * len(presets))
        rows = speed(players, presets, repeats=args.repeats, scale=args.scale)
        for player in players:
            cells = [f"{rate:.1f} ({games})" for p, _, games, rate in rows if p == player]
            print(f"| {player} | {' | '.join(cells)} |", flush=True)
        print("(games per timing run in brackets)")
        return 0

    studies = set(args.studies.split(","))
    runs = [
        run
        for run in plan(
            args.games,
            args.games_solver,
            args.games_expert,
            solver_on_expert=args.solver_on_expert,
            expert_on_expert=args.expert_on_expert,
        )
        if run.study in studies
    ]
    if args.results:
        Path(args.results).parent.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    results = run_plan(runs, seed=args.seed, workers=args.workers, results_path=args.results, log=sys.stderr)
    command = (
        f"python -m benchmarks.games reproduce --games {args.games} --games-solver {args.games_solver} "
        f"--games-expert {args.games_expert} --workers {args.workers} --seed {args.seed}"
    )
    if args.solver_on_expert is not None:
        command += f" --solver-on-expert {args.solver_on_expert}"
    if args.expert_on_expert is not None:
        command += f" --expert-on-expert {args.expert_on_expert}"
    text = to_markdown(results, command=command, seed=args.seed)
    if "presets" in studies and args.results:
        text += same_layouts(results, seed=args.seed, workers=args.workers, results_path=args.results)
    total_games = sum(result.games for _, result, _ in results)
    playing = sum(result.seconds for _, result, _ in results)
    text += (
        f"\nIn all {total_games} games, {playing / 60:.1f} minutes of playing time summed over games "
        f"(worker processes, {args.workers} at a time). The last invocation took "
        f"{time.perf_counter() - start:.0f} s of wall clock: games already in the results file are "
        "read back, not replayed.\n"
    )
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(text, encoding="utf-8")
    if "density_4x4" in studies:
        plot_density(results, args.output.parent / "win_rates_4x4.png")
    print(text)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
