"""The single-clue and subset rules on the constraint arrays, to their closure (the compiled
half of :mod:`analyzer.solver.deduction`).
"""

from __future__ import annotations

import numpy as np

from analyzer.jit import njit
from analyzer.solver.kernels.components import transpose

__all__ = ["closure"]


@njit(cache=True)
def closure(
    sizes: np.ndarray,
    group_off: np.ndarray,
    group_clues: np.ndarray,
    need: np.ndarray,
    value: np.ndarray,
) -> tuple:  # type: ignore[type-arg]
    """The single-clue rules and the subset rule of :mod:`analyzer.solver.deduction`, to their fixpoint.

    ``sizes[g]`` and the clues of group ``g`` (``group_clues[group_off[g]:group_off[g + 1]]``)
    describe the groups; ``need[c]`` is clue ``c``'s right-hand side; ``value[g]``
    is ``-1`` for a free group or the mines already fixed in it, and receives the
    fixes (in place). Returns ``(ok, need_left, free, clue_off, clue_groups)``:
    ``ok`` false when a clue cannot be met; ``need_left`` each clue's need once
    the fixed groups are taken out; ``free`` the number of free groups each
    clue has left; the clues' groups as offsets and a flat array.

    The subset rule is tried both ways round from each clue taken from the
    queue, and a fix puts back every clue of the group fixed, so when the queue
    runs dry no rule applies to any clue or pair: the fixpoint is reached. The
    rules only add fixes, and a rule that applies still applies after more
    fixes that every solution shares, so that fixpoint does not depend on the
    order the clues were taken in.
    """  # pragma: no cover - compiled
    n_groups = sizes.shape[0]
    n_clues = need.shape[0]
    clue_off, clue_groups = transpose(n_clues, group_off, group_clues)  # each clue's groups
    block = np.zeros(4 * n_clues, np.int64)  # one allocation each type (each costs a small board)
    left = block[:n_clues]
    left[:] = need
    room = block[n_clues : 2 * n_clues]
    live = block[2 * n_clues : 3 * n_clues]  # free groups a clue still has
    queue = block[3 * n_clues :]
    marks = np.zeros(n_clues + n_groups, np.bool_)
    queued = marks[:n_clues]
    mark = marks[n_clues:]
    for c in range(n_clues):
        for t in range(clue_off[c], clue_off[c + 1]):
            g = clue_groups[t]
            if value[g] < 0:
                room[c] += sizes[g]
                live[c] += 1
            else:
                left[c] -= value[g]
    head = 0
    count = 0
    ok = True
    for c in range(n_clues):
        if left[c] < 0 or left[c] > room[c]:
            ok = False
        queue[c] = c
        queued[c] = True
    count = n_clues
    while ok and count > 0:
        c = queue[head]
        head = head + 1 if head + 1 < n_clues else 0
        count -= 1
        queued[c] = False
        if live[c] == 0:
            continue
        # What to fix: the free groups of clue ``target`` outside clue ``keep``
        # (-1: all of them), to mines or to safe.
        target = -1
        keep = -1
        mines = False
        if left[c] == 0 or left[c] == room[c]:
            target = c
            mines = left[c] == room[c]
        else:
            # The subset rule, both ways, with each clue that shares a free group:
            # a change to either clue of a pair puts it back in the queue.
            _mark(mark, c, clue_off, clue_groups, value, np.bool_(True))
            for t in range(clue_off[c], clue_off[c + 1]):
                g = clue_groups[t]
                if value[g] >= 0:
                    continue
                for u in range(group_off[g], group_off[g + 1]):
                    d = group_clues[u]
                    if d == c or live[d] == 0:
                        continue
                    shared = 0
                    for s in range(clue_off[d], clue_off[d + 1]):
                        h = clue_groups[s]
                        if value[h] < 0 and mark[h]:
                            shared += 1
                    for small, big in ((c, d), (d, c)):
                        if shared != live[small]:
                            continue
                        diff = left[big] - left[small]
                        extra_room = room[big] - room[small]
                        if diff < 0 or diff > extra_room:
                            ok = False
                        elif live[big] > live[small] and (diff == 0 or diff == extra_room):
                            target = big
                            keep = small
                            mines = diff > 0
                        break
                    if not ok or target >= 0:
                        break
                if not ok or target >= 0:
                    break
            _mark(mark, c, clue_off, clue_groups, value, np.bool_(False))
            if not ok or target < 0:
                continue
        if keep >= 0:
            _mark(mark, keep, clue_off, clue_groups, value, np.bool_(True))
        for t in range(clue_off[target], clue_off[target + 1]):
            g = clue_groups[t]
            if value[g] >= 0 or mark[g]:
                continue
            v = sizes[g] if mines else 0
            value[g] = v
            for u in range(group_off[g], group_off[g + 1]):
                e = group_clues[u]
                left[e] -= v
                room[e] -= sizes[g]
                live[e] -= 1
                if left[e] < 0 or left[e] > room[e]:
                    ok = False
                if not queued[e]:
                    queued[e] = True
                    queue[(head + count) % n_clues] = e
                    count += 1
        if keep >= 0:
            _mark(mark, keep, clue_off, clue_groups, value, np.bool_(False))
        # c may have more to give (another neighbour): look at it again.
        if not queued[c]:
            queued[c] = True
            queue[(head + count) % n_clues] = c
            count += 1
    return ok, left, live, clue_off, clue_groups


@njit(cache=True)
def _mark(
    mark: np.ndarray, c: int, clue_off: np.ndarray, clue_groups: np.ndarray, value: np.ndarray, on: bool
) -> None:  # pragma: no cover - compiled
    """Set (or clear) the marks of clue ``c``'s groups: its free ones when setting, all when clearing."""
    for t in range(clue_off[c], clue_off[c + 1]):
        g = clue_groups[t]
        if not on or value[g] < 0:
            mark[g] = on
