"""Win rates: many random games played by a player, on all cores or on Dask.

:func:`simulate` plays ``games`` random games of one setup (board, first-click
rule, first cell, player) and returns a :class:`WinRate`: wins, the Wilson 95%
interval, guesses and time per game.

Reproducibility
---------------
Game ``i`` draws everything from ``numpy.random.SeedSequence(seed,
spawn_key=(i,))`` (the ``i``-th child of ``SeedSequence(seed).spawn``), split in
two streams: one for the board (a random first cell, then the mines) and one
for the player. So the result does not depend on how games are batched or on
how many workers play them, and every player meets the same layouts for the
same seed and first cell (common random numbers: comparisons between players
are sharper than their separate intervals suggest). The compiled players
(``probabilistic``, ``pseq``, ``expert``) play a batch of games with a fixed
first cell in one kernel call (:mod:`analyzer.play.fast.batch`), which replays
these streams' draws in numba: the same games as one by one, without a
beginner game's worth of Python around each.

Guesses
-------
A guess is a reveal the player reports it could not prove safe
(:attr:`analyzer.play.players.Action.is_guess`). The first reveal of a game counts as
a guess only under ``first_click="none"``: any other rule makes it safe.

Results files
-------------
With ``results_path``, each finished batch is appended as one JSON line: the
setup, the range of game indices and the batch's wins, guesses and seconds.
Running again with the same file skips the batches already there (lines of
other setups are left alone, so one file can hold a whole sweep) and loses no
finished game when a run is interrupted. Every line is checked field by field
(types, ranges, wins within the batch) before it counts: a line cut short by an
interrupted write is skipped with a warning, any other bad line is refused with
its line number. The path is checked before any game is played.

Workers and backends
--------------------
``backend="local"`` plays the batches in this process (``workers=1``) or in
``workers`` processes; ``"dask"`` runs them on ``dask.distributed``: the scheduler
at ``address`` (``"tcp://host:8786"``), or a local cluster (threads in this process
for one worker, processes for more). A player must pickle for either but one local
worker. A batch is ``batch_size`` games, a task and a results line (default: about
eight batches a worker, at most 50 games each, 2000 for a compiled player); the
result depends on none of these. Worker processes end with the process that
started them, however it ends (on Linux through the parent-death signal, elsewhere
by a watchdog thread: :mod:`analyzer.play.workers`).

Compiled players
----------------
Players with a compiled form (:data:`analyzer.play.fast.FAST_PLAYERS`) play
through it by default; ``exact=True`` plays every move through the exact engine
(Fractions) instead. Both play the same games; the compiled form makes the same
guesses up to ties within 1e-12 (the tests check it game by game).
"""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from analyzer.board.topology import TOPOLOGIES, topology_name
from analyzer.errors import AnalyzerError, OptionError, SimulationError
from analyzer.limits import flag, whole
from analyzer.names import BACKENDS, PRESETS
from analyzer.play import fast
from analyzer.play.allowed import is_cell_pair
from analyzer.play.fast import rules
from analyzer.play.fast.endgame import MAX_LAYOUTS
from analyzer.play.game import FirstClickRule, Game
from analyzer.play.players import Player, make_player
from analyzer.play.players.expert import ExpertPlayer
from analyzer.play.results_file import FORMAT, append, checked_results_path, plan, read_results
from analyzer.play.win_rate import Z95, GameRecord, Setup, WinRate, wilson_interval
from analyzer.play.workers import progress_bar, run_dask, run_local

__all__ = [
    "PRESETS",
    "BACKENDS",
    "Z95",
    "SimulationError",
    "Setup",
    "GameRecord",
    "WinRate",
    "wilson_interval",
    "play",
    "game_seed",
    "game_streams",
    "play_indexed",
    "play_indexed_fast",
    "has_fast_form",
    "simulate",
]


#: The most worker processes a run may ask for: four a core, at least 8.
MAX_WORKERS = max(8, 4 * (os.cpu_count() or 1))


# ------------------------------------------------------------------ playing
def play(
    game: Game, player: Player, *, rng: np.random.Generator, first_cell: tuple[int, int] | None = None
) -> GameRecord:
    """Play ``game`` to its end with ``player``.

    Parameters
    ----------
    game : Game
        A game not yet finished.
    player : Player
        Reset first (:meth:`~analyzer.play.players.Player.reset`).
    rng : numpy.random.Generator
        The player's randomness.
    first_cell : (row, col), optional
        Reveal this cell first; ``None`` lets the player choose.

    Raises
    ------
    SimulationError
        If the player runs past ``2 x cells`` moves (a player that never finishes).

    Examples
    --------
    >>> import numpy as np
    >>> from analyzer.play.players import make_player
    >>> game = Game.new(9, 9, 10, first_click="opening", seed=1)
    >>> record = play(game, make_player("probabilistic"), rng=np.random.default_rng(0), first_cell=(4, 4))
    >>> record.status == game.status, record.guesses >= 0
    (True, True)
    """
    start = time.perf_counter()
    player.reset()
    first_is_guess = game.first_click.radius is None
    guesses = reveals = flags = 0
    first = True
    limit = 2 * game.width * game.height
    if first_cell is not None and not game.is_finished:
        game.reveal(*first_cell)
        guesses += first_is_guess
        reveals += 1
        first = False
    while not game.is_finished:
        if reveals + flags >= limit:
            raise SimulationError(f"{player!r} made {limit} moves without finishing the game")
        action = player.choose(game.board, rng)
        if action.kind == "flag":
            game.flag(action.row, action.col)
            flags += 1
            continue
        game.reveal(action.row, action.col)
        reveals += 1
        guesses += first_is_guess if first else action.is_guess
        first = False
    return GameRecord(game.status, guesses, reveals, flags, time.perf_counter() - start)


def game_seed(seed: int, index: int) -> np.random.SeedSequence:
    """The seed sequence of game ``index``: ``SeedSequence(seed).spawn(index + 1)[index]``.

    >>> game_seed(7, 3).spawn_key
    (3,)
    >>> spawned = np.random.SeedSequence(7).spawn(4)[3]
    >>> game_seed(7, 3).generate_state(2).tolist() == spawned.generate_state(2).tolist()
    True
    """
    return np.random.SeedSequence(seed, spawn_key=(index,))


def game_streams(seed: int, index: int) -> tuple[np.random.SeedSequence, np.random.SeedSequence]:
    """The board's and the player's seed sequences of game ``index``: ``game_seed(seed, index).spawn(2)``.

    Built directly from their spawn keys, which gives the same streams in a
    third of the time.

    >>> board, player = game_streams(7, 3)
    >>> [s.generate_state(2).tolist() for s in (board, player)] == [
    ...     s.generate_state(2).tolist() for s in game_seed(7, 3).spawn(2)
    ... ]
    True
    """
    return (
        np.random.SeedSequence(seed, spawn_key=(index, 0)),
        np.random.SeedSequence(seed, spawn_key=(index, 1)),
    )


def _resolve_first_cell(
    spec: str, width: int, height: int, rng: np.random.Generator
) -> tuple[int, int] | None:
    if spec == "player":
        return None
    if spec == "random":
        index = int(rng.integers(width * height))
        return divmod(index, width)
    row, col = (int(part) for part in spec.split(","))
    return (row, col)


def play_indexed(setup: Setup, player: Player, index: int) -> GameRecord:
    """Play game ``index`` of ``setup`` (the same game whoever plays it, wherever).

    >>> from analyzer.play.players import make_player
    >>> setup = Setup(4, 4, 3, "safe", "random", "LocalPlayer()", 5)
    >>> play_indexed(setup, make_player("local"), 2) == play_indexed(setup, make_player("local"), 2)
    True
    """
    board_seq, player_seq = game_streams(setup.seed, index)
    board_rng = np.random.default_rng(board_seq)
    first = _resolve_first_cell(setup.first_cell, setup.width, setup.height, board_rng)
    game = Game.new(
        setup.width,
        setup.height,
        setup.mines,
        first_click=setup.first_click,
        rng=board_rng,
        topology=setup.topology,
    )
    return play(game, player, rng=np.random.default_rng(player_seq), first_cell=first)


def play_indexed_fast(setup: Setup, player: Player, index: int) -> GameRecord:
    """Game ``index`` of ``setup`` played by the compiled form of ``player`` (:mod:`analyzer.play.fast`).

    The layout is drawn exactly as :func:`play_indexed` draws it (same seeds,
    same first-click rule, same placement), so both play the same game.

    >>> from analyzer.play.players import make_player
    >>> setup = Setup(9, 9, 10, "safe", "0,0", "ProbabilisticPlayer()", 3)
    >>> fast = [play_indexed_fast(setup, make_player("probabilistic"), i) for i in range(20)]
    >>> exact = [play_indexed(setup, make_player("probabilistic"), i) for i in range(20)]
    >>> [(f.status, f.guesses) for f in fast] == [(e.status, e.guesses) for e in exact]
    True
    """
    start = time.perf_counter()
    width, height = setup.width, setup.height
    board_seq, player_seq = game_streams(setup.seed, index)
    board_rng = np.random.default_rng(board_seq)
    first = _resolve_first_cell(setup.first_cell, width, height, board_rng)
    topology = setup.topology
    nbr, first_is_guess = _fast_context(setup.first_click, topology, width, height)
    if player.name in rules.RULE_PLAYERS:  # random, local, subset: they draw from the player's stream
        player_rng = np.random.default_rng(player_seq)
        cell = int(player_rng.integers(width * height)) if first is None else first[0] * width + first[1]
        is_mine = fast.layout_mask(
            width,
            height,
            setup.mines,
            _fast_zone(setup.first_click, topology, width, height, cell),
            board_rng,
        )
        trace = np.empty(width * height + 1, dtype=np.int64)
        won, guesses, reveals, flags, _ = rules.play_rules(
            rules.RULE_PLAYERS[player.name],
            is_mine,
            nbr,
            setup.mines,
            cell,
            first_is_guess,
            player_rng,
            trace,
        )
        status = "won" if won else "lost"
        return GameRecord(status, int(guesses), int(reveals), int(flags), time.perf_counter() - start)
    params = fast.expert_params(player) if isinstance(player, ExpertPlayer) else None
    if first is None:
        options = () if params is None else tuple(params.tolist())
        cell = fast.first_choice(player.name, topology, width, height, setup.mines, options)
    else:
        cell = first[0] * width + first[1]
    is_mine = fast.layout_mask(
        width, height, setup.mines, _fast_zone(setup.first_click, topology, width, height, cell), board_rng
    )
    rng = np.random.default_rng(player_seq) if player.name == "pseq" else None
    patterns = (
        fast.fifty_fifty_patterns(topology, width, height)
        if params is not None and fast.uses_patterns(params)
        else None
    )
    played = fast.play_game(
        player.name,
        is_mine,
        nbr,
        cell,
        first_is_guess=first_is_guess,
        rng=rng,
        params=params,
        patterns=patterns,
    )
    if played is None:  # a position too hard to enumerate: the exact engine plays this same game
        return play_indexed(setup, player, index)
    won, guesses, reveals, _ = played
    return GameRecord("won" if won else "lost", guesses, reveals, 0, time.perf_counter() - start)


@functools.lru_cache(maxsize=64)
def _fast_context(first_click: str, topology: str, width: int, height: int) -> tuple[np.ndarray, bool]:
    return fast.neighbours_of(topology, width, height), FirstClickRule.parse(first_click).radius is None


@functools.lru_cache(maxsize=4096)
def _fast_zone(first_click: str, topology: str, width: int, height: int, cell: int) -> np.ndarray:
    rule = FirstClickRule.parse(first_click)
    zone = rule.protected_cells(topology, width, height, *divmod(cell, width))
    return np.array(sorted(zone), dtype=np.int64)


def has_fast_form(player: Player) -> bool:
    """Whether ``player`` plays through the compiled engine by default (its class and options).

    The other players have a compiled form with their default options only;
    ``expert`` with any options whose end game the compiled search holds.
    """
    if player.name not in fast.FAST_PLAYERS:
        return False
    if isinstance(player, ExpertPlayer) and type(player) is ExpertPlayer:
        return player.endgame_layouts <= MAX_LAYOUTS
    return repr(player) == repr(make_player(player.name))


def _play_batch_fast(setup: Setup, player: Player, start: int, stop: int) -> dict[str, Any] | None:
    """Games ``start..stop-1`` of a compiled policy in one kernel call (:func:`fast.batch.play_batch`).

    The same games and results as :func:`play_indexed_fast` game by game, without
    its per-game Python (the seeding, generators and arrays cost more than a
    beginner game's play). None where it does not apply: a rule player, a random
    first cell, game numbers past 2**32, kernels running interpreted
    (:func:`analyzer.jit.interpreted`), or a numpy that draws otherwise.
    """
    from analyzer.jit import runs_interpreted
    from analyzer.play.fast import batch

    width, height, topology = setup.width, setup.height, setup.topology
    if (
        player.name not in ("probabilistic", "pseq", "expert")
        or runs_interpreted()
        or setup.first_cell == "random"
        or stop > 2**32
        or width * height >= 2**31
        or not batch.streams_match()
    ):
        return None
    begin = time.perf_counter()
    params = fast.expert_params(player) if isinstance(player, ExpertPlayer) else None
    if setup.first_cell == "player":
        options = () if params is None else tuple(params.tolist())
        cell = fast.first_choice(player.name, topology, width, height, setup.mines, options)
    else:
        row, _, col = setup.first_cell.partition(",")
        cell = int(row) * width + int(col)
    nbr, first_is_guess = _fast_context(setup.first_click, topology, width, height)
    options_array = fast.loop.EXPERT_PARAMS if params is None else params
    patterns = (
        fast.fifty_fifty_patterns(topology, width, height)
        if player.name == "expert" and fast.uses_patterns(options_array)
        else fast.patterns.no_patterns()
    )
    out = np.empty((stop - start, 3), dtype=np.int64)
    batch.play_batch(
        {"probabilistic": fast.loop.PROBABILISTIC, "pseq": fast.loop.PSEQ}.get(player.name, fast.loop.EXPERT),
        nbr,
        setup.mines,
        cell,
        _fast_zone(setup.first_click, topology, width, height, cell),
        first_is_guess,
        batch.seed_words(setup.seed),
        start,
        fast.probabilities.DEFAULT_MAX_NODES,
        options_array,
        patterns,
        out,
    )
    played = out[:, 0] >= 0
    wins = int(out[played, 0].sum())
    guesses = int(out[played, 1].sum())
    for t in np.flatnonzero(~played).tolist():  # too hard to enumerate: game by game, as before
        record = play_indexed_fast(setup, player, start + t)
        wins += record.is_won
        guesses += record.guesses
    seconds = time.perf_counter() - begin
    return {"start": start, "stop": stop, "wins": wins, "guesses": guesses, "seconds": seconds}


def _run_batch(setup: Setup, player: Player, start: int, stop: int, use_fast: bool = False) -> dict[str, Any]:
    """Games ``start..stop-1``: wins, guesses, seconds (a top-level function, for pickling)."""
    if use_fast:
        played = _play_batch_fast(setup, player, start, stop)
        if played is not None:
            return played
    wins = guesses = 0
    seconds = 0.0
    one = play_indexed_fast if use_fast else play_indexed
    for index in range(start, stop):
        record = one(setup, player, index)
        wins += record.is_won
        guesses += record.guesses
        seconds += record.seconds
    return {"start": start, "stop": stop, "wins": wins, "guesses": guesses, "seconds": seconds}


# ---------------------------------------------------------------- checking
def _first_cell_spec(first_cell: object, width: int, height: int) -> str:
    if first_cell is None or first_cell == "player":
        return "player"
    if first_cell == "random":
        return "random"
    if isinstance(first_cell, str):
        parts = first_cell.split(",")
        named = {"corner": (0, 0), "centre": (height // 2, width // 2), "center": (height // 2, width // 2)}
        if first_cell in named:
            cell: object = named[first_cell]
        elif len(parts) == 2 and all(p.strip().lstrip("-").isdigit() for p in parts):
            cell = (int(parts[0]), int(parts[1]))
        else:
            raise SimulationError(
                f"bad first cell {first_cell!r}; expected 'R,C', 'corner', 'centre', 'random' or 'player'"
            )
    else:
        cell = first_cell
    if not is_cell_pair(cell):
        raise SimulationError(f"bad first cell {first_cell!r}; expected (row, col)")
    row, col = int(cell[0]), int(cell[1])
    if not (0 <= row < height and 0 <= col < width):
        raise SimulationError(f"first cell {(row, col)!r} is outside the {width}x{height} board")
    return f"{row},{col}"


def _make_setup(
    width: int,
    height: int,
    mines: int,
    player: Player,
    first_click: str,
    first_cell: object,
    seed: int,
    topology: object = "square",
) -> Setup:
    width = whole(width, "width", minimum=1, error=SimulationError)
    height = whole(height, "height", minimum=1, error=SimulationError)
    mines = whole(mines, "mines", minimum=0, error=SimulationError)
    seed = whole(seed, "seed", minimum=0, error=SimulationError)
    if not isinstance(topology, str):
        raise SimulationError(
            f"simulations take a named topology ({', '.join(TOPOLOGIES)}), got {topology!r}; "
            "play a graph's games with Game and play()"
        )
    try:
        name = topology_name(topology)
        rule = FirstClickRule.parse(first_click)
        Game.new(width, height, mines, first_click=rule, topology=name)  # checks the sizes against the rule
    except AnalyzerError as error:
        raise SimulationError(str(error)) from None
    assert isinstance(name, str)
    if rule.no_guess:
        raise SimulationError(
            f"first-click rule {rule.name!r} is for single games (Game); simulations do not draw it"
        )
    spec = _first_cell_spec(first_cell, width, height)
    return Setup(width, height, mines, rule.name, spec, repr(player), seed, name)


def simulate(
    width: int,
    height: int,
    mines: int,
    player: str | Player,
    games: int,
    *,
    first_click: str = "safe",
    first_cell: str | tuple[int, int] | None = None,
    seed: int = 0,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    batch_size: int | None = None,
    progress: bool = False,
    results_path: str | os.PathLike[str] | None = None,
    exact: bool = False,
    topology: str = "square",
) -> WinRate:
    """Play ``games`` random games with ``player`` and count the wins.

    Parameters
    ----------
    width, height, mines : int
        The board.
    player : str or Player
        A name in :data:`analyzer.play.players.PLAYERS`, or a player (it must pickle
        when ``workers > 1`` or on Dask).
    games : int
        Number of games.
    first_click : str
        The first-click rule: ``"none"``, ``"safe"``, ``"opening"`` or ``"safe_zone:R"``.
    first_cell : (row, col), str or None
        ``(row, col)`` or ``"R,C"``, ``"corner"`` (``0,0``), ``"centre"`` (``height // 2,
        width // 2``), ``"random"`` (uniform, the same for every player at a given seed),
        or ``None`` / ``"player"``: the player's own first move (see :mod:`analyzer.play.players`).
    seed : int
        Root of every game's seed (see the module notes).
    workers, backend, address, batch_size
        Worker processes or Dask workers, ``"local"`` or ``"dask"``, a Dask
        scheduler's address, games a batch (see the module notes).
    progress : bool
        Show a progress bar (tqdm, when installed).
    results_path : path, optional
        Append each finished batch as a JSON line; batches already there are
        not played again.
    exact : bool
        Play through the exact engine even where a player has a compiled form.
    topology : str
        A name of :data:`analyzer.board.topology.TOPOLOGIES` (a ``"cube"`` board is
        ``n`` wide and ``6 * n`` high).

    Returns
    -------
    WinRate

    Raises
    ------
    SimulationError
        Bad sizes, an unknown player, a bad first cell or backend.

    Examples
    --------
    >>> rate = simulate(4, 4, 2, "probabilistic", 20, first_cell="corner", seed=1)
    >>> rate.games, 0 <= rate.wins <= 20
    (20, True)
    >>> rate == simulate(4, 4, 2, "probabilistic", 20, first_cell=(0, 0), seed=1, batch_size=3)
    True
    """
    chosen, games, workers = _checked_options(player, games, workers, backend, address, progress, exact)
    setup = _make_setup(width, height, mines, chosen, first_click, first_cell, seed, topology)
    use_fast = not exact and has_fast_form(chosen)
    batch_size = _batch_size(batch_size, games, workers, use_fast)
    path, done, todo = _resumed(setup, games, batch_size, results_path)
    if backend == "dask":
        batches = run_dask(_run_batch, setup, chosen, todo, workers, address, use_fast) if todo else iter(())
    else:
        batches = run_local(_run_batch, setup, chosen, todo, workers, use_fast)
    return _gathered(setup, games, done, batches, path, progress)


def _resumed(
    setup: Setup, games: int, batch_size: int, results_path: str | os.PathLike[str] | None
) -> tuple[Path | None, list[dict[str, Any]], list[range]]:
    """The results file, checked (``None``: none), the batches of ``setup`` already in it, and those left."""
    if results_path is None:
        return None, *plan(games, [], batch_size)
    path = Path(results_path)
    checked_results_path(path)
    return path, *plan(games, read_results(path, setup), batch_size)


def _gathered(
    setup: Setup,
    games: int,
    done: list[dict[str, Any]],
    batches: Iterator[dict[str, Any]],
    path: Path | None,
    progress: bool,
) -> WinRate:
    """The win rate of the batches ``done`` before and those run now, each appended to ``path``."""
    resumed = sum(e["stop"] - e["start"] for e in done)
    bar = progress_bar(progress, games, resumed, setup)
    totals = {name: sum(e[name] for e in done) for name in ("wins", "guesses", "seconds")}
    try:
        for result in batches:
            for name in totals:
                totals[name] += result[name]
            if path is not None:
                append(path, {"format": FORMAT, "setup": setup.to_dict(), **result})
            if bar is not None:
                bar.update(result["stop"] - result["start"])
    finally:
        if bar is not None:
            bar.close()
    return WinRate(setup, totals["wins"], games, totals["guesses"], totals["seconds"], resumed)


def _batch_size(batch_size: object, games: int, workers: int, use_fast: bool) -> int:
    """``batch_size`` checked; by default about eight batches a worker, at most 50 games (2000 compiled)."""
    if batch_size is None:
        batch_size = max(1, min(2000 if use_fast else 50, games // (8 * workers)))
    return whole(batch_size, "batch_size", minimum=1, error=SimulationError)


def _checked_options(
    player: str | Player,
    games: object,
    workers: object,
    backend: object,
    address: object,
    progress: object,
    exact: object,
) -> tuple[Player, int, int]:
    """The player made, and the games and workers checked, with :func:`simulate`'s other options."""
    try:
        chosen = make_player(player)
    except AnalyzerError as error:
        raise SimulationError(str(error)) from None
    count = whole(games, "games", minimum=1, error=SimulationError)
    processes = whole(workers, "workers", minimum=1, maximum=MAX_WORKERS, error=SimulationError)
    if backend not in BACKENDS:
        raise SimulationError(f"unknown backend {backend!r}; expected one of {', '.join(BACKENDS)}")
    if address is not None and backend != "dask":
        raise SimulationError("address is for backend 'dask'")
    for name, value in (("progress", progress), ("exact", exact)):
        try:
            flag(value, name)
        except OptionError as error:
            raise SimulationError(str(error)) from None
    return chosen, count, processes
