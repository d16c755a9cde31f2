"""Integer polynomials in the number of mines (coefficient lists), exact.

Shared by the counting engines and the combination over components: kept below
both so neither imports the other.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb

from analyzer.limits import Deadline, check_binomial_time

__all__ = ["poly_mul", "products_of_others", "product_tree", "weights_of_others", "binomial_row"]


def poly_mul(a: list[int], b: list[int], limit: int) -> list[int]:
    """Product of two polynomials (coefficient lists), truncated past degree ``limit``.

    >>> poly_mul([1, 1], [1, 2, 1], limit=10)
    [1, 3, 3, 1]
    >>> poly_mul([1, 1], [1, 2, 1], limit=1)
    [1, 3]
    """
    size = min(len(a) + len(b) - 1, limit + 1)
    out = [0] * max(size, 0)
    for i, ai in enumerate(a):
        if not ai or i >= size:
            continue
        for j in range(min(len(b), size - i)):
            bj = b[j]
            if bj:
                out[i + j] += ai * bj
    return out


def products_of_others(
    polys: list[list[int]], limit: int, deadline: Deadline | float | None = None
) -> tuple[list[int], list[list[int]]]:
    """The product of all polynomials, and for each one the product of all the others.

    Prefix and suffix products give every "all but one" product with ``3k``
    multiplications instead of ``k^2`` (and no division, which exact integer
    polynomials do not allow in general). Degrees past ``limit`` are dropped.

    >>> products_of_others([[1, 1], [1, 2], [0, 1]], limit=10)
    ([0, 1, 3, 2], [[0, 1, 2], [0, 1, 1], [1, 3, 2]])
    """
    until = Deadline.of(deadline)
    prefix = [[1]]
    for p in polys:
        until.check("the combination of the components")
        prefix.append(poly_mul(prefix[-1], p, limit))
    suffix = [[1]] * (len(polys) + 1)
    for i in range(len(polys) - 1, -1, -1):
        until.check("the combination of the components")
        suffix[i] = poly_mul(polys[i], suffix[i + 1], limit)
    others = []
    for i in range(len(polys)):
        until.check("the combination of the components")
        others.append(poly_mul(prefix[i], suffix[i + 1], limit))
    return prefix[-1], others


def product_tree(
    polys: list[list[int]], limit: int, deadline: Deadline | float | None = None
) -> list[list[list[int]]]:
    """The levels of a balanced product tree, truncated past degree ``limit``.

    Level 0 holds ``polys`` (truncated too); each next level the products of neighbouring
    pairs (an odd last one moves up as it is); the last level one polynomial,
    the product of all (``[1]`` for none). With :func:`weights_of_others` it
    replaces the prefix and suffix products where what is wanted of "all the
    others" is a weighted sum: the multiplications then cost the square of the
    total degree once, not once per polynomial.

    >>> product_tree([[1, 1], [1, 2], [0, 1]], limit=10)
    [[[1, 1], [1, 2], [0, 1]], [[1, 3, 2], [0, 1]], [[0, 1, 3, 2]]]
    """
    until = Deadline.of(deadline)
    levels = [[list(p[: limit + 1]) for p in polys]]
    while len(levels[-1]) > 1:
        level = levels[-1]
        up = []
        for i in range(0, len(level) - 1, 2):
            until.check("the combination of the components")
            up.append(poly_mul(level[i], level[i + 1], limit))
        if len(level) % 2:
            up.append(level[-1])
        levels.append(up)
    if not levels[-1]:
        levels.append([[1]])
    return levels


def weights_of_others(
    levels: list[list[list[int]]], weight: Sequence[int], deadline: Deadline | float | None = None
) -> list[list[int]]:
    """For each polynomial ``p_i`` of the tree's level 0, ``R_i[m] = sum_j others_i[j] * weight[m + j]``.

    Computed where ``p_i[m]`` is not 0 (0 elsewhere), for polynomials with no
    negative coefficient (counts).

    ``others_i`` is the product of all the other polynomials; ``weight[t]`` is
    0 past its end and past the tree's ``limit`` (the degrees it dropped); ``m``
    runs over ``0..len(p_i) - 1`` (``p_i`` as the tree holds it, truncated).
    Top down: the root's vector is ``weight``; a child's is its parent's
    correlated with its sibling (``R_a[x] = sum_y sibling[y] * R_parent[x + y]``),
    which costs the product of their lengths, and a lone child takes its parent's.

    >>> polys = [[1, 1], [1, 2], [0, 1]]
    >>> weights_of_others(product_tree(polys, limit=10), [1, 10, 100, 1000])
    [[210, 2100], [110, 1100], [0, 2310]]
    """
    until = Deadline.of(deadline)
    top = len(levels) - 1
    root = levels[top][0]
    padded = list(weight[: len(root)]) + [0] * len(root)
    vectors = [[w if c else 0 for w, c in zip(padded, root, strict=False)]]
    for depth in range(top - 1, -1, -1):
        level = levels[depth]
        below = []
        for i, node in enumerate(level):
            until.check("the combination of the components")
            parent = vectors[i // 2]
            sibling_index = i ^ 1
            if sibling_index >= len(level):
                below.append((parent + [0] * len(node))[: len(node)])
                continue
            # Sparse both ways: only the sibling's nonzero terms, and only where the node
            # has a term (coefficients are counts, never negative, so a term of a leaf
            # below lands where its ancestors have one).
            terms = [(y, c) for y, c in enumerate(level[sibling_index]) if c]
            room = len(parent)
            out = [0] * len(node)
            for x, own in enumerate(node):
                if not own:
                    continue
                if x & 255 == 255:
                    until.check("the combination of the components")
                total = 0
                for y, c in terms:
                    if x + y >= room:
                        break
                    total += c * parent[x + y]
                out[x] = total
            below.append(out)
        vectors = below
    return vectors


def binomial_row(n: int, low: int, high: int, deadline: Deadline | float | None = None) -> list[int]:
    """``[C(n, low), C(n, low + 1), ..., C(n, high)]`` in ``O(high - low)`` big-int steps.

    >>> binomial_row(5, 1, 4)
    [5, 10, 10, 5]
    """
    if high < low:
        return []
    check_binomial_time(n, low, deadline, "the count of background layouts")
    row = [comb(n, low)]
    for j in range(low, high):
        row.append(row[-1] * (n - j) // (j + 1))
    return row
