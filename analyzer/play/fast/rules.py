"""Compiled forms of the players that guess at random: ``random``, ``local`` and ``subset``.

Their random guesses draw from the player's own :class:`numpy.random.Generator`
inside the compiled loop (numba's ``Generator.integers(0, k)`` draws what
``rng.integers(k)`` draws in Python and advances the generator the same way),
so a game is the exact player's game move for move: same deductions, same
guesses, same flags.

The rules are those of :mod:`analyzer.play.players.rules`: the single-number
rules to a fixpoint and, for ``subset``, the rule between two numbers whose
unknown neighbourhoods contain one another, alternated until neither fires.
Both rules only ever add knowledge, so the fixpoint does not depend on the
order they run in; the exact players reach the same one.
"""

from __future__ import annotations

import numpy as np

from analyzer.jit import njit
from analyzer.play.fast.layout import _open, numbers_shown
from analyzer.play.fast.probabilities import FLAG, HIDDEN, SAFE, _closure

__all__ = ["RULE_PLAYERS", "play_rules"]

RULE_PLAYERS = {"random": 0, "local": 1, "subset": 2}
"""The players of this module and their codes in :func:`play_rules`."""


@njit(cache=True)
def _unknown_around(state: np.ndarray, nbr: np.ndarray, i: int, out: np.ndarray) -> tuple[int, int]:
    """The hidden cells around number ``i``, into ``out``: how many, and the mines left among them
    (the number less the flags around it)."""  # pragma: no cover - compiled
    n = state.shape[0]
    hidden = 0
    left = np.int64(state[i])
    for k in range(nbr.shape[1]):
        j = nbr[i, k]
        if j < n:
            if state[j] == HIDDEN:
                out[hidden] = j
                hidden += 1
            elif state[j] == FLAG:
                left -= 1
    return hidden, int(left)


@njit(cache=True)
def _subset_rule(state: np.ndarray, nbr: np.ndarray) -> bool:  # pragma: no cover - compiled
    """One pass of the subset rule over every pair of numbers, in place; whether it fired."""
    n = state.shape[0]
    deg = nbr.shape[1]
    fired = False
    ua = np.empty(deg, np.int64)
    ub = np.empty(deg, np.int64)
    for a in range(n):
        if state[a] < 0:
            continue
        la, na = _unknown_around(state, nbr, a, ua)
        if la == 0:
            continue
        # partners: numbers next to one of a's unknown cells
        for t in range(la):
            for k2 in range(deg):
                b = nbr[ua[t], k2]
                if b >= n or b == a or state[b] < 0:
                    continue
                lb, nb = _unknown_around(state, nbr, b, ub)
                inside = 0
                for r in range(lb):
                    for s in range(la):
                        if ua[s] == ub[r]:
                            inside += 1
                            break
                if lb <= la or inside < la:
                    continue
                extra = nb - na
                diff = lb - la
                mark = 0
                if extra == 0:
                    mark = SAFE
                elif extra == diff:
                    mark = FLAG
                if mark == 0:
                    continue
                for k in range(deg):
                    j = nbr[b, k]
                    if j < n and state[j] == HIDDEN:
                        member = False
                        for s in range(la):
                            if ua[s] == j:
                                member = True
                                break
                        if not member:
                            state[j] = mark
                            fired = True
                # a's unknown cells are unchanged (only b's others were settled): go on with a
    return fired


@njit(cache=True)
def play_rules(
    kind: int,
    is_mine: np.ndarray,
    nbr: np.ndarray,
    mines: int,
    first: int,
    first_is_guess: bool,
    rng: np.random.Generator,
    trace: np.ndarray,
) -> tuple[int, int, int, int, int]:  # pragma: no cover - compiled
    """Play one game with ``random`` (0), ``local`` (1) or ``subset`` (2) from the reveal of ``first``.

    Returns ``(won, guesses, reveals, flags, traced)``; ``trace`` receives the
    guessed cells in order (the first click first).
    """
    n = is_mine.shape[0]
    deg = nbr.shape[1]
    count = numbers_shown(is_mine, nbr)
    state = np.full(n, HIDDEN, np.int8)
    known = np.empty(n, np.int8)
    stack = np.empty(n * (deg + 1), np.int64)
    ground = np.empty(n, np.int64)
    to_open = n - mines
    revealed = 0
    guesses = 0
    reveals = 1
    flags = 0
    traced = 0
    guesses += first_is_guess
    trace[traced] = first
    traced += 1
    if is_mine[first]:
        return 0, guesses, reveals, flags, traced
    revealed += _open(first, is_mine, count, nbr, state, stack)
    while revealed < to_open:
        known[:] = state
        if kind >= 1:
            _closure(known, nbr)
            if kind == 2:
                while _subset_rule(known, nbr):
                    _closure(known, nbr)
        acted = False
        for i in range(n):  # proved mines are flagged first
            if known[i] == FLAG and state[i] == HIDDEN:
                state[i] = FLAG
                flags += 1
                acted = True
        for i in range(n):  # then proved safe cells revealed, row-major
            if known[i] == SAFE:
                acted = True
                if state[i] == HIDDEN:
                    reveals += 1
                    revealed += _open(i, is_mine, count, nbr, state, stack)
                    if revealed == to_open:
                        return 1, guesses, reveals, flags, traced
        if acted:
            continue
        size = 0
        for i in range(n):
            if state[i] == HIDDEN and known[i] == HIDDEN:
                ground[size] = i
                size += 1
        cell = ground[rng.integers(0, size)]
        guesses += 1
        reveals += 1
        trace[traced] = cell
        traced += 1
        if is_mine[cell]:
            return 0, guesses, reveals, flags, traced
        revealed += _open(cell, is_mine, count, nbr, state, stack)
    return 1, guesses, reveals, flags, traced
