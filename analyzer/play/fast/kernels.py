"""Compiled kernels (numba) of the fast play engine: mine probabilities in float64 and the game loop.

A position is a flat ``int8`` array ``state``: ``-1`` a hidden cell, ``-2`` a
flag (a trusted mine), ``0..8`` a revealed number. Neighbourhoods come from
:func:`analyzer.board.topology.neighbour_array` (``N`` pads a short row), so
every topology the board knows works here too.

:func:`probabilities` runs the exact solve's compiled core
(:mod:`analyzer.solver.kernels`) with floats: each number with hidden
neighbours is an equation; hidden cells next to the same numbers form a group
(:func:`~analyzer.solver.kernels.constraint_arrays`); numbers that share a
group form a component (:func:`~analyzer.solver.kernels.split_components`);
each component is enumerated by the solve's own search
(:func:`~analyzer.solver.kernels.search_component`, counting in float64) into
layouts by mine count and mines by group; a dynamic programme over mine counts joins the components with
the background, whose weights ``C(B, L - m)`` are taken in log space and
rescaled, so 100x100 boards neither overflow nor underflow the totals. Which
cells are *certainly* safe or mines is decided apart, by exact boolean
feasibility of the same sums, so a rounding error can never make a guess look
safe. The exact engine (:func:`analyzer.solve`) checks these floats in the tests.
"""

from __future__ import annotations

import math

import numpy as np

from analyzer.jit import njit
from analyzer.play.fast.candidates import (
    _guess_candidates,
    _split_candidates,
    lowest_probability_cell,
)
from analyzer.play.fast.endgame import endgame_move, isolated_move, isolated_parts  # noqa: F401  (its importers' names, for now)
from analyzer.play.fast.layout import _open, positions_to_mask, sample_layout, select_block  # noqa: F401  (its importers' names, for now)
from analyzer.play.fast.outlooks import _outlooks, _reveal_outlook, _tertiary, pseq_candidates  # noqa: F401  (its importers' names, for now)
from analyzer.play.fast.patterns import (  # noqa: F401  (its importers' names, for now)
    _CHAIN_SIDE,
    _LONGTERM_MISSING,
    _union,
    chain_patterns,
    fifty_fifty_patterns,
    fifty_influence,
    no_patterns,
    pseudo_fifty_fifties,
)
from analyzer.play.fast.probabilities import (
    _NO,
    DEFAULT_MAX_NODES,  # noqa: F401  (its importers' name, for now)
    HIDDEN,
    SAFE,
    _closure,
    probabilities,
)

# ------------------------------------------------------------------ expert
# The exact player's defaults (ExpertPlayer: margin 1/50, candidates, endgame_layouts, endgame_nodes);
# only a player with these plays compiled.
EXPERT_MARGIN = 0.02
EXPERT_CANDIDATES = 8
EXPERT_ENDGAME_LAYOUTS = 60
EXPERT_ENDGAME_NODES = 20_000


@njit(cache=True)
def _living_least_likely(
    state: np.ndarray,
    known: np.ndarray,
    nbr: np.ndarray,
    mines: int,
    prob: np.ndarray,
    cells: np.ndarray,
    count: int,
    max_nodes: int,
) -> int:  # pragma: no cover - compiled
    """The living cell of ``cells[:count]`` least likely to be a mine (ties to the first); -2 when none lives.

    Living: it could show more than one number. -1 when a position was too hard.
    """
    n = state.shape[0]
    some = np.empty(n)
    expected = np.empty(n)
    entropy = np.empty(n)
    second = np.empty(n)
    if (
        _outlooks(
            state, known, nbr, mines, cells, count, max_nodes, some, expected, entropy, second, _NO, _NO, _NO
        )
        < 0
    ):
        return -1
    best = -2
    best_p = 2.0
    for t in range(count):
        c = cells[t]
        if entropy[c] > 0.0 and prob[c] < best_p - 1e-12:
            best, best_p = c, prob[c]
    return best


@njit(cache=True)
def expert_guess(
    state: np.ndarray,
    known: np.ndarray,
    nbr: np.ndarray,
    mines: int,
    prob: np.ndarray,
    log_total: float,
    margin: float,
    candidates: int,
    endgame_limit: int,
    endgame_nodes: int,
    max_nodes: int,
    score: int,
    wait_dead: bool,
    patterns: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    isolated: bool = False,
    offedge: int = 0,
    progress: float = 0.0,
    alike_once: bool = False,
    longterm: float = 0.0,
    pseudo_first: bool = True,
    chains: bool = False,
) -> int:
    """The ``expert`` player's guess (see :class:`analyzer.play.players.expert.ExpertPlayer`).

    With at most ``endgame_limit`` layouts (``log_total`` is the natural log of
    their number) the compiled end-game search of :mod:`analyzer.play.fast.endgame` chooses;
    else, or when that search passes ``endgame_nodes``, the first ``candidates``
    cells in the guess order (probability, ties within 1e-12 to fewest
    unrevealed neighbours, then index) whose probability is within ``margin``
    of the lowest are scored ``(1 - p) (1 + P(the number shown proves another
    cell safe | safe))``, or with ``secondary`` by their secondary safety
    ``(1 - p) E[1 if the number shown proves another cell safe, else the
    safety of the safest next guess | safe]`` (the chance of surviving this
    guess and the next one), and the best taken (ties within 1e-12 to the earlier).
    ``score``: 0 progress, 1 secondary safety, 2 tertiary (the candidates by
    secondary safety, best first, scored :func:`_tertiary` while one can still
    win), 3 blended secondary safety (the safest next guess's safety blended
    with the second safest's, 4 to 1: see :func:`_reveal_outlook`). With
    ``wait_dead``, candidates that can show one number only (entropy 0: dead)
    are left out while a living one is among them.
    With ``isolated``, a closed-off part of the board of fixed mine count
    is played by the end game over its own layouts first
    (:func:`isolated_move`). Before any candidate, when ``patterns``
    (:func:`fifty_fifty_patterns`, or none: :func:`no_patterns`) finds living
    pseudo-50/50 cells (:func:`pseudo_fifty_fifties`), the least likely to be
    a mine is guessed (ties to the lowest index). With ``offedge`` above 0 the
    candidates come from :func:`_split_candidates`; a secondary score has
    ``progress`` times ``(1 - p) P(the number shown proves another cell safe
    | safe)`` added. With ``alike_once``, far cells alike count once among the
    candidates (:func:`_guess_candidates`). With ``longterm`` above 0 each
    score is multiplied by ``1 + longterm I / (1 - p)``, ``I`` the chance that
    a 50/50 of ``patterns`` forms around the candidate (:func:`fifty_influence`);
    pseudo-50/50s are looked for only with ``pseudo_first``, and with
    ``chains`` among the position's :func:`chain_patterns` too.
    Returns -1 when a position was too hard to enumerate or beyond the
    compiled end game (the game is then played by the exact engine).
    """  # pragma: no cover - compiled
    n = state.shape[0]
    secondary = score != 0
    third = score == 2
    blend = score == 3
    living = score == 4
    if endgame_limit > 0 and log_total <= math.log(endgame_limit + 0.5):
        cell = endgame_move(state, nbr, mines, endgame_limit, endgame_nodes)
        if cell >= 0:
            return cell
        if cell == -2:
            return -1
    if isolated and endgame_limit > 0:
        cell = isolated_move(state, nbr, mines, prob, endgame_limit, endgame_nodes)
        if cell >= 0:
            return cell
    if pseudo_first and patterns[0].shape[0] > 0:
        pseudo = np.empty(n, np.int64)
        found = pseudo_fifty_fifties(known, nbr, mines, prob, log_total, max_nodes, patterns, pseudo)
        if found >= 0 and chains:
            more = np.empty(n, np.int64)
            extra = pseudo_fifty_fifties(
                known, nbr, mines, prob, log_total, max_nodes, chain_patterns(known, nbr, prob), more
            )
            found = -1 if extra < 0 else _union(pseudo, found, more, extra)
        if found < 0:
            return -1
        if found > 0:
            cell = _living_least_likely(state, known, nbr, mines, prob, pseudo, found, max_nodes)
            if cell != -2:
                return cell
    if offedge > 0:
        cands = _split_candidates(state, nbr, prob, margin, candidates, offedge)
    else:
        cands = _guess_candidates(state, nbr, prob, margin, candidates, alike_once)
    count = cands.shape[0]
    if count == 1:
        return cands[0]
    some = np.empty(n)
    expected = np.empty(n)
    entropy = np.empty(n)
    second = np.empty(n)
    scored = _outlooks(
        state,
        known,
        nbr,
        mines,
        cands,
        count,
        max_nodes,
        some,
        expected,
        entropy,
        second,
        secondary,
        blend,
        living,
    )
    if scored < 0:
        return -1
    influence = np.zeros(n if longterm > 0.0 else 0)  # read only with longterm
    if longterm > 0.0 and (
        fifty_influence(known, nbr, mines, prob, log_total, max_nodes, patterns, cands, count, influence) < 0
    ):
        return -1
    alive = False  # some candidate is living (only asked when dead ones wait)
    if wait_dead:
        for t in range(count):
            if entropy[cands[t]] > 0.0:
                alive = True
    best = cands[0]
    best_score = -1.0
    for t in range(count):
        c = cands[t]
        if wait_dead and alive and entropy[c] == 0.0:
            continue  # its number is known already: it tells nothing, and can wait
        score = (1.0 - prob[c]) * (second[c] + progress * some[c] if secondary else 1.0 + some[c])
        if longterm > 0.0 and influence[c] > 0.0:
            score *= 1.0 + longterm * influence[c] / (1.0 - prob[c])
        if score > best_score + 1e-12:
            best, best_score = c, score
    if not third:
        return best
    # two plies deeper: the candidates by secondary safety, best first (stable), while one can still win
    done = np.zeros(count, np.bool_)
    left = count
    if wait_dead and alive:
        for t in range(count):
            if entropy[cands[t]] == 0.0:
                done[t] = True
                left -= 1
    best = -1
    best_score = -1.0
    for _ in range(left):
        # the next candidate by secondary safety (ties within 1e-12 to the earlier)
        u = -1
        top = -1.0
        for t in range(count):
            if not done[t]:
                value = (1.0 - prob[cands[t]]) * second[cands[t]]
                if value > top + 1e-12:
                    u, top = t, value
        done[u] = True
        c = cands[u]
        if best < 0:
            best = c
        if top <= best_score + 1e-12:
            break
        ahead = _tertiary(known, nbr, mines, c, margin, candidates, max_nodes)
        if ahead < 0:
            return -1
        score = (1.0 - prob[c]) * ahead
        if score > best_score + 1e-12:
            best, best_score = c, score
    return best


PROBABILISTIC = 0
PSEQ = 1
EXPERT = 2
EXPERT_PARAMS = np.array(
    [
        EXPERT_MARGIN,
        EXPERT_CANDIDATES,
        EXPERT_ENDGAME_LAYOUTS,
        EXPERT_ENDGAME_NODES,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
    ]
)
"""The ``expert`` policy's options as :func:`play_policy` takes them: margin, candidates, end-game
layouts, end-game nodes, the score (0.0 progress, 1.0 secondary safety, 2.0 tertiary, 3.0 blended,
4.0 living: see ``analyzer.play.fast.SCORE_CODES``), 1.0 to leave dead candidates for later (0.0:
guess them), 1.0 to guess pseudo-50/50 cells first (2.0: also those of chains of linked pairs, 0.0:
ignore them), 1.0 to play closed-off parts
of fixed mine count by their own end game first (0.0: as the rest), the number of off-front
candidates (0: the candidates are the first cells in the guess order), the weight of progress
added to a secondary score, 1.0 to count far cells alike once among the candidates (0.0: each), and
the weight of the chance that a 50/50 forms around a candidate (0.0: none)."""


@njit(cache=True)
def play_policy(
    policy: int,
    is_mine: np.ndarray,
    nbr: np.ndarray,
    mines: int,
    first: int,
    first_is_guess: bool,
    trace: np.ndarray,
    max_nodes: int,
    rands: np.ndarray,
    params: np.ndarray,
    patterns: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    start: np.ndarray,
    positions: np.ndarray,
) -> tuple[int, int, int, int]:
    """Play one game from its first click with the policy of ``probabilistic``, ``expert`` or PSEQ.

    Certainly safe cells are revealed before any guess, first those the
    single-number rules prove, then those the full probabilities prove; the
    position before each guess is therefore the same as the exact player's
    (revealing a safe cell never makes another one unsafe). The guess is the
    lowest probability (ties within 1e-12 to fewest unrevealed neighbours, then
    index) for ``PROBABILISTIC``; :func:`expert_guess` for ``EXPERT``, with
    ``params`` its options (:data:`EXPERT_PARAMS`) and ``patterns`` the
    board's :func:`fifty_fifty_patterns` when it guesses pseudo-50/50s first
    or weighs the 50/50s that may form (else :func:`no_patterns`); for
    ``PSEQ`` the survivors of :func:`pseq_candidates`, drawn among as
    ``numpy.random.Generator.integers(survivors)`` draws, from ``rands``: the
    generator's 32-bit words in turn (a game that runs out of them returns -1).

    The game starts from ``start`` (the shown numbers, ``HIDDEN`` elsewhere: all
    hidden for a new game, or a position of the game on ``is_mine``), ``first``
    being the first cell opened there. Row ``t`` of ``positions`` (as many rows
    as it has; none to record nothing) receives the position before the
    ``t``-th guessed cell of ``trace`` is opened (row 0: ``start``).

    Returns ``(won, guesses, reveals, traced)``: ``trace`` receives the cells
    guessed, in order (the first click included), ``traced`` of them. ``won``
    is 1 or 0, or -1 when a position was too hard to enumerate within
    ``max_nodes`` (the caller replays the game with the exact engine).
    """  # pragma: no cover - compiled
    n = is_mine.shape[0]
    deg = nbr.shape[1]
    count = np.zeros(n, np.int8)
    for i in range(n):
        if is_mine[i]:
            for k in range(deg):
                j = nbr[i, k]
                if j < n:
                    count[j] += 1
    state = start.copy()
    stack = np.empty(n * (deg + 1), np.int64)
    safe = np.empty(n, np.int64)
    prob = np.empty(n)
    known = np.empty(n, np.int8)
    info = np.zeros(1)
    cands = np.empty(n, np.int64)
    to_open = n - mines
    revealed = 0
    for i in range(n):
        if state[i] >= 0:
            revealed += 1
    if positions.shape[0] > 0:
        positions[0, :] = state
    guesses = 1 if first_is_guess else 0
    reveals = 1
    drawn = 0
    trace[0] = first
    traced = 1
    if is_mine[first]:
        return 0, guesses, reveals, traced
    revealed += _open(first, is_mine, count, nbr, state, stack)
    while revealed < to_open:
        known[:] = state
        _closure(known, nbr)
        found = 0
        for i in range(n):
            if known[i] == SAFE:
                safe[found] = i
                found += 1
        if found == 0:
            status = probabilities(known, nbr, mines, prob, max_nodes, info)
            if status <= 0:
                return -1 if status < 0 else -2, guesses, reveals, traced
            for i in range(n):
                if state[i] == HIDDEN and known[i] == HIDDEN and prob[i] == 0.0:
                    safe[found] = i
                    found += 1
        if found:
            for t in range(found):
                i = safe[t]
                if state[i] == HIDDEN:
                    reveals += 1
                    revealed += _open(i, is_mine, count, nbr, state, stack)
            continue
        if policy == PROBABILISTIC:
            cell = lowest_probability_cell(state, nbr, prob)
        elif policy == EXPERT:
            cell = expert_guess(
                state,
                known,
                nbr,
                mines,
                prob,
                info[0],
                params[0],
                int(params[1]),
                int(params[2]),
                int(params[3]),
                max_nodes,
                int(params[4]),
                params[5] != 0.0,
                patterns,
                params[7] != 0.0,
                int(params[8]),
                params[9],
                params[10] != 0.0,
                params[11],
                params[6] != 0.0,
                params[6] == 2.0,
            )
            if cell < 0:
                return -1, guesses, reveals, traced
        else:
            kept = pseq_candidates(state, known, nbr, mines, prob, max_nodes, cands)
            if kept < 0:
                return -1, guesses, reveals, traced
            cell = cands[0]
            if kept > 1:
                # numpy's Generator.integers(kept), as the Python player draws it: Lemire's
                # method on the generator's stream of 32-bit words, pre-drawn into ``rands``.
                if drawn >= rands.shape[0]:
                    return -1, guesses, reveals, traced
                product = rands[drawn] * kept
                drawn += 1
                low = product & 0xFFFFFFFF
                if low < kept:
                    threshold = (4294967296 - kept) % kept
                    while low < threshold:
                        if drawn >= rands.shape[0]:
                            return -1, guesses, reveals, traced
                        product = rands[drawn] * kept
                        drawn += 1
                        low = product & 0xFFFFFFFF
                cell = cands[product >> 32]
        guesses += 1
        reveals += 1
        if traced < positions.shape[0]:
            positions[traced, :] = state
        trace[traced] = cell
        traced += 1
        if is_mine[cell]:
            return 0, guesses, reveals, traced
        revealed += _open(cell, is_mine, count, nbr, state, stack)
    return 1, guesses, reveals, traced
