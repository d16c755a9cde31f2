"""The compiled game loop of the players with a policy: ``probabilistic``, ``pseq`` and ``expert`` (numba).

:func:`play_policy` plays a game from its first click: the cells the
single-number rules and then the probabilities prove safe are opened
(:mod:`analyzer.play.fast.layout`), and a guess is made only when none is left:
the first cell in the guess order (:func:`~analyzer.play.fast.candidates.lowest_probability_cell`),
PSEQ's survivors (:func:`~analyzer.play.fast.pseq.pseq_candidates`) or the
expert's guess (:func:`~analyzer.play.fast.expert.expert_guess`). The players
that guess at random have their own loop (:mod:`analyzer.play.fast.rules`), and
whole batches of games are played by :mod:`analyzer.play.fast.batch`.
"""

from __future__ import annotations

import numpy as np

from analyzer.jit import njit
from analyzer.play.fast.candidates import lowest_probability_cell
from analyzer.play.fast.expert import (
    EXPERT_CANDIDATES,
    EXPERT_ENDGAME_LAYOUTS,
    EXPERT_ENDGAME_NODES,
    EXPERT_MARGIN,
    expert_guess,
)
from analyzer.play.fast.layout import _open, numbers_shown
from analyzer.play.fast.probabilities import HIDDEN, SAFE, _closure, probabilities
from analyzer.play.fast.pseq import pseq_candidates

__all__ = ["PROBABILISTIC", "PSEQ", "EXPERT", "EXPERT_PARAMS", "play_policy"]

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
    board's :func:`~analyzer.play.fast.patterns.fifty_fifty_patterns` when it guesses pseudo-50/50s first
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
    count = numbers_shown(is_mine, nbr)
    state = start.copy()
    stack = np.empty(n * (deg + 1), np.int64)
    safe = np.empty(n, np.int64)
    prob = np.empty(n)
    known = np.empty(n, np.int8)
    info = np.zeros(1)
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
            kept, cands = pseq_candidates(state, known, nbr, mines, prob, max_nodes)
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
