"""The values of a simulation: its :class:`Setup`, a :class:`GameRecord` a game, the :class:`WinRate`.

:func:`analyzer.play.simulation.simulate` returns a :class:`WinRate`; its interval is
:func:`wilson_interval`'s. :mod:`analyzer.play.simulation` re-exports all of them.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from statistics import NormalDist
from typing import Any

from analyzer.errors import SimulationError

__all__ = ["Z95", "Setup", "GameRecord", "WinRate", "wilson_interval"]

Z95 = NormalDist().inv_cdf(0.975)
"""The standard normal quantile of a two-sided 95% interval (1.959963984540054)."""


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
