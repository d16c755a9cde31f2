"""The ``pseq`` player's guess, compiled (numba): PSEQ's filters P, S, E and Q over the candidates.

P is the lowest mine probability; S, E and Q are three figures of what each
candidate would show (:mod:`analyzer.play.fast.outlooks`): the chance that its
number proves another cell safe, the cells it proves safe on average, and the
entropy of its number. Each filter keeps the scores within a relative 1e-8 of the
best, as MineSweeperProb does; the caller draws among the survivors. Positions and
codes are those of :mod:`analyzer.play.fast.probabilities`.
"""

from __future__ import annotations

import numpy as np

from analyzer.jit import njit
from analyzer.play.fast.outlooks import _outlooks
from analyzer.play.fast.probabilities import _NO, HIDDEN

__all__ = ["pseq_candidates"]

_TOL = 1e-8  # MineSweeperProb keeps scores within a relative 1e-8 of the best


@njit(cache=True)
def _keep_best(cands: np.ndarray, count: int, score: np.ndarray) -> int:  # pragma: no cover - compiled
    """Keep the candidates whose score is within a relative 1e-8 of the best (in place)."""
    best = -np.inf
    for t in range(count):
        if score[cands[t]] > best:
            best = score[cands[t]]
    kept = 0
    for t in range(count):
        if score[cands[t]] >= best - abs(best) * _TOL:
            cands[kept] = cands[t]
            kept += 1
    return kept


@njit(cache=True)
def pseq_candidates(
    state: np.ndarray, known: np.ndarray, nbr: np.ndarray, mines: int, prob: np.ndarray, max_nodes: int
) -> tuple[int, np.ndarray]:
    """PSEQ's guess: how many cells are left after its filters P, S, E, Q, and an array that starts with them.

    P keeps the lowest mine probability; S the highest (1 - p) x P(the number
    shown proves another cell safe); E the highest (1 - p) x E[cells proved
    safe]; Q the highest entropy of the number shown. Each keeps scores within a
    relative 1e-8 of the best. The caller draws among the survivors uniformly.
    The count is -1 when a position was too hard to enumerate.
    """  # pragma: no cover - compiled
    n = state.shape[0]
    out = np.empty(n, np.int64)
    count = np.int64(0)
    for i in range(n):
        if state[i] == HIDDEN and known[i] == HIDDEN and 0.0 < prob[i] < 1.0:
            out[count] = i
            count += 1
    if count <= 1:
        return int(count), out  # int64 from the start (see _NO)
    score = np.empty(n)
    for t in range(count):
        score[out[t]] = -prob[out[t]]
    count = _keep_best(out, count, score)
    if count <= 1:
        return count, out
    read, some, expected, entropy, _ = _outlooks(
        state, known, nbr, mines, out, count, max_nodes, _NO, _NO, _NO
    )
    if read < 0:
        return -1, out
    for t in range(count):
        score[out[t]] = (1.0 - prob[out[t]]) * some[out[t]]
    count = _keep_best(out, count, score)
    if count > 1:
        for t in range(count):
            score[out[t]] = (1.0 - prob[out[t]]) * expected[out[t]]
        count = _keep_best(out, count, score)
    if count > 1:
        for t in range(count):
            score[out[t]] = entropy[out[t]]
        count = _keep_best(out, count, score)
    return count, out
