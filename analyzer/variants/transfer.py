"""Exact layout counts under board rules by a transfer (frontier) dynamic programme.

Enumerating layouts one by one cannot count a position whose layouts run to millions
(an open 7x7 board under C: 20 mines in one connected group). Here the cells are
decided one at a time along the board's shorter side, and a *state* keeps only what
the cells still to come need to know:

* the values of the decided cells that a constraint not yet complete reads (a clue, a
  window of Q, a line of T, a cell of D or H, a pattern O forbids); a constraint is
  checked on every cell it reads, as soon as that cell is decided (its prefixes that no
  completion satisfies are refused), so a state never carries a broken one;
* for each connectivity rule (C, O, S), the decided cells with an edge to a cell still
  to come (the *frontier*): which are members and which of them are already joined
  (a partition, numbered in frontier order), with, under O, whether each group reaches
  the border; a group that leaves the frontier is finished: under O it must reach the
  border, under C and S it must be the only one, and no member may come after it.
  Under S (the snake) a new mine joining one group by two edges would close a loop and
  is refused: a connected group with no loop and at most two contacts a mine is a path.

States carry a count of their partial layouts per number of mines. The counts are kept
modulo a few primes below 2**31 (exact integer arithmetic in numpy, the number of primes
chosen so that their product exceeds twice the largest count possible), and the true
integers come back by the Chinese remainder theorem. A cell's mine count is the sum,
over the steps that decide it a mine, of the forward count of the partial layout times
the backward count of its completions (the adjoint of the forward pass), so one forward
and one backward pass give every cell's count.

B (equal sums over every row and column) is left to enumeration: :func:`count_layouts`
returns ``None`` for it, and when the states pass ``max_states`` at some step.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from analyzer.errors import SolverTimeoutError

__all__ = ["TransferCount", "count_layouts", "MAX_STATES", "MAX_SCOPE", "MAX_BYTES", "MAX_SIDE"]

#: The most states at one step before the programme gives up (enumeration is asked instead).
MAX_STATES = 60_000

#: The widest board (its shorter side) the programme is tried on: its states grow with the side.
MAX_SIDE = 10

#: The most cells a constraint may read (its values are tabled: 2**cells entries).
MAX_SCOPE = 14

#: The most bytes the forward counts may take (every step's are kept for the backward pass).
MAX_BYTES = 768 * 2**20


@dataclass(frozen=True, slots=True)
class TransferCount:
    """Every layout of a position counted: ``total`` layouts, ``mines[i]`` of them with a mine on
    cell ``i`` (every cell of the board, fixed ones included), and the largest number of states
    one step held."""

    total: int
    mines: tuple[int, ...]
    states: int


@dataclass(slots=True)
class _Local:
    """A constraint on a few cells: ``cells`` in the order they are decided; ``prefixes[j]`` the
    values (bit ``k`` the ``k``-th cell) of the first ``j + 1`` cells that some completion meets."""

    cells: tuple[int, ...]
    prefixes: tuple[frozenset[int], ...]


@dataclass(slots=True)
class _Conn:
    """A connectivity rule as the programme reads it."""

    neighbours: dict[int, tuple[int, ...]]
    want: int
    border: frozenset[int] | None
    acyclic: bool


def _table(cells: Sequence[int], holds: object, size: int) -> tuple[frozenset[int], ...]:
    layout = [0] * size
    full = []
    for mask in range(1 << len(cells)):
        for k, i in enumerate(cells):
            layout[i] = mask >> k & 1
        if holds(layout):  # type: ignore[operator]
            full.append(mask)
    return tuple(frozenset(m & ((1 << (j + 1)) - 1) for m in full) for j in range(len(cells)))


def _locals(spec: object, position_of: Sequence[int]) -> list[_Local] | None:
    from analyzer.models.variants import layout_checks

    size: int = spec.size  # type: ignore[attr-defined]
    # The rules' local parts: their whole-board parts (C, O and S's connections, S's path) are the
    # frontier's, and B's equal sums are refused before this.
    local_rules = [replace(rule, connected=(), path=()) for rule in spec.rules]  # type: ignore[attr-defined]
    wanted = layout_checks(spec.clues, local_rules)  # type: ignore[attr-defined]
    if wanted is None:
        return None
    found = []
    for scope, holds in wanted:
        if len(scope) > MAX_SCOPE:
            return None
        cells = tuple(sorted(set(scope), key=position_of.__getitem__))
        if not cells:  # reads no cell: it holds whatever the layout, or never
            if not holds([0] * size):  # type: ignore[operator]
                found.append(_Local((0,), (frozenset(),)))
            continue
        found.append(_Local(cells, _table(cells, holds, size)))
    return found


def _conns(spec: object) -> list[_Conn] | None:
    found = []
    for rule in spec.rules:  # type: ignore[attr-defined]
        if rule.equal:
            return None
        path = {tuple(e) for e in rule.path}
        for conn in rule.connected:
            neighbours: dict[int, list[int]] = {}
            for a, b in conn.edges:
                neighbours.setdefault(a, []).append(b)
                neighbours.setdefault(b, []).append(a)
            acyclic = (
                bool(path) and conn.of_mines and not conn.border and {tuple(e) for e in conn.edges} == path
            )
            found.append(
                _Conn(
                    {i: tuple(js) for i, js in neighbours.items()},
                    1 if conn.of_mines else 0,
                    frozenset(conn.border) if conn.border else None,
                    acyclic,
                )
            )
        if path and not any(c.acyclic for c in found):
            return None
    return found


def _frontiers(conn: _Conn, order: Sequence[int], position_of: Sequence[int]) -> list[tuple[int, ...]]:
    """After each step, the decided cells with an edge to a cell still to come, in order."""
    last = {i: max((position_of[j] for j in js), default=-1) for i, js in conn.neighbours.items()}
    out = []
    current: list[int] = []
    for t, cell in enumerate(order):
        current = [i for i in (*current, cell) if last.get(i, -1) > t]
        out.append(tuple(current))
    return out


class _ConnStep:
    """One connectivity rule's transitions at one step (cached: many states share them)."""

    def __init__(self, conn: _Conn, cell: int, before: tuple[int, ...], after: tuple[int, ...]) -> None:
        self.conn = conn
        self.cell = cell
        index = {i: k for k, i in enumerate(before)}
        self.touch = tuple(index[j] for j in conn.neighbours.get(cell, ()) if j in index)
        self.keep = tuple(index[i] if i != cell else -1 for i in after)
        self.on_border = conn.border is not None and cell in conn.border
        self.cache: dict[tuple[object, int], object] = {}

    def step(self, state: object, x: int) -> object:
        key = (state, x)
        if key not in self.cache:
            self.cache[key] = self._step(state, x)
        return self.cache[key]

    def _step(self, state: object, x: int) -> object:
        """The state after ``x`` on this step's cell (``None``: no layout goes on)."""
        labels: tuple[int, ...]
        flags: tuple[bool, ...]
        closed: bool
        labels, flags, closed = state  # type: ignore[misc]
        conn = self.conn
        border = conn.border is not None
        mine = 0
        work = labels
        if x == conn.want:
            if closed:
                return None
            joined = [labels[k] for k in self.touch if labels[k]]
            merged = set(joined)
            if conn.acyclic and len(joined) != len(merged):
                return None  # two edges into one group: a loop
            mine = max(labels, default=0) + 1  # labels are 1..m, numbered in frontier order
            if merged:
                work = tuple(mine if g in merged else g for g in labels)
            if border:
                flags = (*flags, self.on_border or any(flags[g - 1] for g in merged))
        new = [work[k] if k >= 0 else mine for k in self.keep]
        alive = set(new)
        alive.discard(0)
        before = set(work)
        before.discard(0)
        if mine:
            before.add(mine)
        if len(before) != len(alive):  # a group left the frontier: it is finished
            gone = before - alive
            if border:
                if not all(flags[g - 1] for g in gone):
                    return None
            elif alive or closed or len(gone) > 1:
                return None
            else:
                closed = True
        names: dict[int, int] = {}
        out = []
        for g in new:
            if g:
                n = names.get(g)
                if n is None:
                    n = names[g] = len(names) + 1
                out.append(n)
            else:
                out.append(0)
        if border:
            flags = tuple(flags[g - 1] for g in names)  # dicts keep insertion order: new numbering
        return (tuple(out), flags, closed)


class _LocalStep:
    """The constraints' transitions at one step: the live cells' values before and after."""

    def __init__(
        self, locals_: Sequence[_Local], t: int, cell: int, before: tuple[int, ...], after: tuple[int, ...]
    ) -> None:
        index = {i: k for k, i in enumerate(before)}
        self.checks = []
        for local in locals_:
            if cell in local.cells:
                j = local.cells.index(cell)
                self.checks.append((tuple(index[i] for i in local.cells[:j]), j, local.prefixes[j]))
        self.keep = tuple(index[i] if i != cell else -1 for i in after)
        self.cache: dict[tuple[int, int], int | None] = {}

    def step(self, bits: int, x: int) -> int | None:
        key = (bits, x)
        if key in self.cache:
            return self.cache[key]
        out: int | None = None
        for earlier, j, allowed in self.checks:
            mask = x << j
            for k, at in enumerate(earlier):
                mask |= (bits >> at & 1) << k
            if mask not in allowed:
                break
        else:
            out = 0
            for k, at in enumerate(self.keep):
                out |= ((bits >> at & 1) if at >= 0 else x) << k
        self.cache[key] = out
        return out


def _live(
    locals_: Sequence[_Local], order: Sequence[int], position_of: Sequence[int]
) -> list[tuple[int, ...]]:
    last: dict[int, int] = {}
    for local in locals_:
        end = position_of[local.cells[-1]]
        for i in local.cells:
            last[i] = max(last.get(i, -1), end)
    out = []
    current: list[int] = []
    for t, cell in enumerate(order):
        current = [i for i in (*current, cell) if last.get(i, -1) > t]
        out.append(tuple(current))
    return out


def count_layouts(
    spec: object,
    width: int,
    height: int,
    *,
    certain: Mapping[int, int] | None = None,
    deadline: float | None = None,
    max_states: int = MAX_STATES,
) -> TransferCount | None:
    """Count every layout of ``spec`` (a :class:`~analyzer.models.variants.VariantSpec` on a
    ``width`` x ``height`` grid, cells row-major) and, for each cell, those with a mine on it.

    ``certain``: cells known to hold one value in every layout (fixing them loses none).
    Returns ``None`` when a rule is not one the programme reads (B) or when a step holds more
    than ``max_states`` states. Raises :class:`~analyzer.errors.SolverTimeoutError` past
    ``deadline`` (``time.monotonic()``).

    >>> from analyzer.variants.constraints import build_spec
    >>> from analyzer.variants.position import Position
    >>> from analyzer.variants.rules import parse_rules
    >>> spec, _ = build_spec(Position.of("3x1x2\\nHHH\\n"), parse_rules("C"))
    >>> found = count_layouts(spec, 3, 1)
    >>> found.total, found.mines
    (2, (1, 2, 1))
    """
    size: int = spec.size  # type: ignore[attr-defined]
    total: int = spec.total  # type: ignore[attr-defined]
    if width <= height:
        order = list(range(size))
    else:
        order = [r * width + c for c in range(width) for r in range(height)]
    position_of = [0] * size
    for t, i in enumerate(order):
        position_of[i] = t
    conns = _conns(spec)
    if conns is None:
        return None
    locals_ = _locals(spec, position_of)
    if locals_ is None:
        return None
    forced: dict[int, int] = dict(spec.fixed)  # type: ignore[attr-defined]
    forced.update(certain or {})
    live = _live(locals_, order, position_of)
    fronts = [_frontiers(c, order, position_of) for c in conns]
    primes = _primes(math.comb(size, size // 2))
    row_bytes = (total + 1) * len(primes) * 8  # a state's counts, kept for the backward pass
    steps, most = _forward(
        order, forced, locals_, conns, live, fronts, total, deadline, max_states, row_bytes
    )
    if steps is None:
        return None
    layouts, per_step = _numbers(steps, order, total, np.array(primes, dtype=np.int64), deadline)
    mines = [0] * size
    for t, cell in enumerate(order):
        mines[cell] = _crt(per_step[t], primes)
    return TransferCount(_crt(layouts, primes), tuple(mines), most)


def _forward(
    order: Sequence[int],
    forced: Mapping[int, int],
    locals_: Sequence[_Local],
    conns: Sequence[_Conn],
    live: Sequence[tuple[int, ...]],
    fronts: Sequence[Sequence[tuple[int, ...]]],
    total: int,
    deadline: float | None,
    max_states: int,
    row_bytes: int,
) -> tuple[list[tuple[np.ndarray, np.ndarray, np.ndarray, int]] | None, int]:
    """The states step by step: per step the arrays ``src``, ``dst``, ``x`` of its transitions
    and the number of states after it. A state is refused when its fewest mines exceed the total
    or its most cannot reach it with the cells left."""
    start: _State = (0, tuple(((), (), False) for _ in conns))
    states: dict[_State, int] = {start: 0}
    low = [0]
    high = [0]
    steps = []
    most = 1
    held = 0
    n = len(order)
    for t, cell in enumerate(order):
        _check(deadline)
        local = _LocalStep(locals_, t, cell, live[t - 1] if t else (), live[t])
        conn_steps = [
            _ConnStep(c, cell, fronts[k][t - 1] if t else (), fronts[k][t]) for k, c in enumerate(conns)
        ]
        values = (forced[cell],) if cell in forced else (0, 1)
        nxt, new_low, new_high, arrays = _step(
            states, low, high, values, local, conn_steps, total, n - t - 1, deadline
        )
        if not nxt:
            return [], most
        held += len(nxt) * row_bytes
        if len(nxt) > max_states or held > MAX_BYTES:
            return None, len(nxt)
        most = max(most, len(nxt))
        steps.append((*arrays, len(nxt)))
        states, low, high = nxt, new_low, new_high
    return steps, most


_State = tuple[int, tuple[object, ...]]


def _step(
    states: dict[_State, int],
    low: list[int],
    high: list[int],
    values: tuple[int, ...],
    local: _LocalStep,
    conn_steps: Sequence[_ConnStep],
    total: int,
    left: int,
    deadline: float | None,
) -> tuple[dict[_State, int], list[int], list[int], tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """One cell decided: the states after it (each with its fewest and most mines so far) and the
    transitions ``src``, ``dst``, ``x`` from the states before it."""
    nxt: dict[_State, int] = {}
    new_low: list[int] = []
    new_high: list[int] = []
    src: list[int] = []
    dst: list[int] = []
    xs: list[int] = []
    for state, s in states.items():
        if s & 1023 == 1023:
            _check(deadline)
        bits, parts = state
        for x in values:
            lo, hi = low[s] + x, high[s] + x
            if lo > total or hi + left < total:
                continue
            b = local.step(bits, x)
            if b is None:
                continue
            new_parts = []
            for cs, part in zip(conn_steps, parts, strict=True):
                moved = cs.step(part, x)
                if moved is None:
                    break
                new_parts.append(moved)
            else:
                key = (b, tuple(new_parts))
                d = nxt.get(key)
                if d is None:
                    d = nxt[key] = len(nxt)
                    new_low.append(lo)
                    new_high.append(hi)
                else:
                    new_low[d] = min(new_low[d], lo)
                    new_high[d] = max(new_high[d], hi)
                src.append(s)
                dst.append(d)
                xs.append(x)
    arrays = (np.array(src, dtype=np.int64), np.array(dst, dtype=np.int64), np.array(xs, dtype=np.int64))
    return nxt, new_low, new_high, arrays


def _numbers(
    steps: Sequence[tuple[np.ndarray, np.ndarray, np.ndarray, int]],
    order: Sequence[int],
    total: int,
    primes: np.ndarray,
    deadline: float | None,
) -> tuple[list[int], list[list[int]]]:
    """Forward counts, backward counts, and from both each step's mine count, modulo each prime."""
    width = total + 1
    zero = [0] * len(primes)
    if not steps:
        return zero, [zero for _ in order]
    forward: list[np.ndarray] = []
    f = np.zeros((1, width, len(primes)), dtype=np.int64)
    f[0, 0, :] = 1
    for src, dst, x, count in steps:
        _check(deadline)
        g = np.zeros((count, width, len(primes)), dtype=np.int64)
        safe = x == 0
        np.add.at(g, dst[safe], f[src[safe]])
        mine = ~safe
        np.add.at(g[:, 1:, :], dst[mine], f[src[mine], :-1, :])
        g %= primes
        forward.append(g)
        f = g
    layouts = [int(v) for v in f[:, total, :].sum(axis=0) % primes]
    # Backward: b[s, j] completions of state s with j mines in the cells after it.
    b = np.zeros((steps[-1][3], width, len(primes)), dtype=np.int64)
    b[:, 0, :] = 1
    per_step: list[list[int]] = [zero] * len(steps)
    for t in range(len(steps) - 1, -1, -1):
        _check(deadline)
        src, dst, x, _ = steps[t]
        before = (
            forward[t - 1] if t else np.eye(1, width, dtype=np.int64)[:, :, None].repeat(len(primes), axis=2)
        )
        mine = x == 1
        # Layouts with a mine here: forward count of the source with k mines, times the
        # completions of the destination with total - k - 1 mines.
        fm = before[src[mine]]
        bm = b[dst[mine]][:, ::-1, :]  # bm[:, k] = b[:, total - k]
        prod = (fm[:, :-1, :] * bm[:, 1:, :]) % primes
        per_step[t] = [int(v) for v in prod.sum(axis=(0, 1)) % primes]
        nb = np.zeros((before.shape[0], width, len(primes)), dtype=np.int64)
        safe = ~mine
        np.add.at(nb, src[safe], b[dst[safe]])
        np.add.at(nb[:, 1:, :], src[mine], b[dst[mine], :-1, :])
        b = nb % primes
    return layouts, per_step


def _check(deadline: float | None) -> None:
    if deadline is not None and time.monotonic() > deadline:
        raise SolverTimeoutError("time limit reached while counting the layouts of a variant position")


def _primes(bound: int) -> list[int]:
    """Primes below 2**31, the largest first, whose product exceeds ``bound`` (sums of 2**32
    residues and products of two stay within int64)."""
    found: list[int] = []
    product = 1
    p = 2**31 - 1
    while product <= bound:
        if _is_prime(p):
            found.append(p)
            product *= p
        p -= 2
    return found


def _is_prime(n: int) -> bool:
    """Miller-Rabin with the bases 2, 7 and 61: exact below 4,759,123,141."""
    d, r = n - 1, 0
    while d % 2 == 0:
        d, r = d // 2, r + 1
    for a in (2, 7, 61):
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(r - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def _crt(residues: Sequence[int], primes: Sequence[int]) -> int:
    value, modulus = 0, 1
    for r, p in zip(residues, primes, strict=True):
        # value + modulus * k == r (mod p)
        k = (r - value) * pow(modulus, -1, p) % p
        value += modulus * k
        modulus *= p
    return value
