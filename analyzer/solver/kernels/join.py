"""The join of a board's components: each component's counts times the other components' and
the background's, by mine count, in exact 64-bit integers for the solve and scaled floats
for play.
"""

from __future__ import annotations

import numpy as np

from analyzer.jit import njit

__all__ = ["products_of_others", "mine_count_weights", "mul_counts"]


@njit(cache=True)
def products_of_others(
    lay: np.ndarray, possible: np.ndarray, n_comps: int, comp_top: np.ndarray, limit: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:  # pragma: no cover - compiled
    """All components' product, and each one's product of the others (prefix x suffix), to degree ``limit``.

    ``lay[k, m]``: component ``k``'s layouts with ``m`` mines, ``possible[k, m]``
    whether it has any (exact even where floats underflow). The products take
    ``lay``'s type: exact 64-bit integers for the solve (its caller bounds them:
    :func:`~analyzer.solver.kernels.board.board_solution`), scaled floats for play. Returns the full product,
    each component's product of the others, their feasibility and the others'
    degrees. Loops run over the degrees each partial product can reach, not the
    whole frontier, so one component costs nothing here.
    """
    total_top = 0
    for k in range(n_comps):
        total_top += comp_top[k]
    size = min(total_top, limit) + 1
    # One allocation a type: prefix, suffix and others' products, feasibility, degrees.
    rows = n_comps + 1
    r = max(n_comps, 1)
    counts = np.zeros((2 * rows + r) * size, lay.dtype)
    oks = np.zeros((2 * rows + r) * size, np.bool_)
    degs = np.zeros(2 * rows + r, np.int64)
    prefix = counts[: rows * size].reshape((rows, size))
    prefix_ok = oks[: rows * size].reshape((rows, size))
    prefix_deg = degs[:rows]
    suffix = counts[rows * size : 2 * rows * size].reshape((rows, size))
    suffix_ok = oks[rows * size : 2 * rows * size].reshape((rows, size))
    suffix_deg = degs[rows : 2 * rows]
    others = counts[2 * rows * size :].reshape((r, size))
    others_ok = oks[2 * rows * size :].reshape((r, size))
    others_deg = degs[2 * rows :]
    prefix[0, 0] = 1
    prefix_ok[0, 0] = True
    for k in range(n_comps):
        prefix_deg[k + 1] = min(prefix_deg[k] + comp_top[k], size - 1)
        mul_counts(
            prefix[k],
            prefix_ok[k],
            prefix_deg[k],
            lay[k],
            possible[k],
            comp_top[k],
            prefix[k + 1],
            prefix_ok[k + 1],
        )
    suffix[n_comps, 0] = 1
    suffix_ok[n_comps, 0] = True
    for k in range(n_comps - 1, -1, -1):
        suffix_deg[k] = min(suffix_deg[k + 1] + comp_top[k], size - 1)
        mul_counts(
            suffix[k + 1],
            suffix_ok[k + 1],
            suffix_deg[k + 1],
            lay[k],
            possible[k],
            comp_top[k],
            suffix[k],
            suffix_ok[k],
        )
    for k in range(n_comps):
        others_deg[k] = min(prefix_deg[k] + suffix_deg[k + 1], size - 1)
        for a in range(prefix_deg[k] + 1):
            if not prefix_ok[k, a]:
                continue
            for b in range(min(suffix_deg[k + 1] + 1, size - a)):
                if suffix_ok[k + 1, b]:
                    others[k, a + b] += prefix[k, a] * suffix[k + 1, b]
                    others_ok[k, a + b] = True
    return prefix[n_comps], others, prefix_ok[n_comps], others_ok, others_deg


@njit(cache=True)
def mul_counts(
    a: np.ndarray,
    a_ok: np.ndarray,
    a_deg: int,
    b: np.ndarray,
    b_ok: np.ndarray,
    b_top: int,
    out: np.ndarray,
    out_ok: np.ndarray,
) -> None:  # pragma: no cover - compiled
    """Add ``a`` times ``b`` (polynomials in the mine count, to their degrees) into ``out``, to its length."""
    size = out.shape[0]
    for i in range(min(a_deg + 1, size)):
        if not a_ok[i]:
            continue
        for j in range(min(b_top + 1, size - i)):
            if b_ok[j]:
                out[i + j] += a[i] * b[j]
                out_ok[i + j] = True


@njit(cache=True)
def mine_count_weights(
    others: np.ndarray,
    others_ok: np.ndarray,
    others_deg: np.ndarray,
    k: int,
    top: int,
    possible: np.ndarray,
    w: np.ndarray,
    w_ok: np.ndarray,
    weights: np.ndarray,
    weights_ok: np.ndarray,
) -> None:  # pragma: no cover - compiled
    """What the other components and the background make of component ``k`` holding ``m`` mines.

    ``weights[m] = sum_j others[k, j] w[m + j]`` for ``m`` up to ``top`` where ``k`` has a layout
    (``possible[k, m]``), ``w[t]`` the background's weight when the constrained cells hold ``t``
    mines (``w_ok[t]``: it has a layout; ``t`` below ``w``'s length), ``weights_ok[m]``: some
    term exists. In ``others``' type: exact integers for the solve, scaled floats for play.
    """
    fl = w.shape[0]
    for mi in range(top + 1):
        weights[mi] = 0
        weights_ok[mi] = False
        if possible[k, mi]:
            for j in range(min(others_deg[k] + 1, fl - mi)):
                if others_ok[k, j] and w_ok[mi + j]:
                    weights[mi] += others[k, j] * w[mi + j]
                    weights_ok[mi] = True
