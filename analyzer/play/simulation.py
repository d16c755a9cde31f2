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

Worker processes end with the process that started them, however it ends
(on Linux through the parent-death signal, elsewhere by a watchdog thread).
"""

from __future__ import annotations

import ctypes
import functools
import json
import math
import os
import signal
import sys
import threading
import time
import warnings
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path
from statistics import NormalDist
from typing import Any

import numpy as np

from analyzer.board.topology import TOPOLOGIES, topology_name
from analyzer.errors import AnalyzerError, OptionError, SimulationError
from analyzer.limits import dask_client, flag, quote, whole
from analyzer.names import BACKENDS, PRESETS
from analyzer.play import fast
from analyzer.play.fast import rules
from analyzer.play.fast.endgame import MAX_LAYOUTS
from analyzer.play.game import FirstClickRule, Game
from analyzer.play.players import Player, make_player
from analyzer.play.players.expert import ExpertPlayer

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


Z95 = NormalDist().inv_cdf(0.975)
"""The standard normal quantile of a two-sided 95% interval (1.959963984540054)."""

_FORMAT = 1  # version of the results-file lines

#: The most worker processes a run may ask for: four a core, at least 8.
MAX_WORKERS = max(8, 4 * (os.cpu_count() or 1))


# ------------------------------------------------------------------ values
@dataclass(frozen=True, slots=True)
class Setup:
    """What is simulated: board, first-click rule, first cell, player and seed.

    Attributes
    ----------
    width, height, mines : int
    first_click : str
        The canonical first-click rule (``"safe"``, ``"opening"``, ``"safe_zone:2"``, ...).
    first_cell : str
        ``"player"`` (the player's own first move), ``"random"`` (a uniformly
        random cell, drawn from the board's stream), or ``"R,C"``.
    player : str
        The player's ``repr``, options included.
    seed : int
    topology : str
        A name of :data:`analyzer.board.topology.TOPOLOGIES` (``"square"`` is left out of
        :meth:`to_dict`, so results files written before topologies still match).
    """

    width: int
    height: int
    mines: int
    first_click: str
    first_cell: str
    player: str
    seed: int
    topology: str = "square"

    def to_dict(self) -> dict[str, Any]:
        found = asdict(self)
        if self.topology == "square":
            del found["topology"]
        return found

    def describe(self) -> str:
        """One line for people: ``'30x16/99, first click safe at 0,0, player ExpertPlayer(...)'``."""
        where = {"player": "the player's choice", "random": "a random cell"}.get(
            self.first_cell, self.first_cell
        )
        board = f"{self.width}x{self.height}/{self.mines}"
        if self.topology != "square":
            board += f" {self.topology}"
        return f"{board}, first click {self.first_click} at {where}, player {self.player}, seed {self.seed}"


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game played: its status, guesses, moves and seconds."""

    status: str
    guesses: int
    reveals: int
    flags: int
    seconds: float = field(compare=False)

    @property
    def is_won(self) -> bool:
        return self.status == "won"


def wilson_interval(wins: int, games: int, *, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (95% by default).

    ``(p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)`` with ``p = wins/n``:
    unlike ``p ± z·sqrt(p(1-p)/n)`` it stays inside [0, 1] and keeps its
    coverage near 0 and 1.

    Raises
    ------
    SimulationError
        For ``games < 1`` or ``wins`` outside ``0..games``.

    Examples
    --------
    >>> low, high = wilson_interval(0, 10)
    >>> round(low, 4), round(high, 4)
    (0.0, 0.2775)
    >>> [round(x, 4) for x in wilson_interval(50, 100)]
    [0.4038, 0.5962]
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise SimulationError(f"games must be an integer >= 1, got {games!r}")
    if isinstance(wins, bool) or not isinstance(wins, int) or not 0 <= wins <= games:
        raise SimulationError(f"wins must be an integer in 0..{games}, got {wins!r}")
    n = games
    p = wins / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True, slots=True)
class WinRate:
    """The result of :func:`simulate`.

    Attributes
    ----------
    setup : Setup
    wins, games : int
    guesses : int
        Guesses over all games (see the module notes).
    seconds : float
        Time spent playing, summed over games (across all workers; not wall
        clock). Not compared: two runs of the same setup are equal.

    >>> rate = WinRate(Setup(9, 9, 10, "safe", "0,0", "ProbabilisticPlayer()", 0), 90, 100, 120, 2.0)
    >>> rate.rate, rate.mean_guesses, rate.seconds_per_game
    (0.9, 1.2, 0.02)
    >>> [round(x, 4) for x in rate.interval]
    [0.8256, 0.9448]
    >>> print(rate)
    90/100 won: 90.00% (95% CI 82.56-94.48%), 1.20 guesses/game, 20.0 ms/game
    """

    setup: Setup
    wins: int
    games: int
    guesses: int
    seconds: float = field(compare=False)
    #: Games read back from the results file rather than played in this call.
    resumed: int = field(default=0, compare=False)

    @property
    def rate(self) -> float:
        return self.wins / self.games

    @property
    def interval(self) -> tuple[float, float]:
        """The Wilson 95% interval of the win rate."""
        return wilson_interval(self.wins, self.games)

    @property
    def mean_guesses(self) -> float:
        return self.guesses / self.games

    @property
    def seconds_per_game(self) -> float:
        return self.seconds / self.games

    def __str__(self) -> str:
        low, high = self.interval
        return (
            f"{self.wins}/{self.games} won: {100 * self.rate:.2f}% "
            f"(95% CI {100 * low:.2f}-{100 * high:.2f}%), "
            f"{self.mean_guesses:.2f} guesses/game, {1000 * self.seconds_per_game:.1f} ms/game"
        )


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
    if (
        not isinstance(cell, tuple)
        or len(cell) != 2
        or not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in cell)
    ):
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


# ------------------------------------------------------------ results file
def _checked_results_path(path: Path) -> None:
    """Refuse a results path that cannot be appended to, before any game is played."""
    if path.is_dir():
        raise SimulationError(f"results path {quote(str(path))} is a directory, not a file")
    if not path.parent.is_dir():
        raise SimulationError(
            f"results path {quote(str(path))}: folder {quote(str(path.parent))} does not exist"
        )
    try:
        with path.open("ab"):
            pass
    except OSError as error:
        raise SimulationError(f"cannot write results to {quote(str(path))}: {error.strerror}") from None


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _entry_problem(entry: dict[str, Any]) -> str | None:
    """What is wrong with a results entry of this setup, or ``None``."""
    for name in ("start", "stop", "wins", "guesses"):
        if not _is_count(entry.get(name)):
            return f"{name!r} must be a non-negative integer, got {quote(repr(entry.get(name)), 40)}"
    start, stop, wins = entry["start"], entry["stop"], entry["wins"]
    if stop <= start:
        return f"'stop' ({stop}) must be greater than 'start' ({start})"
    if wins > stop - start:
        return f"'wins' ({wins}) is more than the {stop - start} games of the batch"
    seconds = entry.get("seconds")
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 0 <= seconds < math.inf:
        return f"'seconds' must be a non-negative number, got {quote(repr(seconds), 40)}"
    return None


def _read_results(path: Path, setup: Setup) -> list[dict[str, Any]]:
    """The batches of ``setup`` already in ``path``, each line checked.

    A last line without its newline that is not JSON (a write cut short) is
    skipped with a warning; any other line that is not a valid entry raises
    :class:`~analyzer.errors.SimulationError` naming its line number.
    """
    if not path.exists():
        return []
    wanted = setup.to_dict()
    found = []
    raw = path.read_bytes().split(b"\n")
    where = f"results file {quote(str(path))}"
    for number, data in enumerate(raw, start=1):
        if not data.strip():
            continue
        is_cut = number == len(raw)  # no newline after it
        try:
            entry = json.loads(data.decode("utf-8"))
        except UnicodeDecodeError:
            raise SimulationError(f"{where}, line {number}: not UTF-8 text") from None
        except json.JSONDecodeError:
            if is_cut:
                warnings.warn(
                    f"{where}, line {number}: skipped an unfinished last line (an interrupted write)",
                    stacklevel=3,
                )
                continue
            raise SimulationError(f"{where}, line {number}: not a JSON line") from None
        if not isinstance(entry, dict) or "setup" not in entry:
            raise SimulationError(f"{where}, line {number}: not a results line of analyzer simulate")
        if entry.get("format") != _FORMAT:
            raise SimulationError(
                f"{where}, line {number}: results format {quote(repr(entry.get('format')), 20)},"
                f" this version reads {_FORMAT}"
            )
        if entry["setup"] != wanted:
            continue
        problem = _entry_problem(entry)
        if problem is not None:
            raise SimulationError(f"{where}, line {number}: {problem}; fix or remove the line")
        found.append(entry)
    return found


def _plan(
    games: int, done: list[dict[str, Any]], batch_size: int
) -> tuple[list[dict[str, Any]], list[range]]:
    """Non-overlapping finished batches inside ``0..games-1``, and ranges still to play."""
    kept: list[dict[str, Any]] = []
    covered = [False] * games
    for entry in sorted(done, key=lambda e: (e["start"], e["stop"])):
        start, stop = entry["start"], entry["stop"]
        if not (0 <= start < stop <= games) or any(covered[start:stop]):
            continue
        covered[start:stop] = [True] * (stop - start)
        kept.append(entry)
    todo = []
    index = 0
    while index < games:
        if covered[index]:
            index += 1
            continue
        stop = index
        while stop < games and not covered[stop] and stop - index < batch_size:
            stop += 1
        todo.append(range(index, stop))
        index = stop
    return kept, todo


def _is_json(data: bytes) -> bool:
    try:
        json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return False
    return True


def _append(path: Path, entry: dict[str, Any]) -> None:
    """One JSON line, flushed and synced; an unfinished last line (a cut write) is dropped first."""
    with path.open("r+b") as handle:
        end = handle.seek(0, os.SEEK_END)
        if end > 0:
            handle.seek(-1, os.SEEK_END)
            if handle.read(1) != b"\n":
                # Back to the end of the last whole line: _read_results skipped the rest.
                start = max(0, end - (1 << 20))
                handle.seek(start)
                tail = handle.read()
                cut = tail.rfind(b"\n")
                keep = start + cut + 1 if cut >= 0 else (0 if start == 0 else end)
                if keep != end and _is_json(tail[cut + 1 :]):
                    keep = end  # a whole entry that only lacks its newline
                if keep != end:
                    handle.truncate(keep)
                handle.seek(0, os.SEEK_END)
                if keep == end:  # a last line longer than 1 MiB: keep it, end it
                    handle.write(b"\n")
        handle.write((json.dumps(entry) + "\n").encode("utf-8"))
        handle.flush()
        os.fsync(handle.fileno())


# ---------------------------------------------------------------- running
_PR_SET_PDEATHSIG = 1


def _die_with_parent(parent: int) -> None:
    """Worker initializer: end this process when ``parent`` ends, however it ends (SIGKILL too)."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            if libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0:
                if os.getppid() != parent:  # the parent ended before the signal was armed
                    os._exit(1)
                return
        except (OSError, AttributeError):  # pragma: no cover - no usable libc
            pass
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def _watch_parent(parent: int) -> None:  # pragma: no cover - only where prctl is missing
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


def _run_local(
    setup: Setup, player: Player, todo: list[range], workers: int, use_fast: bool
) -> Iterator[dict[str, Any]]:
    if workers == 1:
        for batch in todo:
            yield _run_batch(setup, player, batch.start, batch.stop, use_fast)
        return
    with ProcessPoolExecutor(
        max_workers=workers, initializer=_die_with_parent, initargs=(os.getpid(),)
    ) as pool:
        futures = [pool.submit(_run_batch, setup, player, b.start, b.stop, use_fast) for b in todo]
        try:
            for future in as_completed(futures):
                yield future.result()
        except BaseException:
            for future in futures:
                future.cancel()
            raise


def _run_dask(
    setup: Setup, player: Player, todo: list[range], workers: int, address: str | None, use_fast: bool
) -> Iterator[dict[str, Any]]:
    client, cluster = dask_client(workers, address, processes=workers > 1, error=SimulationError)
    from distributed import as_completed as dask_completed

    try:
        futures = [
            client.submit(_run_batch, setup, player, b.start, b.stop, use_fast, pure=False) for b in todo
        ]
        for future in dask_completed(futures):
            yield future.result()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _progress_bar(enabled: bool, games: int, done: int, setup: Setup) -> Any:
    if not enabled:
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError:  # pragma: no cover - the progress extra
        return None
    return tqdm(total=games, initial=done, unit="game", desc=f"{setup.width}x{setup.height}/{setup.mines}")


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
        The first cell revealed: ``(row, col)`` or ``"R,C"``, ``"corner"``
        (``0,0``), ``"centre"`` (``height // 2, width // 2``), ``"random"`` (uniform,
        the same for every player at a given seed), or ``None`` / ``"player"``:
        the player's own first move (:mod:`analyzer.play.players` says which).
    seed : int
        Root of every game's seed (see the module notes).
    workers : int
        Processes (``backend="local"``; ``1`` plays in this process) or local
        Dask workers; the result does not depend on it.
    backend : {"local", "dask"}
        ``"dask"`` runs the batches on ``dask.distributed``: the scheduler at
        ``address``, or a local cluster (threads in this process for one worker,
        processes for more).
    address : str, optional
        A Dask scheduler address (``"tcp://host:8786"``).
    batch_size : int, optional
        Games per task and per results line (default: about eight batches per
        worker, at most 50 games each).
    progress : bool
        Show a progress bar (tqdm, when installed).
    results_path : path, optional
        Append each finished batch as a JSON line; batches already there are
        not played again.
    exact : bool
        Play every move through the exact engine (Fractions), even for players
        with a compiled form (:data:`analyzer.play.fast.FAST_PLAYERS`, used by
        default). Both play the same games; the compiled form makes the same
        guesses up to ties within 1e-12 (the tests check it game by game).
    topology : str
        How cells touch: a name of :data:`analyzer.board.topology.TOPOLOGIES`
        (a ``"cube"`` board is ``n`` wide and ``6 * n`` high).

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
    try:
        chosen = make_player(player)
    except AnalyzerError as error:
        raise SimulationError(str(error)) from None
    games = whole(games, "games", minimum=1, error=SimulationError)
    workers = whole(workers, "workers", minimum=1, maximum=MAX_WORKERS, error=SimulationError)
    if backend not in BACKENDS:
        raise SimulationError(f"unknown backend {backend!r}; expected one of {', '.join(BACKENDS)}")
    if address is not None and backend != "dask":
        raise SimulationError("address is for backend 'dask'")
    for name, value in (("progress", progress), ("exact", exact)):
        try:
            flag(value, name)
        except OptionError as error:
            raise SimulationError(str(error)) from None
    setup = _make_setup(width, height, mines, chosen, first_click, first_cell, seed, topology)
    use_fast = not exact and has_fast_form(chosen)
    if batch_size is None:
        batch_size = max(1, min(2000 if use_fast else 50, games // (8 * workers)))
    batch_size = whole(batch_size, "batch_size", minimum=1, error=SimulationError)

    path = None if results_path is None else Path(results_path)
    if path is not None:
        _checked_results_path(path)
    done, todo = _plan(games, [] if path is None else _read_results(path, setup), batch_size)
    wins = sum(e["wins"] for e in done)
    guesses = sum(e["guesses"] for e in done)
    seconds = sum(e["seconds"] for e in done)
    bar = _progress_bar(progress, games, sum(e["stop"] - e["start"] for e in done), setup)
    if backend == "dask":
        batches = _run_dask(setup, chosen, todo, workers, address, use_fast) if todo else iter(())
    else:
        batches = _run_local(setup, chosen, todo, workers, use_fast)
    try:
        for result in batches:
            wins += result["wins"]
            guesses += result["guesses"]
            seconds += result["seconds"]
            if path is not None:
                _append(path, {"format": _FORMAT, "setup": setup.to_dict(), **result})
            if bar is not None:
                bar.update(result["stop"] - result["start"])
    finally:
        if bar is not None:
            bar.close()
    resumed = sum(e["stop"] - e["start"] for e in done)
    return WinRate(setup, wins, games, guesses, seconds, resumed)
