"""The fast play engine: compiled (numba) probabilities and game loops, checked by the exact engine.

The exact pipeline (:func:`analyzer.solve`) stays the reference for analysis;
this engine answers the same question in float64 for play, where a game asks
it dozens of times. :func:`fast_probabilities` gives every cell's mine
probability; :func:`play_game` plays a whole game with a player's policy in
compiled code. :func:`analyzer.simulate` uses it by default for the players in
:data:`FAST_PLAYERS` (``exact=True`` plays through the exact engine instead).

>>> from analyzer import Board, solve
>>> board = Board.from_text("4x3x4\\nHHHH\\nFHHH\\n2H2H\\n")
>>> fast = fast_probabilities(board)
>>> exact = solve(board).to_numpy()
>>> bool(abs(fast - exact)[~np.isnan(exact)].max() < 1e-12)
True
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np

from analyzer.board.board import FLAG, HIDDEN, Board
from analyzer.board.topology import Topology, neighbour_array
from analyzer.errors import InconsistentBoardError, SolverTimeoutError
from analyzer.play.fast.candidates import lowest_probability_cell
from analyzer.play.fast.expert import expert_guess
from analyzer.play.fast.layout import positions_to_mask, sample_layout, select_block
from analyzer.play.fast.loop import EXPERT, EXPERT_PARAMS, PROBABILISTIC, PSEQ, play_policy
from analyzer.play.fast.patterns import fifty_fifty_patterns as _board_patterns
from analyzer.play.fast.patterns import no_patterns
from analyzer.play.fast.probabilities import DEFAULT_MAX_NODES, _closure
from analyzer.play.fast.probabilities import probabilities as _probabilities
from analyzer.play.fast.pseq import pseq_candidates

__all__ = [
    "FAST_PLAYERS",
    "fast_probabilities",
    "play_game",
    "first_choice",
    "neighbours_of",
    "layout_mask",
    "expert_params",
    "fifty_fifty_patterns",
    "uses_patterns",
]

FAST_PLAYERS = ("probabilistic", "pseq", "expert", "random", "local", "subset")
"""Players with a compiled form (the others play through the exact engine)."""


def neighbours_of(topology: Topology, width: int, height: int) -> np.ndarray:
    """The board's neighbour array as the kernels take it (int64, padded with ``N``)."""
    return np.ascontiguousarray(neighbour_array(topology, width, height), dtype=np.int64)


@functools.lru_cache(maxsize=16)
def fifty_fifty_patterns(
    topology: str, width: int, height: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The board's 50/50 patterns as the compiled player takes them.

    :func:`analyzer.play.fast.patterns.fifty_fifty_patterns` on the board's neighbour array,
    made once a board shape (about 2 ms on expert): the compiled form of
    :func:`analyzer.play.forced.fifty_fifty_patterns`.
    """
    return _board_patterns(neighbours_of(topology, width, height))


def fast_probabilities(
    board: Board, *, trust_flags: bool = True, max_nodes: int = DEFAULT_MAX_NODES
) -> np.ndarray:
    """Every cell's mine probability in float64, shape (height, width), NaN where revealed.

    Certainly safe cells are exactly 0.0 and certain mines exactly 1.0 (decided
    by exact feasibility, not by rounding); other values agree with
    :func:`analyzer.solve` to about 1e-12.

    Raises
    ------
    InconsistentBoardError
        When no layout fits the board (use :func:`analyzer.solve` to name the clues).
    SolverTimeoutError
        When a component needs more than ``max_nodes`` search nodes (the fast
        engine enumerates; the exact engine's frontier programme does not).
    """
    cells = np.array(board.cells, dtype=np.int8)
    if not trust_flags:
        cells[cells == FLAG] = HIDDEN
    prob = np.empty(cells.shape[0])
    nbr = neighbours_of(board.topology, board.width, board.height)
    status = _probabilities(cells, nbr, board.mines, prob, max_nodes, np.zeros(1))
    if status == 0:
        raise InconsistentBoardError("no mine layout is consistent with this board", clues=())
    if status < 0:
        raise SolverTimeoutError(
            f"the fast engine gave up after {max_nodes} search nodes; "
            "analyzer.solve counts such boards exactly"
        )
    out = np.where(cells >= 0, np.nan, prob)
    return out.reshape(board.height, board.width)


def sample_layouts(board: Board, count: int, *, seed: int, max_nodes: int = DEFAULT_MAX_NODES) -> np.ndarray:
    """``count`` mine layouts drawn independently and uniformly among those that fit ``board``.

    Shape (count, height, width), True for a mine (flags are taken as mines).
    Each is drawn by the chain rule over the cells next to a number, with this
    engine's float64 probabilities, then the rest spread uniformly: exact but
    for floats. The same ``seed`` gives the same layouts.

    >>> board = Board.from_text("3x1x1\\n1HH\\n")
    >>> sample_layouts(board, 4, seed=0)[:, 0].tolist()
    [[False, True, False], [False, True, False], [False, True, False], [False, True, False]]

    Raises
    ------
    InconsistentBoardError, SolverTimeoutError
        As :func:`fast_probabilities`.
    """
    nbr = neighbours_of(board.topology, board.width, board.height)
    cells = np.array(board.cells, dtype=np.int8)
    drawn = position_layouts(cells, nbr, board.mines, count, np.random.default_rng(seed), max_nodes)
    return drawn.reshape(count, board.height, board.width)


def position_layouts(
    cells: np.ndarray,
    nbr: np.ndarray,
    mines: int,
    count: int,
    rng: np.random.Generator,
    max_nodes: int = DEFAULT_MAX_NODES,
) -> np.ndarray:
    """:func:`sample_layouts` on a flat position (int8: numbers, -1 hidden, -2 flag): (count, cells) bool.

    Each layout takes ``cells`` uniforms from ``rng``, in turn.
    """
    if count < 0:
        raise ValueError(f"count must be at least 0, not {count}")
    out = np.zeros((count, cells.shape[0]), dtype=np.bool_)
    for row in out:
        status = sample_layout(cells, nbr, mines, max_nodes, rng.random(cells.shape[0]), row)
        if status == 0:
            raise InconsistentBoardError("no mine layout is consistent with this board", clues=())
        if status < 0:
            raise SolverTimeoutError(
                f"the fast engine gave up after {max_nodes} search nodes drawing a layout"
            )
    return out


_POLICIES = {"probabilistic": PROBABILISTIC, "pseq": PSEQ, "expert": EXPERT}

SCORE_CODES = {"progress": 0.0, "secondary": 1.0, "tertiary": 2.0, "blended": 3.0, "living": 4.0}
"""How :func:`expert_params` passes the ``expert`` player's ``score`` to the compiled policy."""
PSEUDO_CODES = {"ignore": 0.0, "first": 1.0, "chains": 2.0}
"""How :func:`expert_params` passes the ``expert`` player's ``pseudo`` to the compiled policy."""
_BLOCK = 1 << 14  # as analyzer.play.placement draws them


def layout_mask(
    width: int, height: int, mines: int, excluded: np.ndarray, rng: np.random.Generator
) -> np.ndarray:
    """The layout :func:`analyzer.play.placement.place_mines_sequential` draws from ``rng``, as a flat mask.

    ``excluded`` holds the sorted flat indices kept mine-free. The draws are
    the same calls on the same generator (so the same layout and the same
    state of ``rng`` afterwards); only the per-cell decisions are compiled.
    """
    p = width * height - len(excluded)
    chosen = np.empty(max(mines, 1), dtype=np.int64)
    position, left, count = 0, mines, 0
    while left:
        size = min(p - position, _BLOCK)
        draws = rng.integers(0, np.arange(p - position, p - position - size, -1))
        position, left, count = select_block(draws, position, left, chosen, count)
    mask = np.empty(width * height, dtype=np.bool_)
    positions_to_mask(chosen, count, np.asarray(excluded, dtype=np.int64), mask)
    return mask


def expert_params(player: object) -> np.ndarray:
    """An :class:`~analyzer.play.players.expert.ExpertPlayer`'s options as the compiled policy takes them.

    >>> from analyzer.play.players import make_player
    >>> expert_params(make_player("expert", candidates=4, score="secondary")).tolist()
    [0.02, 4.0, 60.0, 20000.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
    """
    return np.array(
        [
            float(player.margin),  # type: ignore[attr-defined]
            player.candidates,  # type: ignore[attr-defined]
            player.endgame_layouts,  # type: ignore[attr-defined]
            player.endgame_nodes,  # type: ignore[attr-defined]
            SCORE_CODES[player.score],  # type: ignore[attr-defined]
            1.0 if player.dead == "wait" else 0.0,  # type: ignore[attr-defined]
            PSEUDO_CODES[player.pseudo],  # type: ignore[attr-defined]
            1.0 if player.isolated == "exact" else 0.0,  # type: ignore[attr-defined]
            player.offedge,  # type: ignore[attr-defined]
            float(player.progress),  # type: ignore[attr-defined]
            1.0 if player.alike == "once" else 0.0,  # type: ignore[attr-defined]
            float(player.longterm),  # type: ignore[attr-defined]
        ]
    )


def uses_patterns(params: np.ndarray | tuple[float, ...]) -> bool:
    """Whether an ``expert`` player with these options (:func:`expert_params`) needs the board's
    :func:`fifty_fifty_patterns`: it guesses pseudo-50/50s first or weighs the 50/50s that may form."""
    return params[6] != 0.0 or params[11] != 0.0


def _expert_options(
    params: tuple[float, ...], patterns: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
) -> tuple[Any, ...]:
    """The arguments of :func:`~analyzer.play.fast.expert.expert_guess` after the position (``state``
    to ``log_total``) for an ``expert`` player's options.

    ``params``: the options as :func:`expert_params` gives them, in a tuple.
    """
    (
        margin,
        candidates,
        layouts,
        nodes,
        score,
        wait_dead,
        pseudo,
        isolated,
        offedge,
        progress,
        alike,
        longterm,
    ) = params
    return (
        margin,
        int(candidates),
        int(layouts),
        int(nodes),
        DEFAULT_MAX_NODES,
        int(score),
        wait_dead != 0.0,
        patterns,
        isolated != 0.0,
        int(offedge),
        progress,
        alike != 0.0,
        longterm,
        pseudo != 0.0,
        pseudo == 2.0,
    )


def guess_in(
    player: str,
    state: np.ndarray,
    nbr: np.ndarray,
    mines: int,
    *,
    params: np.ndarray | None = None,
    patterns: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = None,
) -> int:
    """The cell ``player``'s compiled policy (``probabilistic`` or ``expert``) guesses in ``state``.

    ``state``: a position (int8: the shown numbers, -1 hidden) where no cell
    is proven safe, as before each guess of :func:`play_game`; ``params`` and
    ``patterns`` as there. Returns -1 when the position was too hard to enumerate.
    """
    if player not in ("probabilistic", "expert"):
        raise ValueError(f"no single-guess policy of player {player!r}: probabilistic or expert")
    known = state.copy()
    _closure(known, nbr)
    prob = np.empty(state.shape[0])
    info = np.zeros(1)
    status = _probabilities(known, nbr, mines, prob, DEFAULT_MAX_NODES, info)
    if status == 0:
        raise InconsistentBoardError("no mine layout is consistent with this position", clues=())
    if status < 0:
        return -1
    if player == "probabilistic":
        return int(lowest_probability_cell(state, nbr, prob))
    options = EXPERT_PARAMS if params is None else params
    if not uses_patterns(options):
        patterns = no_patterns()
    elif patterns is None:
        patterns = _board_patterns(nbr)
    return int(
        expert_guess(
            state, known, nbr, mines, prob, info[0], *_expert_options(tuple(options.tolist()), patterns)
        )
    )


@functools.lru_cache(maxsize=256)
def first_choice(
    player: str, topology: str, width: int, height: int, mines: int, options: tuple[float, ...] = ()
) -> int:
    """The cell (flat index) ``player`` opens on a board with nothing revealed.

    ``options``: an ``expert`` player's :func:`expert_params`, as a tuple (its
    defaults when empty). The same for every game of a setup (no randomness):
    computed once a setup.
    """
    if player not in _POLICIES:
        raise ValueError(
            f"no compiled policy of player {player!r} here; random, local and subset: fast.rules"
        )
    n = width * height
    state = np.full(n, HIDDEN, dtype=np.int8)
    prob = np.full(n, mines / n)
    nbr = neighbours_of(topology, width, height)
    if player == "pseq":
        kept, out = pseq_candidates(state, state.copy(), nbr, mines, prob, DEFAULT_MAX_NODES)
        return int(out[0]) if kept > 0 else 0
    if player == "expert":
        log_total = math.lgamma(n + 1) - math.lgamma(mines + 1) - math.lgamma(n - mines + 1)
        params = options or tuple(EXPERT_PARAMS.tolist())
        patterns = no_patterns()
        if uses_patterns(params):
            patterns = fifty_fifty_patterns(topology, width, height)
        return int(
            expert_guess(state, state.copy(), nbr, mines, prob, log_total, *_expert_options(params, patterns))
        )
    return int(lowest_probability_cell(state, nbr, prob))


def play_game(
    player: str,
    is_mine: np.ndarray,
    nbr: np.ndarray,
    first: int,
    *,
    first_is_guess: bool,
    max_nodes: int = DEFAULT_MAX_NODES,
    rng: np.random.Generator | None = None,
    params: np.ndarray | None = None,
    patterns: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = None,
    start: np.ndarray | None = None,
    positions: np.ndarray | None = None,
) -> tuple[bool, int, int, list[int]] | None:
    """Play one game from its first click with ``player``'s compiled policy.

    Returns ``(won, guesses, reveals, guessed cells)``; the first click is the
    first guessed cell (and counts as a guess when ``first_is_guess``). Returns
    None when a position of the game was too hard to enumerate within
    ``max_nodes``: the caller plays that game with the exact engine instead.
    ``rng`` draws among tied guesses (``pseq``): ``integers(ties)`` per tie, as
    the player's Python form draws them (the kernel replays numpy's bounded
    draw on the generator's 32-bit words, drawn here in advance). ``params``:
    an ``expert`` player's options (:func:`expert_params`; its defaults when None).
    ``patterns``: the board's :func:`fifty_fifty_patterns`, for an ``expert``
    player that guesses pseudo-50/50s first or weighs the 50/50s that may form
    (made from ``nbr`` when None). ``start``: the position to play from (int8,
    the shown numbers and -1 for hidden cells, as a position of the game on
    ``is_mine``; a new game when None), ``first`` a hidden cell of it.
    ``positions``: an int8 array of rows of ``is_mine``'s size; row ``t``
    receives the position before the ``t``-th guessed cell is opened (row 0:
    the start), as far as it has rows.
    """
    if player not in _POLICIES:
        raise ValueError(
            f"no compiled policy of player {player!r} here; random, local and subset: fast.rules"
        )
    mask = np.ascontiguousarray(is_mine, dtype=np.bool_)
    trace = np.empty(mask.shape[0] + 1, dtype=np.int64)
    if player == "pseq":
        source = np.random.default_rng(0) if rng is None else rng
        # A tie takes one word, or more in the rare rejections: twice the cells is ample.
        words = source.integers(2**32, dtype=np.uint32, size=2 * mask.shape[0] + 64)
        rands: np.ndarray = words.astype(np.int64)
    else:
        rands = np.zeros(1, dtype=np.int64)
    cells = mask.shape[0]
    begin = np.full(cells, HIDDEN, dtype=np.int8) if start is None else start
    if begin.shape != (cells,) or begin.dtype != np.int8 or begin[first] != HIDDEN:
        raise ValueError(f"start must be an int8 position of {cells} cells with cell {first} hidden")
    record = np.empty((0, cells), dtype=np.int8) if positions is None else positions
    if record.ndim != 2 or record.shape[1] != cells or record.dtype != np.int8:
        raise ValueError(f"positions must be an int8 array of rows of {cells} cells")
    policy = _POLICIES[player]
    options = EXPERT_PARAMS if params is None else params
    if policy != EXPERT or not uses_patterns(options):
        patterns = no_patterns()
    elif patterns is None:
        patterns = _board_patterns(nbr)
    won, guesses, reveals, traced = play_policy(
        policy,
        mask,
        nbr,
        int(mask.sum()),
        first,
        first_is_guess,
        trace,
        max_nodes,
        rands,
        options,
        patterns,
        begin,
        record,
    )
    if won == -1:
        return None
    if won < 0:  # pragma: no cover - a real game is always consistent
        raise InconsistentBoardError("the fast engine found no layout for a real game", clues=())
    return bool(won), int(guesses), int(reveals), trace[:traced].tolist()
