"""Players: given the :class:`~analyzer.Board` a game shows, what to do next.

A player's :meth:`~Player.choose` takes a board and a :class:`numpy.random.Generator`
and returns an :class:`Action`: reveal a cell or flag it, and whether the player
counts the move as a guess (a reveal it could not prove safe). Players are built
by name from :data:`PLAYERS` (:func:`make_player`) and pickle, so worker
processes can build or receive them.

Players
-------
``random``
    A uniformly random hidden, unflagged cell. Every reveal is a guess.
``local``
    The two single-number rules, applied until nothing changes: a number whose
    mines are all known (flagged or proved) makes its other hidden neighbours
    safe; a number with exactly as many unknown neighbours as mines still
    needed makes them all mines. Proved mines are flagged, proved safe cells
    revealed; when stuck, a uniformly random hidden, unflagged cell (a guess).
``subset``
    ``local`` plus the rule between two numbers whose unknown neighbourhoods
    contain one another: if ``A``'s unknown cells are a subset of ``B``'s,
    ``B``'s other cells hold ``need(B) - need(A)`` mines, so all or none of
    them are mines when that is ``len`` or ``0``.
``probabilistic``
    Every certainly safe cell of :func:`analyzer.solve` if there is one; else
    the hidden cell of lowest exact mine probability (a guess). Ties go to the
    cell with the fewest unrevealed neighbours (a corner before an edge before
    the middle; cells by the revealed area before open ground: such a cell more
    often shows a zero or a number that settles its few neighbours), then to the
    first in row-major order. It does not flag: a certain mine has probability 1
    whether flagged or not, and a game is won once every safe cell is revealed.
``expert``
    Like ``probabilistic`` while certainly safe cells exist. To guess, it takes
    the cells within ``margin`` of the lowest mine probability (at most
    ``candidates`` of them, in ``probabilistic``'s order) and, for each, the
    exact chance that it is safe and shows each number ``k``, by solving the
    board with the cell revealed as ``k`` (the values of
    :meth:`analyzer.Analysis.number_distribution`); it keeps those analyses to
    see whether the revealed ``k`` would leave a certainly safe cell. It plays
    the candidate with the highest ``P(safe) + P(safe and a certainly safe cell
    follows)``: survival first, then the chance that the game moves on without
    another guess (a one-step look-ahead, a heuristic, not an optimum). With
    ``score="secondary"`` it plays the highest secondary safety instead, the
    chance of surviving this guess and the next: ``P(safe)`` times the
    expectation, over the numbers shown, of 1 when a certainly safe cell
    follows and otherwise of the safest next guess (David Hill's measure;
    ``docs/strongest_player.md`` measures both); with ``score="tertiary"``
    one click deeper, the chance of surviving this guess and the next two
    clicks (a safe click counting as one, as minesolve's depth-3 search
    counts them). With ``dead="wait"`` it leaves out *dead* candidates, cells
    that could show one number only (revealing one tells nothing), while a
    living one is among the candidates. When at
    most ``endgame_layouts`` layouts remain it instead searches the end game
    exactly: an expectimax over the remaining layouts (equally likely), reveals
    with their flood fill, that maximises the probability of winning; the
    search gives up past ``endgame_nodes`` states and the heuristic decides.
    It does not flag. The gain over ``probabilistic`` is small: on the same
    1000 expert games (safe first click in the corner) it won 433 to 410, and
    within a dozen games of 1000 elsewhere (``docs/win_rates.md``); the margin,
    candidates and score were not tuned beyond a few hundred trial games.

``optimal``
    Perfect play on small boards: every move maximises the exact probability
    of winning, by the search of :mod:`analyzer.play.optimal` (boards of at most
    ``max_layouts`` layouts; larger ones are refused). It never flags.

First moves
-----------
On a board with nothing revealed (when :func:`analyzer.simulate` is
given no ``first_cell``), ``random``, ``local`` and ``subset`` reveal a
uniformly random cell; ``probabilistic`` and ``expert`` reveal the top-left
corner ``(0, 0)``: every cell has the same probability, corners have the fewest
neighbours, and (``expert``) a corner has the best chance of showing a zero.
Under ``first_click="safe"`` a corner is the usual choice; under
``"opening"`` a cell away from the edges opens more.

Players know nothing of the first-click rule: they see the board only. Under a
safe zone of radius 2 or more the zone's hidden cells are safe but the board does
not say so, and no player uses it.

A player may remember deductions between calls (a queue of proved moves, valid
as long as the board only gains information): the next board is checked to
extend the one they came from, and the memory is dropped otherwise;
:meth:`Player.reset` drops it at once.

Examples
--------
>>> import numpy as np
>>> from analyzer.board.board import Board
>>> board = Board.from_text("2x2x1\\nHH\\n11\\n")
>>> rng = np.random.default_rng(0)
>>> make_player("probabilistic").choose(board, rng)
Action(kind='reveal', row=0, col=0, is_guess=True)
>>> sorted(PLAYERS)
['expert', 'local', 'optimal', 'probabilistic', 'pseq', 'random', 'subset']
>>> player = make_player("local")
>>> board = Board.from_text("3x2x1\\nHHH\\n110\\n")
>>> [player.choose(board, rng) for _ in range(2)]  # the same board: the plan is kept
[Action(kind='flag', row=0, col=0, is_guess=False), Action(kind='reveal', row=0, col=1, is_guess=False)]
"""

from __future__ import annotations

from fractions import Fraction

from analyzer.errors import PlayerError
from analyzer.play.players.base import ACTION_KINDS, Action, Player
from analyzer.play.players.endgame import endgame_layouts, endgame_search, reveal_outcomes
from analyzer.play.players.expert import ExpertPlayer
from analyzer.play.players.guessing import RandomPlayer
from analyzer.play.players.optimal import OptimalPlayer
from analyzer.play.players.probabilistic import ProbabilisticPlayer, guess_order
from analyzer.play.players.pseq import PseqPlayer
from analyzer.play.players.rules import LocalDeductions, LocalPlayer, SubsetPlayer, local_deductions

__all__ = [
    "ACTION_KINDS",
    "Action",
    "LocalDeductions",
    "Player",
    "PlayerError",
    "RandomPlayer",
    "LocalPlayer",
    "SubsetPlayer",
    "ProbabilisticPlayer",
    "ExpertPlayer",
    "PseqPlayer",
    "OptimalPlayer",
    "PLAYERS",
    "make_player",
    "parse_player",
    "local_deductions",
    "guess_order",
    "reveal_outcomes",
    "endgame_layouts",
    "endgame_search",
]

PLAYERS: dict[str, type[Player]] = {
    cls.name: cls
    for cls in (
        RandomPlayer,
        LocalPlayer,
        SubsetPlayer,
        ProbabilisticPlayer,
        ExpertPlayer,
        PseqPlayer,
        OptimalPlayer,
    )
}
"""The players by name."""


def parse_player(text: str) -> tuple[str, dict[str, object]]:
    """``name`` or ``name:option=value,...`` as a player name and its options.

    Values are read as integers (``16``), fractions (``3/50``, ``0.06``) or words
    (``secondary``): the form the command line and the benchmarks take.

    >>> parse_player("expert:score=secondary,margin=3/50,candidates=16")
    ('expert', {'score': 'secondary', 'margin': Fraction(3, 50), 'candidates': 16})
    >>> parse_player("expert:candidates")
    Traceback (most recent call last):
    ...
    analyzer.errors.PlayerError: 'candidates': expected option=value, e.g. expert:candidates=16
    """
    name, _, rest = text.partition(":")
    options: dict[str, object] = {}
    for part in filter(None, rest.split(",")):
        key, equals, value = part.partition("=")
        value = value.strip()
        if not equals or not key.strip() or not value:
            raise PlayerError(f"{part!r}: expected option=value, e.g. expert:candidates=16")
        if value.lstrip("-").isdigit():
            options[key.strip()] = int(value)
        elif "/" in value or "." in value:
            try:
                options[key.strip()] = Fraction(value)
            except (ValueError, ZeroDivisionError):
                raise PlayerError(f"{part!r}: {value!r} is not a number") from None
        else:
            options[key.strip()] = value
    return name.strip(), options


def make_player(name: str | Player, **options: object) -> Player:
    """A player by name (a key of :data:`PLAYERS`), with its options.

    The name may carry options (:func:`parse_player`); a :class:`Player` is
    returned as it is.

    Parameters
    ----------
    name : str or Player
        A name of :data:`PLAYERS`, optionally with options (``"expert:candidates=16"``).
    **options
        The player's keyword options (those of its class).

    Returns
    -------
    Player

    Raises
    ------
    PlayerError
        If the name or an option is unknown, or an option's value is not allowed.

    Examples
    --------
    >>> make_player("expert", candidates=4)
    ExpertPlayer(margin=Fraction(1, 50), candidates=4, endgame_layouts=60, endgame_nodes=20000)
    >>> make_player("expert:score=secondary,margin=3/50,candidates=16")  # doctest: +NORMALIZE_WHITESPACE
    ExpertPlayer(margin=Fraction(3, 50), candidates=16, endgame_layouts=60, endgame_nodes=20000,
                 score='secondary')
    >>> make_player("greedy")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    analyzer.errors.PlayerError: unknown player 'greedy'; expected one of random, local, ...
    """
    if isinstance(name, Player):
        if options:
            raise PlayerError("options go with a player name, not a player")
        return name
    if isinstance(name, str) and ":" in name:
        name, given = parse_player(name)
        options = {**given, **options}
    if not isinstance(name, str) or name not in PLAYERS:
        raise PlayerError(f"unknown player {name!r}; expected one of {', '.join(PLAYERS)}")
    try:
        return PLAYERS[name](**options)  # type: ignore[arg-type]
    except TypeError as error:
        raise PlayerError(f"bad option for player {name!r}: {error}") from None
