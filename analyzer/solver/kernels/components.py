"""The components of a board's free groups (union-find over the clues that join them), each
component's equations, and the transpose of rows of items the other kernels read.
"""

from __future__ import annotations

import numpy as np

from analyzer.jit import njit

__all__: list[str] = []  # kernels for the other kernel modules and the players' probabilities only


@njit(cache=True)
def transpose(n: int, off: np.ndarray, items: np.ndarray) -> tuple:  # type: ignore[type-arg]
    """Rows of items (row ``r``: ``items[off[r]:off[r + 1]]``, items below ``n``) turned into
    each item's rows, in row order, as offsets and a flat array."""  # pragma: no cover - compiled
    rows = off.shape[0] - 1
    block = np.zeros(n + 1 + items.shape[0], np.int64)  # one allocation: the offsets, then the items
    out_off = block[: n + 1]
    out = block[n + 1 :]
    for t in range(items.shape[0]):
        out_off[items[t] + 1] += 1
    for i in range(n):
        out_off[i + 1] += out_off[i]
    # Each item's offset serves as its cursor, ending at the next item's start: shifted back after.
    for r in range(rows):
        for t in range(off[r], off[r + 1]):
            i = items[t]
            out[out_off[i]] = r
            out_off[i] += 1
    for i in range(n, 0, -1):
        out_off[i] = out_off[i - 1]
    out_off[0] = 0
    return out_off, out


@njit(cache=True)
def split_components(
    sizes: np.ndarray, fixed: np.ndarray, live: np.ndarray, sig_off: np.ndarray, sig_clues: np.ndarray
) -> tuple:  # type: ignore[type-arg]
    """The components of the free groups (``fixed[g] < 0``): union-find over clues, joined by the groups.

    Group ``g`` sits in clues ``sig_clues[sig_off[g]:sig_off[g + 1]]``;
    ``live[c]`` is the number of free groups clue ``c`` holds. Components are
    numbered by their lowest group. Returns ``(n_comps, comp_of, local, cells,
    members_off, members, eqs_off, eqs)``: each group's component (``-1`` if
    fixed) and index among its component's groups; each component's cells; its
    groups (ascending) ``members[members_off[k]:members_off[k + 1]]`` and its
    live clues (ascending) likewise in ``eqs``.
    """  # pragma: no cover - compiled
    n_groups = sizes.shape[0]
    n_clues = live.shape[0]
    # One allocation for every array here (components are at most the groups).
    block = np.empty(3 * n_clues + 7 * n_groups + 2, np.int64)
    parent = block[:n_clues]
    for c in range(n_clues):
        parent[c] = c
    for g in range(n_groups):
        if fixed[g] >= 0:
            continue
        a = find_root(parent, sig_clues[sig_off[g]])
        for t in range(sig_off[g] + 1, sig_off[g + 1]):
            b = find_root(parent, sig_clues[t])
            if a != b:
                parent[b] = a
    comp_of = block[n_clues : n_clues + n_groups]
    comp_of[:] = -1
    comp_of_root = block[n_clues + n_groups : 2 * n_clues + n_groups]
    comp_of_root[:] = -1
    n_comps = 0
    for g in range(n_groups):
        if fixed[g] >= 0:
            continue
        r = find_root(parent, sig_clues[sig_off[g]])
        if comp_of_root[r] < 0:
            comp_of_root[r] = n_comps
            n_comps += 1
        comp_of[g] = comp_of_root[r]
    o = 2 * n_clues + n_groups
    cells = block[o : o + n_comps]
    o += n_comps
    n_members = block[o : o + n_comps + 1]
    o += n_comps + 1
    cells[:] = 0
    n_members[:] = 0
    for g in range(n_groups):
        k = comp_of[g]
        if k >= 0:
            cells[k] += sizes[g]
            n_members[k + 1] += 1
    # Each component's groups (ascending) and live clues (ascending), by counting sort.
    for k in range(n_comps):
        n_members[k + 1] += n_members[k]
    members = block[o : o + n_members[n_comps]]
    o += n_members[n_comps]
    local = block[o : o + n_groups]
    o += n_groups
    fill = block[o : o + n_comps]
    o += n_comps
    fill[:] = n_members[:-1]
    for g in range(n_groups):
        k = comp_of[g]
        if k >= 0:
            local[g] = fill[k] - n_members[k]
            members[fill[k]] = g
            fill[k] += 1
    n_eqs = block[o : o + n_comps + 1]
    o += n_comps + 1
    n_eqs[:] = 0
    for c in range(n_clues):
        if live[c] > 0:
            n_eqs[comp_of_root[find_root(parent, c)] + 1] += 1
    for k in range(n_comps):
        n_eqs[k + 1] += n_eqs[k]
    eqs = block[o : o + n_eqs[n_comps]]
    fill[:] = n_eqs[:-1]
    for c in range(n_clues):
        if live[c] > 0:
            k = comp_of_root[find_root(parent, c)]
            eqs[fill[k]] = c
            fill[k] += 1
    return n_comps, comp_of, local, cells, n_members, members, n_eqs, eqs


@njit(cache=True)
def component_equations(
    clues: np.ndarray,
    live: np.ndarray,
    left: np.ndarray,
    c_off: np.ndarray,
    c_groups: np.ndarray,
    fixed: np.ndarray,
    local: np.ndarray,
) -> tuple:  # type: ignore[type-arg]
    """One component's equations over its own groups (``local`` indices), for the engines.

    ``(eq_off, eq_groups, rhs)``: the free groups of each of ``clues`` and the mines they still need.
    """  # pragma: no cover - compiled
    eq_off = np.zeros(clues.shape[0] + 1, np.int64)
    for e in range(clues.shape[0]):
        eq_off[e + 1] = eq_off[e] + live[clues[e]]
    eq_groups = np.empty(eq_off[-1], np.int64)
    rhs = np.empty(clues.shape[0], np.int64)
    for e in range(clues.shape[0]):
        c = clues[e]
        rhs[e] = left[c]
        t = eq_off[e]
        for s in range(c_off[c], c_off[c + 1]):
            g = c_groups[s]
            if fixed[g] < 0:
                eq_groups[t] = local[g]
                t += 1
    return eq_off, eq_groups, rhs


@njit(cache=True)
def find_root(parent: np.ndarray, g: int) -> int:  # pragma: no cover - compiled
    """The root of ``g`` in a union-find forest, halving the path on the way."""
    while parent[g] != g:
        parent[g] = parent[parent[g]]
        g = parent[g]
    return g
