"""Integer polynomials in the number of mines (coefficient lists), exact.

Shared by the counting engines and the combination over components: kept below
both so neither imports the other.

The join of many components works on :class:`Shifted` polynomials: a component's
layouts are 0 below its fewest mines (a component of 11,000 cells whose cells
are all decided has one term, at 11,000 mines), so only the span between its
fewest and most mines is stored and multiplied. Products of long polynomials go
through one big-integer product (Kronecker substitution), with GMP's
multiplication when ``gmpy2`` is installed.
"""

from __future__ import annotations

import os
import select
import signal
import threading
from collections.abc import Sequence
from typing import Any, NamedTuple

from analyzer.errors import SolverTimeoutError
from analyzer.limits import Deadline, binomial, check_binomial_time, gmpy2_module

__all__ = [
    "poly_mul",
    "convolve",
    "products_of_others",
    "Shifted",
    "ProductTree",
    "product_tree",
    "weights_of_others",
    "binomial_row",
]

#: Below this many coefficient products a product is done term by term.
_SCHOOLBOOK_PRODUCTS = 1024

#: Bits of the two factors that one big-integer product handles in a second here (GMP:
#: 230 Mbit in 0.99 s, 153 Mbit/s at 2.6 Gbit; set optimistic). Under a time limit a product
#: that would clearly run past it is refused before it starts.
_PRODUCT_BITS_PER_SECOND = 400_000_000

#: Under a time limit, a product of at least so many bits (about 0.1 s here) runs in a child
#: process that is killed when the limit comes: one big-integer product cannot be interrupted
#: in this one, and the estimate above can be wrong by a large factor (a 2.6 Gbit product
#: ran at 153 Mbit/s, a product GMP's speed on smaller ones would put at 7 s took 17 s).
_STOPPABLE_PRODUCT_BITS = 20_000_000


def poly_mul(a: Sequence[int], b: Sequence[int], limit: int) -> list[int]:
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


def convolve(a: Sequence[int], b: Sequence[int], deadline: Deadline | float | None = None) -> list[int]:
    """The full product of two polynomials with no negative coefficient.

    Short ones term by term; long ones as one big-integer product (Kronecker
    substitution): each list is packed into an integer, ``s`` bytes a
    coefficient, ``s`` wide enough for any coefficient of the product, so one
    multiplication of two integers (GMP's, near-linear, when gmpy2 is there)
    gives every coefficient at once.

    >>> convolve([1, 2], [3, 0, 1])
    [3, 6, 1, 2]
    >>> a, b = list(range(1, 60)), [7**k for k in range(40)]
    >>> convolve(a, b) == poly_mul(a, b, limit=len(a) + len(b))
    True
    """
    if not a or not b:
        return []
    if len(a) * len(b) <= _SCHOOLBOOK_PRODUCTS or min(len(a), len(b)) <= 4:
        return poly_mul(a, b, len(a) + len(b))
    bits = max(a).bit_length() + max(b).bit_length() + min(len(a), len(b)).bit_length()
    width = (bits + 7) // 8
    remaining = Deadline.of(deadline).remaining
    if remaining is not None and 8 * width * (len(a) + len(b)) > remaining * _PRODUCT_BITS_PER_SECOND:
        raise SolverTimeoutError(
            "time limit reached during the combination of the components: its next product"
            f" of {8 * width * (len(a) + len(b)):,} bits would run past it"
        )
    size = len(a) + len(b) - 1
    # Under a time limit a long product runs where it can be stopped (see _stoppable_product).
    stoppable = remaining is not None and 8 * width * (len(a) + len(b)) >= _STOPPABLE_PRODUCT_BITS
    gmpy2 = gmpy2_module()
    if gmpy2 is not None:
        # GMP packs, multiplies and unpacks: no bytes objects on the way.
        bits = 8 * width
        x, y = gmpy2.pack(list(a), bits), gmpy2.pack(list(b), bits)
        product = _stoppable_product(x, y, Deadline.of(deadline)) if stoppable else x * y
        out = list(map(int, gmpy2.unpack(product, bits)[:size]))
        return out + [0] * (size - len(out))  # unpack drops the zeros at the top
    x = int.from_bytes(b"".join([c.to_bytes(width, "little") for c in a]), "little")
    y = int.from_bytes(b"".join([c.to_bytes(width, "little") for c in b]), "little")
    z = _stoppable_product(x, y, Deadline.of(deadline)) if stoppable else x * y
    data = z.to_bytes(width * size, "little")
    return [int.from_bytes(data[i : i + width], "little") for i in range(0, width * size, width)]


def _stoppable_product(x: Any, y: Any, deadline: Deadline) -> Any:
    """``x * y`` (Python or GMP integers), stopped at ``deadline`` however long it would take.

    One big-integer product cannot be interrupted, so it runs in a forked child process
    (which shares ``x`` and ``y`` without copying them), and sends the product back through
    a pipe; this process waits for it no longer than the deadline, then kills the child and
    raises :class:`~analyzer.errors.SolverTimeoutError`. Where a child cannot be forked
    safely (no ``fork``, or other threads running, which a forked child could deadlock on),
    the product is made here, as before.
    """
    if not hasattr(os, "fork") or threading.active_count() > 1:
        return x * y
    gmpy2 = gmpy2_module()
    gmp = gmpy2 is not None and isinstance(x, type(gmpy2.mpz(0)))
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: multiply, send, leave without any of the parent's clean-up
        status = 1
        try:
            os.close(read_end)
            z = x * y
            data = gmpy2.to_binary(z) if gmp else z.to_bytes((z.bit_length() + 7) // 8, "little")
            view = memoryview(data)
            while view:
                view = view[os.write(write_end, view) :]
            status = 0
        finally:
            os._exit(status)
    os.close(write_end)
    chunks: list[bytes] = []
    finished = False
    try:
        while True:
            left = deadline.remaining
            if left is not None and (left <= 0 or not select.select([read_end], [], [], left)[0]):
                raise SolverTimeoutError(
                    "time limit reached during the combination of the components (in a product of"
                    f" {x.bit_length() + y.bit_length():,} bits)"
                )
            chunk = os.read(read_end, 1 << 22)
            if not chunk:
                break
            chunks.append(chunk)
        finished = True
    finally:
        os.close(read_end)
        if not finished:
            os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
    if status != 0:  # the child failed (out of memory, say): make the product here
        return x * y
    data = b"".join(chunks)
    return gmpy2.from_binary(data) if gmp else int.from_bytes(data, "little")


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


class Shifted(NamedTuple):
    """``x^shift * (coeffs[0] + coeffs[1] x + ...)``: a polynomial stored from its lowest term.

    ``coeffs`` has no zero at either end; the zero polynomial is ``Shifted(0, ())``.

    >>> p = Shifted.of([0, 0, 3, 0, 1, 0])
    >>> p
    Shifted(shift=2, coeffs=(3, 0, 1))
    >>> p.dense()
    [0, 0, 3, 0, 1]
    """

    shift: int
    coeffs: tuple[int, ...]

    @classmethod
    def of(cls, dense: Sequence[int], limit: int | None = None) -> Shifted:
        """From a dense coefficient list, dropping degrees past ``limit``."""
        end = len(dense) if limit is None or limit >= len(dense) else limit + 1
        while end and not dense[end - 1]:
            end -= 1
        if not end:
            return _ZERO_POLY
        start = 0
        while not dense[start]:
            start += 1
        return tuple.__new__(cls, (start, tuple(dense[start:end])))

    def dense(self) -> list[int]:
        """Coefficients from degree 0 to the highest term."""
        return [0] * self.shift + list(self.coeffs) if self.coeffs else []

    def times(self, other: Shifted, limit: int, deadline: Deadline | float | None = None) -> Shifted:
        """The product, degrees past ``limit`` dropped."""
        if not self.coeffs or not other.coeffs:
            return _ZERO_POLY
        shift = self.shift + other.shift
        if shift > limit:
            return _ZERO_POLY
        room = limit - shift + 1
        a, b = self.coeffs, other.coeffs
        if len(a) * len(b) <= _SCHOOLBOOK_PRODUCTS:
            product = poly_mul(a, b, room - 1)
        else:
            product = convolve(a[:room], b[:room], deadline)[:room]
        if len(a) + len(b) - 1 <= room:
            # Nothing dropped, and the ends are products of nonzero ends: no zero to trim.
            return tuple.__new__(Shifted, (shift, tuple(product)))
        trimmed = Shifted.of(product)
        return Shifted(trimmed.shift + shift, trimmed.coeffs) if trimmed.coeffs else trimmed


_ZERO_POLY = Shifted(0, ())


class ProductTree(NamedTuple):
    """The levels of a balanced product tree of polynomials, degrees past ``limit`` dropped.

    ``levels[0]`` holds the polynomials (as :class:`Shifted`); each next level the
    products of neighbouring pairs (an odd last one moves up as it is); the last
    level one polynomial, the product of all (``1`` for none). ``lengths`` are
    the dense lengths of level 0, truncated at ``limit``.
    """

    levels: tuple[tuple[Shifted, ...], ...]
    lengths: tuple[int, ...]
    limit: int

    @property
    def root(self) -> Shifted:
        """The product of all the polynomials."""
        return self.levels[-1][0]


def product_tree(
    polys: Sequence[Sequence[int]], limit: int, deadline: Deadline | float | None = None
) -> ProductTree:
    """The balanced product tree of ``polys`` (coefficient lists), truncated past degree ``limit``.

    With :func:`weights_of_others` it replaces the prefix and suffix products
    where what is wanted of "all the others" is a weighted sum. Each product
    costs its polynomials' spans (fewest to most mines), not their degrees.

    >>> tree = product_tree([[1, 1], [1, 2], [0, 1]], limit=10)
    >>> [[p.dense() for p in level] for level in tree.levels]
    [[[1, 1], [1, 2], [0, 1]], [[1, 3, 2], [0, 1]], [[0, 1, 3, 2]]]
    """
    until = Deadline.of(deadline)
    top = limit + 1
    lengths = tuple([len(p) if len(p) <= top else top for p in polys])
    of = Shifted.of
    level = tuple([of(p, limit) for p in polys])
    levels = [level]
    while len(level) > 1:
        up = []
        for i in range(0, len(level) - 1, 2):
            until.check("the combination of the components")
            up.append(level[i].times(level[i + 1], limit, until))
        if len(level) % 2:
            up.append(level[-1])
        level = tuple(up)
        levels.append(level)
    if not level:
        levels.append((Shifted(0, (1,)),))
    return ProductTree(tuple(levels), lengths, limit)


def weights_of_others(
    tree: ProductTree, weight: Sequence[int], deadline: Deadline | float | None = None, *, offset: int = 0
) -> list[list[int]]:
    """For each polynomial ``p_i`` of the tree's level 0, ``R_i[m] = sum_j others_i[j] * weight[m + j]``.

    Computed where ``p_i[m]`` is not 0 (0 elsewhere), for polynomials with no
    negative coefficient (counts).

    ``others_i`` is the product of all the other polynomials; ``weight[t]`` is
    the weight of degree ``offset + t``, 0 outside the list and past the
    tree's ``limit`` (the degrees it dropped); ``m`` runs over
    ``0..len(p_i) - 1`` (``p_i`` as the tree holds it, truncated). Top down:
    the root's vector is ``weight``; a child's is its parent's correlated with
    its sibling (``R_a[x] = sum_y sibling[y] * R_parent[x + y]``: one product of
    the parent's vector with the sibling reversed, over their spans), and a lone
    child takes its parent's. A vector is only read where its node has a term
    (coefficients are counts, never negative, so a term of a leaf lands where
    every ancestor has one).

    >>> polys = [[1, 1], [1, 2], [0, 1]]
    >>> weights_of_others(product_tree(polys, limit=10), [1, 10, 100, 1000])
    [[210, 2100], [110, 1100], [0, 2310]]
    """
    until = Deadline.of(deadline)
    levels = tree.levels
    top = len(levels) - 1
    root = levels[top][0]

    # Each vector is stored over its node's span: entry k is degree node.shift + k. The root's
    # degrees are within the limit; a degree outside the weights' list weighs 0.
    start = root.shift - offset
    vectors: list[list[int]] = [
        [weight[t] if 0 <= t < len(weight) else 0 for t in range(start, start + len(root.coeffs))]
    ]
    for depth in range(top - 1, -1, -1):
        level = levels[depth]
        below: list[list[int]] = []
        for i, node in enumerate(level):
            until.check("the combination of the components")
            parent = vectors[i // 2]
            sibling_index = i ^ 1
            if sibling_index >= len(level):
                below.append(parent)  # a lone child: the same node one level down
                continue
            sibling = level[sibling_index].coeffs
            if not node.coeffs or not sibling:
                below.append([0] * len(node.coeffs))
                continue
            below.append(_middle_product(node.coeffs, parent, sibling, until))
        vectors = below
    # Zero where a leaf has no term (a lone leaf kept its parent's vector: its own terms
    # are where the root's are, but a zero inside its span may weigh something).
    result = []
    for (shift, coeffs), vector, length in zip(levels[0], vectors, tree.lengths, strict=True):
        if 0 in coeffs:
            vector = [r if c else 0 for c, r in zip(coeffs, vector, strict=True)]
        if shift or len(vector) != length:
            vector = [0] * shift + vector + [0] * (length - shift - len(vector))
        result.append(vector)
    return result


def _middle_product(
    own: Sequence[int], parent: list[int], sibling: Sequence[int], until: Deadline
) -> list[int]:
    """``R_node[k] = sum_t sibling[t] * parent[k + t]`` where ``own[k]`` (the node's term) is not 0.

    Both are relative to their shifts, as the parent's shift is the sum of theirs.
    """
    if len(parent) * len(sibling) <= _SCHOOLBOOK_PRODUCTS:
        # Term by term, only where the node has a term.
        room = len(parent)
        terms = [(t, c) for t, c in enumerate(sibling) if c]
        out = [0] * len(own)
        for k, term in enumerate(own):
            if term:
                total = 0
                for t, c in terms:
                    if k + t >= room:
                        break
                    total += c * parent[k + t]
                out[k] = total
        return out
    full = convolve(parent, sibling[::-1], until)
    lead = len(sibling) - 1
    out = [r if c else 0 for c, r in zip(own, full[lead : lead + len(own)], strict=False)]
    out += [0] * (len(own) - len(out))
    return out


def binomial_row(n: int, low: int, high: int, deadline: Deadline | float | None = None) -> list[int]:
    """``[C(n, low), C(n, low + 1), ..., C(n, high)]`` in ``O(high - low)`` big-int steps.

    >>> binomial_row(5, 1, 4)
    [5, 10, 10, 5]
    """
    if high < low:
        return []
    check_binomial_time(n, low, deadline, "the count of background layouts")
    row = [binomial(n, low)]
    for j in range(low, high):
        row.append(row[-1] * (n - j) // (j + 1))
    return row
