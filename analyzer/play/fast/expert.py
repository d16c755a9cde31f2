"""The ``expert`` player's guess, compiled (numba): the stages it runs, in their order.

:func:`expert_guess` plays the end game when few layouts are left
(:mod:`analyzer.play.fast.endgame`, the closed-off parts of the board too),
then guesses a living pseudo-50/50 cell (:mod:`analyzer.play.fast.patterns`),
else scores its candidates (:mod:`analyzer.play.fast.candidates`) by what each
would show (:mod:`analyzer.play.fast.outlooks`). The probabilities it reads are
those of :mod:`analyzer.play.fast.probabilities`, whose position codes it takes.
A new idea for the expert player is a stage here, with its kernels in the
module of their stage.
"""

from __future__ import annotations

import math

import numpy as np

from analyzer.jit import njit
from analyzer.play.fast.candidates import _guess_candidates, _split_candidates
from analyzer.play.fast.endgame import endgame_move, isolated_move
from analyzer.play.fast.outlooks import _living_least_likely, _outlooks, _tertiary
from analyzer.play.fast.patterns import _union, chain_patterns, fifty_influence, pseudo_fifty_fifties
from analyzer.play.fast.probabilities import _NO

__all__ = [
    "EXPERT_MARGIN",
    "EXPERT_CANDIDATES",
    "EXPERT_ENDGAME_LAYOUTS",
    "EXPERT_ENDGAME_NODES",
    "expert_guess",
]

# The exact player's defaults (ExpertPlayer: margin 1/50, candidates, endgame_layouts, endgame_nodes);
# only a player with these plays compiled.
EXPERT_MARGIN = 0.02
EXPERT_CANDIDATES = 8
EXPERT_ENDGAME_LAYOUTS = 60
EXPERT_ENDGAME_NODES = 20_000


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
    (:func:`~analyzer.play.fast.endgame.isolated_move`). Before any candidate, when ``patterns``
    (:func:`~analyzer.play.fast.patterns.fifty_fifty_patterns`, or none: :func:`no_patterns`) finds
    living pseudo-50/50 cells (:func:`~analyzer.play.fast.patterns.pseudo_fifty_fifties`), the least
    likely to be a mine is guessed (ties to the lowest index). With ``offedge`` above 0 the
    candidates come from :func:`_split_candidates`; a secondary score has
    ``progress`` times ``(1 - p) P(the number shown proves another cell safe
    | safe)`` added. With ``alike_once``, far cells alike count once among the
    candidates (:func:`_guess_candidates`). With ``longterm`` above 0 each
    score is multiplied by ``1 + longterm I / (1 - p)``, ``I`` the chance that
    a 50/50 of ``patterns`` forms around the candidate
    (:func:`~analyzer.play.fast.patterns.fifty_influence`); pseudo-50/50s are looked for only with
    ``pseudo_first``, and with ``chains`` among the position's
    :func:`~analyzer.play.fast.patterns.chain_patterns` too.
    Returns -1 when a position was too hard to enumerate or beyond the
    compiled end game (the game is then played by the exact engine).
    """  # pragma: no cover - compiled
    n = state.shape[0]
    secondary = score != 0
    third = score == 2
    blend = score == 3
    living = score == 4
    solved = (known, nbr, mines, prob, log_total, max_nodes)  # the patterns' kernels' view of the position
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
        found = pseudo_fifty_fifties(solved, patterns, pseudo)
        if found >= 0 and chains:
            more = np.empty(n, np.int64)
            extra = pseudo_fifty_fifties(solved, chain_patterns(known, nbr, prob), more)
            found = -1 if extra < 0 else _union(pseudo, found, more, extra)
        if found < 0:
            return -1
        if found > 0:
            read, _, _, entropy, _ = _outlooks(
                state, known, nbr, mines, pseudo, found, max_nodes, _NO, _NO, _NO
            )
            if read < 0:
                return -1
            cell = _living_least_likely(prob, pseudo, found, entropy)
            if cell >= 0:
                return cell
    if offedge > 0:
        cands = _split_candidates(state, nbr, prob, margin, candidates, offedge)
    else:
        cands = _guess_candidates(state, nbr, prob, margin, candidates, alike_once)
    count = cands.shape[0]
    if count == 1:
        return cands[0]
    scored, some, _, entropy, second = _outlooks(
        state, known, nbr, mines, cands, count, max_nodes, secondary, blend, living
    )
    if scored < 0:
        return -1
    influence = np.zeros(n if longterm > 0.0 else 0)  # read only with longterm
    if longterm > 0.0 and fifty_influence(solved, patterns, cands, count, influence) < 0:
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
